import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPerfdata } from '../../../../lib/plugin/perfdata';
import { ScalarContext } from '../../../../lib/plugin/scalar-context';
import { State } from '../../../../lib/plugin/state';
import { parseByteSize } from '../../../../lib/vcd/hygiene/byte-size';
import { judgeLeases, leaseFromRecord, leaseFromSection } from '../../../../lib/vcd/hygiene/lease-judge';
import { parseLeaseSection } from '../../../../lib/vcd/hygiene/lease-section';
import { judgeSnapshots } from '../../../../lib/vcd/hygiene/snapshot-judge';
import { parseSnapshotSection } from '../../../../lib/vcd/hygiene/snapshot-section';
import { judgeTools, type ToolsPolicy } from '../../../../lib/vcd/hygiene/tools-judge';

const FIXTURES = join(__dirname, '../../../fixtures/vcd/hygiene');
const DAY = 86400;
const NOW = Date.UTC(2026, 10, 26, 12);
const ago = (seconds: number) => NOW - seconds * 1000;

const DEFAULTS = {
  age: ScalarContext.fromOptions({ warning: String(3 * DAY), critical: String(7 * DAY) }),
  size: ScalarContext.NONE,
  count: ScalarContext.NONE,
};

describe('snapshots', () => {
  it.each([
    ['none', [], State.OK, 'no snapshot on vm-1', 'snapshots=0;;;0 snapshot_age=0s;259200;604800;0 snapshot_size=0B;;;0'],
    ['a new one', [{ created: ago(3600), size: 1024 }], State.OK, '1 snapshot on vm-1, oldest 1h old (2026-11-26 11:00 UTC), 1 KiB', undefined],
    ['4 days old', [{ created: ago(4 * DAY), size: 1 }], State.WARNING, 'oldest 4d old', undefined],
    [
      'the oldest of several decides',
      [
        { created: ago(3600), size: 1 },
        { created: ago(10 * DAY), size: 2 },
      ],
      State.CRITICAL,
      '2 snapshots on vm-1, oldest 10d old (2026-11-16 12:00 UTC), 3 B',
      'snapshots=2;;;0 snapshot_age=864000s;259200;604800;0 snapshot_size=3B;;;0',
    ],
    ['dated in the future', [{ created: NOW + 3600_000, size: 1 }], State.OK, 'oldest 0s old', undefined],
    [
      'a size left out costs the size figure',
      [{ created: ago(60) }],
      State.OK,
      '1 snapshot on vm-1, oldest 1m old (2026-11-26 11:59 UTC)',
      'snapshots=1;;;0 snapshot_age=60s;259200;604800;0',
    ],
  ])('%s', (_name, snapshots, state, summary, perf) => {
    const r = judgeSnapshots(snapshots, DEFAULTS, 'vm-1', NOW);
    expect(r.state).toBe(state);
    expect(r.summary).toContain(summary);
    if (perf !== undefined) expect(formatPerfdata(r.metrics ?? [])).toBe(perf);
  });
  it('a snapshot 10 days old, as the real vCD 9.0 VM has it', () => {
    const snapshots = parseSnapshotSection(readFileSync(join(FIXTURES, 'vm-snapshot-vcd9.0.xml'), 'utf8'));
    const r = judgeSnapshots(snapshots, DEFAULTS, 'Web Server VM', snapshots[0].created + 10 * DAY * 1000);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('1 snapshot on Web Server VM, oldest 10d old (2018-04-16 07:36 UTC), 4 GiB');
  });
  it('size and count follow the range semantics', () => {
    const t = {
      ...DEFAULTS,
      size: ScalarContext.fromOptions({ warning: '50GiB', critical: '100GB' }, parseByteSize),
      count: ScalarContext.fromOptions({ critical: '2' }),
    };
    const many = Array.from({ length: 3 }, () => ({ created: ago(60), size: 30 * 1024 ** 3 }));
    const r = judgeSnapshots(many, t, 'vm-1', NOW);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.items?.map((i) => [i.name, i.state])).toEqual([
      ['age', State.OK],
      ['count', State.CRITICAL],
      ['size', State.WARNING],
    ]);
  });
});

describe('VMware Tools', () => {
  const P: ToolsPolicy = { outdated: State.WARNING, notRunning: State.WARNING, poweredOff: State.UNKNOWN };
  it.each([
    ['POWERED_ON', 'toolsOk', 12352, State.OK, 'VMware Tools running and current, version 12352 on vm-1'],
    ['POWERED_ON', 'toolsOld', 10305, State.WARNING, 'running but out of date, version 10305'],
    ['POWERED_ON', 'toolsOld', 2147483647, State.OK, 'running, guest-managed'],
    ['POWERED_ON', 'toolsOk', 2147483647, State.OK, 'running and current, guest-managed'],
    ['POWERED_ON', 'toolsNotRunning', 12352, State.WARNING, 'installed but not running'],
    ['POWERED_ON', 'toolsNotInstalled', 0, State.WARNING, 'not installed'],
    ['POWERED_ON', 'guestToolsRunning', undefined, State.UNKNOWN, 'unrecognised vmToolsStatus "guestToolsRunning"'],
    ['POWERED_ON', undefined, 12352, State.UNKNOWN, 'installed, version 12352 on vm-1, but its record does not say whether they run or are current'],
    ['POWERED_ON', undefined, 0, State.WARNING, 'not installed on vm-1 (version 0'],
    ['POWERED_ON', undefined, undefined, State.UNKNOWN, 'reports neither vmToolsStatus nor vmToolsVersion'],
    ['POWERED_OFF', 'toolsNotRunning', 12352, State.UNKNOWN, 'vm-1 is powered off: VMware Tools do not run'],
    ['SUSPENDED', 'toolsOk', 12352, State.UNKNOWN, 'vm-1 is suspended'],
  ])('%s %s %s', (status, toolsStatus, toolsVersion, state, summary) => {
    const r = judgeTools(status, { toolsStatus, toolsVersion }, P, 'vm-1');
    expect(r.state).toBe(state);
    expect(r.summary).toContain(summary);
  });
  it('the options set the states', () => {
    const p = { outdated: State.CRITICAL, notRunning: State.OK, poweredOff: State.OK };
    expect(judgeTools('POWERED_ON', { toolsStatus: 'toolsOld', toolsVersion: 1 }, p, 'v').state).toBe(State.CRITICAL);
    expect(judgeTools('POWERED_ON', { toolsStatus: 'toolsNotRunning' }, p, 'v').state).toBe(State.OK);
    expect(judgeTools('POWERED_OFF', { toolsStatus: 'toolsNotRunning' }, p, 'v').state).toBe(State.OK);
  });
});

describe('leases', () => {
  const T = { warning: 7 * DAY, critical: 2 * DAY };
  const iso = (ms: number) => new Date(ms).toISOString();
  it.each([
    [
      'both far',
      { deployed: true, autoUndeployDate: iso(NOW + 30 * DAY * 1000), autoDeleteDate: iso(NOW + 60 * DAY * 1000) },
      State.OK,
      'runtime lease expires in 30d',
    ],
    [
      'runtime in 5 days',
      { deployed: true, autoUndeployDate: iso(NOW + 5 * DAY * 1000), autoDeleteDate: iso(NOW + 60 * DAY * 1000) },
      State.WARNING,
      'runtime lease expires in 5d',
    ],
    [
      'storage first, in 1 day',
      { deployed: true, autoUndeployDate: iso(NOW + 5 * DAY * 1000), autoDeleteDate: iso(NOW + DAY * 1000) },
      State.CRITICAL,
      'storage lease expires in 1d',
    ],
    [
      'undeployed: no runtime expiry',
      { deployed: false, autoUndeployDate: iso(NOW - DAY * 1000), autoDeleteDate: iso(NOW + 60 * DAY * 1000) },
      State.OK,
      'storage lease expires in 60d',
    ],
    ['expired', { deployed: false, autoDeleteDate: iso(NOW - 3 * DAY * 1000) }, State.CRITICAL, 'storage lease expired 3d ago'],
  ])('%s', (_name, hygiene, state, summary) => {
    const facts = leaseFromRecord(hygiene, 'the record');
    expect(facts).toBeDefined();
    const r = judgeLeases(facts!, T, 'vm-1', NOW);
    expect(r.state).toBe(state);
    expect(r.summary).toContain(summary);
  });
  it('a record without the dates is never read as "no expiry"', () => {
    expect(leaseFromRecord(undefined, 'r')).toBeUndefined();
    expect(leaseFromRecord({ deployed: true, autoDeleteDate: iso(NOW) }, 'r')).toBeUndefined();
    expect(leaseFromRecord({ deployed: true, autoUndeployDate: iso(NOW) }, 'r')).toBeUndefined();
  });
  it('a date that does not parse is one UNKNOWN naming it', () =>
    expect(() => leaseFromRecord({ deployed: false, autoDeleteDate: 'never' }, 'the record of vm-1')).toThrow(
      'the record of vm-1: the storage lease\'s expiry does not parse as a date ("never")',
    ));
  it('leases of 0 seconds never expire', () => {
    const r = judgeLeases(leaseFromSection({ deploymentSeconds: 0, storageSeconds: 0 }, true, 's'), T, 'vm-1', NOW);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('no expiry on vm-1');
    expect(r.metrics).toEqual([]);
  });
  it("the real vCD 9.0 vApp's storage lease expired", () => {
    const section = parseLeaseSection(readFileSync(join(FIXTURES, 'vapp-storage-lease-expired-vcd9.0.xml'), 'utf8'));
    const recorded = Date.UTC(2018, 4, 15, 11, 42, 43);
    const r = judgeLeases(leaseFromSection(section, false, 's'), T, 'Web VM', recorded);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('storage lease expired 31d 20h ago (2018-04-13 14:45 UTC) on Web VM');
    expect(r.items?.[0].text).toBe('runtime lease: no expiry (the vApp is not deployed)');
    expect(formatPerfdata(r.metrics ?? [])).toBe('lease_storage=-2753827s;604800:;172800:');
  });
  it("the record's isExpired is CRITICAL even without a date past", () => {
    const r = judgeLeases({ runtime: { never: 'x' }, storage: { never: 'y' }, expired: true }, T, 'vm-1', NOW);
    expect(r.state).toBe(State.CRITICAL);
  });
});

// check_vdc's judgement: percentages of limits (none for unlimited), disabled and not-ready
// VDCs, failed VMs, and perfdata whose labels no tenant name can break.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPerfdata } from '../../../../lib/plugin/perfdata';
import { renderNagios } from '../../../../lib/plugin/result';
import { ScalarContext } from '../../../../lib/plugin/scalar-context';
import { State } from '../../../../lib/plugin/state';
import type { VdcRecord, VdcVm } from '../../../../lib/vcd/vdc/vdc-query';
import { judgeVdcs, type VdcReading, type VdcThresholds } from '../../../../lib/vcd/vdc/vdc-report';
import { collidingName } from '../../../support/colliding-names';

const T: VdcThresholds = {
  cpu: ScalarContext.fromOptions({ warning: '80', critical: '90' }),
  memory: ScalarContext.fromOptions({ warning: '80', critical: '90' }),
  storage: ScalarContext.fromOptions({ warning: '80', critical: '90' }),
};
const ID = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
const vdc = (over: Partial<VdcRecord> = {}): VdcRecord => ({
  id: ID,
  href: `https://vcd.example.com/api/vdc/${ID}`,
  name: 'prod',
  org: 'acme',
  enabled: true,
  status: 'READY',
  busy: false,
  cpuMhz: { used: 8400, limit: 20000 },
  memoryMb: { used: 30720, limit: 65536 },
  ...over,
});
const vm = (name: string, status: string): VdcVm => ({
  id: `vm-00000000-0000-4000-8000-${name.padStart(12, '0').slice(-12)}`,
  name,
  vapp: 'shop',
  status,
  template: false,
  vdc: vdc().href,
});
const reading = (over: Partial<VdcRecord> = {}, vms: VdcVm[] = [], policies: VdcReading['policies'] = []): VdcReading => ({ vdc: vdc(over), policies, vms });
const gold = (used: number, limit: number) => ({
  id: '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e01',
  name: 'Gold',
  vdc: vdc().href,
  storageMb: { used, limit },
  enabled: true,
  isDefault: true,
});
const judge = (readings: VdcReading[], withOrg = false) => judgeVdcs(readings, T, { withOrg, scope: '' });

describe('judgeVdcs', () => {
  it('one healthy VDC: every figure in the status line, perfdata with the limits as max', () => {
    const r = judge([reading({}, [vm('web-01', 'POWERED_ON'), vm('db-01', 'POWERED_OFF')], [gold(204800, 1048576)])]);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('prod: cpu 42% (8400 MHz of 20000 MHz), memory 46.9% (30 GiB of 64 GiB), storage Gold 19.5% (200 GiB of 1 TiB), 1 of 2 VMs running');
    expect(formatPerfdata(r.metrics ?? [])).toBe(
      'prod__cpu_pct=42%;80;90;0;100 prod__cpu_mhz=8400;;;0;20000 prod__memory_pct=46.875%;80;90;0;100 prod__memory=32212254720B;;;0;68719476736 ' +
        'prod__gold_h6249df43__storage_pct=19.53125%;80;90;0;100 prod__gold_h6249df43__storage=214748364800B;;;0;1099511627776 prod__vms=2;;;0 prod__vms_running=1;;;0;2',
    );
  });

  it('pay-as-you-go (limits 0): unlimited, never divided by zero, never judged, no max', () => {
    const r = judge([reading({ cpuMhz: { used: 2000, limit: 0 }, memoryMb: { used: 2048, limit: 0 } }, [], [gold(81920, 0)])]);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('prod: cpu 2000 MHz used, unlimited, memory 2 GiB used, unlimited, storage Gold 80 GiB used, unlimited, 0 of 0 VMs running');
    expect(formatPerfdata(r.metrics ?? [])).toBe(
      'prod__cpu_mhz=2000;;;0 prod__memory=2147483648B;;;0 prod__gold_h6249df43__storage=85899345920B;;;0 prod__vms=0;;;0 prod__vms_running=0;;;0;0',
    );
  });

  it.each([
    [{ memoryMb: { used: 57672, limit: 65536 } }, State.WARNING, /^prod: memory 88% \(56\.3 GiB of 64 GiB\), cpu/],
    [{ cpuMhz: { used: 19000, limit: 20000 } }, State.CRITICAL, /^prod: cpu 95% /],
    [{ enabled: false }, State.CRITICAL, /^prod: disabled, cpu 42%/],
    [{ status: 'NOT_READY' }, State.CRITICAL, /^prod: status NOT_READY, cpu/],
    [{ status: 'FAILED_CREATION', enabled: false }, State.CRITICAL, /^prod: disabled, status FAILED_CREATION, /],
    [{ status: 'BUSY', busy: true }, State.OK, /^prod: cpu/],
  ] as const)('%o is %s, the problem first', (over, state, summary) => {
    const r = judge([reading(over)]);
    expect(r.state).toBe(state);
    expect(r.summary).toMatch(summary);
  });

  it('storage is judged per policy against its own limit', () => {
    expect(judge([reading({}, [], [gold(970752, 1048576)])]).summary).toMatch(/^prod: storage Gold 92\.6% \(948 GiB of 1 TiB\), /);
  });

  it('failed and unknown VM states are WARNING, each VM named in the long output', () => {
    const vms = [
      vm('web-01', 'POWERED_ON'),
      vm('broken', 'FAILED_CREATION'),
      vm('lost', 'UNRESOLVED'),
      vm('odd', 'INCONSISTENT_STATE'),
      vm('q', 'QUARANTINED'),
      vm('off', 'POWERED_OFF'),
    ];
    const r = judge([reading({}, vms)]);
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toMatch(
      /^prod: 4 VMs failed: broken \(FAILED_CREATION\), lost \(UNRESOLVED\), odd \(INCONSISTENT_STATE\), q \(unknown status QUARANTINED\), cpu /,
    );
    expect(r.items?.filter((i) => i.state === State.WARNING).map((i) => i.text)).toContain(
      'prod: VM broken in vApp shop (vm-00000000-0000-4000-8000-000000broken) is FAILED_CREATION',
    );
  });

  it("counts the record's VMs when it has them (API 37+), else the VMs listed", () => {
    expect(judge([reading({ vms: 9, runningVms: 7 }, [vm('a', 'POWERED_ON')])]).summary).toMatch(/7 of 9 VMs running$/);
    expect(judge([reading({}, [vm('a', 'POWERED_ON')])]).summary).toMatch(/1 of 1 VMs running$/);
  });

  it('several VDCs: the status line names the problems, with the organisation for a provider', () => {
    const other = '6f708192-a3b4-4ec5-9f60-718293a4b5c6';
    const r = judge(
      [
        reading({ enabled: false }),
        reading({ id: other, href: `https://vcd.example.com/api/vdc/${other}`, org: 'globex', memoryMb: { used: 60000, limit: 65536 } }),
      ],
      true,
    );
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('2 VDCs: prod (org acme) disabled, prod (org globex) memory 91.6% (58.6 GiB of 64 GiB)');
    // The same name in two organisations: a provider's labels name the organisation.
    expect((r.metrics ?? []).filter((m) => m.label.endsWith('_cpu_mhz')).map((m) => m.label)).toEqual(['acme__prod__cpu_mhz', 'globex__prod__cpu_mhz']);
    expect(judge([reading(), reading({ id: other })]).summary).toBe('2 VDCs: all enabled, ready and within their limits');
  });

  it('tenant names cannot break the perfdata or the status line', () => {
    const name = "x' | y=1;2 \n$(touch /tmp/p)";
    const r = judge([reading({ name }, [], [{ ...gold(1, 2), name: "'|;=" }])]);
    const out = renderNagios('VDC', r);
    const [first] = out.split('\n');
    const perf = first.slice(first.indexOf(' | ') + 3);
    expect(perf).toMatch(/^x_y_1_2_touch_tmp_p_h[0-9a-f]{8}__cpu_pct=42%;80;90;0;100 /);
    expect(perf.split(' ').every((m) => /^[a-z0-9_]+=[\d.]+(%|B)?(;[\d.]*)*$/.test(m))).toBe(true);
    expect(perf).toMatch(/__h[0-9a-f]{8}__storage_pct=/);
    expect(first.split(' | ')).toHaveLength(2);
  });

  it('labels are unique in the output and stable, whatever the VDC, policy and organisation names (generated to collide)', () => {
    const policy = (vdcId: string) => (name: string, i: number) => ({
      ...gold(i + 1, 100),
      id: `${vdcId.slice(0, 8)}-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name,
    });
    const oneVdc = fc.record({
      org: collidingName,
      name: collidingName,
      policies: fc.uniqueArray(collidingName, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(oneVdc, { minLength: 1, maxLength: 5, selector: (v) => `${v.org}\n${v.name}` }), fc.boolean(), (vdcs, withOrg) => {
        // A tenant sees one organisation, where vCD keeps VDC names unique.
        const listed = withOrg ? vdcs : vdcs.filter((v, i) => vdcs.findIndex((w) => w.name === v.name) === i);
        const readings = listed.map((v, i) => {
          const id = `${String(i).padStart(8, '0')}-1a2b-4c3d-8e4f-5a6b7c8d9e0f`;
          return reading({ id, href: `https://vcd.example.com/api/vdc/${id}`, name: v.name, org: v.org }, [], v.policies.map(policy(id)));
        });
        const all = judge(readings, withOrg).metrics ?? [];
        const labels = all.map((m) => m.label);
        expect(new Set(labels).size).toBe(labels.length);
        expect(labels.every((l) => /^[a-z0-9_-]+$/.test(l))).toBe(true);
        // Stable: each VDC's perfdata is the same alone as beside the others.
        for (const r of readings) for (const m of judge([r], withOrg).metrics ?? []) expect(all).toContainEqual(m);
      }),
      { numRuns: 200, seed: 28 },
    );
  });

  it('the collision of the issue: VDC x (policies cpu, vms) beside VDC "x storage"', () => {
    const x = reading(
      { name: 'x' },
      [],
      [
        { ...gold(1, 10), name: 'cpu' },
        { ...gold(2, 10), id: '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e02', name: 'vms' },
      ],
    );
    const other = '6f708192-a3b4-4ec5-9f60-718293a4b5c6';
    const labels = (judge([x, reading({ id: other, href: `https://vcd.example.com/api/vdc/${other}`, name: 'x storage' })]).metrics ?? []).map((m) => m.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('x__cpu__storage_pct');
    expect(labels).toContain('x__cpu_pct');
    expect(labels.filter((l) => l.startsWith('x_storage_h'))).toHaveLength(6);
  });

  it('a figure the record did not send costs that figure: named as unknown, its perfdata omitted, the state what the others give', () => {
    const memoryMb = { used: 2048, unknown: 'AdminVdcRecord has no memoryLimitMB' };
    const cpuMhz = { limit: 20000, unknown: 'AdminVdcRecord has no cpuUsedMhz' };
    const r = judge([reading({ memoryMb }, [], [gold(1048000, 1048576)])]);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(/storage Gold 99\.9% .*memory 2 GiB used, limit unknown \(AdminVdcRecord has no memoryLimitMB\)/);
    const labels = (r.metrics ?? []).map((m) => m.label);
    expect(labels).toContain('prod__cpu_pct');
    expect(labels).not.toContain('prod__memory_pct');
    expect((r.metrics ?? []).find((m) => m.label === 'prod__memory')).toEqual({ label: 'prod__memory', value: 2048 * 2 ** 20, uom: 'B', min: 0 });
    const unknownUse = judge([reading({ cpuMhz })]);
    expect(unknownUse.state).toBe(State.OK);
    expect(unknownUse.summary).toContain('cpu use unknown, limit 20000 MHz (AdminVdcRecord has no cpuUsedMhz)');
    expect((unknownUse.metrics ?? []).map((m) => m.label).filter((l) => l.includes('cpu'))).toEqual([]);
    // Among several VDCs the unknown figure is named; the others are still judged.
    const several = judge([reading({ memoryMb }), reading({ id: '6f708192-a3b4-4ec5-9f60-718293a4b5c6', name: 'dev' })]);
    expect(several.summary).toBe('2 VDCs: prod memory 2 GiB used, limit unknown (AdminVdcRecord has no memoryLimitMB)');
    expect(several.items?.map((i) => i.state)).toEqual([State.OK, State.OK]);
    expect(several.state).toBe(State.OK);
  });
});

// Hostile answers to the hygiene checks' own reads (the VM's SnapshotSection, the vApp's
// LeaseSettingsSection and the hygiene attributes of the query record): a snapshot dated in the
// future, a negative size, 150,000 snapshots, a lease date that does not parse. Each gives a
// clean result or one UNKNOWN naming the cause, within -t, no trace, nothing on stderr.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fault } from '../../sim/faults';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable } from '../support/spawn';
import { DIST } from './matrix';

const NS = 'xmlns="http://www.vmware.com/vcloud/v1.5"';
const DB_03 = 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f'; // a snapshot 10 days old
const WEB_01 = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70'; // vApp shop: no lease date in its record
const TIMEOUT = 5;
const HOUR_AGO = new Date(Date.now() - 3600_000).toISOString();

let sim: Simulator;
const cache = mkdtempSync(join(tmpdir(), 'cc-hygiene-hostile-'));
beforeAll(async () => {
  sim = await startSimulatorFromArgs([], [VCD_MODULE]);
});
afterAll(async () => {
  await sim?.close();
});

const section = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?><SnapshotSection ${NS}>${inner}</SnapshotSection>`;
const leases = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?><LeaseSettingsSection ${NS}>${inner}</LeaseSettingsSection>`;
const body = (path: string, text: string, contentType = 'application/vnd.vmware.vcloud.snapshotSection+xml'): Fault => ({
  kind: 'body',
  path,
  body: text,
  contentType,
});

interface HostileCase {
  id: string;
  exe: 'check_vm_snapshot' | 'check_vm_tools' | 'check_vm_lease';
  vm: string;
  faults: Fault[];
  code: number;
  line: RegExp;
  /** -t for this case, when its answer is large (default TIMEOUT). */
  timeout?: number;
}

const CASES: HostileCase[] = [
  {
    id: 'a snapshot dated in the future: age 0, said in the long output',
    exe: 'check_vm_snapshot',
    vm: DB_03,
    faults: [body('/snapshotSection$', section('<Snapshot created="2099-01-01T00:00:00.000Z" poweredOn="true" size="1024"/>'))],
    code: 0,
    line: /^VM_SNAPSHOT OK - 1 snapshot on vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f, oldest 0s old \(2099-01-01 00:00 UTC\), 1 KiB \| snapshots=1;;;0 snapshot_age=0s;259200;604800;0 snapshot_size=1024B;;;0$/,
  },
  {
    id: 'a negative snapshot size',
    exe: 'check_vm_snapshot',
    vm: DB_03,
    faults: [body('/snapshotSection$', section('<Snapshot created="2026-01-01T00:00:00.000Z" poweredOn="true" size="-4294967296"/>'))],
    code: 3,
    line: /^VM_SNAPSHOT UNKNOWN - the snapshot section of vm-c3d4e5f6-[0-9a-f-]+: snapshot 1 has a negative size \(-4294967296 bytes\)/,
  },
  {
    // More arguments than a call takes: the oldest was once found by spreading the list into one.
    id: '150,000 snapshots',
    exe: 'check_vm_snapshot',
    vm: DB_03,
    faults: [body('/snapshotSection$', section(`<Snapshot created="${HOUR_AGO}" poweredOn="false" size="1048576"/>`.repeat(150_000)))],
    code: 0,
    line: /^VM_SNAPSHOT OK - 150000 snapshots on vm-c3d4e5f6-[0-9a-f-]+, oldest .+ old \(.+ UTC\), 146\.5 GiB \| snapshots=150000;;;0 /,
    timeout: 15,
  },
  {
    id: 'a snapshot date that does not parse',
    exe: 'check_vm_snapshot',
    vm: DB_03,
    faults: [body('/snapshotSection$', section('<Snapshot created="last Tuesday" size="1"/>'))],
    code: 3,
    line: /^VM_SNAPSHOT UNKNOWN - the snapshot section of vm-c3d4e5f6-[0-9a-f-]+: snapshot 1 has a creation date that does not parse \("last Tuesday"\)/,
  },
  {
    id: 'a lease date that does not parse',
    exe: 'check_vm_lease',
    vm: WEB_01,
    faults: [
      body(
        '/leaseSettingsSection/?$',
        leases('<DeploymentLeaseInSeconds>604800</DeploymentLeaseInSeconds><DeploymentLeaseExpiration>soon-ish</DeploymentLeaseExpiration>'),
        'application/vnd.vmware.vcloud.leaseSettingsSection+xml',
      ),
    ],
    code: 3,
    line: /^VM_LEASE UNKNOWN - the lease settings of vapp-[0-9a-f-]+: the runtime lease's expiry does not parse as a date \("soon-ish"\)/,
  },
  {
    id: 'a megabyte of text as a lease date',
    exe: 'check_vm_lease',
    vm: WEB_01,
    faults: [
      body(
        '/leaseSettingsSection/?$',
        leases(`<StorageLeaseExpiration>${'9'.repeat(1_000_000)}</StorageLeaseExpiration>`),
        'application/vnd.vmware.vcloud.leaseSettingsSection+xml',
      ),
    ],
    code: 3,
    line: /^VM_LEASE UNKNOWN - the lease settings of vapp-[0-9a-f-]+ is not XML \(more than 4096 characters of text in <StorageLeaseExpiration>/,
  },
  {
    id: 'a Tools status no vSphere sends',
    exe: 'check_vm_tools',
    vm: WEB_01,
    faults: [
      body(
        '/api/query$',
        `<QueryResultRecords ${NS} total="1"><VMRecord name="web-01" containerName="shop" status="POWERED_ON" vmToolsStatus="$(reboot)" href="https://x/api/vApp/${WEB_01}"/></QueryResultRecords>`,
        'application/vnd.vmware.vcloud.query.records+xml',
      ),
    ],
    code: 3,
    line: /^VM_TOOLS UNKNOWN - unrecognised vmToolsStatus "\$\(reboot\)" in the record of vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70/,
  },
];

describe('hostile hygiene answers', () => {
  it.each(CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const { vcd } = sim.apis;
    vcd.faults.set(c.faults);
    try {
      const args = ['-u', vcd.httpsUrl, '--ca-file', sim.caFile, '-U', vcd.info.user, '-o', vcd.info.org, '--password-file', vcd.info.passwordFile];
      const timeout = c.timeout ?? TIMEOUT;
      const r = await runExecutable(join(DIST, c.exe), [...args, '--cache-dir', cache, '--vm', c.vm, '-t', String(timeout)], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        killAfterMs: (timeout + 5) * 1000,
      });
      const context = `stdout=${JSON.stringify(r.stdout.slice(0, 1500))} stderr=${JSON.stringify(r.stderr.slice(0, 500))}`;
      expect(r.code, context).toBe(c.code);
      expect(r.stdout.split('\n')[0], context).toMatch(c.line);
      expect(r.stdout.split('\n')[0].length).toBeLessThan(4096);
      expect(r.stdout, context).not.toMatch(/\n\s+at /);
      expect(r.stderr, context).toBe('');
      expect(r.ms, context).toBeLessThan(timeout * 1000 + 500);
    } finally {
      vcd.faults.set([]);
    }
  });
});

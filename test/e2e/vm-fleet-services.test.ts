// check_vm_fleet --services snapshot,tools,lease as built (dist/), against the simulator over
// HTTPS: each VM's hygiene services are what check_vm_snapshot, check_vm_tools and check_vm_lease
// print for it (state, text, perfdata: the --output json objects and the results submitted to a
// Nagios command pipe); what they cost (tools no request per VM, snapshot one per VM listed with
// a snapshot, lease at most one per vApp); hostile answers hit the VM they were for, within -t.
// Run `node build.mjs dist` first.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fault } from '../../sim/faults';
import { HOSTILE_NAMES, INJECTION_MARKER, scenarioFleet } from '../../sim/vcd/fleet';
import { simHygieneOf, simVappId } from '../../sim/vcd/hygiene';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { commandPipe } from '../support/command-pipe';
import { simVcdArgs } from '../support/sim-vcd-args';
import { runSingle as single } from '../support/single-checks';
import { runExecutable } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const SINGLE = { snapshot: 'check_vm_snapshot', tools: 'check_vm_tools', lease: 'check_vm_lease' } as const;
const ENGINE = { snapshot: 'vm-snapshot', tools: 'vm-tools', lease: 'vm-lease' } as const;
type Hygiene = keyof typeof SINGLE;
const HYGIENE = Object.keys(SINGLE) as Hygiene[];
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
const dir = mkdtempSync(join(tmpdir(), 'cc-fleet-services-'));

let quirks: Simulator; // the default scenario: old, new and many snapshots, Tools in each state, leases near their end
let fleet: Simulator; // 2,000 VMs in 40 vApps
let hostile: Simulator; // VMs and vApps named to attack the monitoring

beforeAll(async () => {
  for (const exe of ['check_vm_fleet', ...Object.values(SINGLE)])
    if (!existsSync(join(DIST, exe))) throw new Error(`dist/${exe} is missing: run \`node build.mjs dist\` first`);
  [quirks, fleet, hostile] = await Promise.all([
    startSimulatorFromArgs([], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'fleet'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'hostile'], [VCD_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([quirks, fleet, hostile].filter(Boolean).map((s) => s.close()));
});

const args = (s: Simulator, cache: string) => [...simVcdArgs(s), '--cache-dir', cache];
const count = (s: Simulator, name: string) => s.apis.vcd.stats.counts[name] ?? 0;

/** The fleet run with its results written to a Nagios command pipe: its stdout (json) and the lines submitted. */
async function fleetSubmitting(s: Simulator, cache: string, more: string[]): Promise<{ json: string; lines: string[] }> {
  const pipe = commandPipe(join(mkdtempSync(join(dir, 'pipe-')), 'nagios.cmd'));
  const r = await runExecutable(
    join(DIST, 'check_vm_fleet'),
    [...args(s, cache), ...more, '--submit', 'nagios', '--nagios-command-file', pipe.path, '--output', 'json', '-t', '60'],
    {
      env,
      killAfterMs: 70_000,
    },
  );
  const lines = await pipe.written();
  expect(r.stderr).toBe('');
  return { json: r.stdout, lines };
}

/**
 * Ages and times left count in seconds from each run's own clock, and the single checks run over
 * a minute or two after the fleet: each such figure is compared within SLACK seconds, and each
 * span in the words (`1h 53m old`, `expires in 4d 23h`) is masked; everything else (states,
 * dates, sizes, counts, thresholds, wording) must be equal.
 */
const SLACK = 600;
const TIMED = /\b(snapshot_age|lease_runtime|lease_storage)=(-?\d+)s/g;
const TIMED_LABEL = /^(snapshot_age|lease_runtime|lease_storage)$/;
const SPAN = /\b\d+[dhms](?: \d+[hms])?\b/g;
function timedApart(a: string, b: string): boolean {
  const figures = (t: string) => [...t.matchAll(TIMED)].map((m) => Number(m[2]));
  const [x, y] = [figures(a), figures(b)];
  return x.length !== y.length || x.some((v, i) => Math.abs(v - y[i]) > SLACK);
}
const masked = (text: string) => text.replace(TIMED, '$1=<s>').replace(SPAN, '<span>');
/** Whether two outputs differ beyond their clocks. */
const differ = (a: string, b: string) => timedApart(a, b) || masked(a) !== masked(b);
/** A --output json object as perfdata-like text, so that its timed figures compare as the text's do. */
function jsonText(json: unknown): string {
  const doc = json as { metrics?: Array<{ label: string; value: number | null }> };
  const metrics = doc.metrics?.map((m) => (TIMED_LABEL.test(m.label) ? { ...m, value: `${m.label}=${m.value}s` } : m));
  return JSON.stringify({ ...doc, ...(metrics ? { metrics } : {}) });
}
/** A single check's stdout as a Nagios command's output field: status line and perfdata joined by `|`, lines by `\n`. */
const asSubmitted = (stdout: string) =>
  stdout
    .replace(/\n$/, '')
    .split('\n')
    .map((line, i) => (i === 0 ? line.replace(' | ', '|') : line))
    .join('\\n');

describe('each fleet service is its single check', () => {
  it('for every simulated VM: state, text and perfdata, as --output json and as submitted', async () => {
    let mismatches: string[] = [];
    // A second reading only for a run that straddled the hour (the simulator's dates count from it).
    for (let attempt = 0; attempt < 2 && (attempt === 0 || mismatches.length > 0); attempt++) {
      const cache = mkdtempSync(join(dir, 'cache-'));
      const { json, lines } = await fleetSubmitting(quirks, cache, ['--services', 'cpu,mem,disk,snapshot,tools,lease']);
      const doc = JSON.parse(json) as { vms: Record<string, Record<string, unknown>> };
      const submitted = new Map(
        lines.map((l) => {
          const [, host, service, state, output] = /^\[\d+\] PROCESS_SERVICE_CHECK_RESULT;([^;]+);([^;]+);(\d);(.*)$/.exec(l) ?? [];
          return [`${host} ${service}`, `${state};${output}`] as const;
        }),
      );
      // Every VM the tenant sees: each role and quirk of the default scenario.
      const ids = Object.keys(doc.vms);
      expect(ids.length).toBe(15);
      mismatches = [];
      await Promise.all(
        ids.flatMap((id) =>
          HYGIENE.map(async (service) => {
            const [nagios, single_json] = await Promise.all(
              (['nagios', 'json'] as const).map((format) => single(SINGLE[service], [...args(quirks, cache), '--vm', id, '--output', format])),
            );
            const fromFleet = jsonText(doc.vms[id][service]);
            if (differ(fromFleet, jsonText(JSON.parse(single_json)))) mismatches.push(`${id} ${service} json:\n${fromFleet}\n${single_json}`);
            const code = (JSON.parse(single_json) as { code: number }).code;
            const line = submitted.get(`${id} ${ENGINE[service]}`);
            const expected = `${code};${asSubmitted(nagios)}`;
            if (line === undefined || differ(line, expected)) mismatches.push(`${id} ${service} submitted:\n${line}\n${expected}`);
          }),
        ),
      );
    }
    expect(mismatches).toEqual([]);
  }, 480_000);

  it('--services takes the hygiene options under their prefixes, as the single checks take them plain', async () => {
    const cache = mkdtempSync(join(dir, 'cache-'));
    const db03 = 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';
    const build02 = 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    const r = await runExecutable(
      join(DIST, 'check_vm_fleet'),
      [
        ...args(quirks, cache),
        '--services',
        'snapshot,tools,lease',
        '--snapshot-age-critical',
        '30d',
        '--snapshot-size-warning',
        '1GiB',
        '--tools-outdated-state',
        'CRITICAL',
        '--lease-warning',
        '3d',
        '--lease-critical',
        '1d',
        '--output',
        'json',
      ],
      { env },
    );
    const doc = JSON.parse(r.stdout) as { vms: Record<string, Record<string, { code: number; summary: string }>> };
    const snap = await single('check_vm_snapshot', [
      ...args(quirks, cache),
      '--vm',
      db03,
      '--age-critical',
      '30d',
      '--size-warning',
      '1GiB',
      '--output',
      'json',
    ]);
    expect(differ(jsonText(doc.vms[db03].snapshot), jsonText(JSON.parse(snap)))).toBe(false);
    expect(doc.vms[db03].snapshot.code).toBe(1);
    expect(doc.vms[build02].tools.code).toBe(2);
    expect(doc.vms[build02].lease.code).toBe(1);
    expect(doc.vms[db03]).not.toHaveProperty('cpu');
  }, 60_000);

  it("tools takes each VM's powered-off state from --inventory, as check_vm_tools given that state judges it; snapshot and lease whatever the power", async () => {
    const cache = mkdtempSync(join(dir, 'cache-'));
    const old04 = 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e'; // powered off, discovered with --powered-off-state CRITICAL
    const paused14 = 'vm-8e9f0a1b-2c3d-4e4f-8a5b-6c7d8e9f0a1b'; // suspended, not in the inventory
    const inventory = join(mkdtempSync(join(dir, 'inventory-')), 'old.conf');
    const discovered = await runExecutable(
      join(DIST, 'check_vm_cpu'),
      [
        ...args(quirks, cache),
        '--discovery',
        '--discovery-format',
        'icinga2',
        '--include',
        '^old-04$',
        '--powered-off-state',
        'CRITICAL',
        '--discovery-file',
        inventory,
      ],
      { env },
    );
    expect(discovered.code, discovered.stdout + discovered.stderr).toBe(0);
    const r = await runExecutable(
      join(DIST, 'check_vm_fleet'),
      [...args(quirks, cache), '--services', 'snapshot,tools,lease', '--inventory', inventory, '--powered-off-state', 'OK', '--output', 'json', '-t', '60'],
      { env, killAfterMs: 70_000 },
    );
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { vms: Record<string, Record<Hygiene, { code: number; summary: string }>> };
    const tools = async (id: string, state: string) =>
      JSON.parse(await single('check_vm_tools', [...args(quirks, cache), '--vm', id, '--powered-off-state', state, '--output', 'json'])) as unknown;
    expect(doc.vms[old04].tools).toEqual(await tools(old04, 'CRITICAL'));
    expect(doc.vms[old04].tools).toMatchObject({ code: 2, summary: expect.stringMatching(/is powered off: VMware Tools do not run/) });
    expect(doc.vms[paused14].tools).toEqual(await tools(paused14, 'OK'));
    // old-04's snapshot 20 days old is CRITICAL whatever its inventory host says of it powered off.
    expect(doc.vms[old04].snapshot.code).toBe(2);
    expect(doc.vms[paused14].snapshot.code).toBe(0);
  }, 120_000);

  it('tools with a System account: the adminVM record cannot tell running or current, so each running VM with Tools is UNKNOWN saying so, as check_vm_tools says', async () => {
    const system = await startSimulatorFromArgs(['--vcd-org', 'System', '--vcd-user', 'provider'], [VCD_MODULE]);
    try {
      const api = system.apis.vcd;
      const sys = ['-u', api.httpsUrl, '--ca-file', system.caFile, '-U', 'provider', '-o', 'System', '--password-file', api.info.passwordFile];
      const cache = mkdtempSync(join(dir, 'cache-'));
      const r = await runExecutable(
        join(DIST, 'check_vm_fleet'),
        [...sys, '--cache-dir', cache, '--tenant-org', 'acme', '--services', 'tools', '--output', 'json', '-t', '60'],
        {
          env,
          killAfterMs: 70_000,
        },
      );
      expect(r.stderr).toBe('');
      const doc = JSON.parse(r.stdout) as { vms: Record<string, { name: string; tools: { code: number; summary: string } }> };
      const byName = (name: string) => Object.entries(doc.vms).find(([, v]) => v.name === name)!;
      for (const name of ['build-02', 'files-08']) {
        const [id, vm] = byName(name);
        expect(vm.tools).toMatchObject({ code: 3, summary: expect.stringMatching(/does not say whether they run or are current .*tenant account/) });
        const single = await runExecutable(join(DIST, 'check_vm_tools'), [...sys, '--cache-dir', cache, '--vm', id, '--output', 'json'], { env });
        expect(vm.tools).toEqual(JSON.parse(single.stdout));
      }
    } finally {
      await system.close();
    }
  }, 120_000);

  it('refuses a service it does not know, naming the ones it does', async () => {
    const r = await runExecutable(join(DIST, 'check_vm_fleet'), [...args(quirks, mkdtempSync(join(dir, 'cache-'))), '--services', 'cpu,snapshots'], { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^VM_FLEET UNKNOWN - invalid --services "cpu,snapshots": "snapshots" is none of cpu, mem, disk, snapshot, tools, lease/);
  });
});

describe('what the services cost', () => {
  /** The requests a fleet run made, by the simulator's counters. */
  async function cost(s: Simulator, services: string): Promise<Record<string, number>> {
    const names = ['requests', 'query', 'metrics.current', 'snapshot-section', 'lease-section', 'vm-record'];
    const before = Object.fromEntries(names.map((n) => [n, count(s, n)]));
    const r = await runExecutable(join(DIST, 'check_vm_fleet'), [...args(s, mkdtempSync(join(dir, 'cache-'))), '--services', services, '-t', '120'], {
      env,
      killAfterMs: 130_000,
    });
    expect(r.stdout).toMatch(/^VM_FLEET (OK|WARNING) - /);
    return Object.fromEntries(names.map((n) => [n, count(s, n) - before[n]]));
  }

  it('tools: no request per VM; snapshot: one per VM listed with one; lease: at most one per vApp (2,000 VMs, 40 vApps)', async () => {
    const { vms, records } = scenarioFleet('fleet');
    const listed = new Set(records.filter((r) => !r.template).map((r) => r.id));
    const withSnapshot = vms.filter((vm) => listed.has(vm.id) && simHygieneOf(vm).snapshots.length > 0).length;
    const vapps = new Set(records.filter((r) => !r.template).map((r) => r.vapp)).size;
    expect([listed.size, vapps, withSnapshot]).toEqual([2000, 40, 200]);

    const tools = await cost(fleet, 'tools');
    expect(tools['metrics.current'] + tools['snapshot-section'] + tools['lease-section'] + tools['vm-record']).toBe(0);
    // The login and the VM list's pages: nothing that grows with the VMs beyond the pages.
    expect(tools.requests - tools.query).toBeLessThanOrEqual(3);

    const snapshot = await cost(fleet, 'snapshot');
    expect(snapshot['snapshot-section']).toBe(withSnapshot);
    expect(snapshot['metrics.current'] + snapshot['lease-section']).toBe(0);

    const lease = await cost(fleet, 'lease');
    expect(lease['lease-section']).toBeGreaterThan(0);
    expect(lease['lease-section']).toBeLessThanOrEqual(vapps);
    expect(lease['metrics.current'] + lease['snapshot-section']).toBe(0);

    // Added to the metrics services, they cost what they cost alone.
    const all = await cost(fleet, 'cpu,mem,disk,snapshot,tools,lease');
    const metrics = await cost(fleet, 'cpu,mem,disk');
    expect(all['snapshot-section']).toBe(withSnapshot);
    expect(all['lease-section']).toBe(lease['lease-section']);
    expect(all['metrics.current']).toBe(metrics['metrics.current']);
  }, 600_000);
});

describe('hostile answers in fleet mode', () => {
  const NS = 'xmlns="http://www.vmware.com/vcloud/v1.5"';
  const DB_03 = 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f'; // vApp shop, a snapshot 10 days old
  const BUILD_02 = 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d'; // vApp ci, a snapshot an hour old
  const WEB_01 = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70'; // vApp shop: its leases from the vApp's section
  const TIMEOUT = 20;
  const section = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?><SnapshotSection ${NS}>${inner}</SnapshotSection>`;
  const snapshotFault = (vm: string, inner: string): Fault => ({
    kind: 'body',
    path: `/${vm}/snapshotSection$`,
    body: section(inner),
    contentType: 'application/vnd.vmware.vcloud.snapshotSection+xml',
  });
  const HOUR_AGO = new Date(Date.now() - 3600_000).toISOString();

  it.each([
    {
      id: 'a snapshot dated in the future: age 0, said in the long output',
      faults: [snapshotFault(DB_03, '<Snapshot created="2099-01-01T00:00:00.000Z" poweredOn="true" size="1024"/>')],
      vm: DB_03,
      service: 'snapshot' as const,
      code: 0,
      summary: /^1 snapshot on vm-c3d4e5f6-[0-9a-f-]+, oldest 0s old \(2099-01-01 00:00 UTC\), 1 KiB$/,
    },
    {
      id: 'a negative snapshot size',
      faults: [snapshotFault(DB_03, '<Snapshot created="2026-01-01T00:00:00.000Z" poweredOn="true" size="-4294967296"/>')],
      vm: DB_03,
      service: 'snapshot' as const,
      code: 3,
      summary: /^the snapshot section of vm-c3d4e5f6-[0-9a-f-]+: snapshot 1 has a negative size \(-4294967296 bytes\)/,
    },
    {
      // More arguments than a call takes: the oldest was once found by spreading the list into one.
      id: '150,000 snapshots',
      faults: [snapshotFault(DB_03, `<Snapshot created="${HOUR_AGO}" poweredOn="false" size="1048576"/>`.repeat(150_000))],
      vm: DB_03,
      service: 'snapshot' as const,
      code: 0,
      summary: /^150000 snapshots on vm-c3d4e5f6-[0-9a-f-]+, oldest .+ old \(.+ UTC\), 146\.5 GiB$/,
      // Its 13 MB section within what one document may hold (--max-bytes-in-flight / --concurrency).
      more: ['--concurrency', '2'],
    },
    {
      id: 'a lease date that does not parse (the vApp shop: each of its VMs says so, no other)',
      faults: [
        {
          kind: 'body',
          path: `/${simVappId('shop')}/leaseSettingsSection/?$`,
          body: `<?xml version="1.0" encoding="UTF-8"?><LeaseSettingsSection ${NS}><DeploymentLeaseInSeconds>604800</DeploymentLeaseInSeconds><DeploymentLeaseExpiration>soon-ish</DeploymentLeaseExpiration></LeaseSettingsSection>`,
          contentType: 'application/vnd.vmware.vcloud.leaseSettingsSection+xml',
        } as Fault,
      ],
      vm: WEB_01,
      service: 'lease' as const,
      code: 3,
      summary: /^the lease settings of vapp-[0-9a-f-]+: the runtime lease's expiry does not parse as a date \("soon-ish"\)$/,
    },
  ])(
    '$id',
    async (c) => {
      const { vcd } = quirks.apis;
      vcd.faults.set(c.faults);
      try {
        const r = await runExecutable(
          join(DIST, 'check_vm_fleet'),
          [
            ...args(quirks, mkdtempSync(join(dir, 'cache-'))),
            '--services',
            'cpu,mem,disk,snapshot,tools,lease',
            '--output',
            'json',
            '-t',
            String(TIMEOUT),
            ...((c as { more?: string[] }).more ?? []),
          ],
          { env, killAfterMs: (TIMEOUT + 5) * 1000 },
        );
        const context = `stdout=${JSON.stringify(r.stdout.slice(0, 1500))} stderr=${JSON.stringify(r.stderr.slice(0, 500))}`;
        expect(r.stderr, context).toBe('');
        expect(r.ms, context).toBeLessThan(TIMEOUT * 1000 + 500);
        const doc = JSON.parse(r.stdout) as { state: string; vms: Record<string, Record<string, { code: number; summary: string }> & { vapp: string }> };
        // The collection itself is unharmed: every VM was read (or, on a loaded host, named as not read within -t).
        expect(doc.state, context).toMatch(/^(OK|WARNING)$/);
        for (const vm of Object.values(doc.vms) as unknown as Array<{ read?: boolean; snapshot: { summary: string } }>)
          if (vm.read === false) expect(vm.snapshot.summary, context).toMatch(/not read within -t/);
        const hit = doc.vms[c.vm][c.service];
        expect(hit.code, context).toBe(c.code);
        expect(hit.summary, context).toMatch(c.summary);
        expect(hit.summary).not.toMatch(/\n\s+at /);
        // Only the VM (for a lease, the vApp's VMs) the answer was for.
        expect(doc.vms[BUILD_02][c.service].code).not.toBe(3);
        if (c.service === 'lease') for (const vm of Object.values(doc.vms)) if (vm.vapp !== 'shop') expect(vm.lease.summary).not.toMatch(/does not parse/);
        for (const [id, vm] of Object.entries(doc.vms))
          if (id !== c.vm && c.service === 'snapshot') expect(vm.snapshot.summary).not.toMatch(/section|2099|150000/);
      } finally {
        vcd.faults.set([]);
      }
    },
    60_000,
  );
});

describe('VMs and vApps named to attack the monitoring', () => {
  it('stay inert in the hygiene services: the json, the status lines, the commands submitted to Nagios', async () => {
    rmSync(INJECTION_MARKER, { force: true });
    const cache = mkdtempSync(join(dir, 'cache-'));
    const { json, lines } = await fleetSubmitting(hostile, cache, ['--services', 'cpu,mem,disk,snapshot,tools,lease']);
    const doc = JSON.parse(json) as { state: string; vms: Record<string, Record<Hygiene, { code: number; summary: string; items: Array<{ text: string }> }>> };
    expect(doc.state).toBe('OK');
    expect(Object.keys(doc.vms)).toHaveLength(HOSTILE_NAMES.length);
    // One command per line, six per VM, each of the form Nagios reads: no name broke a line or a field.
    expect(lines).toHaveLength(6 * HOSTILE_NAMES.length);
    for (const line of lines)
      expect(line).toMatch(/^\[\d+\] PROCESS_SERVICE_CHECK_RESULT;vm-[0-9a-f-]+;vm-(cpu|memory|disk|snapshot|tools|lease);[0-3];VM_[A-Z]+ [A-Z]+ - /);
    for (const [id, vm] of Object.entries(doc.vms))
      for (const service of HYGIENE) {
        // The services name the VM by its id, as the single checks run with --vm <id> do.
        expect(vm[service].summary).toContain(id);
        for (const [name, vapp] of HOSTILE_NAMES) {
          const texts = [vm[service].summary, ...vm[service].items.map((i) => i.text)];
          for (const text of texts) expect(text.includes(name) || text.includes(vapp)).toBe(false);
        }
      }
    for (const line of lines) for (const [name, vapp] of HOSTILE_NAMES) expect(line.includes(name) || line.includes(vapp)).toBe(false);
    // The plugin's own output: one status line, then one line per VM that is not OK, nothing run.
    const r = await runExecutable(join(DIST, 'check_vm_fleet'), [...args(hostile, cache), '--services', 'snapshot,tools,lease', '-vv'], { env });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^VM_FLEET OK - 8 VMs read in /);
    expect(r.stdout).not.toMatch(/[\r\u2028\u2029\u0085\u001b]/);
    expect(existsSync(INJECTION_MARKER)).toBe(false);
  }, 120_000);
});

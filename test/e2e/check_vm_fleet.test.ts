// check_vm_fleet against the simulator: each VM's three results are what the single checks
// (the built dist/ executables) print for it, byte for byte, over every role and quirk of
// the simulated VMs; one login; the back-off on OPERATION_LIMITS_EXCEEDED; -t bounding the run.
// Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notes } from '../../lib/plugin/notes';
import { parsePluginOptions } from '../../lib/plugin/options';
import type { RunContext } from '../../lib/plugin/context';
import { METRIC_SERVICES as FLEET_SERVICES, type FleetVmResult } from '../../lib/vcd/fleet/fleet-result';
import { FLEET_CHECK_OPTIONS } from '../../plugins/check_vm_fleet/options';
import { readFleet } from '../../plugins/check_vm_fleet/read';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { scenarioVms } from '../../sim/vcd/vms';
import { runSingle as single } from '../support/single-checks';
import { runExecutable } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const OLD_04 = 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e'; // powered off
const PAUSED_14 = 'vm-8e9f0a1b-2c3d-4e4f-8a5b-6c7d8e9f0a1b'; // suspended
const SINGLE = { cpu: 'check_vm_cpu', mem: 'check_vm_mem', disk: 'check_vm_disk' } as const;

let quirks: Simulator; // every role and quirk of sim/vcd/vms.ts
let fleet: Simulator; // 2,000 VMs in 40 vApps
let limited: Simulator; // the fleet answering 30 ms late, at most 4 metrics requests at once

beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vm_fleet'))) throw new Error('dist/check_vm_fleet is missing: run `node build.mjs dist` first');
  [quirks, fleet, limited] = await Promise.all([
    startSimulatorFromArgs([], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'fleet'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'fleet', '--vcd-latency', '30', '--vcd-max-operations', '4'], [VCD_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([quirks, fleet, limited].filter(Boolean).map((s) => s.close()));
});

const env = { PATH: process.env.PATH, HOME: process.env.HOME };

const count = (s: Simulator, name: string) => s.apis.vcd.stats.counts[name] ?? 0;
const connection = (s: Simulator, cache = mkdtempSync(join(tmpdir(), 'cc-vmfleet-'))) => [
  '-u',
  s.apis.vcd.httpsUrl,
  '--ca-file',
  s.caFile,
  '-U',
  'monitor',
  '-o',
  'acme',
  '--password-file',
  s.apis.vcd.info.passwordFile,
  '--cache-dir',
  cache,
];

/** The fleet as the plugin reads it, in this process: each VM's texts are what a submission sends. */
async function readInProcess(argv: string[]): Promise<FleetVmResult[]> {
  const { options } = parsePluginOptions(argv, FLEET_CHECK_OPTIONS);
  const controller = new AbortController();
  const context: RunContext = {
    verbose: 0,
    signal: controller.signal,
    deadline: Date.now() + 30_000,
    timeoutSeconds: 30,
    notes: new Notes(),
    log: () => undefined,
    addSecret: () => undefined,
    setPhase: () => undefined,
  };
  const vms: FleetVmResult[] = [];
  await readFleet(options, context, { deliver: (vm) => void vms.push(vm) });
  return vms;
}

/** For each VM, the three single checks' outputs (nagios, then json) as their executables print them. */
async function singleOutputs(s: Simulator, vms: readonly string[], cache: string, extra: string[]) {
  const out = new Map<string, string>();
  await Promise.all(
    vms.flatMap((vm) =>
      FLEET_SERVICES.flatMap((service) =>
        (['nagios', 'json'] as const).map(async (format) => {
          out.set(`${vm} ${service} ${format}`, await single(SINGLE[service], [...connection(s, cache), '--vm', vm, '--output', format, ...extra]));
        }),
      ),
    ),
  );
  return out;
}

/**
 * The fleet's per-VM results and the single checks' outputs for `vms`, compared; the
 * simulator's values move with time buckets (a history that stopped an hour ago moves every 5 minutes), so a difference is read again, twice at most.
 */
async function differential(s: Simulator, vms: readonly string[], fleetArgs: string[], singleArgs: string[]) {
  let mismatches: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const cache = mkdtempSync(join(tmpdir(), 'cc-vmfleet-'));
    const [inProcess, json] = await Promise.all([
      readInProcess([...connection(s, cache), ...fleetArgs]),
      runExecutable(join(DIST, 'check_vm_fleet'), [...connection(s, cache), ...fleetArgs, '--output', 'json', '-t', '30'], { env }),
    ]);
    const single = await singleOutputs(s, vms, cache, singleArgs);
    const doc = JSON.parse(json.stdout) as { vms: Record<string, Record<string, unknown>> };
    const byId = new Map(inProcess.map((v) => [v.id, v]));
    mismatches = [];
    for (const vm of vms) {
      for (const service of FLEET_SERVICES) {
        const text = byId.get(vm)?.services[service]?.text;
        if (text !== single.get(`${vm} ${service} nagios`)) mismatches.push(`${vm} ${service} text:\n${text}\n${single.get(`${vm} ${service} nagios`)}`);
        const fromFleet = JSON.stringify(doc.vms[vm]?.[service]) + '\n';
        if (fromFleet !== single.get(`${vm} ${service} json`)) mismatches.push(`${vm} ${service} json:\n${fromFleet}${single.get(`${vm} ${service} json`)}`);
      }
    }
    if (mismatches.length === 0) return;
  }
  expect(mismatches).toEqual([]);
}

describe("a VM's powered-off choice from its discovery (--inventory)", () => {
  it('old-04, discovered with --powered-off-state CRITICAL, is judged as the single checks given it judge it; the others by --powered-off-state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-vmfleet-inv-'));
    const files: string[] = [];
    for (const format of ['icinga2', 'nagios'] as const) {
      const file = join(dir, `old.${format}`);
      const state = format === 'icinga2' ? 'WARNING' : 'CRITICAL'; // the later file wins
      const r = await runExecutable(
        join(DIST, 'check_vm_cpu'),
        [...connection(quirks), '--discovery', '--discovery-format', format, '--include', '^old-04$', '--powered-off-state', state, '--discovery-file', file],
        { env },
      );
      expect(r.code, r.stdout + r.stderr).toBe(0);
      files.push('--inventory', file);
    }
    await differential(quirks, [OLD_04], [...files, '--powered-off-state', 'OK'], ['--powered-off-state', 'CRITICAL']);
    await differential(quirks, [PAUSED_14], [...files, '--powered-off-state', 'OK'], ['--powered-off-state', 'OK']);
  }, 120_000);

  it('an inventory that cannot be read is one UNKNOWN line naming it and the fix', async () => {
    const r = await runExecutable(join(DIST, 'check_vm_fleet'), [...connection(quirks), '--inventory', '/nonexistent/vms.conf'], { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      'VM_FLEET UNKNOWN - cannot read --inventory /nonexistent/vms.conf: no such file, give the file --discovery-file writes, readable by this user\n',
    );
  });
});

describe('each VM as the single checks say it', () => {
  it('every role and quirk of the simulated VMs: status line, perfdata, long output and --output json, byte for byte', async () => {
    const vms = scenarioVms('default').map((vm) => vm.id);
    expect(vms.length).toBeGreaterThanOrEqual(13);
    await differential(quirks, vms, [], []);
  }, 120_000);

  it('with each check-specific option prefixed (thresholds, --metric, --per-disk, --window)', async () => {
    const vms = scenarioVms('default').map((vm) => vm.id);
    // Each single check is given its own options, unprefixed.
    const fleetArgs = ['--window', '1h', '--aggregate', 'max', '--disk-per-disk', '--disk-warning', '40', '--disk-critical', '60'];
    let mismatches: string[] = [];
    for (let attempt = 0; attempt < 3 && (attempt === 0 || mismatches.length > 0); attempt++) {
      const cache = mkdtempSync(join(tmpdir(), 'cc-vmfleet-'));
      const fleetVms = await readInProcess([
        ...connection(quirks, cache),
        ...fleetArgs,
        '--cpu-metric',
        'maximum',
        '--cpu-warning',
        '20',
        '--mem-critical',
        '50',
      ]);
      const byId = new Map(fleetVms.map((v) => [v.id, v]));
      const windowArgs = [...connection(quirks, cache), '--window', '1h', '--aggregate', 'max'];
      const outs = await Promise.all(
        vms.flatMap((vm) => [
          single('check_vm_disk', [...windowArgs, '--vm', vm, '--per-disk', '-w', '40', '-c', '60']).then((out) => [byId.get(vm)?.services.disk?.text, out]),
          single('check_vm_cpu', [...windowArgs, '--vm', vm, '--metric', 'maximum', '-w', '20']).then((out) => [byId.get(vm)?.services.cpu?.text, out]),
          single('check_vm_mem', [...windowArgs, '--vm', vm, '-c', '50']).then((out) => [byId.get(vm)?.services.mem?.text, out]),
        ]),
      );
      mismatches = outs.filter(([a, b]) => a !== b).map(([a, b]) => `${a}\n${b}`);
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('a sample of the 2,000-VM fleet: powered on and off, names shared by two vApps, a name with & and spaces', async () => {
    const { vms: list } = fleet.apis.vcd.info;
    const ids = [...list.matchAll(/=(vm-[0-9a-f-]+)/g)].map((m) => m[1]);
    const fleetArgs = ['--vapp', 'Sales & Marketing'];
    const sample = (await readInProcess([...connection(fleet), ...fleetArgs])).filter((v, i) => i < 3 || v.status === 'POWERED_OFF').map((v) => v.id);
    expect(sample.length).toBeGreaterThanOrEqual(4);
    expect(ids.length).toBeGreaterThan(0);
    await differential(fleet, sample, fleetArgs, []);
  }, 120_000);
});

describe('the collection', () => {
  it('2,000 VMs with one login and one metrics request each; OK with the tally, the powered-off VMs listed', async () => {
    const before = { login: count(fleet, 'login'), current: count(fleet, 'metrics.current'), query: count(fleet, 'query') };
    const r = await runExecutable(join(DIST, 'check_vm_fleet'), [...connection(fleet), '-t', '60'], { env, killAfterMs: 70_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^VM_FLEET OK - 2000 VMs read in [\d.]+s: 1920 OK, 0 WARNING, 0 CRITICAL, 80 UNKNOWN \| vms=2000;;;0 ok=1920;;;0;2000 warning=0;;;0;2000 critical=0;;;0;2000 unknown=80;;;0;2000 seconds=[\d.]+s;;;0\n/,
    );
    expect(r.stdout.split('\n').filter((l) => l.startsWith('[UNKNOWN] ')).length).toBe(80);
    expect(r.stdout).toContain('[UNKNOWN] node-0125 (vm-');
    expect(count(fleet, 'login') - before.login).toBe(1);
    expect(count(fleet, 'metrics.current') - before.current).toBe(2000);
    expect(count(fleet, 'query') - before.query).toBe(16); // 2,000 records in pages of 128
  }, 90_000);

  it('OPERATION_LIMITS_EXCEEDED: fewer requests at a time, the refused VMs asked again, every VM read', async () => {
    const before = count(limited, 'operation-limits');
    const r = await runExecutable(join(DIST, 'check_vm_fleet'), [...connection(limited), '--vapp', 'vapp-05', '--concurrency', '16', '-v', '-t', '30'], {
      env,
    });
    expect(r.stdout).toMatch(
      /^VM_FLEET OK - 50 VMs read in [\d.]+s: 48 OK, 0 WARNING, 0 CRITICAL, 2 UNKNOWN \[.*\d+ OPERATION_LIMITS_EXCEEDED answers?: down to [1-4] requests? at a time/,
    );
    expect(count(limited, 'operation-limits') - before).toBeGreaterThan(0);
    expect(count(limited, 'operations-max')).toBeLessThanOrEqual(4);
  }, 60_000);

  it('-t bounds the run: the VMs read are delivered, the others named as not read, WARNING', async () => {
    const r = await runExecutable(join(DIST, 'check_vm_fleet'), [...connection(limited), '--concurrency', '4', '-t', '6', '--output', 'json'], { env });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      state: string;
      summary: string;
      vms: Record<string, { read: boolean; cpu: { summary: string } }>;
      metrics: Array<{ label: string; value: number }>;
    };
    expect(doc.state).toBe('WARNING');
    // The collection's figures end the document (the Zabbix templates draw the VMs read and the time).
    expect(doc.metrics.map((m) => m.label)).toEqual(['vms', 'ok', 'warning', 'critical', 'unknown', 'seconds']);
    expect(doc.metrics.find((m) => m.label === 'seconds')!.value).toBeLessThan(6.5);
    const vms = Object.values(doc.vms);
    expect(vms.length).toBe(2000);
    const unread = vms.filter((v) => !v.read);
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.length).toBeLessThan(2000);
    expect(unread[0].cpu.summary).toMatch(
      /^vm-[0-9a-f-]+: metrics not read within -t 6s by check_vm_fleet \(raise -t or --concurrency, or split the fleet with --vapp\)$/,
    );
    expect(r.ms).toBeLessThan(6500);
  }, 30_000);

  it('a refused login is UNKNOWN in the words of the single checks', async () => {
    const wrong = (argv: string[]) => argv.map((a, i) => (argv[i - 1] === '--password-file' ? fleet.apis.vcd.info.apiTokenFile : a)); // not the password
    const f = await runExecutable(join(DIST, 'check_vm_fleet'), wrong(connection(fleet)), { env });
    const c = await runExecutable(join(DIST, 'check_vm_cpu'), [...wrong(connection(fleet)), '--vm', 'vm-00000000-0000-4000-8000-000000000000'], { env });
    expect(f.code).toBe(3);
    expect(f.stdout.replace(/^VM_FLEET/, 'VM_CPU')).toBe(c.stdout);
  });
});

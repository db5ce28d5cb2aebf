// The metrics spec end to end: the VM checks and the fleet post the window and the metrics they
// judge; against a server that refuses the spec (the simulator's --vcd-refuse-spec) they read the
// whole documents by GET, try the spec once per run (not once per VM) and not again while the
// session's cache remembers the refusal. Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable } from '../support/spawn';
import { simVcdArgs } from '../support/sim-vcd-args';

const DIST = resolve(__dirname, '../../dist');
const HEALTHY = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
const POWERED_OFF = 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e';
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

let taking: Simulator;
let refusing: Simulator;

beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vm_fleet'))) throw new Error('dist/check_vm_fleet is missing: run `node build.mjs dist` first');
  [taking, refusing] = await Promise.all([startSimulatorFromArgs([], [VCD_MODULE]), startSimulatorFromArgs(['--vcd-refuse-spec', '405'], [VCD_MODULE])]);
});
afterAll(async () => {
  await Promise.all([taking, refusing].filter(Boolean).map((s) => s.close()));
});

const counts = (s: Simulator) => s.apis.vcd.stats.counts;
const run = (exe: string, sim: Simulator, cache: string, ...extra: string[]) =>
  runExecutable(join(DIST, exe), [...simVcdArgs(sim), '--cache-dir', cache, '-t', '30', ...extra], { env, killAfterMs: 40_000 });

describe('a server that takes the spec', () => {
  it('check_vm_cpu --window 15m: one POST of the window, no GET of the day', async () => {
    taking.apis.vcd.stats.counts = {};
    const r = await run('check_vm_cpu', taking, mkdtempSync(join(tmpdir(), 'cc-spec-')), '--vm', HEALTHY, '--window', '15m');
    expect(r.stdout).toMatch(/^VM_CPU OK - cpu usage [\d.]+% \(avg 15m\) on vm-4f2c.* \| cpu_usage=/);
    expect(counts(taking)['metrics-spec.historic']).toBe(1);
    expect(counts(taking)['metrics.historic']).toBe(1);
  });
});

describe('a server that refuses the spec (HTTP 405)', () => {
  it('the single checks read by GET, with the same verdicts, and try the spec once while the cache remembers the refusal', async () => {
    refusing.apis.vcd.stats.counts = {};
    const cache = mkdtempSync(join(tmpdir(), 'cc-spec-'));
    const first = await run('check_vm_cpu', refusing, cache, '--vm', HEALTHY, '--window', '15m');
    expect(first.stdout).toMatch(/^VM_CPU OK - cpu usage [\d.]+% \(avg 15m\) on vm-4f2c.* \| cpu_usage=.* cpu_usage_max=.* cpu_mhz=/);
    expect(first.stderr).toBe('');
    const second = await run('check_vm_mem', refusing, cache, '--vm', HEALTHY);
    expect(second.stdout).toMatch(/^VM_MEM OK - /);
    const off = await run('check_vm_cpu', refusing, cache, '--vm', POWERED_OFF);
    expect(off.stdout).toMatch(/^VM_CPU UNKNOWN - vm-0b1c.* is powered off: no current metrics/);
    expect(counts(refusing)['metrics-spec-refused.historic']).toBe(1);
    expect(counts(refusing)['metrics-spec-refused.current'] ?? 0).toBe(0);
    expect(counts(refusing)['metrics.historic']).toBe(1);
    expect(counts(refusing)['metrics.current']).toBe(2);
  });

  it('check_vm_fleet --window 15m: every VM read by GET after one refused spec, not one per VM', async () => {
    refusing.apis.vcd.stats.counts = {};
    const r = await run('check_vm_fleet', refusing, mkdtempSync(join(tmpdir(), 'cc-spec-')), '--window', '15m', '--concurrency', '8');
    // Every VM read (none left for -t), each by one GET but the VM whose creation failed (HTTP 403, no document).
    expect(r.stdout).toMatch(/^VM_FLEET \w+ - 15 VMs read in /);
    expect(counts(refusing)['metrics-spec-refused.historic']).toBe(1);
    expect(counts(refusing)['metrics.historic']).toBe(14);
  });
});

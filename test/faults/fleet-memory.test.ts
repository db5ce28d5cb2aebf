// check_vm_fleet against a hostile vCD, for each of its memory bounds: documents of 60 MB at a
// high --concurrency stay within --max-bytes-in-flight (each refused for its VM only, named),
// and a run cut by -t whose logout never ends still delivers what it read. Peak memory is
// measured with GNU time. Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { simVcdArgs } from '../support/sim-vcd-args';
import { runExecutable } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_vm_fleet');
/** The bound of the issue: whatever the server sends, the process stays under it. */
const MAX_RSS_MIB = 250;
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

let fleet: Simulator; // 2,000 VMs, answering at once
let slow: Simulator; // the same fleet answering 30 ms late, at most 4 requests at once

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_vm_fleet is missing: run `node build.mjs dist` first');
  [fleet, slow] = await Promise.all([
    startSimulatorFromArgs(['--vcd-scenario', 'fleet'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'fleet', '--vcd-latency', '30', '--vcd-max-operations', '4'], [VCD_MODULE]),
  ]);
});
afterEach(() => {
  fleet?.apis.vcd.faults.set([]);
  slow?.apis.vcd.faults.set([]);
});
afterAll(async () => {
  await Promise.all([fleet, slow].filter(Boolean).map((s) => s.close()));
});

const run = (sim: Simulator, args: string[], timeoutSeconds: number) =>
  runExecutable(PLUGIN, [...simVcdArgs(sim), '--cache-dir', mkdtempSync(join(tmpdir(), 'cc-fleet-mem-')), ...args, '-t', String(timeoutSeconds)], {
    env,
    killAfterMs: (timeoutSeconds + 10) * 1000,
    measureRss: true,
  });

const SIXTY_MB = 60 * 1024 * 1024;

describe('--max-bytes-in-flight: documents of 60 MB cannot add up', () => {
  it.each([16, 256])(
    'at --concurrency %i every VM of a vApp sends 60 MB: each refused past its share, memory bounded, one line per VM',
    async (concurrency) => {
      fleet.apis.vcd.faults.set([{ path: '/metrics/', kind: 'flood', bytes: SIXTY_MB }]);
      const r = await run(fleet, ['--vapp', 'vapp-01', '--concurrency', String(concurrency)], 20);
      const context = `stdout=${r.stdout.slice(0, 1500)} stderr=${r.stderr} peak=${Math.round((r.maxRssKb ?? 0) / 1024)} MiB ms=${r.ms}`;
      expect(r.maxRssKb, context).toBeLessThan(MAX_RSS_MIB * 1024);
      expect(r.code, context).toBe(3);
      const share = Math.floor((64 * 1024 * 1024) / concurrency);
      expect(r.stdout, context).toMatch(
        new RegExp(
          `^VM_FLEET UNKNOWN - none of 50 VMs read in [\\d.]+s: metrics not read by check_vm_fleet: metrics document larger than ${share} bytes, its share of --max-bytes-in-flight 67108864 at --concurrency ${concurrency}, raise --max-bytes-in-flight`,
        ),
      );
      expect(r.stdout.split('\n').filter((l) => l.startsWith('[UNKNOWN] ')).length, context).toBe(50);
      expect(r.stderr).toBe('');
      expect(r.ms, context).toBeLessThan(22_000);
    },
    60_000,
  );

  it('one VM sends 60 MB: refused for that VM only, named in the long output; the others read', async () => {
    fleet.apis.vcd.faults.set([{ path: '/metrics/', kind: 'flood', bytes: SIXTY_MB, times: 1 }]);
    const r = await run(fleet, ['--vapp', 'vapp-02', '--concurrency', '32'], 20);
    const context = `stdout=${r.stdout.slice(0, 1500)} peak=${Math.round((r.maxRssKb ?? 0) / 1024)} MiB`;
    expect(r.maxRssKb, context).toBeLessThan(MAX_RSS_MIB * 1024);
    expect(r.code, context).toBe(1);
    expect(r.stdout, context).toMatch(/^VM_FLEET WARNING - 49 of 50 VMs read in [\d.]+s, 1 not \(listed below\)/);
    expect(r.stdout, context).toMatch(
      /\n\[UNKNOWN\] node-02\d\d \(vm-[0-9a-f-]+, vApp vapp-02, org acme\): metrics not read by check_vm_fleet: metrics document larger than 2097152 bytes/,
    );
  }, 60_000);
});

describe('a run cut by -t delivers what it read', () => {
  it('without a session cache, a logout that never ends costs neither the results nor -t + 2 s', async () => {
    // The logout of both APIs hangs; the reads are slow enough that -t cuts the collection.
    slow.apis.vcd.faults.set([{ method: 'DELETE', kind: 'hang' }]);
    const r = await run(slow, ['--no-cache', '--concurrency', '4', '--output', 'json'], 8);
    const context = `stdout=${r.stdout.slice(-1500)} stderr=${r.stderr} code=${r.code} ms=${r.ms}`;
    expect(r.ms, context).toBeLessThan(10_000);
    expect(r.stderr, context).toBe('');
    const doc = JSON.parse(r.stdout) as { state: string; summary: string; vms: Record<string, { read: boolean }> };
    const vms = Object.values(doc.vms);
    expect(vms.length, context).toBe(2000);
    expect(vms.filter((v) => v.read).length, context).toBeGreaterThan(0);
    // What was read stands: WARNING with the VMs not read, never UNKNOWN "timed out".
    expect(doc.state, context).toBe('WARNING');
    expect(doc.summary, context).toMatch(/^\d+ of 2000 VMs read in [\d.]+s, \d+ not \(listed below\)/);
    expect(r.maxRssKb, context).toBeLessThan(MAX_RSS_MIB * 1024);
  }, 60_000);
});

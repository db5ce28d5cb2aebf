// The VM checks against shapes real Cloud Director servers send and the plain simulated VMs do
// not: current metrics refused for another reason than power, disks reported only per disk,
// expectedInterval in milliseconds, a sample dated 2099, a metric sent twice, a percentage out
// of range, a suspended VM; and the options that only mean something together. Run
// `node build.mjs dist` (or `make`) first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { parsePerfdataStrict } from '../support/perfdata-parse';
import { simVcdArgs } from '../support/sim-vcd-args';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const VM = {
  healthy: 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70',
  fullDisk: 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
  perDiskOnly: 'vm-7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  operationLimits: 'vm-3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d',
  intervalMs: 'vm-6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e',
  futureSample: 'vm-9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
  duplicate: 'vm-1f2a3b4c-5d6e-4f7a-8b9c-0d1e2f3a4b5c',
  badPercent: 'vm-4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f',
  suspended: 'vm-8e9f0a1b-2c3d-4e4f-8a5b-6c7d8e9f0a1b',
  poweredOff: 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e',
};

let sim: Simulator;
let cache: string;
beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vm_cpu'))) throw new Error('dist/check_vm_cpu is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs([], [VCD_MODULE]);
  cache = mkdtempSync(join(tmpdir(), 'cc-vm-evidence-'));
});
afterAll(async () => {
  await sim?.close();
});

const vcd = () => sim.apis.vcd;
function run(plugin: 'cpu' | 'disk' | 'mem', vm: string, extra: string[] = []): Promise<RunResult> {
  const argv = [...simVcdArgs(sim), '--vm', vm, '--cache-dir', cache, ...extra];
  return runExecutable(join(DIST, `check_vm_${plugin}`), argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
}
function firstLine(r: RunResult) {
  const line = r.stdout.split('\n')[0];
  const [text, perf = ''] = line.split(' | ');
  return { text, perf: parsePerfdataStrict(perf) };
}
const requests = () => vcd().stats.counts.requests ?? 0;

describe('current metrics refused: powered off only on the evidence of the VM record', () => {
  it("OPERATION_LIMITS_EXCEEDED on a running VM is UNKNOWN with the server's message, even with --powered-off-state OK", async () => {
    for (const extra of [[], ['--powered-off-state', 'OK']]) {
      const r = await run('cpu', VM.operationLimits, extra);
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /^VM_CPU UNKNOWN - https:\/\/127.0.0.1:\d+\/api\/vApp\/vm-3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d\/metrics\/current answered HTTP 400: The maximum number of simultaneous operations for user "monitor" on organization "acme" has been reached. \(OPERATION_LIMITS_EXCEEDED\), and its record says POWERED_ON\n$/,
      );
      expect(r.stdout).not.toContain('powered off');
    }
  });

  it('no evidence, no "powered off": a record that cannot be read leaves the refusal UNKNOWN, whatever --powered-off-state says', async () => {
    vcd().faults.set([{ kind: 'status', status: 403, body: '', path: `^/api/vApp/${VM.poweredOff}$` } as never]);
    try {
      const r = await run('cpu', VM.poweredOff, ['--powered-off-state', 'OK']);
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /^VM_CPU UNKNOWN - https:\/\/127.0.0.1:\d+\/api\/vApp\/vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e\/metrics\/current answered HTTP 400: The requested operation could not be executed since VM "old-04" is not running. \(BAD_REQUEST\), and its power state could not be read: GET \/api\/vApp\/vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e answered HTTP 403\n$/,
      );
    } finally {
      vcd().faults.set([]);
    }
  });

  it('a suspended VM is not running: --powered-off-state applies, named as suspended', async () => {
    const r = await run('mem', VM.suspended);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      `VM_MEM UNKNOWN - ${VM.suspended} is suspended: no current metrics (use --window for the last values, or --powered-off-state OK to accept) | mem_usage=0%;80;90;0;100\n`,
    );
    const w = await run('mem', VM.suspended, ['--powered-off-state', 'WARNING']);
    expect(w.code).toBe(1);
  });

  it('--window of a VM off for longer than the 24 h of history: its record decides, not "no sample"', async () => {
    const r = await run('cpu', VM.suspended, ['--window', '15m']);
    expect(r.code).toBe(3);
    const perf = ' | cpu_usage=0%;80;90;0;100 cpu_usage_max=0%;;;0;100 cpu_mhz=0;;;0';
    expect(r.stdout).toBe(`VM_CPU UNKNOWN - ${VM.suspended} is suspended: no sample in the 24 hours of history (--powered-off-state OK to accept)${perf}\n`);
    const ok = await run('cpu', VM.suspended, ['--window', '15m', '--powered-off-state', 'OK']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`VM_CPU OK - ${VM.suspended} is suspended: no sample in the 24 hours of history${perf}\n`);
  });
});

describe('disks reported only per disk', () => {
  it('sums used and provisioned, says so, and gives per-disk perfdata', async () => {
    const r = await run('disk', VM.perDiskOnly);
    expect(r.code).toBe(0);
    const { text, perf } = firstLine(r);
    expect(text).toMatch(new RegExp(`^VM_DISK OK - disk used 7[45](\\.\\d)?% \\(12\\d(\\.\\d)? GiB of 170 GiB\\) \\(current\\) on ${VM.perDiskOnly}$`));
    const byLabel = Object.fromEntries(perf.map((p) => [p.label, p]));
    const prov = 170 * 1024 ** 3;
    expect(byLabel.disk_provisioned.value).toBe(prov);
    expect(byLabel.disk_used_pct).toMatchObject({ warn: '80', crit: '90' });
    expect((byLabel.disk_used_0.value as number) + (byLabel.disk_used_1.value as number) + (byLabel.disk_used_2.value as number)).toBe(byLabel.disk_used.value);
    expect(byLabel.disk_used_pct_1.value).toBeGreaterThan(94);
    expect(byLabel.disk_used_pct_1).toMatchObject({ uom: '%', warn: '', crit: '', min: 0, max: 100 });
    expect(Object.keys(byLabel)).toEqual(expect.arrayContaining(['disk_read_kBps_0', 'disk_write_kBps_2', 'disk_used_pct_0', 'disk_used_pct_2']));
    expect(r.stdout).toMatch(/\n\[OK\] disk.used.latest = \d+ KILOBYTE: the server sends no whole-VM value, so the sum of disks 0, 1, 2\n/);
    expect(r.stdout).toMatch(/\n\[OK\] disk.provisioned.latest = 178257920 KILOBYTE: the server sends no whole-VM value, so the sum of disks 0, 1, 2\n/);
  });

  it('sums the window of each disk too, and rates (--metric write)', async () => {
    const r = await run('disk', VM.perDiskOnly, ['--window', '1h']);
    expect(r.code).toBe(0);
    expect(firstLine(r).text).toMatch(/^VM_DISK OK - disk used 7[45](\.\d)?% .* \(avg 1h\) on /);
    const w = await run('disk', VM.perDiskOnly, ['--metric', 'write', '-w', '100000']);
    expect(w.code).toBe(0);
    expect(firstLine(w).text).toMatch(/^VM_DISK OK - disk write [\d.]+ KB\/s \(current\) on /);
    expect(w.stdout).toMatch(/disk.write.average = [\d.]+ KILOBYTES_PER_SECOND: the server sends no whole-VM value, so the sum of disks 0, 1, 2/);
  });

  it('--per-disk: thresholds on each disk, the worst decides (the sum looked fine)', async () => {
    const r = await run('disk', VM.perDiskOnly, ['--per-disk']);
    expect(r.code).toBe(2);
    const { text, perf } = firstLine(r);
    expect(text).toMatch(
      new RegExp(`^VM_DISK CRITICAL - disk 1 \\(worst of 3\\) used 9[45](\\.\\d)?% \\(9\\d(\\.\\d)? GiB of 100 GiB\\) \\(current\\) on ${VM.perDiskOnly}$`),
    );
    expect(perf.find((p) => p.label === 'disk_used_pct')).toMatchObject({ warn: '', crit: '' });
    for (const i of [0, 1, 2]) expect(perf.find((p) => p.label === `disk_used_pct_${i}`)).toMatchObject({ warn: '80', crit: '90' });
    expect(r.stdout).toMatch(
      // The simulated use drifts by 0.1 % over the day: 59.9 % near midnight.
      /\n\[OK\] disk 0: used (59\.9|60(\.\d)?)% \(30 GiB of 50 GiB\)\n\[CRITICAL\] disk 1: used 9[45](\.\d)?% \(9\d(\.\d)? GiB of 100 GiB\)\n\[OK\] disk 2: used (9\.9|10(\.\d)?)% /,
    );
  });

  it('--per-disk also where the whole-VM names are present; --metric used takes sizes', async () => {
    const r = await run('disk', VM.fullDisk, ['--per-disk', '--metric', 'used', '-w', '400G', '-c', '440G']);
    expect(r.code).toBe(1);
    expect(firstLine(r).text).toMatch(/^VM_DISK WARNING - disk 2001 \(worst of 2\) used 42\d(\.\d)? GiB of 450 GiB \(current\) on /);
    expect(firstLine(r).perf.find((p) => p.label === 'disk_used_2001')).toMatchObject({
      uom: 'B',
      warn: String(400 * 1024 ** 3),
      crit: String(440 * 1024 ** 3),
    });
    expect(r.stdout).toMatch(/\n\[OK\] disk 2000: used 4\d(\.\d)? GiB of 50 GiB\n\[WARNING\] disk 2001: used 42/);
  });

  it('with the whole-VM names present, they are kept: no sum, no per-disk perfdata', async () => {
    const r = await run('disk', VM.healthy);
    expect(r.code).toBe(0);
    expect(firstLine(r).perf.map((p) => p.label)).toEqual(['disk_used', 'disk_provisioned', 'disk_used_pct', 'disk_read_kBps', 'disk_write_kBps']);
    expect(r.stdout).not.toContain('sum of disks');
  });
});

describe('expectedInterval in milliseconds, and samples from the future', () => {
  it('reads 300000 as 5 minutes (the samples are 5 minutes apart), so a stopped series is stale; -v says which unit', async () => {
    const r = await run('cpu', VM.intervalMs, ['--window', '1h', '-v']);
    expect(r.code).toBe(3);
    // As seconds, 3 × 300000 s would be 250 hours and the stopped series would pass.
    expect(r.stdout).toMatch(
      /^VM_CPU UNKNOWN - no sample of cpu.usage.average since \S+ \(older than --max-age 15m, 3 × its interval\)[;,] check that the VM is running and vCD collects its metrics \(its record says POWERED_ON\) \[API version 34\.0 \(34\.0 is offered by the server[;,] remembered\)[;,] expectedInterval 300000 of cpu.usage.average read as milliseconds \(5m\): its samples are 5m apart\]\n$/,
    );
    const ok = await run('cpu', VM.intervalMs, ['--window', '3h', '--max-age', '3h', '-v']);
    expect(ok.code).toBe(0);
    expect(firstLine(ok).text).toMatch(/[[ ]expectedInterval 300000 of cpu.usage.average read as milliseconds \(5m\): its samples are 5m apart\]$/);
  });

  it('a sample dated 2099 does not make a stopped series look fresh; -v says it was ignored', async () => {
    const r = await run('cpu', VM.futureSample, ['--window', '1h', '-v']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_CPU UNKNOWN - no sample of cpu.usage.average since 20\d\d-\S+ \(older than --max-age 15m, 3 × its interval\),.* \[.*ignored 3 samples of 3 series dated after the server's time, up to 2099-\S+Z\]\n$/,
    );
    expect(r.stdout).not.toMatch(/since 2099/);
  });
});

describe('values no VM produces', () => {
  it('a metric sent twice is UNKNOWN naming it', async () => {
    const r = await run('mem', VM.duplicate);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_MEM UNKNOWN - the current metrics response has metric mem.usage.average twice \([\d.]+ and [\d.]+\): cannot tell which is right\n$/,
    );
    const h = await run('mem', VM.duplicate, ['--window', '15m']);
    expect(h.stdout).toBe('VM_MEM UNKNOWN - the historic metrics response has series mem.usage.average twice: cannot tell which is right\n');
  });

  it('a percentage above 100 is UNKNOWN naming the metric, not CRITICAL', async () => {
    const r = await run('cpu', VM.badPercent);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("VM_CPU UNKNOWN - metric cpu.usage.average is 153.2%, outside 0-100: the server's metrics are broken (ask the vCD provider)\n");
  });
});

describe('options that only mean something together are usage errors, before any request', () => {
  it.each([
    [['--window', '15'], 'VM_CPU UNKNOWN - invalid --window "15": a duration needs a unit: 15s, 15m or 15h (see --help)\n'],
    [['--window', '1h', '--max-age', '20'], 'VM_CPU UNKNOWN - invalid --max-age "20": a duration needs a unit: 20s, 20m or 20h (see --help)\n'],
    [['--aggregate', 'max'], 'VM_CPU UNKNOWN - --aggregate needs --window (current values are one sample each) (see --help)\n'],
    [['--max-age', '20m'], 'VM_CPU UNKNOWN - --max-age needs --window (current values are one sample each) (see --help)\n'],
  ])('%j', async (extra, out) => {
    const before = requests();
    const r = await run('cpu', VM.healthy, extra);
    expect(r.stdout).toBe(out);
    expect(r.code).toBe(3);
    expect(requests()).toBe(before);
  });

  it("a window shorter than the series' interval is a usage error (disk sizes are sampled every 30 minutes)", async () => {
    const r = await run('disk', VM.healthy, ['--window', '15m']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      'VM_DISK UNKNOWN - --window 15m is shorter than the 30m between samples of disk.used.latest, so it may hold none: use --window 30m or longer (see --help)\n',
    );
    const cpu = await run('cpu', VM.healthy, ['--window', '2m']);
    expect(cpu.stdout).toBe(
      'VM_CPU UNKNOWN - --window 2m is shorter than the 5m between samples of cpu.usage.average, so it may hold none: use --window 5m or longer (see --help)\n',
    );
  });
});

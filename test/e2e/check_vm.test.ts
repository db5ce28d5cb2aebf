// The VM checks as a monitoring engine runs them: the built dist/ executables against the
// simulator's cloud-director API over HTTPS. Run `node build.mjs dist` (or `make`) first.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { parsePerfdataStrict } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const VM = {
  healthy: 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70',
  busy: 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  fullDisk: 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
  poweredOff: 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e',
  stale: 'vm-5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  noDisk: 'vm-9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
  noTools: 'vm-2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
  unknown: 'vm-11111111-2222-4333-8444-555555555555',
};
const PASSWORD = 'Sim-vcd-Passw0rd';

let sim: Simulator; // default: CloudAPI login, default namespace
let legacy: Simulator; // vCD before 9.7: no CloudAPI sessions, prefixed XML
let shortLived: Simulator; // sessions expire after 1 s

beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vm_cpu'))) throw new Error('dist/check_vm_cpu is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs([], [VCD_MODULE]);
  legacy = await startSimulatorFromArgs(['--vcd-no-cloudapi', '--vcd-xml-prefix'], [VCD_MODULE]);
  shortLived = await startSimulatorFromArgs(['--vcd-session-ttl', '1'], [VCD_MODULE]);
});
afterAll(async () => {
  await Promise.all([sim, legacy, shortLived].filter(Boolean).map((s) => s.close()));
});
afterEach(() => sim.apis.vcd.faults.set([]));

const vcd = (s: Simulator) => s.apis.vcd;
const counts = (s: Simulator) => ({ ...vcd(s).stats.counts });
const newCacheDir = () => mkdtempSync(join(tmpdir(), 'cc-vm-cache-'));

/** Common arguments: URL, CA, credentials and a fresh cache directory unless one is given. */
function args(s: Simulator, vm: string, extra: string[] = [], cacheDir = newCacheDir()): string[] {
  const base: Array<[string, string]> = [
    ['-u', vcd(s).httpsUrl],
    ['--ca-file', s.caFile],
    ['-U', 'monitor'],
    ['-o', 'acme'],
    ['--password-file', vcd(s).info.passwordFile],
    ['--vm', vm],
    ['--cache-dir', cacheDir],
  ];
  // A single-value option may be given once: one in `extra` replaces the default here.
  const given = new Set(extra.map((a) => (a === '--url' ? '-u' : a)));
  return [...base.filter(([flag]) => !given.has(flag)).flat(), ...extra];
}
/** The arguments of a login with an API token (`tokenFile`) instead of a password; no cache when `cacheDir` is null. */
function tokenArgs(s: Simulator, vm: string, tokenFile: string, cacheDir: string | null, extra: string[] = []): string[] {
  const cache = cacheDir === null ? ['--no-cache'] : ['--cache-dir', cacheDir];
  return ['-u', vcd(s).httpsUrl, '--ca-file', s.caFile, '-o', 'acme', '--api-token-file', tokenFile, '--vm', vm, ...cache, ...extra];
}
function run(plugin: 'cpu' | 'disk' | 'mem', argv: string[], env?: NodeJS.ProcessEnv): Promise<RunResult> {
  return runExecutable(join(DIST, `check_vm_${plugin}`), argv, { env: env ?? { PATH: process.env.PATH, HOME: process.env.HOME } });
}
/** The first line split into its plugin part and strictly parsed perfdata. */
function firstLine(r: RunResult) {
  const line = r.stdout.split('\n')[0];
  const [text, perf = ''] = line.split(' | ');
  return { line, text, perf: parsePerfdataStrict(perf) };
}
const NUM = String.raw`\d+(?:\.\d)?`;

describe('check_vm_cpu', () => {
  it('OK for a healthy VM, with the documented perfdata', async () => {
    const r = await run('cpu', args(sim, VM.healthy));
    expect(r.code).toBe(0);
    const { text, perf } = firstLine(r);
    expect(text).toMatch(new RegExp(`^VM_CPU OK - cpu usage ${NUM}% \\(current\\) on ${VM.healthy}$`));
    expect(perf.map((p) => [p.label, p.uom, p.warn, p.crit, p.min, p.max])).toEqual([
      ['cpu_usage', '%', '80', '90', 0, 100],
      ['cpu_usage_max', '%', '', '', 0, 100],
      ['cpu_mhz', '', '', '', 0, null],
    ]);
    expect(perf[0].value).toBeGreaterThan(20);
    expect(perf[0].value).toBeLessThan(40);
    expect(r.stdout.split('\n').slice(1, 4)).toEqual([
      expect.stringMatching(/^\[OK\] cpu.usage.average = [\d.]+ PERCENT$/),
      expect.stringMatching(/^\[OK\] cpu.usage.maximum = [\d.]+ PERCENT$/),
      expect.stringMatching(/^\[OK\] cpu.usagemhz.average = \d+ MEGAHERTZ$/),
    ]);
    expect(r.stderr).toBe('');
  });

  it('WARNING for the busy VM: current, avg 15m, max 1h', async () => {
    const cache = newCacheDir();
    const current = await run('cpu', args(sim, VM.busy, [], cache));
    expect(current.code).toBe(1);
    expect(firstLine(current).text).toMatch(new RegExp(`^VM_CPU WARNING - cpu usage 8\\d(\\.\\d)?% \\(current\\) on ${VM.busy}$`));
    const avg = await run('cpu', args(sim, VM.busy, ['--window', '15m'], cache));
    expect(avg.code).toBe(1);
    expect(firstLine(avg).text).toMatch(new RegExp(`^VM_CPU WARNING - cpu usage 8\\d(\\.\\d)?% \\(avg 15m\\) on ${VM.busy}$`));
    expect(avg.stdout).toMatch(/\[WARNING\] cpu.usage.average = [\d.]+ PERCENT \(avg of [2-4] samples, newest 20\d\d-/);
    const max = await run('cpu', args(sim, VM.busy, ['--window', '1h', '--aggregate', 'max', '-w', '95', '-c', '98', '--metric', 'maximum'], cache));
    expect(max.code).toBeLessThanOrEqual(2);
    const { text, perf } = firstLine(max);
    expect(text).toMatch(/^VM_CPU (OK|WARNING|CRITICAL) - cpu usage maximum [\d.]+% \(max 1h\) on /);
    expect(perf.find((p) => p.label === 'cpu_usage_max')).toMatchObject({ warn: '95', crit: '98' });
    expect(perf.find((p) => p.label === 'cpu_usage')).toMatchObject({ warn: '', crit: '' });
  });

  it('thresholds on MHz with --metric mhz', async () => {
    const r = await run('cpu', args(sim, VM.busy, ['--metric', 'mhz', '-w', '1000', '-c', '2000']));
    expect(r.code).toBe(2);
    expect(firstLine(r).text).toMatch(new RegExp(`^VM_CPU CRITICAL - cpu usage \\d+ MHz \\(current\\) on ${VM.busy}$`));
    expect(firstLine(r).perf[2]).toMatchObject({ label: 'cpu_mhz', warn: '1000', crit: '2000' });
  });

  it('accepts the bare GUID and the console URL of the VM', async () => {
    for (const id of [VM.healthy.slice(3), `https://vcd.example.com/tenant/acme/vdcs/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/vm/${VM.healthy}/general`]) {
      const r = await run('cpu', args(sim, id));
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^VM_CPU OK - .* on ${VM.healthy} \\|`));
    }
  });

  it('renders --output json', async () => {
    const r = await run('cpu', args(sim, VM.busy, ['--output', 'json']));
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      name: 'VM_CPU',
      state: 'WARNING',
      code: 1,
      metrics: [{ label: 'cpu_usage', uom: '%', warning: '80', critical: '90' }, {}, {}],
    });
    expect(doc.items).toHaveLength(3);
  });
});

describe('check_vm_disk', () => {
  it('CRITICAL for the full disk, sizes in bytes', async () => {
    const r = await run('disk', args(sim, VM.fullDisk));
    expect(r.code).toBe(2);
    const { text, perf } = firstLine(r);
    expect(text).toMatch(new RegExp(`^VM_DISK CRITICAL - disk used 95(\\.\\d)?% \\(${NUM} GiB of 500 GiB\\) \\(current\\) on ${VM.fullDisk}$`));
    const prov = 500 * 1024 ** 3;
    expect(perf.map((p) => p.label)).toEqual(['disk_used', 'disk_provisioned', 'disk_used_pct', 'disk_read_kBps', 'disk_write_kBps']);
    expect(perf[0]).toMatchObject({ uom: 'B', warn: '', crit: '', min: 0, max: prov });
    expect(perf[1]).toMatchObject({ uom: 'B', value: prov });
    expect(perf[2]).toMatchObject({ uom: '%', warn: '80', crit: '90', min: 0, max: 100 });
    expect(Math.abs((perf[0].value as number) / prov - (perf[2].value as number) / 100)).toBeLessThan(1e-6);
  });

  it('--metric used with size thresholds', async () => {
    const r = await run('disk', args(sim, VM.fullDisk, ['--metric', 'used', '-w', '400G', '-c', '480G', '--window', '2h']));
    expect(r.code).toBe(1);
    expect(firstLine(r).text).toMatch(new RegExp(`^VM_DISK WARNING - disk used ${NUM} GiB of 500 GiB \\(95(\\.\\d)?%\\) \\(avg 2h\\) on ${VM.fullDisk}$`));
    expect(firstLine(r).perf[0]).toMatchObject({ label: 'disk_used', warn: String(400 * 1024 ** 3), crit: String(480 * 1024 ** 3) });
    expect(firstLine(r).perf[2]).toMatchObject({ label: 'disk_used_pct', warn: '', crit: '' });
  });

  it('--metric read in KB/s', async () => {
    const r = await run('disk', args(sim, VM.healthy, ['--metric', 'read', '-w', '10000']));
    expect(r.code).toBe(0);
    expect(firstLine(r).text).toMatch(/^VM_DISK OK - disk read [\d.]+ KB\/s \(current\) on /);
    expect(firstLine(r).perf[3]).toMatchObject({ label: 'disk_read_kBps', uom: '', warn: '10000', crit: '' });
  });

  it('UNKNOWN, not a division by zero, for a VM without disks', async () => {
    const r = await run('disk', args(sim, VM.noDisk));
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      `VM_DISK UNKNOWN - ${VM.noDisk} has no provisioned disk space (disk.provisioned.latest = 0), so used % is undefined, use --metric used, or check the VM's disks\n`,
    );
  });
});

describe('check_vm_mem', () => {
  it('OK for a healthy VM', async () => {
    const r = await run('mem', args(sim, VM.healthy));
    expect(r.code).toBe(0);
    const { text, perf } = firstLine(r);
    expect(text).toMatch(new RegExp(`^VM_MEM OK - memory usage 4\\d(\\.\\d)?% \\(current\\) on ${VM.healthy}$`));
    expect(perf).toEqual([expect.objectContaining({ label: 'mem_usage', uom: '%', warn: '80', crit: '90', min: 0, max: 100 })]);
  });

  it('UNKNOWN naming the metric a VM without tools lacks', async () => {
    const r = await run('mem', args(sim, VM.noTools));
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      `VM_MEM UNKNOWN - the current metrics of ${VM.noTools} lack mem.usage.average (the server sent no value for it): memory metrics need VMware Tools running in the guest (install or start VMware Tools in the VM)\n`,
    );
  });

  it('aggregates the window with min', async () => {
    const r = await run('mem', args(sim, VM.busy, ['--window', '30m', '--aggregate', 'min', '-w', '50', '-c', '95']));
    expect(r.code).toBe(1);
    expect(firstLine(r).text).toMatch(/^VM_MEM WARNING - memory usage 6\d(\.\d)?% \(min 30m\) on /);
  });
});

describe('powered-off, stale and unknown VMs', () => {
  const OFF = `${VM.poweredOff} is powered off: no current metrics (use --window for the last values, or --powered-off-state OK to accept)`;

  it('powered off (its record says so): UNKNOWN by default, --powered-off-state otherwise, without repeating advice followed', async () => {
    const before = counts(sim)['vm-record'] ?? 0;
    const r = await run('cpu', args(sim, VM.poweredOff));
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(`VM_CPU UNKNOWN - ${OFF} | cpu_usage=0%;80;90;0;100 cpu_usage_max=0%;;;0;100 cpu_mhz=0;;;0\n`);
    expect((counts(sim)['vm-record'] ?? 0) - before).toBe(1);
    const ok = await run('mem', args(sim, VM.poweredOff, ['--powered-off-state', 'OK']));
    expect(ok.code).toBe(0);
    // The running VM's perfdata labels, values unknown: the graphs keep their series and show the gap.
    expect(ok.stdout).toBe(`VM_MEM OK - ${VM.poweredOff} is powered off: no current metrics (use --window for the last values) | mem_usage=0%;80;90;0;100\n`);
    const crit = await run('disk', args(sim, VM.poweredOff, ['--powered-off-state', 'critical']));
    expect(crit.code).toBe(2);
    expect(crit.stdout).not.toContain('--powered-off-state');
  });

  it('powered off: the history stopped 3 h ago; --window 1h says since when, and shows the hour before', async () => {
    const r = await run('cpu', args(sim, VM.poweredOff, ['--window', '1h']));
    expect(r.code).toBe(3);
    const { text, perf } = firstLine(r);
    expect(text).toMatch(
      new RegExp(
        `^VM_CPU UNKNOWN - ${VM.poweredOff} is powered off since (20\\d\\d-\\d\\d-\\d\\dT[\\d:.]+Z) \\(its last sample, --powered-off-state OK to accept\\)\\. Before that: cpu usage 1\\d(\\.\\d)?% \\(avg 1h\\) on ${VM.poweredOff}$`,
      ),
    );
    const since = Date.parse(/since (\S+)/.exec(text)![1]);
    expect(Date.now() - since).toBeGreaterThan(3 * 3600_000);
    expect(Date.now() - since).toBeLessThan(3 * 3600_000 + 600_000);
    expect(perf[0]).toMatchObject({ label: 'cpu_usage', uom: '%' });
    expect(r.stdout).toMatch(/\n\[UNKNOWN\] cpu.usage.average = [\d.]+ PERCENT \(avg of 1[123] samples, newest /);
    const ok = await run('cpu', args(sim, VM.poweredOff, ['--window', '15m', '--powered-off-state', 'OK']));
    expect(ok.code).toBe(0);
    expect(firstLine(ok).text).toMatch(/^VM_CPU OK - vm-\S+ is powered off since \S+ \(its last sample\)\. Before that: cpu usage/);
    const old = await run('cpu', args(sim, VM.poweredOff, ['--window', '24h', '--max-age', '4h']));
    expect(old.code).toBe(0);
    expect(firstLine(old).text).toMatch(/^VM_CPU OK - cpu usage 1\d(\.\d)?% \(avg 24h\) on /);
  });

  it('stale history: current is fine, a window is UNKNOWN', async () => {
    const cache = newCacheDir();
    expect((await run('cpu', args(sim, VM.stale, [], cache))).code).toBe(0);
    const r = await run('disk', args(sim, VM.stale, ['--window', '15m', '--metric', 'write'], cache));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_DISK UNKNOWN - no sample of disk.write.average since .* \(older than --max-age 15m, 3 × its interval\), check that the VM is running and vCD collects its metrics \(its record says POWERED_ON\)\n/,
    );
    const ok = await run('disk', args(sim, VM.stale, ['--window', '30m', '--max-age', '2h'], cache));
    expect(ok.code).toBe(0);
  });

  it('unknown VM: vCD answers 403, reported as not found or not visible', async () => {
    const r = await run('cpu', args(sim, VM.unknown));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      new RegExp(
        `^VM_CPU UNKNOWN - ${VM.unknown}: VM not found or not visible to this user monitor@acme \\(HTTP 403: Either you need .*\\): deleted\\? run discovery again \\(a discovered host outlives its VM\\)[;,] else check --vm`,
      ),
    );
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });
});

describe('login and the session cache', () => {
  it('logs in once, then reuses the cached session (0600 in a 0700 directory)', async () => {
    const cache = join(newCacheDir(), 'sub');
    const before = counts(sim);
    expect((await run('cpu', args(sim, VM.healthy, [], cache))).code).toBe(0);
    expect((await run('mem', args(sim, VM.healthy, [], cache))).code).toBe(0);
    expect((await run('disk', args(sim, VM.healthy, ['--window', '1h'], cache))).code).toBe(0);
    const after = counts(sim);
    expect((after.login ?? 0) - (before.login ?? 0)).toBe(1);
    // The session, and beside it the negotiated API version (and resolved VM names).
    const files = readdirSync(cache).filter((f) => !f.endsWith('.fleet.json'));
    expect(readdirSync(cache).sort()).toEqual([expect.stringMatching(/^vcd-[0-9a-f]{40}\.fleet\.json$/), expect.stringMatching(/^vcd-[0-9a-f]{40}\.json$/)]);
    const { statSync } = await import('node:fs');
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(join(cache, files[0])).mode & 0o777).toBe(0o600);
  });

  it('--no-cache logs in and out every run', async () => {
    const before = counts(sim);
    const r = await run('cpu', args(sim, VM.healthy, ['--no-cache', '-vv']));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('session cache: off (--no-cache)');
    expect(r.stdout).toContain('logged out (--no-cache)');
    const after = counts(sim);
    expect((after.login ?? 0) - (before.login ?? 0)).toBe(1);
    expect((after.logout ?? 0) - (before.logout ?? 0)).toBe(1);
  });

  it('falls back to POST /api/sessions where CloudAPI is absent, and reads prefixed XML', async () => {
    const before = counts(legacy);
    const cache = newCacheDir();
    const r = await run('cpu', args(legacy, VM.busy, [], cache));
    expect(r.code).toBe(1);
    expect(firstLine(r).text).toMatch(/^VM_CPU WARNING - cpu usage 8\d(\.\d)?% \(current\) on /);
    const w = await run('disk', args(legacy, VM.fullDisk, ['--window', '1h', '--no-cache'], cache));
    expect(w.code).toBe(2);
    const after = counts(legacy);
    expect((after['login.legacy'] ?? 0) - (before['login.legacy'] ?? 0)).toBe(2);
    expect(after['login.bearer'] ?? 0).toBe(0);
    expect((after.logout ?? 0) - (before.logout ?? 0)).toBe(1);
  });

  it('logs in with an API token (OAuth refresh token)', async () => {
    const before = counts(sim);
    const r = await run('mem', tokenArgs(sim, VM.healthy, vcd(sim).info.apiTokenFile, newCacheDir()));
    expect(r.code).toBe(0);
    expect((counts(sim)['login.bearer'] ?? 0) - (before['login.bearer'] ?? 0)).toBe(1);
    const bad = mkdtempSync(join(tmpdir(), 'cc-tok-'));
    writeFileSync(join(bad, 'token'), 'revoked-token-value\n');
    const r2 = await run('mem', tokenArgs(sim, VM.healthy, join(bad, 'token'), null));
    expect(r2.code).toBe(3);
    expect(r2.stdout).toMatch(
      /^VM_MEM UNKNOWN - login to https:\/\/127.0.0.1:\d+ as the API token for org acme rejected \(HTTP 400: Invalid refresh token \(invalid_grant\)\)/,
    );
  });

  it('logs in again once when the cached session expired', async () => {
    const cache = newCacheDir();
    const before = counts(shortLived);
    expect((await run('cpu', args(shortLived, VM.healthy, [], cache))).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1200));
    const r = await run('cpu', args(shortLived, VM.healthy, ['-vv'], cache));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('session rejected (HTTP 401, expired?): logging in again');
    const after = counts(shortLived);
    expect((after.login ?? 0) - (before.login ?? 0)).toBe(2);
    expect((after.expired ?? 0) - (before.expired ?? 0)).toBe(1);
  });

  it('wrong password: UNKNOWN naming user@org, never the password', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-pw-'));
    writeFileSync(join(dir, 'pw'), 'Wrong-Passw0rd-42\n', { mode: 0o600 });
    const argv = args(sim, VM.healthy, ['--password-file', join(dir, 'pw'), '-vvv']);
    const r = await run('cpu', argv);
    expect(r.code).toBe(3);
    expect(r.stdout.split('\n')[0]).toMatch(
      /^VM_CPU UNKNOWN - login to https:\/\/127.0.0.1:\d+ as monitor@acme rejected \(HTTP 401: Invalid credentials \(UNAUTHORIZED\)\): wrong user, org or password, check --user, --org and --password-file$/,
    );
    expect(r.stdout + r.stderr).not.toContain('Wrong-Passw0rd-42');
    expect(r.stdout + r.stderr).not.toContain(Buffer.from('monitor@acme:Wrong-Passw0rd-42').toString('base64'));
  });

  it('takes the password from VCD_PASSWORD or an --extra-opts file', async () => {
    const base = ['-u', vcd(sim).httpsUrl, '--ca-file', sim.caFile, '-U', 'monitor', '-o', 'acme', '--vm', VM.healthy];
    const env = await run('mem', [...base, '--cache-dir', newCacheDir()], { PATH: process.env.PATH, VCD_PASSWORD: PASSWORD });
    expect(env.code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'cc-ini-'));
    writeFileSync(join(dir, 'p.ini'), `[check_vm_mem]\npassword=${PASSWORD}\n`, { mode: 0o600 });
    const ini = await run('mem', [...base, '--cache-dir', newCacheDir(), '--extra-opts', `@${join(dir, 'p.ini')}`, '-vvv']);
    expect(ini.code).toBe(0);
    expect(ini.stdout + ini.stderr).not.toContain(PASSWORD);
    const none = await run('mem', [...base, '--no-cache']);
    expect(none.stdout).toBe(
      'VM_MEM UNKNOWN - no password for monitor@acme: give --password-file, set VCD_PASSWORD, or put password= in an --extra-opts file (see --help)\n',
    );
  });

  it('a corrupt or unwritable cache never fails the check (noted at -v)', async () => {
    const cache = newCacheDir();
    expect((await run('cpu', args(sim, VM.healthy, [], cache))).code).toBe(0);
    const [file] = readdirSync(cache).filter((f) => !f.endsWith('.fleet.json'));
    writeFileSync(join(cache, file), 'not json at all');
    const corrupt = await run('cpu', args(sim, VM.healthy, ['-v'], cache));
    expect(corrupt.code).toBe(0);
    expect(firstLine(corrupt).text).toMatch(/ \[ignoring .*\.json: corrupt, API version 34.0 \(.*\)\]$/);
    expect(JSON.parse(readFileSync(join(cache, file), 'utf8')).data.auth).toBe('bearer');

    const parent = newCacheDir();
    chmodSync(parent, 0o500);
    const ro = await run('cpu', args(sim, VM.healthy, ['-v'], join(parent, 'x')));
    chmodSync(parent, 0o700);
    expect(ro.code).toBe(0);
    if (process.getuid?.() !== 0) expect(firstLine(ro).text).toMatch(/session cache .* unusable \(EACCES\), logging in without it/);
  });

  it('closes the session it cannot cache, so an unusable cache does not pile up sessions', async () => {
    const blocker = join(newCacheDir(), 'a-file');
    writeFileSync(blocker, 'not a directory');
    const before = counts(sim);
    const r = await run('cpu', args(sim, VM.healthy, ['-v'], join(blocker, 'cache')));
    expect(r.code).toBe(0);
    expect(firstLine(r).text).toMatch(/session cache .* unusable \(ENOTDIR\), logging in without it/);
    const after = counts(sim);
    expect((after.login ?? 0) - (before.login ?? 0)).toBe(1);
    expect((after.logout ?? 0) - (before.logout ?? 0)).toBe(1);
  });
});

describe('the session cache does not hang on an inherited environment', () => {
  it("defaults to the running user's own home, not an inherited $HOME", async () => {
    const argv = args(sim, VM.healthy, ['-vv']).filter((a, i, all) => a !== '--cache-dir' && all[i - 1] !== '--cache-dir');
    const r = await run('cpu', argv, { PATH: process.env.PATH, HOME: '/nonexistent-home-of-another-user' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`session cache: ${join(userInfo().homedir, '.cache', 'cloudchecks')}/`);
    expect(r.stdout).not.toMatch(/unusable/);
  });

  it('--cache-unusable-state WARNING: an unusable cache raises the state and says so on the status line and in JSON', async () => {
    const blocker = join(newCacheDir(), 'a-file');
    writeFileSync(blocker, 'not a directory');
    const quiet = await run('cpu', args(sim, VM.healthy, [], join(blocker, 'cache')));
    expect(quiet.code).toBe(0);
    const r = await run('cpu', args(sim, VM.healthy, ['--cache-unusable-state', 'WARNING'], join(blocker, 'cache')));
    expect(r.code).toBe(1);
    expect(firstLine(r).text).toMatch(/^VM_CPU WARNING - .*[;,] every run logs in: session cache .* unusable \(ENOTDIR\)/);
    const json = JSON.parse(
      (await run('cpu', args(sim, VM.healthy, ['--cache-unusable-state', 'WARNING', '--output', 'json'], join(blocker, 'cache')))).stdout,
    ) as { state: string; items: Array<{ name: string; state: string }> };
    expect(json.state).toBe('WARNING');
    expect(json.items.find((i) => i.name === 'session-cache')?.state).toBe('WARNING');
    const bad = await run('cpu', args(sim, VM.healthy, ['--cache-unusable-state', 'LOUD']));
    expect([bad.code, firstLine(bad).text]).toEqual([
      3,
      expect.stringMatching(/invalid --cache-unusable-state "LOUD": expected OK, WARNING, CRITICAL or UNKNOWN/),
    ]);
  });
});

describe('--user that names the org too', () => {
  it('--user monitor@acme --org acme logs in as monitor@acme, and -v says so', async () => {
    const r = await run('cpu', args(sim, VM.healthy, ['-U', 'monitor@acme', '-v']));
    expect(r.code).toBe(0);
    expect(firstLine(r).text).toMatch(/--user monitor@acme already names the org: logging in as monitor@acme \(give --user monitor\)/);
  });
});

describe('-v says how the server is reached', () => {
  it('-k: the certificate is not verified', async () => {
    const k = await run('cpu', args(sim, VM.healthy, ['-k', '-v']));
    expect(k.code).toBe(0);
    expect(firstLine(k).text).toMatch(/TLS certificate of 127\.0\.0\.1:\d+ not verified \(-k\/--insecure\)/);
    const plain = await run('cpu', args(sim, VM.healthy, ['-v']));
    expect(firstLine(plain).text).not.toMatch(/not verified/);
  });
});

describe('secrets and failures', () => {
  it('prints no password, session token or API token at -vvv, in any mode', async () => {
    const cache = newCacheDir();
    const outputs: string[] = [];
    for (const extra of [[], ['--window', '1h'], ['--no-cache']]) {
      const r = await run('cpu', args(sim, VM.busy, ['-vvv', ...extra], cache));
      expect(r.code).toBe(1);
      // The metrics are a POST of the spec; with a warm cache nothing else is sent.
      expect(r.stderr).toMatch(/> (GET|POST) https:\/\/127\.0\.0\.1/);
      expect(r.stderr).toContain('authorization: <redacted>');
      outputs.push(r.stdout + r.stderr);
    }
    const legacyCache = newCacheDir();
    const l = await run('cpu', args(legacy, VM.busy, ['-vvv'], legacyCache));
    outputs.push(l.stdout + l.stderr);
    const t = await run('cpu', tokenArgs(sim, VM.busy, vcd(sim).info.apiTokenFile, cache, ['-vvv']));
    outputs.push(t.stdout + t.stderr);
    const secrets = [
      PASSWORD,
      Buffer.from(`monitor@acme:${PASSWORD}`).toString('base64'),
      readFileSync(vcd(sim).info.apiTokenFile, 'utf8').trim(),
      ...[cache, legacyCache].flatMap((d) =>
        readdirSync(d)
          .filter((f) => f.endsWith('.json'))
          .map((f) => JSON.parse(readFileSync(join(d, f), 'utf8')).token as string),
      ),
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    for (const out of outputs) for (const s of secrets) expect(out).not.toContain(s);
  });

  it.each([
    [
      { kind: 'status', status: 503, body: 'Service Unavailable', path: '/metrics/' },
      /^VM_CPU UNKNOWN - https:\/\/127.0.0.1:\d+\/api\/vApp\/vm-[\w-]+\/metrics\/current answered HTTP 503 \(server says: Service Unavailable\)[;,] the vCD cells may be overloaded or down, retry later\n$/,
    ],
    [
      { kind: 'body', body: '<html><body>Login</body></html>', path: '/metrics/' },
      /^VM_CPU UNKNOWN - current metrics response is not a vCD CurrentUsage document \(root element html/,
    ],
    [
      { kind: 'body', body: 'maintenance', contentType: 'text/plain', path: '/metrics/' },
      /^VM_CPU UNKNOWN - current metrics response is not XML \(text outside the root element at line 1, body starts "maintenance"\)/,
    ],
    [{ kind: 'truncate', path: '/metrics/' }, /^VM_CPU UNKNOWN - connection to 127.0.0.1:\d+ closed before the whole response was received/],
    [{ kind: 'reset', path: '/metrics/' }, /^VM_CPU UNKNOWN - connection to 127.0.0.1:\d+ was reset/],
  ])('fault %j is one UNKNOWN line', async (fault, pattern) => {
    const cache = newCacheDir();
    expect((await run('cpu', args(sim, VM.healthy, [], cache))).code).toBe(0);
    vcd(sim).faults.set([fault as never]);
    const r = await run('cpu', args(sim, VM.healthy, [], cache));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(pattern);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe('');
  });

  it('a hanging server is cut at -t with UNKNOWN, in time', async () => {
    vcd(sim).faults.set([{ kind: 'hang', path: '/metrics/' }]);
    const r = await run('cpu', args(sim, VM.healthy, ['-t', '2']));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^VM_CPU UNKNOWN - timed out after 2s while reading current metrics of vm-/);
    expect(r.ms).toBeLessThan(2500);
  });

  it('--no-cache: a hanging logout does not turn the result into a timeout', async () => {
    vcd(sim).faults.set([{ kind: 'hang', method: 'DELETE' }]);
    const r = await run('cpu', args(sim, VM.busy, ['--no-cache', '-t', '4', '-vv']));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^VM_CPU WARNING - cpu usage/);
    expect(r.stdout).toContain('logout not confirmed within 2000 ms');
    expect(r.ms).toBeLessThan(3500);
  });

  it('refuses a plain http:// vCD URL unless --allow-http, which -v then reports', async () => {
    const plain = (extra: string[]) => args(sim, VM.healthy, ['-u', vcd(sim).httpUrl, ...extra]);
    const before = counts(sim).requests ?? 0;
    const r = await run('cpu', plain([]));
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      `VM_CPU UNKNOWN - --url ${vcd(sim).httpUrl} is plain http://, which would send the credentials in clear text, use https://, or add --allow-http if that is intended (a local test server) (see --help)\n`,
    );
    expect(counts(sim).requests ?? 0).toBe(before);
    const ok = await run('cpu', plain(['--allow-http', '-v']));
    expect(ok.code).toBe(0);
    expect(firstLine(ok).text).toMatch(/plain http:\/\/ to 127\.0\.0\.1:\d+ \(--allow-http\): credentials cross the network in clear text/);
  });

  it('-w above -c on a percentage: a note at -v, silence without', async () => {
    const v = await run('cpu', args(sim, VM.healthy, ['-w', '95', '-c', '90', '-v']));
    expect(v.code).toBe(0);
    expect(firstLine(v).text).toMatch(/-w 95 is above -c 90: WARNING can never show \(swap them\?\)/);
    expect(firstLine(await run('cpu', args(sim, VM.healthy, ['-w', '95', '-c', '90']))).text).not.toContain('swap');
    expect(firstLine(await run('cpu', args(sim, VM.healthy, ['-w', '80', '-c', '90', '-v']))).text).not.toContain('swap');
  });

  it('verifies TLS: without --ca-file the simulator certificate is refused', async () => {
    const argv = args(sim, VM.healthy).filter((a, i, all) => a !== '--ca-file' && all[i - 1] !== '--ca-file');
    const r = await run('cpu', argv);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^VM_CPU UNKNOWN - TLS verification of 127.0.0.1:\d+ failed: .*, pass the CA that signed it with --ca-file PATH/);
  });

  it.each([
    [
      ['--vm', 'https://vcd.example.com/tenant/acme/vdcs'],
      /^VM_CPU UNKNOWN - invalid --vm "https:\/\/vcd.example.com\/tenant\/acme\/vdcs": this URL holds no VM id \(vm-<guid>\), open the VM's own page in the web console and copy that URL, or give the VM's name \(see --help\)\n$/,
    ],
    [['--api-version', '34'], /^VM_CPU UNKNOWN - invalid --api-version "34": expected a version such as 34.0 or 38.1 \(see --help\)\n$/],
    [['--discovery-format', 'csv'], /^VM_CPU UNKNOWN - invalid --discovery-format "csv": expected one of zabbix, icinga2, nagios/],
    [['--window', '2d'], /^VM_CPU UNKNOWN - invalid --window "2d": expected a duration such as 900s, 15m or 1h \(days as hours: 48h\) \(see --help\)\n$/],
    [['--window', '25h'], /^VM_CPU UNKNOWN - --window 25h is longer than the 24h of history vCD returns \(see --help\)\n$/],
    [['--aggregate', 'median'], /^VM_CPU UNKNOWN - invalid --aggregate "median": expected one of avg, max, min, last/],
    [['--metric', 'ready'], /^VM_CPU UNKNOWN - invalid -m\/--metric "ready": expected one of average, maximum, mhz/],
    [['--powered-off-state', 'maybe'], /^VM_CPU UNKNOWN - invalid --powered-off-state "maybe"/],
    [['-w', '80:70'], /^VM_CPU UNKNOWN - invalid range "80:70" for -w\/--warning: start is greater than end/],
    [['-u', 'vcd.example.com'], /^VM_CPU UNKNOWN - invalid --url "vcd.example.com": expected https:\/\/host\[:port\]/],
  ])('usage error %j is one UNKNOWN line, before any request', async (extra, pattern) => {
    const before = counts(sim).requests ?? 0;
    const r = await run('cpu', args(sim, VM.healthy, extra));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(pattern);
    expect(counts(sim).requests ?? 0).toBe(before);
  });

  it('--help lists every option and exits 3', async () => {
    const r = await run('disk', ['--help']);
    expect(r.code).toBe(3);
    for (const o of [
      '--url',
      '--vm',
      '--password-file',
      '--api-token-file',
      '--api-version',
      '--cache-dir',
      '--no-cache',
      '--window',
      '--aggregate',
      '--max-age',
      '--powered-off-state',
      '--metric',
      '--ca-file',
    ]) {
      expect(r.stdout).toContain(o);
    }
  });
});

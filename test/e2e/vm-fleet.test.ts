// A fleet of VMs as a provider monitors it: API version negotiation, VMs by name, discovery.
// The built dist/ executables against the simulator's cloud-director API over HTTPS, with
// the simulator's request counters proving what was (not) asked. Run `node build.mjs dist` first.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const HEALTHY = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';

let sim: Simulator; // default scenario, every version 32.0-39.0
let fleet: Simulator; // 2,000 VMs in 40 vApps
let newer: Simulator; // a release that dropped 34.0: 37.0, 38.0, 38.1
let future: Simulator; // offers only versions cloudchecks does not know
let old: Simulator; // vCD before 9.7: old versions, no CloudAPI, base64 legacy tokens
let cookie: Simulator; // legacy token only in Set-Cookie: vcloud-token

beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vm_cpu'))) throw new Error('dist/check_vm_cpu is missing: run `node build.mjs dist` first');
  [sim, fleet, newer, future, old, cookie] = await Promise.all([
    startSimulatorFromArgs([], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'fleet'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-versions', '37.0,38.0,38.1'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-versions', '40.0,41.0'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-versions', '29.0,30.0,31.0', '--vcd-no-cloudapi', '--vcd-legacy-token', 'base64'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-versions', '32.0', '--vcd-no-cloudapi', '--vcd-legacy-token', 'cookie'], [VCD_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([sim, fleet, newer, future, old, cookie].filter(Boolean).map((s) => s.close()));
});

const vcd = (s: Simulator) => s.apis.vcd;
const count = (s: Simulator, name: string) => vcd(s).stats.counts[name] ?? 0;
const newCacheDir = () => mkdtempSync(join(tmpdir(), 'cc-fleet-cache-'));

function args(s: Simulator, vm: string | undefined, extra: string[] = [], cacheDir = newCacheDir()): string[] {
  return [
    '-u',
    vcd(s).httpsUrl,
    '--ca-file',
    s.caFile,
    '-U',
    'monitor',
    '-o',
    'acme',
    '--password-file',
    vcd(s).info.passwordFile,
    ...(vm === undefined ? [] : ['--vm', vm]),
    '--cache-dir',
    cacheDir,
    ...extra,
  ];
}
function run(plugin: 'cpu' | 'disk' | 'mem', argv: string[]): Promise<RunResult> {
  return runExecutable(join(DIST, `check_vm_${plugin}`), argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
}
/** Counts of a simulator's requests made by `work`. */
async function delta(s: Simulator, names: string[], work: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = Object.fromEntries(names.map((n) => [n, count(s, n)]));
  await work();
  return Object.fromEntries(names.map((n) => [n, count(s, n) - before[n]]));
}
const fleetFile = (dir: string) =>
  join(
    dir,
    readdirSync(dir).find((f) => f.endsWith('.fleet.json'))!,
  );

describe('API version negotiation', () => {
  it('34.0 offered: asked once at /api/versions, never again on warm runs', async () => {
    const cache = newCacheDir();
    let cold!: RunResult;
    expect(await delta(sim, ['versions', 'login', 'refused-version'], async () => (cold = await run('cpu', args(sim, HEALTHY, ['-v'], cache))))).toEqual({
      versions: 1,
      login: 1,
      'refused-version': 0,
    });
    expect(cold.code).toBe(0);
    expect(cold.stdout).toMatch(/API version 34\.0 \(34\.0 is offered by the server, from \/api\/versions\)/);
    let warm!: RunResult;
    expect(
      await delta(sim, ['versions', 'login'], async () => {
        for (const p of ['cpu', 'mem', 'disk'] as const) warm = await run(p, args(sim, HEALTHY, ['-v'], cache));
      }),
    ).toEqual({ versions: 0, login: 0 });
    expect(warm.stdout).toMatch(/API version 34\.0 \(34\.0 is offered by the server, remembered\)/);
  });

  it('34.0 not offered (37.0, 38.0, 38.1): the highest known, for the login too, no 406 on the way', async () => {
    const cache = newCacheDir();
    let r!: RunResult;
    expect(
      await delta(newer, ['versions', 'refused-version', 'login.bearer'], async () => (r = await run('mem', args(newer, HEALTHY, ['-v'], cache)))),
    ).toEqual({ versions: 1, 'refused-version': 0, 'login.bearer': 1 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/API version 38\.1 \(34\.0 is not offered, 38\.1 is the highest offered of 33\.0-39\.x, from \/api\/versions\)/);
    expect(await delta(newer, ['versions', 'refused-version'], () => run('mem', args(newer, HEALTHY, [], cache)))).toEqual({
      versions: 0,
      'refused-version': 0,
    });
  });

  it('forced: used as given, no question asked', async () => {
    let r!: RunResult;
    expect(await delta(newer, ['versions'], async () => (r = await run('cpu', args(newer, HEALTHY, ['--api-version', '37.0', '-v']))))).toEqual({
      versions: 0,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/API version 37\.0 \(forced by --api-version\)/);
  });

  it('forced and refused: one UNKNOWN listing what the server offers; not held as a failed login', async () => {
    const cache = newCacheDir();
    const r = await run('cpu', args(newer, HEALTHY, ['--api-version', '34.0'], cache));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_CPU UNKNOWN - https:\/\/127\.0\.0\.1:\d+ does not accept --api-version 34\.0 \(HTTP 406: .*Supported versions: 37\.0, 38\.0, 38\.1 \(NOT_ACCEPTABLE\)\): it offers 37\.0, 38\.0, 38\.1, 39\.0\.0-alpha, leave --api-version out to use 38\.1\n$/,
    );
    // The version is not the credential: the next run, without --api-version, logs in at once.
    const fixed = await run('cpu', args(newer, HEALTHY, [], cache));
    expect([fixed.code, fixed.stdout]).toEqual([0, expect.stringMatching(/^VM_CPU OK - /)]);
  });

  it('a remembered version the server no longer speaks (upgraded): 406, asked again, remembered anew', async () => {
    const cache = newCacheDir();
    expect((await run('cpu', args(newer, HEALTHY, [], cache))).code).toBe(0);
    const file = fleetFile(cache);
    const entry = JSON.parse(readFileSync(file, 'utf8'));
    entry.data.apiVersion.version = '34.0';
    writeFileSync(file, JSON.stringify(entry), { mode: 0o600 });
    let r!: RunResult;
    expect(await delta(newer, ['versions', 'refused-version', 'login'], async () => (r = await run('cpu', args(newer, HEALTHY, ['-vv'], cache))))).toEqual({
      versions: 1,
      'refused-version': 1,
      login: 0,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/API version 34\.0 refused \(HTTP 406: .*\): asking the server again/);
    expect(JSON.parse(readFileSync(file, 'utf8')).data.apiVersion.version).toBe('38.1');
  });

  it('a list of versions that cannot be read (a proxy in front): 34.0 is tried, nothing remembered', async () => {
    const cache = newCacheDir();
    vcd(sim).faults.set([{ path: '^/api/versions$', kind: 'body', status: 404, body: '<html><body>Not Found</body></html>' }]);
    try {
      const r = await run('cpu', args(sim, HEALTHY, ['-v'], cache));
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\[API version 34\.0 \(the list of versions could not be read: https:\/\/127\.0\.0\.1:\d+\/api\/versions answered HTTP 404\)\]/);
    } finally {
      vcd(sim).faults.set([]);
    }
    expect(readdirSync(cache).filter((f) => f.endsWith('.fleet.json'))).toEqual([]); // nothing remembered: the next run asks again
  });

  it('a refusal when the list cannot be read: one UNKNOWN saying to give --api-version', async () => {
    vcd(newer).faults.set([{ path: '^/api/versions$', kind: 'body', status: 404, body: '<html><body>Not Found</body></html>' }]);
    try {
      const r = await run('cpu', args(newer, HEALTHY));
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /^VM_CPU UNKNOWN - https:\/\/127\.0\.0\.1:\d+ refuses API version 34\.0 \(HTTP 406: .*\) and its list of versions could not be read, give one it speaks with --api-version\n$/,
      );
    } finally {
      vcd(newer).faults.set([]);
    }
  });

  it('a server that offers no known version: one UNKNOWN naming its offer and --api-version', async () => {
    const r = await run('cpu', args(future, HEALTHY));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_CPU UNKNOWN - https:\/\/127\.0\.0\.1:\d+ offers none of the versions cloudchecks knows \(33\.0-39\.x\): it offers 40\.0, 41\.0, 42\.0\.0-alpha, force one with --api-version\n$/,
    );
    expect((await run('cpu', args(future, HEALTHY, ['--api-version', '40.0']))).code).toBe(0);
  });

  it('a server that speaks only old versions: its highest, legacy login with a base64 token (+ / =)', async () => {
    const cache = newCacheDir();
    let r!: RunResult;
    expect(await delta(old, ['login.legacy', 'versions'], async () => (r = await run('disk', args(old, HEALTHY, ['-v'], cache))))).toEqual({
      'login.legacy': 1,
      versions: 1,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/API version 31\.0 \(the server offers only versions older than 33\.0, 31\.0 is the highest/);
    const token = JSON.parse(
      readFileSync(
        join(
          cache,
          readdirSync(cache).find((f) => !f.includes('.fleet'))!,
        ),
        'utf8',
      ),
    ).data.token as string;
    expect(token).toMatch(/\+\/.*=$/);
    // The cached base64 token is sent back verbatim: no second login.
    expect(await delta(old, ['login', 'unauthorized'], async () => expect((await run('cpu', args(old, HEALTHY, [], cache))).code).toBe(0))).toEqual({
      login: 0,
      unauthorized: 0,
    });
  });

  it('a legacy token sent only as Set-Cookie: vcloud-token', async () => {
    const cache = newCacheDir();
    const r = await run('cpu', args(cookie, HEALTHY, ['-vvv'], cache));
    expect(r.code).toBe(0);
    const token = JSON.parse(
      readFileSync(
        join(
          cache,
          readdirSync(cache).find((f) => !f.includes('.fleet'))!,
        ),
        'utf8',
      ),
    ).data.token as string;
    expect(r.stdout + r.stderr).not.toContain(token);
    expect(await delta(cookie, ['login', 'unauthorized'], async () => expect((await run('mem', args(cookie, HEALTHY, [], cache))).code).toBe(0))).toEqual({
      login: 0,
      unauthorized: 0,
    });
  });
});

describe('--vm NAME', () => {
  it('a unique name: both name and id in the summary, the long output and JSON', async () => {
    const r = await run('cpu', args(fleet, 'node-0105'));
    expect(r.code).toBe(0);
    const id = /on node-0105 \((vm-[0-9a-f-]{36})\)/.exec(r.stdout)?.[1];
    expect(id).toBeDefined();
    expect(r.stdout.split('\n')[1]).toBe(`[OK] VM node-0105 = ${id} in vApp vapp-01`);
    const json = JSON.parse((await run('cpu', args(fleet, 'node-0105', ['--output', 'json']))).stdout);
    expect(json.items[0]).toEqual({ name: 'vm', state: 'OK', text: `VM node-0105 = ${id} in vApp vapp-01` });
    expect(json.summary).toContain(`node-0105 (${id})`);
  });

  it('two VMs of the same name: UNKNOWN listing both, never one picked; --vapp chooses; the template is never checked', async () => {
    const r = await run('mem', args(fleet, 'twin'));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_MEM UNKNOWN - 2 VMs are named "twin": twin in vApp "vapp-0[12]" \(vm-[0-9a-f-]{36}\), twin in vApp "vapp-0[12]" \(vm-[0-9a-f-]{36}\), add --vapp NAME, or give the VM id with --vm\n$/,
    );
    expect(r.stdout).not.toContain('golden-images');
    const one = await run('mem', args(fleet, 'twin', ['--vapp', 'vapp-02']));
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^VM_MEM OK - .* on twin \(vm-[0-9a-f-]{36}\)/);
    const template = await run('mem', args(fleet, 'twin', ['--vapp', 'golden-images']));
    expect(template.code).toBe(3);
    expect(template.stdout).toMatch(
      /^VM_MEM UNKNOWN - no VM named "twin" in vApp "golden-images" is visible to monitor@acme at https:\/\/127\.0\.0\.1:\d+, check the name as the tenant portal shows it and --vapp/,
    );
  });

  it('no such VM: UNKNOWN naming the VM and the account', async () => {
    const r = await run('cpu', args(fleet, 'ghost-99'));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_CPU UNKNOWN - no VM named "ghost-99" is visible to monitor@acme at https:\/\/127\.0\.0\.1:\d+, check the name as the tenant portal shows it, the account's org, or give the VM id \(vm-<guid>\)\n$/,
    );
  });

  it('a name with spaces and & (and a vApp with them) is encoded, found and shown as it is', async () => {
    const r = await run('disk', args(fleet, 'Web & DB 01', ['--vapp', 'Sales & Marketing']));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ on Web & DB 01 \(vm-[0-9a-f-]{36}\)/);
    expect(r.stdout).toMatch(/\[OK\] VM Web & DB 01 = vm-[0-9a-f-]{36} in vApp Sales & Marketing/);
  });

  it('resolved once, then reused from the cache: no query on warm runs, until --resolve-ttl', async () => {
    const cache = newCacheDir();
    expect(await delta(fleet, ['query'], () => run('cpu', args(fleet, 'node-2049', [], cache)))).toEqual({ query: 1 });
    expect(
      await delta(fleet, ['query', 'versions', 'login'], async () => {
        for (const p of ['cpu', 'mem', 'disk'] as const) expect((await run(p, args(fleet, 'node-2049', [], cache))).code).toBe(0);
      }),
    ).toEqual({ query: 0, versions: 0, login: 0 });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await delta(fleet, ['query'], () => run('cpu', args(fleet, 'node-2049', ['--resolve-ttl', '1s'], cache)))).toEqual({ query: 1 });
  });

  it('a cached id that answers 403 (VM deleted and re-created) is resolved again at once', async () => {
    const cache = newCacheDir();
    expect((await run('cpu', args(fleet, 'node-1010', [], cache))).code).toBe(0);
    const file = fleetFile(cache);
    const entry = JSON.parse(readFileSync(file, 'utf8'));
    const [key] = Object.keys(entry.data.names);
    const realId = entry.data.names[key].id;
    entry.data.names[key].id = 'vm-11111111-2222-4333-8444-555555555555';
    writeFileSync(file, JSON.stringify(entry), { mode: 0o600 });
    let r!: RunResult;
    expect(await delta(fleet, ['query'], async () => (r = await run('cpu', args(fleet, 'node-1010', ['-vv'], cache))))).toEqual({ query: 1 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/vm-11111111-2222-4333-8444-555555555555 answered HTTP 403: resolving "node-1010" again/);
    expect(r.stdout.split('\n')[0]).toContain(`node-1010 (${realId})`);
    expect(JSON.parse(readFileSync(file, 'utf8')).data.names[key].id).toBe(realId);
  });
});

describe('--discovery', () => {
  it('all 2,000 VMs (no template) in every VM plugin, paged at 128', async () => {
    for (const p of ['cpu', 'disk', 'mem'] as const) {
      let r!: RunResult;
      expect(await delta(fleet, ['query'], async () => (r = await run(p, args(fleet, undefined, ['--discovery']))))).toEqual({ query: 16 });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const list = JSON.parse(r.stdout) as Array<Record<string, string>>;
      expect(list).toHaveLength(2000);
      expect(new Set(list.map((v) => v['{#VM.ID}'])).size).toBe(2000);
      expect(Object.keys(list[0])).toEqual(['{#VM.ID}', '{#VM.NAME}', '{#VM.VAPP}', '{#VM.STATUS}', '{#VM.ORG}']);
      expect(list.filter((v) => v['{#VM.VAPP}'] === 'golden-images')).toEqual([]);
      expect(list.filter((v) => v['{#VM.STATUS}'] === 'POWERED_OFF')).toHaveLength(80);
      expect(list.find((v) => v['{#VM.NAME}'] === 'Web & DB 01')).toMatchObject({ '{#VM.VAPP}': 'Sales & Marketing', '{#VM.STATUS}': 'POWERED_ON' });
    }
  });

  it('filters: --vapp, --include, --exclude', async () => {
    const vapp = JSON.parse((await run('cpu', args(fleet, undefined, ['--discovery', '--vapp', 'Sales & Marketing']))).stdout) as Array<Record<string, string>>;
    expect(vapp).toHaveLength(50);
    expect(new Set(vapp.map((v) => v['{#VM.VAPP}']))).toEqual(new Set(['Sales & Marketing']));
    const include = JSON.parse((await run('mem', args(fleet, undefined, ['--discovery', '--include', '^node-1[0-2]', '--exclude', '5$']))).stdout) as Array<
      Record<string, string>
    >;
    // vApps 10-12 (minus their first VMs' special names: none there), 50 each, minus names ending in 5.
    expect(include.every((v) => /^node-1[0-2]/.test(v['{#VM.NAME}']) && !v['{#VM.NAME}'].endsWith('5'))).toBe(true);
    expect(include).toHaveLength(150 - 15);
    const none = await run('disk', args(fleet, undefined, ['--discovery', '--include', '^nothing$']));
    expect([none.code, none.stdout]).toEqual([0, '[]\n']);
  });

  it('icinga2 and nagios formats: one host per VM with its id and the connection the discovery used', async () => {
    const icinga = await run('cpu', args(fleet, undefined, ['--discovery', '--discovery-format', 'icinga2', '--vapp', 'vapp-01']));
    expect(icinga.code).toBe(0);
    expect(icinga.stdout.match(/^object Host "vm-[0-9a-f-]{36}" \{$/gm)).toHaveLength(50);
    expect(icinga.stdout).toContain('\tdisplay_name = "twin"\n');
    expect(icinga.stdout).toContain(`\tvars.cloudchecks_vcd_password_file = ${JSON.stringify(vcd(fleet).info.passwordFile)}\n`);
    const nagios = await run('cpu', args(fleet, undefined, ['--discovery', '--discovery-format', 'nagios', '--vapp', 'Sales & Marketing']));
    expect(nagios.stdout.match(/^define host \{$/gm)).toHaveLength(50);
    expect(nagios.stdout).toMatch(/^ {4}alias {11}Web _ DB 01$/m);
    expect(nagios.stdout).toMatch(
      /^ {4}_VCD_ARGS {7}--url https:\/\/127\.0\.0\.1:\d+ --org acme --user monitor --password-file \S+\/vcd-password --ca-file \S+\/ca\.pem$/m,
    );
  });
});

describe('--discovery-file: an inventory an engine loads is never replaced by a failure', () => {
  const fileArgs = (f: string, extra: string[] = []) =>
    args(fleet, undefined, ['--discovery', '--discovery-format', 'icinga2', '--discovery-file', f, ...extra]);

  it('writes through a temporary name, keeps the mode, leaves an unchanged file untouched', async () => {
    const d = mkdtempSync(join(tmpdir(), 'cc-inventory-'));
    const f = join(d, 'vms.conf');
    const first = await run('cpu', fileArgs(f));
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toMatch(/^VM_CPU OK - 2000 VMs in .*vms\.conf \(written, new file\)$/m);
    expect(readFileSync(f, 'utf8').match(/^object Host /gm)).toHaveLength(2000);
    chmodSync(f, 0o640);
    utimesSync(f, 1_000_000, 1_000_000);
    const again = await run('cpu', fileArgs(f));
    expect(again.stdout).toMatch(/\(unchanged, not touched\)/);
    expect(statSync(f).mtimeMs).toBe(1_000_000_000);
    const changed = await run('cpu', fileArgs(f, ['--exclude', '^node-0102$']));
    expect(changed.stdout).toMatch(/^VM_CPU OK - 1999 VMs in .* \(written, was 2000\)$/m);
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(readdirSync(d)).toEqual(['vms.conf']);
  });

  it('refuses an empty or much smaller inventory unless --allow-shrink; errors on stderr, exit 3', async () => {
    const f = join(mkdtempSync(join(tmpdir(), 'cc-inventory-')), 'vms.conf');
    await run('cpu', fileArgs(f));
    const before = readFileSync(f, 'utf8');
    const none = await run('cpu', fileArgs(f, ['--include', '^nothing$']));
    expect([none.code, none.stdout]).toEqual([3, '']);
    expect(none.stderr).toMatch(/^VM_CPU UNKNOWN - discovery found no VM, so .*vms\.conf is kept with its 2000 hosts: .*--allow-shrink/);
    const small = await run('cpu', fileArgs(f, ['--vapp', 'vapp-01']));
    expect(small.stderr).toMatch(/^VM_CPU UNKNOWN - discovery found 50 VMs where .* has 2000 hosts \(fewer than half\)/);
    expect(readFileSync(f, 'utf8')).toBe(before);
    const allowed = await run('cpu', fileArgs(f, ['--vapp', 'vapp-01', '--allow-shrink']));
    expect(allowed.code).toBe(0);
    expect(readFileSync(f, 'utf8').match(/^object Host /gm)).toHaveLength(50);
  });

  it('a failing discovery in a file format writes nothing on stdout: the line is on stderr', async () => {
    vcd(fleet).faults.set([{ kind: 'status', status: 503 }]);
    try {
      for (const extra of [
        ['--discovery-format', 'nagios'],
        ['--discovery-file', join(mkdtempSync(join(tmpdir(), 'cc-inventory-')), 'vms.cfg')],
      ]) {
        const r = await run('cpu', args(fleet, undefined, ['--discovery', ...extra, '--no-cache']));
        expect([r.code, r.stdout]).toEqual([3, '']);
        expect(r.stderr).toMatch(/^VM_CPU UNKNOWN - .*503/);
      }
      // Zabbix reads the line of a failing discovery from stdout, as its engine expects.
      const zabbix = await run('cpu', args(fleet, undefined, ['--discovery', '--no-cache']));
      expect(zabbix.stdout).toMatch(/^VM_CPU UNKNOWN - .*503/);
    } finally {
      vcd(fleet).faults.set([]);
    }
    const usage = await run('cpu', args(fleet, undefined, ['--discovery', '--discovery-format', 'icinga2', '--bogus']));
    expect([usage.code, usage.stdout]).toEqual([3, '']);
    expect(usage.stderr).toMatch(/^VM_CPU UNKNOWN - .*--bogus/);
  });
});

describe("login refusals worded by the server's reason", () => {
  it.each([
    ['User monitor is locked out', /the account is locked out \(too many failed logins\?\), ask the vCD administrator to unlock it/],
    ['The password for user monitor has expired', /the password has expired, set a new one for monitor@acme/],
    ['Invalid credentials', /: wrong user, org or password[;,] check --user, --org and --password-file/],
  ])('401 %j', async (message, wording) => {
    vcd(sim).faults.set([
      {
        path: '^/cloudapi/1.0.0/sessions$',
        method: 'POST',
        kind: 'status',
        status: 401,
        contentType: 'application/json;version=34.0',
        body: JSON.stringify({ minorErrorCode: 'UNAUTHORIZED', message, stackTrace: null }),
      },
    ]);
    try {
      const r = await run('cpu', args(sim, HEALTHY, ['--api-version', '34.0']));
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(/^VM_CPU UNKNOWN - login to https:\/\/127\.0\.0\.1:\d+ as monitor@acme (refused|rejected) \(HTTP 401: /);
      expect(r.stdout).toMatch(wording);
      expect(r.stdout.split('\n')).toHaveLength(2);
    } finally {
      vcd(sim).faults.set([]);
    }
  });
});

describe('the simulator serves what real servers do', () => {
  async function session(s: Simulator): Promise<string> {
    const basic = Buffer.from(`monitor@acme:${readFileSync(vcd(s).info.passwordFile, 'utf8').trim()}`).toString('base64');
    const r = await fetch(`${vcd(s).httpUrl}/cloudapi/1.0.0/sessions`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json;version=38.1' },
    });
    expect(r.status).toBe(200);
    return r.headers.get('x-vmware-vcloud-access-token')!;
  }

  it('/api/versions without a login: only --vcd-versions, deprecated flags, an alpha version', async () => {
    const r = await fetch(`${vcd(newer).httpUrl}/api/versions`);
    const text = await r.text();
    expect([...text.matchAll(/<Version>([^<]+)<\/Version>/g)].map((m) => m[1])).toEqual(['37.0', '38.0', '38.1', '39.0.0-alpha']);
    expect(text).toMatch(/<VersionInfo deprecated="false">/);
  });

  it('the query service: JSON and XML records, paging at most 128, filters with ==, ; , and *', async () => {
    const token = await session(fleet);
    const get = async (query: string, accept: string) => {
      const r = await fetch(`${vcd(fleet).httpUrl}/api/query?${query}`, { headers: { authorization: `Bearer ${token}`, accept } });
      return { status: r.status, text: await r.text() };
    };
    const json = JSON.parse(
      (
        await get(
          'type=vm&format=records&pageSize=500&filter=' + encodeURIComponent('(name==node-01*;isVAppTemplate==false)'),
          'application/*+json;version=38.1',
        )
      ).text,
    );
    expect(json).toMatchObject({ page: 1, pageSize: 128, total: 49 });
    expect(json.record[0]).toMatchObject({ name: 'node-0102', containerName: 'vapp-01', status: 'POWERED_ON', isVAppTemplate: false });
    expect(json.link.map((l: { rel: string }) => l.rel)).toEqual(['lastPage']);
    const or = await get('type=vm&format=records&pageSize=2&filter=' + encodeURIComponent('name==twin,name==Web & DB 01'), 'application/*+xml;version=38.1');
    expect(or.text).toMatch(/total="4"/); // two VMs and the template named twin, and Web & DB 01
    expect(or.text).toMatch(/<Link rel="nextPage" href="[^"]*page=2/);
    expect(or.text).toContain('name="Web &amp; DB 01" containerName="Sales &amp; Marketing"');
    expect((await get('type=vm&format=records&filter=' + encodeURIComponent('name=like=x'), 'application/*+xml;version=38.1')).status).toBe(400);
    expect((await get('type=vm&format=records', 'application/*+xml;version=30.0')).status).toBe(406);
  });
});

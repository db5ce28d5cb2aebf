// One provider (System) account for every organisation: the built VM checks against the
// simulator's three organisations (acme, the tenant account's own; globex, with a VM named as
// one of acme's; initech), through the admin queries; the tenant account keeps its own view.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const ACME_WEB = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';

let sim: Simulator;
beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vm_cpu'))) throw new Error('dist/check_vm_cpu is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs([], [VCD_MODULE]);
});
afterAll(() => sim?.close());

type Account = 'provider' | 'tenant';
function run(account: Account, extra: string[], plugin = 'check_vm_cpu'): Promise<RunResult> {
  const vcd = sim.apis.vcd;
  const login = account === 'provider' ? ['-U', 'provider', '-o', 'System'] : ['-U', 'monitor', '-o', 'acme'];
  const argv = [
    '-u',
    vcd.httpsUrl,
    '--ca-file',
    sim.caFile,
    ...login,
    '--password-file',
    vcd.info.passwordFile,
    '--cache-dir',
    mkdtempSync(join(tmpdir(), 'cc-prov-')),
    ...extra,
  ];
  return runExecutable(join(DIST, plugin), argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
}
const zabbix = (r: RunResult) => JSON.parse(r.stdout) as Array<Record<string, string>>;
const orgsOf = (list: Array<Record<string, string>>) => [...new Set(list.map((v) => v['{#VM.ORG}']))].sort();

describe('discovery', () => {
  it('the provider account lists the VMs of every organisation, each with its organisation', async () => {
    const r = await run('provider', ['--discovery']);
    expect(r.code, r.stdout).toBe(0);
    const list = zabbix(r);
    expect(orgsOf(list)).toEqual(['acme', 'globex', 'initech']);
    expect(list.filter((v) => v['{#VM.NAME}'] === 'web-01').map((v) => v['{#VM.ORG}'])).toEqual(['acme', 'globex']);
    const tenant = zabbix(await run('tenant', ['--discovery']));
    expect(list.map((v) => v['{#VM.ID}'])).toEqual([...tenant.map((v) => v['{#VM.ID}']), ...list.slice(tenant.length).map((v) => v['{#VM.ID}'])]);
    expect(list.slice(tenant.length).map((v) => `${v['{#VM.ORG}']}/${v['{#VM.VAPP}']}/${v['{#VM.NAME}']}`)).toEqual([
      'globex/portal/erp-02',
      'globex/portal/web-01',
      'initech/reports/tps-report',
    ]);
    expect(list.some((v) => v['{#VM.NAME}'] === 'ubuntu-22.04')).toBe(false); // a template VM
  });

  it('the tenant account lists its own organisation only, as before (type=vm)', async () => {
    const before = sim.apis.vcd.stats.counts.query ?? 0;
    const r = await run('tenant', ['--discovery']);
    expect(r.code, r.stdout).toBe(0);
    const list = zabbix(r);
    expect(orgsOf(list)).toEqual(['acme']);
    expect(list.length).toBeGreaterThan(5);
    expect((sim.apis.vcd.stats.counts.query ?? 0) - before).toBe(1);
  });

  it('--tenant-org narrows the provider account to one organisation (any case), in every engine format', async () => {
    const r = await run('provider', ['--discovery', '--tenant-org', 'GLOBEX']);
    expect(r.code, r.stdout).toBe(0);
    expect(zabbix(r).map((v) => [v['{#VM.NAME}'], v['{#VM.ORG}']])).toEqual([
      ['erp-02', 'globex'],
      ['web-01', 'globex'],
    ]);
    const icinga = await run('provider', ['--discovery', '--tenant-org', 'initech', '--discovery-format', 'icinga2']);
    expect(icinga.stdout).toContain('(org System, tenant org initech): 1 VM.');
    expect(icinga.stdout).toContain('\tvars.cloudchecks_vm_org = "initech"\n');
    expect(icinga.stdout).toContain('\tvars.cloudchecks_vcd_org = "System"\n');
    const nagios = await run('provider', ['--discovery', '--discovery-format', 'nagios']);
    const orgs = nagios.stdout.match(/^ {4}_VM_ORG {9}(\S+)$/gm)?.map((l) => l.trim().split(/\s+/)[1]);
    expect([...new Set(orgs)]).toEqual(['acme', 'globex', 'initech']);
    expect(orgs?.filter((o) => o !== 'acme')).toEqual(['globex', 'globex', 'initech']);
  });

  it('an unknown --tenant-org is one UNKNOWN naming the organisations there are', async () => {
    const r = await run('provider', ['--discovery', '--tenant-org', 'umbrella']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_CPU UNKNOWN - no organisation named "umbrella" at https:\/\/127\.0\.0\.1:\d+ \(it has "acme", "globex", "initech"\), check --tenant-org: the organisation's name as in its tenant portal URL\n$/,
    );
  });

  it('--tenant-org with a tenant account is refused before any request: drop it or log in as System', async () => {
    const before = { ...sim.apis.vcd.stats.counts };
    const r = await run('tenant', ['--vm', 'web-01', '--tenant-org', 'globex']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      'VM_CPU UNKNOWN - --tenant-org "globex" needs a provider account: monitor@acme sees only its own organisation, drop --tenant-org, or log in as a System user (--org System) (see --help)\n',
    );
    expect(sim.apis.vcd.stats.counts).toEqual(before);
  });
});

describe('--vm NAME with the provider account', () => {
  it('a name in two organisations is one UNKNOWN naming both, never a pick', async () => {
    const r = await run('provider', ['--vm', 'web-01']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^VM_CPU UNKNOWN - 2 VMs named "web-01" in 2 organisations: org "acme" vApp "shop" \(vm-4f2c1a9e-[0-9a-f-]+\), org "globex" vApp "portal" \(vm-[0-9a-f-]+\), add --tenant-org ORG, or give the VM id with --vm\n$/,
    );
  });

  it('--tenant-org picks the organisation; a name in one organisation needs none', async () => {
    const acme = await run('provider', ['--vm', 'web-01', '--tenant-org', 'acme']);
    expect(acme.code, acme.stdout).toBe(0);
    expect(acme.stdout).toContain(`on web-01 (${ACME_WEB})`);
    const long = await run('provider', ['--vm', 'web-01', '--tenant-org', 'acme', '-vv']);
    expect(long.stdout).toContain(`VM web-01 = ${ACME_WEB} in vApp shop of org acme`);
    const erp = await run('provider', ['--vm', 'erp-02']);
    expect(erp.code, erp.stdout).toBe(0);
    expect(erp.stdout).toMatch(/^VM_CPU OK - .* on erp-02 \(vm-/);
  });

  it('the tenant account resolves its own web-01 as it always did, and cannot read another organisation’s VM', async () => {
    const own = await run('tenant', ['--vm', 'web-01']);
    expect(own.code, own.stdout).toBe(0);
    expect(own.stdout).toContain(`on web-01 (${ACME_WEB})`);
    const provider = await run('provider', ['--discovery', '--tenant-org', 'globex']);
    const globexWeb = zabbix(provider).find((v) => v['{#VM.NAME}'] === 'web-01')!['{#VM.ID}'];
    const other = await run('tenant', ['--vm', globexWeb]);
    expect(other.code).toBe(3);
    expect(other.stdout).toMatch(/VM not found or not visible to this user monitor@acme \(HTTP 403/);
  });
});

describe('check_vm_fleet lists as discovery does', () => {
  it('the provider reads every organisation, --tenant-org one; a tenant account may not narrow', async () => {
    const all = await run('provider', [], 'check_vm_fleet');
    const tenant = await run('tenant', [], 'check_vm_fleet');
    const count = (r: RunResult) => Number(/^VM_FLEET \w+ - (\d+) VMs read/.exec(r.stdout)?.[1]);
    expect(count(all), all.stdout).toBe(count(tenant) + 3);
    const globex = await run('provider', ['--tenant-org', 'globex'], 'check_vm_fleet');
    expect(globex.stdout).toMatch(/^VM_FLEET OK - 2 VMs read /);
    const refused = await run('tenant', ['--tenant-org', 'globex'], 'check_vm_fleet');
    expect(refused.code).toBe(3);
    expect(refused.stdout).toMatch(/^VM_FLEET UNKNOWN - --tenant-org "globex" needs a provider account/);
  });

  it("names each VM's organisation: on every line of the provider's run, in its JSON", async () => {
    const all = await run('provider', [], 'check_vm_fleet');
    const lines = all.stdout.split('\n').filter((l) => /^\[\w+\] .* \(vm-[0-9a-f-]+, vApp /.test(l));
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(l).toMatch(/, org (acme|globex|initech)\): /);
    expect(lines.some((l) => /^\[\w+\] tps-report \(vm-[0-9a-f-]+, vApp reports, org initech\): /.test(l))).toBe(true);
    const json = JSON.parse((await run('provider', ['--output', 'json'], 'check_vm_fleet')).stdout) as { vms: Record<string, { name: string; org?: string }> };
    expect(
      Object.values(json.vms)
        .filter((v) => v.name === 'web-01')
        .map((v) => v.org)
        .sort(),
    ).toEqual(['acme', 'globex']);
  });
});

describe('the simulator answers the admin queries as vCD does', () => {
  /** One HTTPS request to the simulator's vcd API: status and body. */
  function call(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    const url = new URL(path, sim.apis.vcd.httpsUrl);
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, ca: readFileSync(sim.caFile) }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }
  async function query(user: string, org: string, type: string) {
    const password = readFileSync(sim.apis.vcd.info.passwordFile, 'utf8').trim();
    const provider = org === 'System' ? '/provider' : '';
    const login = await call('POST', `/cloudapi/1.0.0/sessions${provider}`, {
      authorization: `Basic ${Buffer.from(`${user}@${org}:${password}`).toString('base64')}`,
      accept: 'application/json;version=34.0',
    });
    expect(login.status).toBe(200);
    const token = String(login.headers['x-vmware-vcloud-access-token']);
    return call('GET', `/api/query?type=${type}&format=records&pageSize=128`, { authorization: `Bearer ${token}`, accept: 'application/*+xml;version=34.0' });
  }

  it('a tenant asking type=adminVM gets 403 ACCESS_TO_RESOURCE_IS_FORBIDDEN; its organization query lists its own', async () => {
    const admin = await query('monitor', 'acme', 'adminVM');
    expect(admin.status).toBe(403);
    expect(admin.body).toMatch(/<Error [^>]*minorErrorCode="ACCESS_TO_RESOURCE_IS_FORBIDDEN"/);
    const orgs = await query('monitor', 'acme', 'organization');
    expect([...orgs.body.matchAll(/<OrgRecord [^>]* name="([^"]+)"/g)].map((m) => m[1])).toEqual(['acme']);
  });

  it('the provider gets AdminVMRecords with the org href, and every organisation', async () => {
    const admin = await query('provider', 'System', 'adminVM');
    expect(admin.status).toBe(200);
    expect(admin.body).toMatch(/<AdminVMRecord [^>]*org="https:\/\/127\.0\.0\.1:\d+\/api\/org\/[0-9a-f-]{36}"/);
    const orgs = await query('provider', 'System', 'organization');
    expect([...orgs.body.matchAll(/<OrgRecord [^>]* name="([^"]+)"/g)].map((m) => m[1])).toEqual(['System', 'acme', 'globex', 'initech']);
  });
});

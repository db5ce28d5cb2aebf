// check_vdc as an engine runs it: the built dist/check_vdc against the simulator's VDCs over
// HTTPS, as a tenant (orgVdc, API 34.0: VM counts from the VM list) and as a provider
// (adminOrgVdc, API 39.0: VM counts from the records), and the discovery formats with the
// names tenants chose in the hostile scenario. Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { INJECTION_MARKER } from '../../sim/vcd/fleet';
import { VCD_MODULE } from '../../sim/vcd/module';
import { parsePerfdataStrict } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const PROD = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

let tenant: Simulator; // org acme, every version: 34.0 is chosen
let provider: Simulator; // a System login, versions 37.0 and 39.0
let hostile: Simulator; // VDC and policy names chosen to attack the monitoring
let sparse: Simulator; // a System login whose records leave optional attributes out

beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vdc'))) throw new Error('dist/check_vdc is missing: run `node build.mjs dist` first');
  [tenant, provider, hostile, sparse] = await Promise.all([
    startSimulatorFromArgs([], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-org', 'System', '--vcd-user', 'provider', '--vcd-versions', '37.0,39.0'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'hostile'], [VCD_MODULE]),
    startSimulatorFromArgs(
      ['--vcd-org', 'System', '--vcd-user', 'provider', '--vcd-versions', '37.0,39.0', '--vcd-omit-attributes', 'memoryLimitMB,storageUsedMB'],
      [VCD_MODULE],
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([tenant, provider, hostile, sparse].filter(Boolean).map((s) => s.close()));
});

function run(s: Simulator, extra: string[]): Promise<RunResult> {
  const { vcd } = s.apis;
  const argv = ['-u', vcd.httpsUrl, '--ca-file', s.caFile, '-U', vcd.info.user, '-o', vcd.info.org, '--password-file', vcd.info.passwordFile];
  argv.push('--cache-dir', mkdtempSync(join(tmpdir(), 'cc-vdc-cache-')), ...extra);
  return runExecutable(join(DIST, 'check_vdc'), argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
}
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];
const perfOf = (r: RunResult) => parsePerfdataStrict(firstLine(r).split(' | ')[1] ?? '');

describe('check_vdc as a tenant', () => {
  it('every VDC: the disabled one CRITICAL, the one near its memory limit and the failed VM named', async () => {
    const r = await run(tenant, []);
    expect(r.code, r.stdout).toBe(2);
    expect(firstLine(r)).toMatch(
      /^VDC CRITICAL - 5 VDCs: acme-analytics memory 88% \(56\.3 GiB of 64 GiB\), acme-archive disabled, acme-dev 1 VM failed: staging-15 \(FAILED_CREATION\) \| /,
    );
    expect(r.stdout).toMatch(/^\[WARNING\] acme-dev: VM staging-15 in vApp staging \(vm-[0-9a-f-]{36}\) is FAILED_CREATION$/m);
    expect(r.stdout).toMatch(
      /^\[OK\] acme-payg: cpu 2000 MHz used, unlimited, memory 2 GiB used, unlimited, storage Any 80 GiB used, unlimited, 1 of 1 VMs running$/m,
    );
    const perf = perfOf(r);
    expect(perf.find((m) => m.label === 'acme-prod__memory')).toMatchObject({ value: 30 * 2 ** 30, uom: 'B', max: 64 * 2 ** 30 });
    expect(perf.find((m) => m.label === 'acme-prod__cpu_pct')).toMatchObject({ value: 42, uom: '%', warn: '80', crit: '90' });
    // Pay-as-you-go: no percentage, no max.
    expect(perf.filter((m) => m.label.startsWith('acme-payg__')).map((m) => m.label)).toEqual([
      'acme-payg__cpu_mhz',
      'acme-payg__memory',
      'acme-payg__any_h2b505597__storage',
      'acme-payg__vms',
      'acme-payg__vms_running',
    ]);
    expect(perf.find((m) => m.label === 'acme-payg__memory')?.max).toBeNull();
    expect(r.stderr).toBe('');
  });

  it('one VDC by name, by id or by its portal URL; per-resource thresholds', async () => {
    const byName = await run(tenant, ['--vdc', 'acme-analytics']);
    expect(byName.code).toBe(1);
    expect(firstLine(byName)).toMatch(/^VDC WARNING - acme-analytics: memory 88% \(56\.3 GiB of 64 GiB\), cpu 37\.5% /);
    const raised = await run(tenant, ['--vdc', 'acme-analytics', '--memory-warning', '90', '--memory-critical', '95']);
    expect(raised.code).toBe(0);
    const byUrl = await run(tenant, ['--vdc', `https://vcd.example.com/tenant/acme/vdcs/${PROD}/compute-policies`, '-c', '40']);
    expect(byUrl.code).toBe(2);
    expect(firstLine(byUrl)).toMatch(/^VDC CRITICAL - acme-prod: cpu 42% \(8400 MHz of 20000 MHz\), memory 46\.9% .*, 9 of 10 VMs running \| /);
    const dev = await run(tenant, ['--vdc', `urn:vcloud:vdc:5e6f7081-92a3-4db4-8e5f-60718293a4b5`, '--output', 'json']);
    expect(dev.code).toBe(1);
    const doc = JSON.parse(dev.stdout) as { state: string; items: Array<{ state: string; text: string }>; metrics: Array<{ label: string }> };
    expect(doc.state).toBe('WARNING');
    expect(doc.items.map((i) => i.state)).toEqual(['WARNING', 'WARNING']);
    expect(doc.metrics.map((m) => m.label)).toContain('acme-dev__silver_ha0b43df0__storage_pct');
  });

  it('clear UNKNOWNs: --tenant-org with a tenant account, a VDC nobody sees', async () => {
    const org = await run(tenant, ['--tenant-org', 'globex']);
    expect(org.code).toBe(3);
    expect(org.stdout).toBe(
      'VDC UNKNOWN - --tenant-org "globex" needs a provider account: monitor@acme sees only its own organisation, drop --tenant-org, or log in as a System user (--org System) (see --help)\n',
    );
    const none = await run(tenant, ['--vdc', 'nope']);
    expect(none.code).toBe(3);
    expect(none.stdout).toMatch(
      /^VDC UNKNOWN - no VDC named "nope" is visible to monitor@acme at https:\/\/127\.0\.0\.1:\d+, check --vdc as the tenant portal shows it\n$/,
    );
  });

  it('discovery: Zabbix LLD of the VDCs', async () => {
    const r = await run(tenant, ['--discovery']);
    expect(r.code).toBe(0);
    const lld = JSON.parse(r.stdout) as Array<Record<string, string>>;
    expect(lld).toHaveLength(5);
    expect(lld).toContainEqual({ '{#VDC.ID}': PROD, '{#VDC.NAME}': 'acme-prod', '{#VDC.ORG}': 'acme' });
  });
});

describe('check_vdc as a provider', () => {
  it('every organisation through the admin queries, the VM counts from the records (API 39.0)', async () => {
    const r = await run(provider, ['-v']);
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(/^VDC CRITICAL - 7 VDCs: acme-analytics \(org acme\) memory 88% .*acme-archive \(org acme\) disabled.*\[.*API version 39\.0/);
    expect(r.stdout).toMatch(/^\[OK\] globex-prod \(org globex\): cpu 42% /m);
    expect(r.stdout).toMatch(/^\[OK\] initech-prod \(org initech\): cpu 12\.5% /m);
    expect(r.stdout).toMatch(/^\[OK\] acme-prod \(org acme\): .*9 of 10 VMs running$/m);
    const counts = provider.apis.vcd.stats.counts;
    expect(counts.query).toBeGreaterThanOrEqual(3);
  });

  it('--tenant-org narrows to one organisation', async () => {
    const r = await run(provider, ['--tenant-org', 'globex']);
    expect(r.code).toBe(0);
    // Its own VMs (web-01, erp-02, both running), not acme-prod's.
    expect(firstLine(r)).toMatch(/^VDC OK - globex-prod \(org globex\): cpu 42% .*, 2 of 2 VMs running \| globex__globex-prod__cpu_pct=42%;80;90;0;100 /);
    const lld = JSON.parse((await run(provider, ['--tenant-org', 'acme', '--discovery'])).stdout) as Array<Record<string, string>>;
    expect(lld.map((v) => v['{#VDC.ORG}'])).toEqual(['acme', 'acme', 'acme', 'acme', 'acme']);
    // The generated objects say whose VDCs they are, as the VM discovery's do.
    const icinga = await run(provider, ['--tenant-org', 'globex', '--discovery', '--discovery-format', 'icinga2']);
    expect(icinga.code).toBe(0);
    expect(icinga.stdout).toContain('(org System, tenant org globex): 1 VDC.');
  });
});

describe('check_vdc with names tenants chose', () => {
  it('the status line, perfdata and every discovery format stay inert', async () => {
    const r = await run(hostile, []);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const m of perfOf(r)) expect(m.label).toMatch(/^[a-z0-9_-]+$/);
    const labels = perfOf(r).map((m) => m.label);
    expect(new Set(labels).size).toBe(labels.length);
    const icinga = await run(hostile, ['--discovery', '--discovery-format', 'icinga2']);
    expect(icinga.code).toBe(0);
    expect(icinga.stdout).toMatch(/^object Host "vdc-7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f" \{$/m);
    expect(icinga.stdout).toContain('vars.cloudchecks_vdc_name = "$$(touch /tmp/cloudchecks-injected)"');
    expect(icinga.stdout).not.toMatch(/[^$]\$(?!\$)[a-z]/i);
    const nagios = await run(hostile, ['--discovery', '--discovery-format', 'nagios']);
    expect(nagios.code).toBe(0);
    for (const line of nagios.stdout.split('\n').filter((l) => /^ {4}(alias|display_name|_VDC_ORG)/.test(l))) expect(line).not.toMatch(/[$`'"();&|<>\\]/);
    expect(existsSync(INJECTION_MARKER)).toBe(false);
  });
});

describe('check_vdc when records leave optional attributes out', () => {
  it('each missing figure unknown and named, its perfdata omitted, everything else judged; discovery unharmed', async () => {
    const r = await run(sparse, ['--tenant-org', 'acme']);
    // acme-archive is still disabled: the figures that are there are still judged.
    expect(r.code, r.stdout).toBe(2);
    expect(r.stdout).toContain('acme-archive (org acme) disabled');
    expect(r.stdout).toContain('memory 30 GiB used, limit unknown (AdminVdcRecord has no memoryLimitMB)');
    expect(r.stdout).toMatch(/storage Gold use unknown, limit 1 TiB \(AdminOrgVdcStorageProfileRecord has no storageUsedMB\)/);
    const labels = perfOf(r).map((m) => m.label);
    expect(labels).toContain('acme__acme-prod__cpu_pct');
    expect(labels.filter((l) => l.endsWith('__memory_pct') || l.endsWith('__storage'))).toEqual([]);
    expect(new Set(labels).size).toBe(labels.length);
    // A pay-as-you-go VDC whose record has no memory limit: OK on what it has, the limit named as unknown, never UNKNOWN for good.
    const payg = await run(sparse, ['--tenant-org', 'acme', '--vdc', 'acme-payg']);
    expect(payg.code, payg.stdout).toBe(0);
    expect(payg.stdout).toMatch(/^VDC OK - acme-payg.*memory [\d.]+ [GMT]iB used, limit unknown \(AdminVdcRecord has no memoryLimitMB\)/);
    expect(perfOf(payg).find((m) => m.label.endsWith('__memory'))?.max ?? null).toBeNull();
    const discovery = await run(sparse, ['--tenant-org', 'acme', '--discovery']);
    expect(discovery.code, discovery.stdout).toBe(0);
    expect((JSON.parse(discovery.stdout) as unknown[]).length).toBe(5);
  });
});

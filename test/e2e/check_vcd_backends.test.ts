// check_vcd_backends as an engine runs it: the built executable against the simulator's vCenter
// servers (CloudAPI virtualCenters: one disconnected, one disabled) and datastores (query
// service: one at 93 %), the narrowing options, discovery, hostile names inert, a page of some
// 100,000 datastores and a vCenter list that never ends within -t.
// Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { parsePerfdataStrict } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const EXE = join(resolve(__dirname, '../../dist'), 'check_vcd_backends');

let sim: Simulator;
let hostile: Simulator;
let bulk: Simulator;
let endless: Simulator;

beforeAll(async () => {
  if (!existsSync(EXE)) throw new Error('dist/check_vcd_backends is missing: run `node build.mjs dist` first');
  [sim, hostile, bulk, endless] = await Promise.all([
    startSimulatorFromArgs([], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'hostile'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'healthy', '--vcd-datastores', '99999', '--vcd-query-page-size', '100000'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'healthy', '--vcd-cloudapi-endless'], [VCD_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([sim, hostile, bulk, endless].filter(Boolean).map((s) => s.close()));
});

function run(s: Simulator, account: 'system' | 'tenant', extra: string[]): Promise<RunResult> {
  const { vcd } = s.apis;
  const [user, org] = account === 'system' ? [vcd.info.providerUser, 'System'] : [vcd.info.user, vcd.info.org];
  const cacheDir = mkdtempSync(join(tmpdir(), 'cc-backends-cache-'));
  const argv = ['-u', vcd.httpsUrl, '--ca-file', s.caFile, '-U', user, '-o', org, '--password-file', vcd.info.passwordFile, '--cache-dir', cacheDir, ...extra];
  return runExecutable(EXE, argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME }, killAfterMs: 40_000 });
}
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];

describe('check_vcd_backends', () => {
  it('the default cloud: vc-prod-02 disconnected and ds-silver-02 at 93 % CRITICAL, the disabled ones named, versions in the long output', async () => {
    const r = await run(sim, 'system', []);
    expect(r.code, r.stdout).toBe(2);
    expect(firstLine(r)).toMatch(
      /^VCD_BACKENDS CRITICAL - 3 vCenters, 4 datastores: vCenter vc-prod-02 not connected \(listener DISCONNECTED\), datastore ds-silver-02 93% used of 10240 GiB \| /,
    );
    expect(parsePerfdataStrict(firstLine(r).split(' | ')[1]).map((m) => [m.label, m.value])).toEqual([
      ['vc-lab-03__connected', 0],
      ['vc-prod-01__connected', 1],
      ['vc-prod-02__connected', 0],
      ['vc-lab-03__ds-old-04__used_pct', 20],
      ['vc-lab-03__ds-old-04__provisioned_pct', 20],
      ['vc-prod-01__ds-gold-01__used_pct', 55],
      ['vc-prod-01__ds-gold-01__provisioned_pct', 80],
      ['vc-prod-01__ds-silver-02__used_pct', 93],
      ['vc-prod-01__ds-silver-02__provisioned_pct', 140],
      ['vc-prod-02__ds-nfs-03__used_pct', 40],
      ['vc-prod-02__ds-nfs-03__provisioned_pct', 180],
    ]);
    expect(r.stdout).toMatch(/^\[OK\] vCenter vc-lab-03: disabled, not connected \(listener DISCONNECTED\), cluster health GRAY, version 8\.0\.2$/m);
    expect(r.stdout).toMatch(/^\[OK\] datastore ds-old-04 \(vCenter vc-lab-03, VMFS6\): disabled, 20% used of 10240 GiB, 20% provisioned$/m);
    expect(r.stderr).toBe('');
  });

  it('the options: --vcenter, --datastore, --overcommit-*, --disabled-state, and a tenant account refused', async () => {
    const vc = await run(sim, 'system', ['--vcenter', 'vc-prod-01']);
    expect(firstLine(vc)).toMatch(/^VCD_BACKENDS CRITICAL - 1 vCenter, 2 datastores: datastore ds-silver-02 /);
    const ds = await run(sim, 'system', ['--datastore', 'ds-gold-01']);
    expect(ds.code).toBe(0);
    expect(firstLine(ds)).toMatch(/^VCD_BACKENDS OK - datastore ds-gold-01 \(vCenter vc-prod-01, VMFS6\): 55% used of 10240 GiB, 80% provisioned \| /);
    const over = await run(sim, 'system', ['--datastore', 'ds-nfs-03', '--overcommit-warning', '150', '--overcommit-critical', '200']);
    expect(over.code).toBe(1);
    expect(firstLine(over)).toMatch(/provisioned_pct=180%;150;200;0$/);
    const disabled = await run(sim, 'system', ['--vcenter', 'vc-lab-03', '--disabled-state', 'warning']);
    expect(disabled.code).toBe(1);
    const alone = await run(sim, 'system', ['--no-datastores']);
    expect(firstLine(alone)).toMatch(/^VCD_BACKENDS CRITICAL - 3 vCenters: vCenter vc-prod-02 not connected \(listener DISCONNECTED\) \| /);
    const byId = await run(sim, 'system', ['--discovery', 'datastores']);
    const silver = (JSON.parse(byId.stdout) as Array<Record<string, string>>).find((d) => d['{#DATASTORE.NAME}'] === 'ds-silver-02')!;
    const one = await run(sim, 'system', ['--datastore', silver['{#DATASTORE.ID}']]);
    expect(one.code).toBe(2);
    expect(firstLine(one)).toMatch(/^VCD_BACKENDS CRITICAL - datastore ds-silver-02 \(vCenter vc-prod-01, VMFS6\): 93% used/);
    const none = await run(sim, 'system', ['--datastore', 'nope']);
    expect(none.code).toBe(3);
    expect(firstLine(none)).toMatch(/^VCD_BACKENDS UNKNOWN - no datastore named "nope" is visible to .*, check --datastore/);
    const tenant = await run(sim, 'tenant', []);
    expect(tenant.code).toBe(3);
    expect(firstLine(tenant)).toMatch(/^VCD_BACKENDS UNKNOWN - check_vcd_backends needs a System account \(--org System\)/);
  });

  it('--discovery vcenters|datastores: Zabbix LLD, hostile names inert', async () => {
    const vcs = JSON.parse((await run(sim, 'system', ['--discovery', 'vcenters'])).stdout) as Array<Record<string, string>>;
    expect(vcs.map((v) => v['{#VCENTER.NAME}'])).toEqual(['vc-prod-01', 'vc-prod-02', 'vc-lab-03']);
    const r = await run(hostile, 'system', ['--discovery', 'datastores']);
    expect(r.code).toBe(0);
    const lld = JSON.parse(r.stdout) as Array<Record<string, string>>;
    expect(lld).toHaveLength(8);
    for (const d of lld) expect(d['{#DATASTORE.NAME}']).not.toMatch(/[\n\r\u2028\u2029\u0085\u001b]/);
    const judged = await run(hostile, 'system', []);
    expect(judged.code).toBe(2);
    expect(judged.stdout.trimEnd().split('\n')).toHaveLength(1 + 4 + 8);
    const labels = parsePerfdataStrict(firstLine(judged).split(' | ')[1]).map((m) => m.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const l of labels) expect(l).toMatch(/^[a-z0-9_-]+$/);
  });

  it('a page of some 100,000 datastores, and a vCenter list that never ends, each within -t and one clear line', async () => {
    const many = await run(bulk, 'system', ['-t', '30']);
    expect(many.code, many.stdout.slice(0, 500)).toBe(0);
    expect(firstLine(many)).toMatch(/^VCD_BACKENDS OK - 1 vCenter, 100000 datastores: all connected and within their thresholds \| /);
    expect(many.stdout).toMatch(/perfdata for the first \d+ of 100001 vCenters and datastores/);
    const started = Date.now();
    const never = await run(endless, 'system', ['-t', '20']);
    expect(never.code).toBe(3);
    expect(firstLine(never)).toMatch(
      /^VCD_BACKENDS UNKNOWN - (the CloudAPI of \S+ returned more than 1000 pages of vCenter servers|.*timed out .*reading page \d+ of the vCenter servers)/,
    );
    expect(never.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_500 + 2_000);
  }, 90_000);
});

// The simulator's run-time control (docs/simulator.md), with which an admin rehearses each break
// against the built plugins: a VM powered off and on, a VDC filled, an operator degraded and
// healed; and a provider login that sees every organisation's VDCs, a tenant login only its own.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
const ACME_WEB = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';

let sim: Simulator;
beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vdc'))) throw new Error('dist/check_vdc is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs([], [VCD_MODULE, CLUSTER_MODULE]);
});
afterAll(() => sim?.close());

/** One control call as a user makes it (curl -X PUT …): the status and the answer's text. */
function control(api: 'vcd' | 'cluster', path: string): Promise<{ status: number; text: string }> {
  return new Promise((ok, fail) => {
    const req = request(new URL(path, sim.apis[api].httpsUrl), { method: 'PUT', ca: readFileSync(sim.caFile) }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => ok({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', fail);
    req.end();
  });
}

function vcd(plugin: string, account: 'provider' | 'tenant', extra: string[]): Promise<RunResult> {
  const login = account === 'provider' ? ['-U', 'provider', '-o', 'System'] : ['-U', 'monitor', '-o', 'acme'];
  const api = sim.apis.vcd;
  return runExecutable(
    join(DIST, plugin),
    [
      '-u',
      api.httpsUrl,
      '--ca-file',
      sim.caFile,
      ...login,
      '--password-file',
      api.info.passwordFile,
      '--cache-dir',
      mkdtempSync(join(tmpdir(), 'cc-ctl-')),
      ...extra,
    ],
    { env: ENV },
  );
}

describe("the provider login sees every organisation's VDCs", () => {
  it("provider: acme's, globex's and initech's; tenant: acme's only", async () => {
    const orgs = (r: RunResult) => [...new Set((JSON.parse(r.stdout) as Array<Record<string, string>>).map((v) => v['{#VDC.ORG}']))].sort();
    expect(orgs(await vcd('check_vdc', 'provider', ['--discovery']))).toEqual(['acme', 'globex', 'initech']);
    expect(orgs(await vcd('check_vdc', 'tenant', ['--discovery']))).toEqual(['acme']);
  });
});

describe('run-time control', () => {
  it('powers a VM off and on: its record and its check follow', async () => {
    expect(await control('vcd', `/_sim/vcd/power?vm=${ACME_WEB}&state=off`)).toEqual({ status: 200, text: `${ACME_WEB} (web-01) is POWERED_OFF\n` });
    const off = await vcd('check_vm_cpu', 'tenant', ['--vm', ACME_WEB]);
    expect(off.stdout).toMatch(/^VM_CPU UNKNOWN - .*powered off/);
    await control('vcd', `/_sim/vcd/power?vm=${ACME_WEB}&state=on`);
    expect((await vcd('check_vm_cpu', 'tenant', ['--vm', ACME_WEB])).stdout).toMatch(/^VM_CPU OK - /);
    expect((await control('vcd', '/_sim/vcd/power?vm=web-01&state=on')).text).toMatch(/^vm=web-01: 2 VMs have that id or name; give the id/);
    expect((await control('vcd', `/_sim/vcd/power?vm=${ACME_WEB}&state=sleeping`)).status).toBe(400);
  });

  it("sets a VDC's use: check_vdc turns CRITICAL naming it", async () => {
    expect((await control('vcd', '/_sim/vcd/vdc?vdc=acme-prod&memory=97')).text).toMatch(/^acme-prod: cpu \d+ of \d+ MHz, memory \d+ of \d+ MB\n$/);
    const r = await vcd('check_vdc', 'tenant', ['--vdc', 'acme-prod']);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stdout).toMatch(/^VDC CRITICAL - .*acme-prod.*memory 97/);
    await control('vcd', '/_sim/vcd/vdc?vdc=acme-prod&memory=40');
    expect((await vcd('check_vdc', 'tenant', ['--vdc', 'acme-prod'])).code).toBe(0);
    expect((await control('vcd', '/_sim/vcd/vdc?vdc=nowhere&cpu=1')).status).toBe(404);
  });

  it("sets a provider VDC's use and a VM's snapshot: check_pvdc and check_vm_snapshot follow", async () => {
    expect((await control('vcd', '/_sim/vcd/pvdc?pvdc=pvdc-gold-01&memory=85')).text).toMatch(/^pvdc-gold-01: cpu \d+ of \d+ MHz, memory \d+ of \d+ MB\n$/);
    const pvdc = await vcd('check_pvdc', 'provider', ['--pvdc', 'pvdc-gold-01']);
    expect(pvdc.code, pvdc.stdout).toBe(1);
    expect(pvdc.stdout).toMatch(/^PVDC WARNING - /);
    await control('vcd', '/_sim/vcd/pvdc?pvdc=pvdc-gold-01&memory=40');
    expect((await vcd('check_pvdc', 'provider', ['--pvdc', 'pvdc-gold-01'])).code).toBe(0);
    expect((await control('vcd', '/_sim/vcd/pvdc?pvdc=nowhere&memory=1')).status).toBe(404);
    expect((await control('vcd', '/_sim/vcd/pvdc?pvdc=pvdc-gold-01&memory=lots')).text).toBe('memory=lots: give a percentage, e.g. memory=95\n');

    expect((await control('vcd', `/_sim/vcd/snapshot?vm=${ACME_WEB}&days=4`)).text).toBe(`${ACME_WEB} (web-01) has one snapshot 4 days old\n`);
    const old = await vcd('check_vm_snapshot', 'tenant', ['--vm', ACME_WEB]);
    expect(old.code, old.stdout).toBe(1);
    expect(old.stdout).toMatch(/^VM_SNAPSHOT WARNING - 1 snapshot on .*, oldest 4d old/);
    expect((await control('vcd', `/_sim/vcd/snapshot?vm=${ACME_WEB}&days=none`)).text).toBe(`${ACME_WEB} (web-01) has no snapshot\n`);
    expect((await vcd('check_vm_snapshot', 'tenant', ['--vm', ACME_WEB])).stdout).toMatch(/^VM_SNAPSHOT OK - /);
    expect((await control('vcd', `/_sim/vcd/snapshot?vm=${ACME_WEB}&days=soon`)).status).toBe(400);
  });

  it('degrades an operator and heals it', async () => {
    const api = sim.apis.cluster;
    const run = () =>
      runExecutable(join(DIST, 'check_cluster_operators'), ['--url', api.httpsUrl, '--ca-file', sim.caFile, '--token-file', api.info.tokenFile], { env: ENV });
    expect((await control('cluster', '/_sim/cluster/operator?name=dns&state=degraded&message=rehearsal')).text).toBe('dns is degraded\n');
    const sick = await run();
    expect(sick.code).toBe(2);
    expect(sick.stdout).toMatch(/^OPERATORS CRITICAL - .*dns/);
    expect(sick.stdout).toContain('rehearsal');
    await control('cluster', '/_sim/cluster/operator?name=dns&state=healthy');
    expect((await run()).code).toBe(0);
    expect((await control('cluster', '/_sim/cluster/operator?name=nope&state=degraded')).status).toBe(400);
  });
});

// What --ca-file means, family by family, with a system trust store that holds the
// simulator's CA (Node reading OpenSSL's store, as distribution builds of Node do):
// for the cluster checks the given CA is the only anchor (kubectl --certificate-authority,
// curl --cacert); for the VM checks it is trusted in addition to the system CAs (a Cloud
// Director API usually has a public certificate). Run `node build.mjs dist` first.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const OTHER_CA = resolve(__dirname, '../fixtures/cluster/tls/public-ca.pem');
const VM = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';

let sim: Simulator;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_nodes'))) throw new Error('dist/ is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs([], [CLUSTER_MODULE, VCD_MODULE]);
  env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_OPTIONS: '--use-openssl-ca', SSL_CERT_FILE: sim.caFile };
});
afterAll(async () => {
  await sim?.close();
});

describe('--ca-file naming a CA other than the one that signed the server', () => {
  it('control: with no --ca-file both families trust the system store', async () => {
    const token = readFileSync(sim.apis.cluster.info.tokenFile, 'utf8').trim();
    const nodes = await runExecutable(join(DIST, 'check_nodes'), ['--url', sim.apis.cluster.httpsUrl, '--token', token], { env });
    expect(nodes.stdout).toMatch(/^NODES OK - /);
  });

  it('check_nodes refuses the server: the given CA replaces the system store', async () => {
    const token = readFileSync(sim.apis.cluster.info.tokenFile, 'utf8').trim();
    const r = await runExecutable(join(DIST, 'check_nodes'), ['--url', sim.apis.cluster.httpsUrl, '--token', token, '--ca-file', OTHER_CA], { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^NODES UNKNOWN - TLS verification of 127\.0\.0\.1:\d+ failed: /);
  });

  it('check_vm_cpu still trusts the system store: the given CA is added to it', async () => {
    const vcd = sim.apis.vcd;
    const args = [
      '-u',
      vcd.httpsUrl,
      '--ca-file',
      OTHER_CA,
      '-U',
      'monitor',
      '-o',
      'acme',
      '--password-file',
      vcd.info.passwordFile,
      '--vm',
      VM,
      '--cache-dir',
      mkdtempSync(join(tmpdir(), 'cc-ca-')),
    ];
    const r = await runExecutable(join(DIST, 'check_vm_cpu'), args, { env });
    expect(r.stdout).toMatch(/^VM_CPU (OK|WARNING|CRITICAL) - /);
  });
});

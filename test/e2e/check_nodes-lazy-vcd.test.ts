// The built check_nodes evaluates none of lib/vcd unless a --vcd-* option asks for it: a copy
// of dist/check_nodes whose module initialiser (esbuild's `__esm`, through which every module
// that a dynamic import reaches is evaluated) also records each module it evaluates, run
// against the simulator with and without --vcd-url. Run `node build.mjs dist` first.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_MODULES } from '../../sim/modules';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { runExecutable } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_nodes');
const INIT = 'var __esm=(fn,res)=>function(){return fn&&(res=(0,fn[__getOwnPropNames(fn)[0]])(fn=0)),res};';

let sim: Simulator;
let dir: string;
let traced: string;

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_nodes is missing: run `node build.mjs dist` first');
  const bundle = readFileSync(PLUGIN, 'utf8');
  // Without this helper the bundle evaluates every module at start-up: the test says so.
  expect(bundle, 'dist/check_nodes has no esbuild __esm helper: nothing is loaded lazily').toContain(INIT);
  dir = mkdtempSync(join(tmpdir(), 'cc-lazy-'));
  traced = join(dir, 'check_nodes');
  const recording =
    'var __evaluated=[];process.on("exit",()=>require("fs").writeFileSync(process.env.CC_EVALUATED,__evaluated.join("\\n")));' +
    'var __esm=(fn,res)=>function(){return fn&&(__evaluated.push(__getOwnPropNames(fn)[0]),res=(0,fn[__getOwnPropNames(fn)[0]])(fn=0)),res};';
  writeFileSync(traced, bundle.replace(INIT, recording), { mode: 0o755 });
  sim = await startSimulatorFromArgs(['--cluster-scenario', 'vcd', '--vcd-scenario', 'nodes'], SIM_MODULES);
});
afterAll(() => sim?.close());

async function evaluated(extra: string[]): Promise<{ code: number | null; modules: string[] }> {
  const out = join(dir, `evaluated-${extra.length}`);
  const argv = ['--url', sim.apis.cluster.httpsUrl, '--ca-file', sim.caFile, '--token-file', sim.apis.cluster.info.tokenFile, ...extra];
  const r = await runExecutable(traced, argv, { env: { PATH: process.env.PATH, HOME: dir, CC_EVALUATED: out } });
  return { code: r.code, modules: readFileSync(out, 'utf8').split('\n') };
}

describe('check_nodes loads the vCD side only when asked', () => {
  it('without --vcd-*: no module of lib/vcd or of the join is evaluated', async () => {
    const { code, modules } = await evaluated([]);
    expect(code).toBe(2);
    expect(modules.filter((m) => m.startsWith('lib/vcd/') || (m.startsWith('lib/join/') && !m.endsWith('node-vm-options.ts')))).toEqual([]);
  });

  it('with --vcd-url: the session, the query and the metrics of lib/vcd are', async () => {
    const v = sim.apis.vcd.info;
    const { code, modules } = await evaluated([
      '--vcd-url',
      sim.apis.vcd.httpsUrl,
      '--vcd-ca-file',
      sim.caFile,
      '--vcd-user',
      v.user,
      '--vcd-org',
      v.org,
      '--vcd-password-file',
      v.passwordFile,
      '--cache-dir',
      join(dir, 'cache'),
    ]);
    expect(code).toBe(2);
    expect(modules).toEqual(
      expect.arrayContaining(['lib/vcd/api/session.ts', 'lib/vcd/inventory/vm-listing.ts', 'lib/vcd/vm/metrics.ts', 'lib/join/node-vm/node-vm.ts']),
    );
  });
});

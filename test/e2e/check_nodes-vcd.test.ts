// check_nodes --vcd-* as a monitoring engine runs it: the built dist/check_nodes against the
// simulator's cluster (scenario vcd) and Cloud Director (scenario nodes) over HTTPS: each
// failing node's line names its VM, healthy nodes cost vCD nothing, and vCD down, slow or
// refusing leaves the verdict as it is, within -t. Run `node build.mjs dist` first.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIM_MODULES } from '../../sim/modules';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { parsePluginOutput } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';
import { clusterArgs } from '../support/control-plane-run';

const PLUGIN = resolve(__dirname, '../../dist/check_nodes');
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
let sim: Simulator;
let work: string;

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_nodes is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs(['--cluster-scenario', 'vcd', '--vcd-scenario', 'nodes'], SIM_MODULES);
  work = mkdtempSync(join(tmpdir(), 'cc-node-vm-'));
});
afterAll(() => sim?.close());
afterEach(() => {
  sim.apis.cluster.faults.set([]);
  sim.apis.vcd.faults.set([]);
});

const vcdInfo = () => sim.apis.vcd.info;
const cluster = (extra: string[] = []) => clusterArgs(sim, extra);
/** The cluster's options and the vCD connection's, a cache directory of the test's own by default. */
const withVcd = (extra: string[] = [], cacheDir = join(work, 'cache'), passwordFile = vcdInfo().passwordFile) =>
  cluster([
    '--vcd-url',
    sim.apis.vcd.httpsUrl,
    '--vcd-user',
    vcdInfo().user,
    '--vcd-org',
    vcdInfo().org,
    '--vcd-password-file',
    passwordFile,
    '--vcd-ca-file',
    sim.caFile,
    '--cache-dir',
    cacheDir,
    ...extra,
  ]);
const run = (argv: string[]): Promise<RunResult> => runExecutable(PLUGIN, argv, { env: ENV, killAfterMs: 30_000 });
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];
const vcdRequests = () => sim.apis.vcd.stats.counts.requests ?? 0;
/** The line that names a node (long output). */
const lineOf = (r: RunResult, node: string) => parsePluginOutput(r.stdout).longOutput.find((l) => l.includes(`] ${node}.prod-eu1.example.com `)) ?? '';

describe('each failing node names its VM', () => {
  it('powered off, at 100 % CPU, no VM, found by name: state, exit code and perfdata as without --vcd-*', async () => {
    const without = await run(cluster());
    const r = await run(withVcd());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(without.code).toBe(2);
    expect(parsePluginOutput(r.stdout).perfdata).toEqual(parsePluginOutput(without.stdout).perfdata);
    const summary = firstLine(without).split(' | ')[0];
    expect(firstLine(r).startsWith(`${summary}, VMs: `)).toBe(true);
    expect(lineOf(r, 'worker-2')).toMatch(
      /^\[CRITICAL\] worker-2\.prod-eu1\.example\.com .*VM worker-2 \(vm-5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e12\) powered off$/,
    );
    // Its providerID is the URN in upper case: matched all the same.
    expect(lineOf(r, 'worker-3')).toMatch(/VM worker-3 \(vm-5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e13\) running, cpu 100%, mem \d+(\.\d)?%$/);
    expect(lineOf(r, 'worker-4')).toMatch(
      /no VM found \(no vCD providerID, no VM named "worker-4\.prod-eu1\.example\.com" or "worker-4" visible to monitor@acme\)$/,
    );
    // No providerID: found by its hostname label.
    expect(lineOf(r, 'worker-5')).toMatch(/VM worker-5 \(vm-5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e15\) running, cpu \d+(\.\d)?%, mem 9\d(\.\d)?%$/);
    expect(firstLine(r)).toMatch(
      /VMs: worker-2\.prod-eu1\.example\.com VM powered off, worker-3\.prod-eu1\.example\.com VM cpu 100% mem [\d.]+%, worker-4\.prod-eu1\.example\.com no VM found, worker-5/,
    );
  });

  it('one query names every VM, one metrics read per running VM, and one login across runs (the session cache of the VM checks)', async () => {
    const cacheDir = join(work, 'shared-cache');
    sim.apis.vcd.stats.counts = {};
    await run(withVcd([], cacheDir));
    expect(sim.apis.vcd.stats.counts).toMatchObject({ login: 1, query: 1, 'metrics.current': 2 });
    await run(withVcd([], cacheDir));
    expect(sim.apis.vcd.stats.counts).toMatchObject({ login: 1, query: 2, 'metrics.current': 4 });
  });

  it('--vcd-max-nodes: the rest are said not looked up', async () => {
    const r = await run(withVcd(['--vcd-max-nodes', '2']));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(/, 2 failing nodes not looked up in vCD \(--vcd-max-nodes 2\) \|/);
    expect(lineOf(r, 'worker-5')).toMatch(/VM not looked up \(--vcd-max-nodes 2\)$/);
  });

  it('--vcd-extra-opts reads a VM check section (its own keys besides the connection stay its own)', async () => {
    const ini = join(work, 'vcd.ini');
    const v = vcdInfo();
    writeFileSync(
      ini,
      `[vcd]\nurl=${sim.apis.vcd.httpsUrl}\nuser=${v.user}\norg=${v.org}\npassword-file=${v.passwordFile}\nca-file=${sim.caFile}\ncache-dir=${join(work, 'ini-cache')}\ntimeout=8\nvapp=shop\n`,
      { mode: 0o600 },
    );
    const r = await run(cluster(['--vcd-extra-opts', `vcd@${ini}`]));
    expect(r.code).toBe(2);
    expect(lineOf(r, 'worker-2')).toMatch(/VM worker-2 \(vm-[0-9a-f-]+\) powered off$/);
  });

  it('--vcd-vapp narrows the lookup by name, not the one by providerID', async () => {
    const r = await run(withVcd(['--vcd-vapp', 'other-vapp']));
    expect(lineOf(r, 'worker-2')).toMatch(/powered off$/);
    expect(lineOf(r, 'worker-5')).toMatch(/no VM found \(.* in vApp "other-vapp" visible to monitor@acme\)$/);
  });
});

describe('healthy nodes cost vCD nothing', () => {
  it('all healthy: zero vCD requests, not even a login, and the output of a run without --vcd-*', async () => {
    sim.apis.vcd.stats.counts = {};
    const select = ['--include', '^(master-0|worker-1)\\.'];
    const r = await run(withVcd(select, join(work, 'healthy-cache')));
    expect(r.code).toBe(0);
    expect(vcdRequests()).toBe(0);
    expect(r.stdout).toBe((await run(cluster(select))).stdout);
  });
});

describe('vCD down, slow or refusing: the verdict unchanged, one phrase, within -t', () => {
  const verdict = async () => {
    const r = await run(cluster(['-t', '6']));
    return { code: r.code, summary: firstLine(r).split(' | ')[0], perf: parsePluginOutput(r.stdout).perfdata };
  };

  it('slow (every request hangs): the same exit code and perfdata, and the VM facts said missing, before -t', async () => {
    const before = await verdict();
    sim.apis.vcd.faults.set([{ kind: 'hang' }]);
    const r = await run(withVcd(['-t', '6'], join(work, 'slow-cache')));
    expect(r.code).toBe(before.code);
    expect(parsePluginOutput(r.stdout).perfdata).toEqual(before.perf);
    expect(firstLine(r).startsWith(`${before.summary}, VM facts missing: ${sim.apis.vcd.httpsUrl} did not answer within `)).toBe(true);
    expect(r.ms).toBeLessThan(6500);
    expect(r.stdout).not.toMatch(/UNKNOWN|timed out after/);
  });

  it('unreachable (nothing listens): the same verdict, the cause named once', async () => {
    const before = await verdict();
    const r = await run(
      cluster(['-t', '6', '--vcd-url', 'https://127.0.0.1:9', '--vcd-user', 'monitor', '--vcd-org', 'acme', '--vcd-password-file', vcdInfo().passwordFile]),
    );
    expect(r.code).toBe(before.code);
    expect(firstLine(r)).toMatch(/, VM facts missing: https:\/\/127\.0\.0\.1:9: connection refused by 127\.0\.0\.1:9/);
    expect(firstLine(r).match(/VM facts missing/g)).toHaveLength(1);
  });

  it("refusing the login (a wrong password): the same verdict, the fix in this plugin's options, and the password never printed", async () => {
    const before = await verdict();
    const wrong = join(work, 'wrong-password');
    writeFileSync(wrong, 'Not-The-Password-42\n', { mode: 0o600 });
    const r = await run(withVcd(['-t', '6', '-vvv'], join(work, 'wrong-cache'), wrong));
    expect(r.code).toBe(before.code);
    expect(firstLine(r)).toMatch(/VM facts missing: .*401/);
    expect(firstLine(r)).toContain('check --vcd-user, --vcd-org and --vcd-password-file');
    expect(firstLine(r)).not.toMatch(/check --user|--org and|--password-file[^a-z]/);
    expect(r.stdout + r.stderr).not.toContain('Not-The-Password-42');
    expect(r.stdout + r.stderr).not.toContain(readFileSync(vcdInfo().passwordFile, 'utf8').trim());
  });

  it('answering 503 to the query: the same verdict, said once', async () => {
    const before = await verdict();
    sim.apis.vcd.faults.set([{ path: '^/api/query', kind: 'status', status: 503, body: 'cells overloaded' }]);
    const r = await run(withVcd(['-t', '6'], join(work, '503-cache')));
    expect(r.code).toBe(before.code);
    expect(firstLine(r)).toMatch(/VM facts missing: .*503/);
  });
});

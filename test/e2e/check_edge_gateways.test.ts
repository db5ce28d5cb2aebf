// check_edge_gateways as an engine runs it: the built executable against the simulator's edge
// gateways over HTTPS: the CloudAPI list (one failed, one configuring), the query service's
// records where there is no CloudAPI (HA degraded), busy past --busy-grace across runs,
// discovery, hostile names inert, a page of some 100,000 edges and a list that never ends within -t.
// Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { parsePerfdataStrict } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const EXE = join(resolve(__dirname, '../../dist'), 'check_edge_gateways');

let sim: Simulator;
let legacy: Simulator;
let hostile: Simulator;
let bulk: Simulator;
let endless: Simulator;

beforeAll(async () => {
  if (!existsSync(EXE)) throw new Error('dist/check_edge_gateways is missing: run `node build.mjs dist` first');
  [sim, legacy, hostile, bulk, endless] = await Promise.all([
    startSimulatorFromArgs([], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-no-cloudapi'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'hostile'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'healthy', '--vcd-edges', '99990', '--vcd-cloudapi-page-size', '100000'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'healthy', '--vcd-cloudapi-endless'], [VCD_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([sim, legacy, hostile, bulk, endless].filter(Boolean).map((s) => s.close()));
});

function run(s: Simulator, account: 'system' | 'tenant', extra: string[], cacheDir = mkdtempSync(join(tmpdir(), 'cc-edges-cache-'))): Promise<RunResult> {
  const { vcd } = s.apis;
  const [user, org] = account === 'system' ? [vcd.info.providerUser, 'System'] : [vcd.info.user, vcd.info.org];
  const argv = ['-u', vcd.httpsUrl, '--ca-file', s.caFile, '-U', user, '-o', org, '--password-file', vcd.info.passwordFile, '--cache-dir', cacheDir, ...extra];
  return runExecutable(EXE, argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME }, killAfterMs: 40_000 });
}
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];

describe('check_edge_gateways', () => {
  it('a System account: every organisation, the failed edge CRITICAL with its organisation', async () => {
    const r = await run(sim, 'system', []);
    expect(r.code, r.stdout).toBe(2);
    expect(firstLine(r)).toMatch(/^EDGE_GATEWAYS CRITICAL - 4 edge gateways: globex-edge-01 \(org globex\) failed \(REALIZATION_FAILED\) \| /);
    expect(parsePerfdataStrict(firstLine(r).split(' | ')[1]).map((m) => [m.label, m.value])).toEqual([
      ['edges', 4],
      ['edges_realized', 2],
      ['edges_busy', 1],
      ['edges_problem', 1],
    ]);
    expect(r.stdout).toMatch(/^\[OK\] acme-edge-02 \(org acme\), VDC acme-prod: busy for \d+s$/m);
    expect(r.stderr).toBe('');
    const tenant = await run(sim, 'tenant', []);
    expect(firstLine(tenant)).toMatch(/^EDGE_GATEWAYS OK - 2 edge gateways: all realised \(1 busy within --busy-grace\)/);
    const globex = await run(sim, 'system', ['--tenant-org', 'GLOBEX']);
    expect(firstLine(globex)).toMatch(/^EDGE_GATEWAYS CRITICAL - edge gateway globex-edge-01 \(org globex\), VDC globex-prod: failed/);
  });

  it('busy past --busy-grace is CRITICAL: the first run that saw it busy is remembered', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'cc-edges-cache-'));
    expect((await run(sim, 'tenant', ['--edge', 'acme-edge-02', '--busy-grace', '2s'], cache)).code).toBe(0);
    await new Promise((r) => setTimeout(r, 3000));
    const later = await run(sim, 'tenant', ['--edge', 'acme-edge-02', '--busy-grace', '2s'], cache);
    expect(later.code).toBe(2);
    expect(firstLine(later)).toMatch(
      /^EDGE_GATEWAYS CRITICAL - edge gateway acme-edge-02 \(org acme\), VDC acme-prod: busy for \ds \(more than --busy-grace 2s\)/,
    );
  });

  it('without CloudAPI: the query records, and HA degraded is WARNING', async () => {
    const r = await run(legacy, 'system', ['--edge', 'initech-edge-01', '-v']);
    expect(r.code).toBe(1);
    expect(firstLine(r)).toMatch(
      /^EDGE_GATEWAYS WARNING - edge gateway initech-edge-01 \(org initech\), VDC initech-prod: realised, HA degraded \(haStatus DEGRADED\) \[read from the query service edgeGateway records \(no CloudAPI edgeGateways\)/,
    );
    const all = await run(legacy, 'system', []);
    expect(firstLine(all)).toMatch(/globex-edge-01 \(org globex\) failed \(FAILED\), HA degraded \(haStatus DOWN\)/);
  });

  it('--discovery: one Zabbix LLD entry per edge, names inert', async () => {
    const r = await run(hostile, 'tenant', ['--discovery']);
    expect(r.code).toBe(0);
    const lld = JSON.parse(r.stdout) as Array<Record<string, string>>;
    expect(lld).toHaveLength(8);
    for (const e of lld) expect(e['{#EDGE.NAME}']).not.toMatch(/[\n\r\u2028\u2029\u0085\u001b]/);
    const judged = await run(hostile, 'tenant', []);
    expect(judged.code).toBe(2);
    expect(judged.stdout.trimEnd().split('\n')).toHaveLength(9);
    expect(firstLine(judged)).toMatch(
      /^EDGE_GATEWAYS CRITICAL - 8 edge gateways: .* \| edges=8;;;0 edges_realized=4;;;0;8 edges_busy=0;;;0;8 edges_problem=4;;;0;8$/,
    );
  });

  it('a page of some 100,000 edges, and a list that never ends, each within -t and one clear line', async () => {
    const many = await run(bulk, 'system', ['-t', '30']);
    expect(firstLine(many)).toMatch(
      /^EDGE_GATEWAYS CRITICAL - 99991 edge gateways: bulk-edge-000000 \(org acme\) failed \(REALIZATION_FAILED\), .* … 990 more \| edges=99991;/,
    );
    const started = Date.now();
    const never = await run(endless, 'system', ['-t', '20']);
    expect(never.code).toBe(3);
    expect(firstLine(never)).toMatch(
      /^EDGE_GATEWAYS UNKNOWN - (the CloudAPI of \S+ returned more than 1000 pages of edge gateways, narrow it with --tenant-org or --edge|.*timed out .*reading page \d+ of the edge gateways)/,
    );
    expect(never.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_500 + 2_000);
  }, 90_000);
});

// check_nodes --vcd-* on documents real systems returned: the node list of
// test/fixtures/cluster/node-vm (providerIDs as the Cloud Director cloud provider writes them;
// its README says what was changed) served by the simulator, and a fake vCD that answers with
// the VM records a real tenant's query service returned and a real current-metrics document.
// Run `node build.mjs dist` first.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { parsePluginOutput } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';
import { clusterArgs } from '../support/control-plane-run';

const PLUGIN = resolve(__dirname, '../../dist/check_nodes');
const FIXTURES = resolve(__dirname, '../fixtures');
const NODES = join(FIXTURES, 'cluster/node-vm/nodelist-vcd.json');
const RECORDS = readFileSync(join(FIXTURES, 'vcd/query/vm-records-skyscape-api5.5.xml'), 'utf8');
const VERSIONS = readFileSync(join(FIXTURES, 'vcd/versions-10.4.xml'), 'utf8');
// The real document's cpu.usage.average (33.7) set to 100: the VM of worker-4 is saturated.
const CPU_100 = readFileSync(join(FIXTURES, 'vcd/current-usage.xml'), 'utf8').replace(
  '<Metric name="cpu.usage.average" unit="PERCENT" value="33.7"/>',
  '<Metric name="cpu.usage.average" unit="PERCENT" value="100.0"/>',
);
const TOKEN = 'fake-access-token-0123456789abcdef';
const PASSWORD = 'Fake-vCD-Password-for-documents-7';

/** A vCD that answers from the fixtures, counting what it is asked. */
class DocumentVcd {
  readonly requests: string[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '';
      this.requests.push(`${req.method} ${path.split('?')[0]}`);
      const xml = (body: string) => res.writeHead(200, { 'content-type': 'application/*+xml;version=34.0' }).end(body);
      if (path === '/api/versions') return xml(VERSIONS);
      if (req.method === 'POST' && path === '/cloudapi/1.0.0/sessions') {
        const expected = `Basic ${Buffer.from(`monitor@acme:${PASSWORD}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"minorErrorCode":"UNAUTHORIZED"}');
        return res.writeHead(200, { 'content-type': 'application/json', 'x-vmware-vcloud-access-token': TOKEN }).end('{}');
      }
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end();
      if (path.startsWith('/api/query?')) return xml(RECORDS);
      if (path === '/api/vApp/vm-1617dae0-1391-4b02-8981-3452b5d02314/metrics/current') return xml(CPU_100);
      res.writeHead(403).end();
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

let sim: Simulator;
const vcd = new DocumentVcd();
let work: string;

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_nodes is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs(['--cluster-scenario', NODES], [CLUSTER_MODULE]);
  await vcd.start();
  work = mkdtempSync(join(tmpdir(), 'cc-node-vm-docs-'));
  writeFileSync(join(work, 'password'), `${PASSWORD}\n`, { mode: 0o600 });
});
afterAll(async () => {
  await sim?.close();
  await vcd.stop();
});
beforeEach(() => {
  vcd.requests.length = 0;
});

const cluster = (extra: string[] = []) => clusterArgs(sim, extra);
const withVcd = (extra: string[] = [], url = vcd.url, passwordFile = join(work, 'password')) =>
  cluster(['--vcd-url', url, '--allow-http', '--vcd-user', 'monitor', '--vcd-org', 'acme', '--vcd-password-file', passwordFile, '--no-cache', ...extra]);
const run = (argv: string[]): Promise<RunResult> => runExecutable(PLUGIN, argv, { env: { PATH: process.env.PATH }, killAfterMs: 30_000 });
const lineOf = (r: RunResult, node: string) => parsePluginOutput(r.stdout).longOutput.find((l) => l.includes(`] ${node}.prod-eu1.example.com`)) ?? '';
const verdict = (r: RunResult) => ({ code: r.code, summary: r.stdout.split('\n')[0].split(' | ')[0], perfdata: parsePluginOutput(r.stdout).perfdata });

describe('real node documents, real VM records', () => {
  it("a NotReady node whose VM is powered off, one at 100 % CPU, one with no VM; the state is the nodes'", async () => {
    const without = await run(cluster(['--allow-http']));
    const r = await run(withVcd());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(verdict(r).perfdata).toEqual(verdict(without).perfdata);
    expect(r.stdout.split('\n')[0].startsWith(`${verdict(without).summary}, VMs: `)).toBe(true);
    expect(lineOf(r, 'worker-2')).toMatch(
      /, VM Skyscape_CentOS_6_4_x64_50GB_Large_HighMem_v1\.0\.1-10 \(vm-5ba3f2f1-ef71-49c1-925f-77c25b2912b0\) powered off$/,
    );
    expect(lineOf(r, 'worker-4')).toMatch(
      /VM Skyscape_CentOS_6_4_x64_50GB_Tiny_v1\.0\.1 \(vm-1617dae0-1391-4b02-8981-3452b5d02314\) running, cpu 100%, mem 44%$/,
    );
    expect(lineOf(r, 'worker-7')).toMatch(/no VM found \(spec\.providerID names vm-0c0ffee0-dead-4bad-8bad-000000000007, which monitor@acme does not see\)$/);
    // One query for the three, one metrics read for the one running VM; nothing for the healthy master.
    expect(vcd.requests.filter((q) => q.startsWith('GET /api/query'))).toHaveLength(1);
    expect(vcd.requests.filter((q) => q.includes('/metrics/'))).toEqual(['GET /api/vApp/vm-1617dae0-1391-4b02-8981-3452b5d02314/metrics/current']);
  });

  it('all healthy: zero vCD requests', async () => {
    const r = await run(withVcd(['--include', '^master-0\\.']));
    expect(r.code).toBe(0);
    expect(vcd.requests).toEqual([]);
  });

  it('vCD down: the same verdict and exit code, within -t', async () => {
    const without = await run(cluster(['--allow-http', '-t', '5']));
    const r = await run(withVcd(['-t', '5'], 'http://127.0.0.1:9'));
    expect(verdict(r).code).toBe(verdict(without).code);
    expect(verdict(r).perfdata).toEqual(verdict(without).perfdata);
    expect(verdict(r).summary).toBe(
      `${verdict(without).summary}, VM facts missing: http://127.0.0.1:9: connection refused by 127.0.0.1:9, check the port and that the API server is running`,
    );
    expect(r.ms).toBeLessThan(5500);
  });

  it('vCD refusing the login: the same verdict, the password never printed', async () => {
    writeFileSync(join(work, 'wrong'), 'Not-the-documents-password-9\n', { mode: 0o600 });
    const r = await run(withVcd(['-vvv'], vcd.url, join(work, 'wrong')));
    expect(r.code).toBe(2);
    expect(r.stdout.split('\n')[0]).toMatch(/VM facts missing: .*401/);
    expect(r.stdout + r.stderr).not.toContain('Not-the-documents-password-9');
  });
});

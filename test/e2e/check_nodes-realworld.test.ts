// check_nodes against node shapes of real clusters: the simulator's `realworld`
// scenario (k3s, GKE, AKS, OpenShift 3.7, fresh nodes; pages of 2 with continue tokens and
// remainingItemCount), and lists whose items are not nodes. Run `node build.mjs dist` first.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { parsePluginOutput } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_nodes');
let sim: Simulator;

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_nodes is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs(['--cluster-scenario', 'realworld'], [CLUSTER_MODULE]);
});
afterAll(() => sim?.close());
afterEach(() => sim.apis.cluster.faults.set([]));

const run = (extra: string[] = []): Promise<RunResult> =>
  runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpsUrl, '--ca-file', sim.caFile, '--token-file', sim.apis.cluster.info.tokenFile, ...extra], {
    env: { PATH: process.env.PATH },
  });
const perf = (r: RunResult) => Object.fromEntries(parsePluginOutput(r.stdout).perfdata.map((m) => [m.label, m.value]));

describe('realworld node shapes', () => {
  it('reads all six nodes over three short pages, and judges each by the rule', async () => {
    sim.apis.cluster.stats.counts = {};
    const r = await run();
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(2);
    expect(sim.apis.cluster.stats.counts.pages).toBe(3);
    expect(perf(r)).toMatchObject({ nodes: 6, healthy: 3, failing: 3 });
    const first = r.stdout.split('\n')[0];
    // A True-is-good condition fails under the default rule, and says which.
    expect(first).toMatch(/k3s-server-1[^,;]*EtcdIsVoter=True/);
    // No Ready condition at all, no addresses: failing, named by metadata.name.
    expect(first).toMatch(/worker-7[^,;]*no Ready condition/);
    // Four Unknown conditions of a kubelet that never posted are one fact.
    expect(first).toMatch(/worker-8[^,;]*kubelet never posted status \(Ready, MemoryPressure, DiskPressure, PIDPressure Unknown\)/);
    // NetworkUnavailable=False (GKE, AKS/Calico) and OutOfDisk=False (Kubernetes 1.7): the
    // three healthy ones.
    for (const name of ['gke-prod-pool-1', 'aks-nodepool1', 'node-1.ocp37']) expect(first).not.toContain(name);
  });

  it('--condition EtcdIsVoter=True makes the k3s server healthy', async () => {
    const r = await run(['--condition', 'EtcdIsVoter=True']);
    expect(r.code, r.stdout).toBe(2);
    expect(perf(r)).toMatchObject({ nodes: 6, healthy: 4, failing: 2 });
    expect(r.stdout.split('\n')[0]).not.toContain('k3s-server-1');
  });

  it('a label selector over the capped pages still finds every match (empty pages with a continue token)', async () => {
    sim.apis.cluster.stats.counts = {};
    const r = await run(['-l', 'node-role.kubernetes.io/master']);
    expect(perf(r)).toMatchObject({ nodes: 1 });
    // Page 1 looks at aks-… and gke-…: no match, but a continue token; page 2 has k3s-server-1.
    expect(sim.apis.cluster.stats.counts.pages).toBe(2);
  });
});

describe('--max-nodes', () => {
  it('refuses a list longer than it, and must be a whole number >= 1', async () => {
    const r = await run(['--max-nodes', '3']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      `NODES UNKNOWN - ${sim.apis.cluster.httpsUrl}/api/v1/nodes listed more than 3 nodes, raise --max-nodes if the cluster is really that large\n`,
    );
    expect((await run(['--max-nodes', '6'])).code).toBe(2);
    expect((await run(['--max-nodes', '0'])).stdout).toMatch(/^NODES UNKNOWN - invalid --max-nodes 0: expected a whole number >= 1/);
  });
});

describe('a list whose items are not nodes is UNKNOWN naming the first bad field, never a verdict', () => {
  const body = (items: unknown[]) => JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items });
  const ready = { type: 'Ready', status: 'True' };
  it.each([
    [
      'a name that is not a string',
      [
        { metadata: { name: 'w1' }, status: { conditions: [ready] } },
        { metadata: { name: ['w2'] }, status: { conditions: [ready] } },
      ],
      'items[1].metadata.name is an array, not a string',
    ],
    [
      'conditions that are not an array',
      [{ metadata: { name: 'w1' }, status: { conditions: { Ready: 'True' } } }],
      'items[0].status.conditions is an object, not an array',
    ],
    [
      'a condition status that is not a string',
      [{ metadata: { name: 'w1' }, status: { conditions: [{ type: 'Ready', status: true }] } }],
      'items[0].status.conditions[0].status is a boolean, not a string',
    ],
    ['an empty object', [{}], 'items[0].metadata is missing'],
    [
      'a name that would forge a line of output',
      [{ metadata: { name: 'w1\n[OK] all nodes: healthy' }, status: { conditions: [ready] } }],
      'items[0].metadata.name holds control or line-separator characters',
    ],
  ])('%s', async (_, items, field) => {
    sim.apis.cluster.faults.set([{ kind: 'body', contentType: 'application/json', body: body(items) }]);
    const r = await run();
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `NODES UNKNOWN - unexpected response from ${sim.apis.cluster.httpsUrl}/api/v1/nodes: ${field} (not a node as the Kubernetes API sends it), check that --url is the API server and that nothing in between rewrites its answers\n`,
    );
  });
});

describe('a catastrophic --include/--exclude pattern', () => {
  it('against a long node name ends at once, not past -t (linear-time matching)', async () => {
    const name = `${'a'.repeat(60)}-b.example.com`;
    sim.apis.cluster.faults.set([
      {
        kind: 'body',
        contentType: 'application/json',
        body: JSON.stringify({
          kind: 'NodeList',
          apiVersion: 'v1',
          metadata: {},
          items: [{ metadata: { name }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }],
        }),
      },
    ]);
    const r = await run(['--exclude', '^(\\w+-?)+\\.infra$', '-t', '3']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.ms).toBeLessThan(3000);
    expect(perf(r)).toMatchObject({ nodes: 1, healthy: 1 });
  });

  it('with a backreference is a usage error naming the option', async () => {
    const r = await run(['--include', '^(w)\\1']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^NODES UNKNOWN - --include "\^\(w\)\\\\1" uses backreferences or lookaround, which can take exponential time on a long name, write it without them/,
    );
  });
});

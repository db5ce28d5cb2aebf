// check_cluster_monitoring as a monitoring engine runs it: the built dist/check_cluster_monitoring
// against the simulator's cluster API over HTTPS. Run `node build.mjs dist` (or `make`) first.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { parsePluginOutput } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_cluster_monitoring');
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

let healthy: Simulator;
let sick: Simulator;
let off: Simulator;

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_cluster_monitoring is missing: run `node build.mjs dist` first');
  [healthy, sick, off] = await Promise.all([
    startSimulatorFromArgs(['--cluster-scenario', 'healthy'], [CLUSTER_MODULE]),
    startSimulatorFromArgs(['--cluster-scenario', 'sick'], [CLUSTER_MODULE]),
    startSimulatorFromArgs(['--cluster-scenario', 'off'], [CLUSTER_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([healthy, sick, off].filter(Boolean).map((s) => s.close()));
});
afterEach(() => {
  for (const s of [healthy, sick, off]) s?.apis.cluster.faults.set([]);
});

const api = (s: Simulator) => s.apis.cluster;
const tokenFile = (s: Simulator) => api(s).info.tokenFile;
const args = (s: Simulator, extra: string[] = []) => ['--url', api(s).httpsUrl, '--ca-file', s.caFile, '--token-file', tokenFile(s), ...extra];
const run = (argv: string[], env: NodeJS.ProcessEnv = ENV): Promise<RunResult> => runExecutable(PLUGIN, argv, { env });
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];

const DEGRADED =
  'ClusterOperator monitoring 4.14.12 Degraded=True (UpdatingPrometheusK8SFailed): Failed to rollout the stack. Error: updating prometheus-k8s: waiting for Prometheus object changes failed: waiting for Prometheus openshift-monitoring/k8s: expected 2 replicas, got 1 updated replicas';
const CRASHING = 'openshift-monitoring/prometheus-k8s-0 (Running, Ready=False, prometheus: CrashLoopBackOff, last exit Error (code 1), 37 restarts)';
const NO_RULER = 'workload monitoring on but thanos-ruler-user-workload has no ready pod in openshift-user-workload-monitoring';

describe('scenarios over HTTPS with --ca-file: exit code, first line, strict perfdata', () => {
  it('healthy (workload monitoring on): OK', async () => {
    const r = await run(args(healthy));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toBe(
      'MONITORING OK - ClusterOperator monitoring 4.14.12 available, 28 of 28 pods ready, workload monitoring on | pods=28;;;0 pods_ready=28;;;0;28 pods_not_ready=0;;0;0;28 user_workload=1;;;0;1',
    );
    const out = parsePluginOutput(r.stdout);
    expect(out.perfdata.map((m) => [m.label, m.value])).toEqual([
      ['pods', 28],
      ['pods_ready', 28],
      ['pods_not_ready', 0],
      ['user_workload', 1],
    ]);
    expect(out.longOutput).toEqual([
      '[OK] component prometheus-operator: 1 of 1 pods ready',
      '[OK] component prometheus-user-workload: 2 of 2 pods ready',
      '[OK] component thanos-ruler-user-workload: 2 of 2 pods ready',
    ]);
    expect(r.stderr).toBe('');
  });

  it("sick: CRITICAL with the operator's message, the crash-looping pod and the missing component", async () => {
    const r = await run(args(sick));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toBe(
      `MONITORING CRITICAL - ${DEGRADED}, 1 of 26 pods not ready: ${CRASHING}, ${NO_RULER} | pods=26;;;0 pods_ready=25;;;0;26 pods_not_ready=1;;0;0;26 user_workload=1;;;0;1`,
    );
    const out = parsePluginOutput(r.stdout);
    expect(out.perfdata.find((m) => m.label === 'pods_not_ready')).toMatchObject({ value: 1, crit: '0', min: 0, max: 26 });
    expect(out.longOutput).toEqual([
      `[CRITICAL] ClusterOperator monitoring: ${DEGRADED.replace('ClusterOperator monitoring 4.14.12 ', '')} (since 2026-11-23T06:12:02Z)`,
      `[CRITICAL] pod ${CRASHING}`,
      '[OK] component prometheus-operator: 1 of 1 pods ready',
      '[OK] component prometheus-user-workload: 2 of 2 pods ready',
      '[CRITICAL] component thanos-ruler-user-workload: no pod in namespace openshift-user-workload-monitoring',
    ]);
  });

  it('off (no ConfigMap): OK saying so; the workload namespace is not read', async () => {
    const before = api(off).stats.counts['pod-pages'] ?? 0;
    const r = await run(args(off, ['-v']));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toBe(
      'MONITORING OK - ClusterOperator monitoring 4.14.12 available, 23 of 23 pods ready, workload monitoring off (no ConfigMap openshift-monitoring/cluster-monitoring-config) [ClusterOperator monitoring read, no ConfigMap openshift-monitoring/cluster-monitoring-config, 23 pods in openshift-monitoring (1 page)] | pods=23;;;0 pods_ready=23;;;0;23 pods_not_ready=0;;0;0;23 user_workload=0;;;0;1',
    );
    expect((api(off).stats.counts['pod-pages'] ?? 0) - before).toBe(1);
  });

  it('off with --expect-user-workload: CRITICAL with the steps to switch it on', async () => {
    const r = await run(args(off, ['--expect-user-workload']));
    expect(r.code).toBe(2);
    expect(parsePluginOutput(r.stdout).summary).toBe(
      'workload monitoring off (no ConfigMap openshift-monitoring/cluster-monitoring-config) but expected on, to switch it on, as a cluster administrator run oc -n openshift-monitoring edit configmap cluster-monitoring-config (create it if missing) and set enableUserWorkload: true in data/config.yaml, prometheus-operator, prometheus-user-workload and thanos-ruler-user-workload start within minutes, ClusterOperator monitoring 4.14.12 available, 23 of 23 pods ready',
    );
    expect((await run(args(healthy, ['--expect-user-workload']))).code).toBe(0);
  });

  it('--output json: one object with state, summary, items and metrics', async () => {
    const r = await run(args(sick, ['--output', 'json']));
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as {
      name: string;
      state: string;
      code: number;
      items: Array<{ name: string; state: string }>;
      metrics: Array<{ label: string; value: number }>;
    };
    expect(doc).toMatchObject({ name: 'MONITORING', state: 'CRITICAL', code: 2 });
    expect(doc.metrics.map((m) => [m.label, m.value])).toEqual([
      ['pods', 26],
      ['pods_ready', 25],
      ['pods_not_ready', 1],
      ['user_workload', 1],
    ]);
    expect(doc.items.filter((i) => i.state === 'CRITICAL').map((i) => i.name)).toEqual([
      'operator/Degraded',
      'pod/openshift-monitoring/prometheus-k8s-0',
      'component/thanos-ruler-user-workload',
    ]);
  });
});

// The sick pods alone: the operator healthy and workload monitoring off, through injected answers.
const HEALTHY_OPERATOR = () => readFileSync(resolve(__dirname, '../fixtures/cluster/monitoring/clusteroperator-available.json'), 'utf8');
const configMapWith = (yaml: string) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cluster-monitoring-config', namespace: 'openshift-monitoring' },
    data: { 'config.yaml': yaml },
  });

describe('options against the simulator', () => {
  it('-w/-c are ranges on the number of pods not ready', async () => {
    api(sick).faults.set([
      { path: '/clusteroperators/', kind: 'body', contentType: 'application/json', body: HEALTHY_OPERATOR() },
      { path: '/configmaps/', kind: 'body', contentType: 'application/json', body: configMapWith('enableUserWorkload: false\n') },
    ]);
    const warn = await run(args(sick, ['-w', '0', '-c', '2']));
    expect(warn.code).toBe(1);
    expect(firstLine(warn)).toBe(
      `MONITORING WARNING - 1 of 23 pods not ready: ${CRASHING}, ClusterOperator monitoring 4.14.38 available, workload monitoring off (enableUserWorkload: false in ConfigMap openshift-monitoring/cluster-monitoring-config) | pods=23;;;0 pods_ready=22;;;0;23 pods_not_ready=1;0;2;0;23 user_workload=0;;;0;1`,
    );
    expect(parsePluginOutput(warn.stdout).longOutput).toEqual([`[WARNING] pod ${CRASHING}`]);
    expect((await run(args(sick, ['-c', '1']))).code).toBe(0);
    expect((await run(args(sick))).code).toBe(2);
  });

  it('Progressing=True is reported, not a failure', async () => {
    const co = JSON.parse(HEALTHY_OPERATOR()) as { status: { conditions: Array<Record<string, string>> } };
    Object.assign(co.status.conditions[0], { status: 'True', reason: 'RollOutInProgress', message: 'Rolling out the stack.' });
    api(healthy).faults.set([{ path: '/clusteroperators/', kind: 'body', contentType: 'application/json', body: JSON.stringify(co) }]);
    const r = await run(args(healthy));
    expect(r.code).toBe(0);
    expect(parsePluginOutput(r.stdout).summary).toBe(
      'ClusterOperator monitoring 4.14.38 available, progressing (RollOutInProgress): Rolling out the stack., 28 of 28 pods ready, workload monitoring on',
    );
    expect(r.stdout).toContain('[OK] ClusterOperator monitoring: Progressing=True (RollOutInProgress): Rolling out the stack. (reported, not a failure)');
  });

  it('an operator message with control characters and a megabyte of text: CRITICAL, every line clean and bounded', async () => {
    const co = JSON.parse(HEALTHY_OPERATOR()) as { status: { conditions: Array<Record<string, string>> } };
    const degraded = co.status.conditions.find((c) => c.type === 'Degraded')!;
    Object.assign(degraded, {
      status: 'True',
      reason: 'Updating\u0085Failed',
      message: `Failed\u0000 to\u000b roll\u2028out\u001b[2J the\rstack\nMONITORING OK - fine ${'x'.repeat(1_000_000)}`,
    });
    api(healthy).faults.set([{ path: '/clusteroperators/', kind: 'body', contentType: 'application/json', body: JSON.stringify(co) }]);
    const r = await run(args(healthy));
    expect(r.code).toBe(2);
    expect(r.stdout.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(firstLine(r)).toMatch(
      /^MONITORING CRITICAL - ClusterOperator monitoring 4\.14\.38 Degraded=True \(Updating Failed\): Failed to roll out \[2J the stack MONITORING OK - fine x+… \(\d+ more characters\), 28 of 28 pods ready/,
    );
    expect(firstLine(r).length).toBeLessThan(1500);
    expect(r.stdout.split('\n').every((line) => line.length <= 1500)).toBe(true);
    expect(r.stderr).toBe('');
  });

  it('no ClusterOperator (404, OpenShift 3 or plain Kubernetes): skipped, said at -v', async () => {
    api(healthy).faults.set([
      { path: '/clusteroperators/', kind: 'status', status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' },
    ]);
    const r = await run(args(healthy, ['-v']));
    expect(r.code).toBe(0);
    expect(parsePluginOutput(r.stdout).summary).toMatch(
      /^28 of 28 pods ready, workload monitoring on \[no ClusterOperator monitoring \(404: OpenShift 3 or plain Kubernetes\), skipped, enableUserWorkload: true in ConfigMap openshift-monitoring\/cluster-monitoring-config, 23 pods in openshift-monitoring \(1 page\), 5 pods in openshift-user-workload-monitoring \(1 page\)\]$/,
    );
    expect(parsePluginOutput((await run(args(healthy))).stdout).summary).toBe('28 of 28 pods ready, workload monitoring on');
  });

  it('--monitoring-namespace and --user-workload-namespace choose where to look', async () => {
    const r = await run(args(healthy, ['--monitoring-namespace', 'monitoring']));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(
      /^MONITORING CRITICAL - no pods in namespace monitoring: the platform monitoring stack is not running, ClusterOperator monitoring 4\.14\.12 available, 0 of 0 pods ready, workload monitoring off \(no ConfigMap monitoring\/cluster-monitoring-config\) \|/,
    );
    const uwm = await run(args(healthy, ['--user-workload-namespace', 'user-monitoring']));
    expect(parsePluginOutput(uwm.stdout).summary).toMatch(
      /prometheus-operator, prometheus-user-workload, thanos-ruler-user-workload have no ready pod in user-monitoring/,
    );
    const bad = await run(args(healthy, ['--monitoring-namespace', 'Open Shift']));
    expect(bad.code).toBe(3);
    expect(firstLine(bad)).toBe(
      'MONITORING UNKNOWN - invalid --monitoring-namespace "Open Shift": expected a namespace name (lower-case letters, digits and -) (see --help)',
    );
  });

  it('--help lists the options and examples, and exits 3', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(3);
    for (const text of [
      '--monitoring-namespace',
      '--user-workload-namespace',
      '--expect-user-workload',
      'openshift-user-workload-monitoring',
      'cluster-reader',
      '--kubeconfig',
    ])
      expect(r.stdout).toContain(text);
  });
});

describe('failures are one UNKNOWN line that names cause and fix', () => {
  it('an account without cluster-reader: the permission and the role to grant', async () => {
    const r = await run(['--url', api(healthy).httpsUrl, '--ca-file', healthy.caFile, '--token-file', api(healthy).info.noReaderTokenFile]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^MONITORING UNKNOWN - HTTP 403 from https:\/\/127\.0\.0\.1:\d+\/\S+: the account may not (get clusteroperators\.config\.openshift\.io "monitoring" \(cluster scope\)|get configmaps "cluster-monitoring-config" in namespace openshift-monitoring|list pods in namespace openshift-monitoring) \(server says: .* is forbidden: User "system:serviceaccount:openshift-infra:no-reader" cannot .*\), grant it the cluster-reader role, which may read this \(oc adm policy add-cluster-role-to-user cluster-reader system:serviceaccount:openshift-infra:no-reader\)\n$/,
    );
    expect(r.stderr).toBe('');
  });

  it('a 403 on the pods only names list pods in that namespace', async () => {
    api(healthy).faults.set([
      {
        path: '/namespaces/openshift-monitoring/pods$',
        kind: 'status',
        status: 403,
        contentType: 'application/json',
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"system:serviceaccount:openshift-infra:monitoring\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"openshift-monitoring\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}',
      },
    ]);
    expect(firstLine(await run(args(healthy)))).toMatch(
      /^MONITORING UNKNOWN - HTTP 403 from .*\/api\/v1\/namespaces\/openshift-monitoring\/pods: the account may not list pods in namespace openshift-monitoring \(server says: pods is forbidden: .*\), grant it the cluster-reader role/,
    );
  });

  it('config.yaml that does not parse: UNKNOWN naming the ConfigMap and the line', async () => {
    api(healthy).faults.set([
      {
        path: '/configmaps/',
        kind: 'body',
        contentType: 'application/json',
        body: configMapWith('enableUserWorkload: true\nprometheusK8s:\n  retention: 15d\n    volumeClaimTemplate: {}\n'),
      },
    ]);
    const r = await run(args(healthy));
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      'MONITORING UNKNOWN - ConfigMap openshift-monitoring/cluster-monitoring-config: config.yaml is not valid YAML at line 3 (Nested mappings are not allowed in compact mappings), fix it with oc -n openshift-monitoring edit configmap cluster-monitoring-config\n',
    );
  });

  it.each([
    [
      'a pod list over --max-bytes',
      [],
      ['--max-bytes', '20000'],
      /^MONITORING UNKNOWN - response from .*\/pods is larger than --max-bytes 20000, raise --max-bytes/,
    ],
    [
      'an HTML page with 200',
      [{ path: '/clusteroperators/', kind: 'body', body: '<html><body>Application is not available</body></html>' }],
      [],
      /^MONITORING UNKNOWN - response from .*\/clusteroperators\/monitoring is not JSON \(text\/html, \d+ bytes, starts "<html>/,
    ],
    [
      'a 503 with a Status body',
      [
        {
          path: '/pods$',
          kind: 'status',
          status: 503,
          contentType: 'application/json',
          body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server is currently unable to handle the request","reason":"ServiceUnavailable","code":503}',
        },
      ],
      [],
      /^MONITORING UNKNOWN - HTTP 503 from .*: API server error \(server says: the server is currently unable to handle the request\)/,
    ],
    [
      'the wrong URL path',
      [],
      ['--url', 'SIM/console'],
      /^MONITORING UNKNOWN - HTTP 404 from .*\/console\/api\/v1\/namespaces\/openshift-monitoring\/pods: not a Kubernetes API at that URL/,
    ],
  ])('%s', async (_, faults, extra, pattern) => {
    api(sick).faults.set(faults as never);
    // A single-value option may be given once: an --url here replaces the default one.
    const own = extra.map((a) => a.replace('SIM', api(sick).httpsUrl));
    const argv = own.includes('--url') ? [...own, '--ca-file', sick.caFile, '--token-file', tokenFile(sick)] : args(sick, own);
    const r = await run(argv);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(pattern);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('without --ca-file or -k: the TLS failure of check_nodes, word for word', async () => {
    const r = await run(['--url', api(healthy).httpsUrl, '--token-file', tokenFile(healthy)]);
    expect(r.stdout).toMatch(
      /^MONITORING UNKNOWN - TLS verification of 127\.0\.0\.1:\d+ failed: the certificate was issued by an unknown CA \(issuer CN=cloudchecks simulator CA\), pass the CA that signed it with --ca-file PATH, or skip verification with -k\/--insecure\n$/,
    );
  });

  it('a server that stalls: UNKNOWN at -t, naming what it was doing', async () => {
    api(healthy).faults.set([{ kind: 'delay', ms: 5000 }]);
    const r = await run(args(healthy, ['-t', '1']));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^MONITORING UNKNOWN - timed out after 1s while reading the monitoring stack from https:\/\/127\.0\.0\.1:\d+, raise -t\/--timeout/,
    );
    expect(r.ms).toBeLessThan(1500);
  });
});

describe('the token never appears in the output', () => {
  it('at any -v level, in success and failure', async () => {
    const secret = readFileSync(tokenFile(sick), 'utf8').trim();
    const runs: RunResult[] = [];
    for (const v of [[], ['-v'], ['-vv'], ['-vvv']]) {
      runs.push(await run(args(sick, v)));
      runs.push(await run(['--url', api(sick).httpsUrl, '--ca-file', sick.caFile, ...v], { ...ENV, KUBE_TOKEN: secret }));
      runs.push(await run(['--url', api(healthy).httpsUrl, '--ca-file', healthy.caFile, '--token', secret, ...v])); // rejected: 401
    }
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect([0, 1, 2, 3]).toContain(r.code);
    }
    expect(runs.at(-1)!.stderr).toMatch(/> authorization: <redacted>/);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeClusterOperator, readClusterOperator } from '../../../lib/cluster/cluster-operator';
import { evaluateMonitoring, type MonitoringFacts } from '../../../lib/cluster/monitoring-report';
import { classifyPod, type Pod, type PodHealth } from '../../../lib/cluster/pod-health';
import { formatPerfdata } from '../../../lib/plugin/perfdata';
import { parseRange } from '../../../lib/plugin/range';
import { ScalarContext } from '../../../lib/plugin/scalar-context';
import { State } from '../../../lib/plugin/state';

const FIXTURES = join(__dirname, '../../fixtures/cluster/monitoring');
const fixture = <T>(name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;
const operatorFrom = (file: string) => {
  const operator = readClusterOperator(fixture(file));
  return { operator, health: judgeClusterOperator(operator) };
};
const AVAILABLE = operatorFrom('clusteroperator-available.json');
const readyPod = (name: string, namespace = 'openshift-monitoring', labels: Record<string, string> = {}): PodHealth =>
  classifyPod({ metadata: { name, namespace, labels }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }, namespace);
const PLATFORM = ['alertmanager-main-0', 'alertmanager-main-1', 'prometheus-k8s-0', 'prometheus-k8s-1', 'thanos-querier-6c8b7d9f4-2mxkd'].map((n) =>
  readyPod(n),
);
const UWM_NS = 'openshift-user-workload-monitoring';
const UWM = [
  readyPod('prometheus-operator-5c9d8f7b6-k8vjm', UWM_NS, { 'app.kubernetes.io/name': 'prometheus-operator' }),
  readyPod('prometheus-user-workload-0', UWM_NS, { 'app.kubernetes.io/name': 'prometheus', 'app.kubernetes.io/instance': 'user-workload' }),
  readyPod('thanos-ruler-user-workload-0', UWM_NS, { 'app.kubernetes.io/name': 'thanos-ruler', 'thanos-ruler': 'user-workload' }),
];
const ON = { userWorkload: true, source: 'enableUserWorkload: true in ConfigMap openshift-monitoring/cluster-monitoring-config' };
const OFF = { userWorkload: false, source: 'no ConfigMap openshift-monitoring/cluster-monitoring-config' };
const facts = (over: Partial<MonitoringFacts> = {}): MonitoringFacts => ({
  operator: AVAILABLE,
  config: ON,
  platformNamespace: 'openshift-monitoring',
  platformPods: PLATFORM,
  userWorkloadNamespace: UWM_NS,
  userWorkloadPods: UWM,
  ...over,
});
const C0 = { notReady: new ScalarContext({ critical: parseRange('0', '-c') }) };

describe('evaluateMonitoring', () => {
  it('all well, workload monitoring on: OK with strict perfdata', () => {
    const r = evaluateMonitoring(facts(), C0);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('ClusterOperator monitoring 4.14.38 available; 8 of 8 pods ready; workload monitoring on');
    expect(formatPerfdata(r.metrics!)).toBe('pods=8;;;0 pods_ready=8;;;0;8 pods_not_ready=0;;0;0;8 user_workload=1;;;0;1');
    expect(r.items!.map((i) => `[${State[i.state]}] ${i.text}`)).toEqual([
      '[OK] component prometheus-operator: 1 of 1 pods ready',
      '[OK] component prometheus-user-workload: 1 of 1 pods ready',
      '[OK] component thanos-ruler-user-workload: 1 of 1 pods ready',
    ]);
  });

  it('operator degraded and not available: CRITICAL with its message; Progressing reported; problems lead the summary', () => {
    const r = evaluateMonitoring(facts({ operator: operatorFrom('clusteroperator-degraded-unavailable.json') }), C0);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(
      /^ClusterOperator monitoring 4\.14\.38 Degraded=True \(UpdatingPrometheusK8SFailed\): Failed to rollout the stack\. .*; Available=False \(UpdatingPrometheusK8SFailed\): Rollout of the monitoring stack failed .*; progressing \(RollOutInProgress\): Rolling out the stack\.; 8 of 8 pods ready; workload monitoring on$/,
    );
    expect(r.items!.slice(0, 3).map((i) => [i.name, State[i.state]])).toEqual([
      ['operator/Degraded', 'CRITICAL'],
      ['operator/Available', 'CRITICAL'],
      ['operator/Progressing', 'OK'],
    ]);
    expect(r.items![0].text).toMatch(/\(since 2026-11-22T21:47:53Z\)$/);
  });

  it('a hostile, endless operator message is cut in the summary and the long output', () => {
    const operator = readClusterOperator({
      kind: 'ClusterOperator',
      metadata: { name: 'monitoring' },
      status: {
        conditions: [
          { type: 'Available', status: 'True' },
          { type: 'Degraded', status: 'True', message: 'x'.repeat(1_000_000) },
        ],
      },
    });
    const r = evaluateMonitoring(facts({ operator: { operator, health: judgeClusterOperator(operator) } }), C0);
    expect(r.summary.length).toBeLessThan(500);
    expect(r.items![0].text.length).toBeLessThan(4100);
  });

  it('a pod not ready: CRITICAL by default naming it; -w/-c ranges on the count', () => {
    const crash = classifyPod(fixture<Pod>('pod-crashloop.json'), 'x');
    const pods = [...PLATFORM.filter((p) => p.name !== 'prometheus-k8s-0'), crash];
    const r = evaluateMonitoring(facts({ platformPods: pods }), C0);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe(
      '1 of 8 pods not ready: openshift-monitoring/prometheus-k8s-0 (Running, Ready=False, prometheus: CrashLoopBackOff, last exit OOMKilled (code 137), 37 restarts); ClusterOperator monitoring 4.14.38 available; workload monitoring on',
    );
    expect(r.items![0]).toEqual({
      name: 'pod/openshift-monitoring/prometheus-k8s-0',
      state: State.CRITICAL,
      text: 'pod openshift-monitoring/prometheus-k8s-0 (Running, Ready=False, prometheus: CrashLoopBackOff, last exit OOMKilled (code 137), 37 restarts)',
    });
    const warn = evaluateMonitoring(facts({ platformPods: pods }), {
      notReady: new ScalarContext({ warning: parseRange('0', '-w'), critical: parseRange('2', '-c') }),
    });
    expect(warn.state).toBe(State.WARNING);
    expect(formatPerfdata(warn.metrics!)).toBe('pods=8;;;0 pods_ready=7;;;0;8 pods_not_ready=1;0;2;0;8 user_workload=1;;;0;1');
    expect(evaluateMonitoring(facts({ platformPods: pods }), { notReady: new ScalarContext({ critical: parseRange('1', '-c') }) }).state).toBe(State.OK);
  });

  it('completed pods are neither counted nor failures', () => {
    const done = classifyPod(fixture<Pod>('pod-completed.json'), 'x');
    const r = evaluateMonitoring(facts({ platformPods: [...PLATFORM, done] }), C0);
    expect(r.state).toBe(State.OK);
    expect(r.metrics![0]).toMatchObject({ label: 'pods', value: 8 });
  });

  it('the summary names five pods, then "and N more"', () => {
    const sick = Array.from({ length: 7 }, (_, i) =>
      classifyPod({ metadata: { name: `node-exporter-${i}`, namespace: 'openshift-monitoring' }, status: { phase: 'Pending' } }, 'x'),
    );
    const r = evaluateMonitoring(facts({ platformPods: [...PLATFORM, ...sick] }), C0);
    expect(r.summary).toMatch(/^7 of 15 pods not ready: .*node-exporter-4 \(Pending, not scheduled yet\) and 2 more;/);
    expect(r.items!.filter((i) => i.name.startsWith('pod/'))).toHaveLength(7);
  });

  it('workload monitoring on but a component without a ready pod: CRITICAL naming it', () => {
    const noRuler = UWM.filter((p) => !p.name.startsWith('thanos'));
    const r = evaluateMonitoring(facts({ userWorkloadPods: noRuler }), C0);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe(
      `workload monitoring on but thanos-ruler-user-workload has no ready pod in ${UWM_NS}; ClusterOperator monitoring 4.14.38 available; 7 of 7 pods ready`,
    );
    expect(r.items!.at(-1)).toEqual({
      name: 'component/thanos-ruler-user-workload',
      state: State.CRITICAL,
      text: `component thanos-ruler-user-workload: no pod in namespace ${UWM_NS}`,
    });
    const none = evaluateMonitoring(facts({ userWorkloadPods: [] }), C0);
    expect(none.summary).toMatch(/^workload monitoring on but prometheus-operator, prometheus-user-workload, thanos-ruler-user-workload have no ready pod/);
  });

  it('workload monitoring off: OK saying why; CRITICAL with the steps to switch it on when expected', () => {
    const off = evaluateMonitoring(facts({ config: OFF, userWorkloadPods: undefined }), C0);
    expect(off.state).toBe(State.OK);
    expect(off.summary).toBe(
      'ClusterOperator monitoring 4.14.38 available; 5 of 5 pods ready; workload monitoring off (no ConfigMap openshift-monitoring/cluster-monitoring-config)',
    );
    expect(off.metrics!.at(-1)).toMatchObject({ label: 'user_workload', value: 0 });
    const expected = evaluateMonitoring(facts({ config: OFF, userWorkloadPods: undefined }), { ...C0, expectUserWorkload: true });
    expect(expected.state).toBe(State.CRITICAL);
    expect(expected.summary).toMatch(
      /^workload monitoring off \(no ConfigMap openshift-monitoring\/cluster-monitoring-config\) but expected on; to switch it on, as a cluster administrator run oc -n openshift-monitoring edit configmap cluster-monitoring-config \(create it if missing\) and set enableUserWorkload: true in data\/config\.yaml; /,
    );
  });

  it('no ClusterOperator (404): the operator part is skipped; an empty platform namespace is then UNKNOWN, with the operator CRITICAL', () => {
    expect(evaluateMonitoring(facts({ operator: undefined }), C0).summary).toBe('8 of 8 pods ready; workload monitoring on');
    const wrongNs = evaluateMonitoring(facts({ operator: undefined, platformPods: [], config: OFF }), C0);
    expect(wrongNs.state).toBe(State.UNKNOWN);
    expect(wrongNs.summary).toMatch(/^no pods in namespace openshift-monitoring and no ClusterOperator monitoring; check --monitoring-namespace/);
    const gone = evaluateMonitoring(facts({ platformPods: [], config: OFF }), C0);
    expect(gone.state).toBe(State.CRITICAL);
    expect(gone.summary).toMatch(/^no pods in namespace openshift-monitoring: the platform monitoring stack is not running/);
  });

  it('plain Kubernetes (no ClusterOperator, no ConfigMap): no word on workload monitoring, which it does not have', () => {
    const plain = evaluateMonitoring(facts({ operator: undefined, config: OFF, platformNamespace: 'monitoring' }), C0);
    expect(plain.state).toBe(State.OK);
    expect(plain.summary).toBe('5 of 5 pods ready');
    const expected = evaluateMonitoring(facts({ operator: undefined, config: OFF }), { ...C0, expectUserWorkload: true });
    expect(expected.state).toBe(State.CRITICAL);
    const set = evaluateMonitoring(facts({ operator: undefined, config: { userWorkload: false, source: 'enableUserWorkload: false in ConfigMap x/y' } }), C0);
    expect(set.summary).toMatch(/workload monitoring off \(enableUserWorkload: false/);
  });
});

// The cluster's own monitoring stack, as an OpenShift 4 API server serves it: the "monitoring"
// ClusterOperator, ConfigMap cluster-monitoring-config and the pods of openshift-monitoring and
// openshift-user-workload-monitoring.
//
// Where the shapes come from:
// - ClusterOperator: config.openshift.io/v1 ClusterOperator (openshift/api config/v1
//   types_cluster_operator.go): status.conditions with type/status/lastTransitionTime/reason/
//   message, status.versions [{name: operator, version}], status.relatedObjects. The Degraded
//   message is the one the cluster monitoring operator sets when a Prometheus rollout fails
//   (quoted in openshift/cluster-monitoring-operator pull requests 1548 and 1558).
// - Pods: core/v1 Pod of the Kubernetes API reference. Pod names and labels are those of an
//   OpenShift 4.14 cluster: StatefulSet pods `<name>-<ordinal>`, Deployment pods
//   `<name>-<hash>-<suffix>`, and the app.kubernetes.io/* labels of the cluster monitoring
//   operator's manifests (assets/*/deployment.yaml, pod-disruption-budget.yaml).
// - A crash-looping container: state.waiting.reason CrashLoopBackOff with the kubelet's
//   "back-off 5m0s restarting failed container=…" message, lastState.terminated, restartCount.
import { randomBytes } from 'node:crypto';
import type { ResourceApi } from './resource-api';
import { send } from '../faults';
import type { Stats } from '../server';
import { decodeContinue, encodeContinue } from './node-store';

export const MONITORING_SCENARIOS = ['healthy', 'sick', 'off'] as const;
export type MonitoringScenario = (typeof MONITORING_SCENARIOS)[number];

const PLATFORM_NS = 'openshift-monitoring';
const UWM_NS = 'openshift-user-workload-monitoring';
const VERSION = '4.14.12';
const RESOURCE_VERSION = '48210377';
const CREATED = '2026-09-14T07:41:12Z';
const NODES = {
  master: ['master-0.prod-eu1.example.com', 'master-1.prod-eu1.example.com', 'master-2.prod-eu1.example.com'],
  worker: ['worker-1.prod-eu1.example.com', 'worker-2.prod-eu1.example.com', 'worker-3.prod-eu1.example.com'],
};

type Json = Record<string, unknown>;

interface PodSpec {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  containers: string[];
  node: string;
  /** How the pod is owned: a StatefulSet, ReplicaSet or DaemonSet of this name. */
  owner: { kind: 'StatefulSet' | 'ReplicaSet' | 'DaemonSet'; name: string };
  /** The first container crash-loops. */
  crashLoop?: { restarts: number };
}

/** A stable uid from a name, so that documents are the same on every start. */
function uid(name: string): string {
  let h = 2166136261;
  const hex: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const ch of `${round}/${name}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    hex.push(h.toString(16).padStart(8, '0'));
  }
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

function common(part: string, component: string, instance?: string): Record<string, string> {
  return {
    'app.kubernetes.io/component': component,
    ...(instance ? { 'app.kubernetes.io/instance': instance } : {}),
    'app.kubernetes.io/managed-by': 'cluster-monitoring-operator',
    'app.kubernetes.io/name': part,
    'app.kubernetes.io/part-of': 'openshift-monitoring',
  };
}

function platformPods(crashPrometheus: boolean): PodSpec[] {
  const pods: PodSpec[] = [];
  for (const i of [0, 1]) {
    pods.push({
      name: `alertmanager-main-${i}`,
      namespace: PLATFORM_NS,
      labels: {
        ...common('alertmanager', 'alert-router', 'main'),
        'app.kubernetes.io/managed-by': 'prometheus-operator',
        'app.kubernetes.io/version': '0.26.0',
        alertmanager: 'main',
        'controller-revision-hash': 'alertmanager-main-6c8f7b9d4b',
        'statefulset.kubernetes.io/pod-name': `alertmanager-main-${i}`,
      },
      containers: ['alertmanager', 'config-reloader', 'kube-rbac-proxy', 'kube-rbac-proxy-metric', 'kube-rbac-proxy-web', 'prom-label-proxy'],
      node: NODES.worker[i],
      owner: { kind: 'StatefulSet', name: 'alertmanager-main' },
    });
  }
  pods.push({
    name: 'cluster-monitoring-operator-6d8c9b7f5d-x2q8n',
    namespace: PLATFORM_NS,
    labels: { app: 'cluster-monitoring-operator', 'pod-template-hash': '6d8c9b7f5d' },
    containers: ['kube-rbac-proxy', 'cluster-monitoring-operator'],
    node: NODES.master[1],
    owner: { kind: 'ReplicaSet', name: 'cluster-monitoring-operator-6d8c9b7f5d' },
  });
  pods.push({
    name: 'kube-state-metrics-7f9c8d6b54-m4kzt',
    namespace: PLATFORM_NS,
    labels: { ...common('kube-state-metrics', 'exporter'), 'pod-template-hash': '7f9c8d6b54' },
    containers: ['kube-state-metrics', 'kube-rbac-proxy-main', 'kube-rbac-proxy-self'],
    node: NODES.worker[0],
    owner: { kind: 'ReplicaSet', name: 'kube-state-metrics-7f9c8d6b54' },
  });
  for (const [i, suffix] of ['4ftwq', 'hz7pd'].entries()) {
    pods.push({
      name: `monitoring-plugin-5b8d7c6f9-${suffix}`,
      namespace: PLATFORM_NS,
      labels: { ...common('monitoring-plugin', 'monitoring-plugin'), 'pod-template-hash': '5b8d7c6f9' },
      containers: ['monitoring-plugin'],
      node: NODES.worker[i + 1],
      owner: { kind: 'ReplicaSet', name: 'monitoring-plugin-5b8d7c6f9' },
    });
  }
  for (const [i, node] of [...NODES.master, ...NODES.worker].entries()) {
    pods.push({
      name: `node-exporter-${['2lq8x', '6hz9c', 'bq4tm', 'fk7wn', 'p9x2d', 'x5rjv'][i]}`,
      namespace: PLATFORM_NS,
      labels: { ...common('node-exporter', 'exporter'), 'controller-revision-hash': '7c5d8f9b6', 'pod-template-generation': '1' },
      containers: ['node-exporter', 'kube-rbac-proxy'],
      node,
      owner: { kind: 'DaemonSet', name: 'node-exporter' },
    });
  }
  pods.push({
    name: 'openshift-state-metrics-6f9d5c8b7-ngw5k',
    namespace: PLATFORM_NS,
    labels: { 'k8s-app': 'openshift-state-metrics', 'pod-template-hash': '6f9d5c8b7' },
    containers: ['kube-rbac-proxy-main', 'kube-rbac-proxy-self', 'openshift-state-metrics'],
    node: NODES.worker[2],
    owner: { kind: 'ReplicaSet', name: 'openshift-state-metrics-6f9d5c8b7' },
  });
  for (const [i, suffix] of ['8tq2m', 'w6vxl'].entries()) {
    pods.push({
      name: `prometheus-adapter-7c9b6d8f5-${suffix}`,
      namespace: PLATFORM_NS,
      labels: { ...common('prometheus-adapter', 'metrics-adapter'), 'pod-template-hash': '7c9b6d8f5' },
      containers: ['prometheus-adapter'],
      node: NODES.worker[i],
      owner: { kind: 'ReplicaSet', name: 'prometheus-adapter-7c9b6d8f5' },
    });
  }
  for (const i of [0, 1]) {
    pods.push({
      name: `prometheus-k8s-${i}`,
      namespace: PLATFORM_NS,
      labels: {
        ...common('prometheus', 'prometheus', 'k8s'),
        'app.kubernetes.io/managed-by': 'prometheus-operator',
        'app.kubernetes.io/version': '2.46.0',
        'controller-revision-hash': 'prometheus-k8s-7d4c8b9f6',
        'operator.prometheus.io/name': 'k8s',
        'operator.prometheus.io/shard': '0',
        prometheus: 'k8s',
        'statefulset.kubernetes.io/pod-name': `prometheus-k8s-${i}`,
      },
      containers: ['prometheus', 'config-reloader', 'thanos-sidecar', 'kube-rbac-proxy-web', 'kube-rbac-proxy', 'kube-rbac-proxy-thanos'],
      node: NODES.worker[i + 1],
      owner: { kind: 'StatefulSet', name: 'prometheus-k8s' },
      crashLoop: crashPrometheus && i === 0 ? { restarts: 37 } : undefined,
    });
  }
  pods.push({
    name: 'prometheus-operator-7f8d9c6b5-hq2zr',
    namespace: PLATFORM_NS,
    labels: { ...common('prometheus-operator', 'controller'), 'app.kubernetes.io/version': '0.67.1', 'pod-template-hash': '7f8d9c6b5' },
    containers: ['prometheus-operator', 'kube-rbac-proxy'],
    node: NODES.master[0],
    owner: { kind: 'ReplicaSet', name: 'prometheus-operator-7f8d9c6b5' },
  });
  for (const [i, suffix] of ['c7k4p', 'tx9bn'].entries()) {
    pods.push({
      name: `prometheus-operator-admission-webhook-6b9f7d8c4-${suffix}`,
      namespace: PLATFORM_NS,
      labels: { ...common('prometheus-operator-admission-webhook', 'controller'), 'pod-template-hash': '6b9f7d8c4' },
      containers: ['prometheus-operator-admission-webhook'],
      node: NODES.worker[i],
      owner: { kind: 'ReplicaSet', name: 'prometheus-operator-admission-webhook-6b9f7d8c4' },
    });
  }
  pods.push({
    name: 'telemeter-client-5d7f8c9b6-lz8rq',
    namespace: PLATFORM_NS,
    labels: { ...common('telemeter-client', 'telemetry-metrics-collector'), 'pod-template-hash': '5d7f8c9b6' },
    containers: ['telemeter-client', 'reload', 'kube-rbac-proxy'],
    node: NODES.worker[2],
    owner: { kind: 'ReplicaSet', name: 'telemeter-client-5d7f8c9b6' },
  });
  for (const [i, suffix] of ['2mxkd', 'vq5wz'].entries()) {
    pods.push({
      name: `thanos-querier-6c8b7d9f4-${suffix}`,
      namespace: PLATFORM_NS,
      labels: { ...common('thanos-query', 'query-layer', 'thanos-querier'), 'pod-template-hash': '6c8b7d9f4' },
      containers: ['thanos-query', 'oauth-proxy', 'kube-rbac-proxy', 'prom-label-proxy', 'kube-rbac-proxy-rules', 'kube-rbac-proxy-metrics'],
      node: NODES.worker[i],
      owner: { kind: 'ReplicaSet', name: 'thanos-querier-6c8b7d9f4' },
    });
  }
  return pods;
}

function userWorkloadPods(withThanosRuler: boolean): PodSpec[] {
  const pods: PodSpec[] = [
    {
      name: 'prometheus-operator-5c9d8f7b6-k8vjm',
      namespace: UWM_NS,
      labels: { ...common('prometheus-operator', 'controller'), 'app.kubernetes.io/version': '0.67.1', 'pod-template-hash': '5c9d8f7b6' },
      containers: ['prometheus-operator', 'kube-rbac-proxy'],
      node: NODES.master[2],
      owner: { kind: 'ReplicaSet', name: 'prometheus-operator-5c9d8f7b6' },
    },
  ];
  for (const i of [0, 1]) {
    pods.push({
      name: `prometheus-user-workload-${i}`,
      namespace: UWM_NS,
      labels: {
        ...common('prometheus', 'prometheus', 'user-workload'),
        'app.kubernetes.io/managed-by': 'prometheus-operator',
        'app.kubernetes.io/version': '2.46.0',
        'controller-revision-hash': 'prometheus-user-workload-85d6c7b9f4',
        'operator.prometheus.io/name': 'user-workload',
        'operator.prometheus.io/shard': '0',
        prometheus: 'user-workload',
        'statefulset.kubernetes.io/pod-name': `prometheus-user-workload-${i}`,
      },
      containers: ['prometheus', 'config-reloader', 'thanos-sidecar', 'kube-rbac-proxy-federate', 'kube-rbac-proxy-metrics', 'kube-rbac-proxy-thanos'],
      node: NODES.worker[i],
      owner: { kind: 'StatefulSet', name: 'prometheus-user-workload' },
    });
  }
  if (withThanosRuler) {
    for (const i of [0, 1]) {
      pods.push({
        name: `thanos-ruler-user-workload-${i}`,
        namespace: UWM_NS,
        labels: {
          'app.kubernetes.io/instance': 'user-workload',
          'app.kubernetes.io/managed-by': 'prometheus-operator',
          'app.kubernetes.io/name': 'thanos-ruler',
          'controller-revision-hash': 'thanos-ruler-user-workload-6f7c9d8b5',
          'statefulset.kubernetes.io/pod-name': `thanos-ruler-user-workload-${i}`,
          'thanos-ruler': 'user-workload',
        },
        containers: ['thanos-ruler', 'config-reloader', 'kube-rbac-proxy-metrics', 'kube-rbac-proxy-web'],
        node: NODES.worker[i + 1],
        owner: { kind: 'StatefulSet', name: 'thanos-ruler-user-workload' },
      });
    }
  }
  return pods;
}

/** Renders a pod as the API serves it. */
function renderPod(p: PodSpec, index: number): Json {
  const started = `2026-11-0${1 + (index % 8)}T0${index % 10}:1${index % 6}:2${index % 10}Z`;
  const crash = p.crashLoop;
  const ready = !crash;
  const condition = (type: string, status: boolean, reason?: string) => ({
    type,
    status: status ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: type === 'PodScheduled' || type === 'Initialized' ? started : crash ? '2026-11-23T06:02:48Z' : started,
    ...(reason ? { reason } : {}),
    ...(!status && reason ? { message: `containers with unready status: [${p.containers[0]}]` } : {}),
  });
  const containerStatuses = p.containers.map((name, i) => {
    const looping = crash && i === 0;
    const base = {
      name,
      image: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${uid(name).replace(/-/g, '')}${uid(name + 'x').replace(/-/g, '')}`.slice(0, 118),
      imageID: '',
      containerID: `cri-o://${uid(p.name + name).replace(/-/g, '')}${uid(name + p.name).replace(/-/g, '')}`,
      started: !looping,
    };
    base.imageID = base.image;
    if (!looping) return { ...base, ready: true, restartCount: 0, state: { running: { startedAt: started } }, lastState: {} };
    return {
      ...base,
      ready: false,
      restartCount: crash.restarts,
      state: {
        waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=${name} pod=${p.name}_${p.namespace}(${uid(p.name)})` },
      },
      lastState: {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          message:
            'ts=2026-11-23T09:58:12.318Z caller=main.go:1159 level=error err="opening storage failed: /prometheus/chunks_head/000412: invalid magic number 0"',
          startedAt: '2026-11-23T09:58:11Z',
          finishedAt: '2026-11-23T09:58:12Z',
          containerID: `cri-o://${uid(p.name + 'last').replace(/-/g, '')}`,
        },
      },
    };
  });
  return {
    metadata: {
      name: p.name,
      ...(p.owner.kind === 'StatefulSet' ? {} : { generateName: p.name.replace(/[a-z0-9]{5}$/, '') }),
      namespace: p.namespace,
      uid: uid(p.name),
      resourceVersion: String(48210000 + index * 7),
      creationTimestamp: started,
      labels: p.labels,
      annotations: { 'openshift.io/scc': 'restricted-v2', 'target.workload.openshift.io/management': '{"effect": "PreferredDuringScheduling"}' },
      ownerReferences: [
        {
          apiVersion: p.owner.kind === 'ReplicaSet' ? 'apps/v1' : 'apps/v1',
          kind: p.owner.kind,
          name: p.owner.name,
          uid: uid(p.owner.name),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: p.containers.map((name) => ({
        name,
        image: `quay.io/openshift-release-dev/ocp-v4.0-art-dev`,
        resources: { requests: { cpu: '1m', memory: '10Mi' } },
        terminationMessagePolicy: 'FallbackToLogsOnError',
        imagePullPolicy: 'IfNotPresent',
      })),
      nodeName: p.node,
      priorityClassName: p.namespace === UWM_NS ? 'openshift-user-critical' : 'system-cluster-critical',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      serviceAccountName: p.owner.name.replace(/-[a-f0-9]{8,10}$/, ''),
    },
    status: {
      phase: 'Running',
      conditions: [
        condition('Initialized', true),
        condition('Ready', ready, ready ? undefined : 'ContainersNotReady'),
        condition('ContainersReady', ready, ready ? undefined : 'ContainersNotReady'),
        condition('PodScheduled', true),
      ],
      hostIP: `10.0.${index % 3}.${10 + (index % 40)}`,
      podIP: `10.128.${index % 4}.${20 + index}`,
      podIPs: [{ ip: `10.128.${index % 4}.${20 + index}` }],
      startTime: started,
      containerStatuses,
      qosClass: 'Burstable',
    },
  };
}

function clusterOperator(degraded: boolean): Json {
  const condition = (type: string, status: string, lastTransitionTime: string, reason?: string, message?: string) => ({
    type,
    status,
    lastTransitionTime,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  });
  const conditions = degraded
    ? [
        condition('Available', 'True', '2026-11-20T13:05:41Z', 'RollOutDone', 'Successfully rolled out the stack.'),
        condition('Progressing', 'False', '2026-11-23T06:12:02Z', 'RollOutInProgress', 'Rolling out the stack.'),
        condition(
          'Degraded',
          'True',
          '2026-11-23T06:12:02Z',
          'UpdatingPrometheusK8SFailed',
          'Failed to rollout the stack. Error: updating prometheus-k8s: waiting for Prometheus object changes failed: waiting for Prometheus openshift-monitoring/k8s: expected 2 replicas, got 1 updated replicas',
        ),
        condition('Upgradeable', 'True', '2026-09-14T07:58:30Z', 'RollOutDone', 'Rollout of the monitoring stack is done'),
      ]
    : [
        condition('Available', 'True', '2026-11-20T13:05:41Z', 'RollOutDone', 'Successfully rolled out the stack.'),
        condition('Progressing', 'False', '2026-11-20T13:05:41Z', 'RollOutDone', 'Rollout of the monitoring stack is done'),
        condition('Degraded', 'False', '2026-11-20T13:05:41Z'),
        condition('Upgradeable', 'True', '2026-09-14T07:58:30Z', 'RollOutDone', 'Rollout of the monitoring stack is done'),
      ];
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: {
      annotations: { 'include.release.openshift.io/self-managed-high-availability': 'true', 'include.release.openshift.io/single-node-developer': 'true' },
      creationTimestamp: CREATED,
      generation: 1,
      name: 'monitoring',
      ownerReferences: [{ apiVersion: 'config.openshift.io/v1', controller: true, kind: 'ClusterVersion', name: 'version', uid: uid('version') }],
      resourceVersion: RESOURCE_VERSION,
      uid: uid('co/monitoring'),
    },
    spec: {},
    status: {
      conditions,
      extension: null,
      relatedObjects: [
        { group: '', name: 'openshift-monitoring', resource: 'namespaces' },
        { group: '', name: 'openshift-user-workload-monitoring', resource: 'namespaces' },
        ...['servicemonitors', 'podmonitors', 'prometheusrules', 'alertmanagers', 'prometheuses', 'thanosrulers', 'alertmanagerconfigs'].map((resource) => ({
          group: 'monitoring.coreos.com',
          name: '',
          resource,
        })),
      ],
      versions: [{ name: 'operator', version: VERSION }],
    },
  };
}

// As an administrator writes it following the product documentation: a comment, a block
// mapping, settings beside the switch.
const CONFIG_YAML = `# Cluster monitoring settings, see docs/workload-monitoring.md
enableUserWorkload: true
prometheusK8s:
  retention: 15d
  volumeClaimTemplate:
    spec:
      storageClassName: gp3-csi
      resources:
        requests:
          storage: 40Gi
`;

function configMap(): Json {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      creationTimestamp: '2026-10-02T09:20:44Z',
      name: 'cluster-monitoring-config',
      namespace: PLATFORM_NS,
      resourceVersion: '31877642',
      uid: uid('cm/cluster-monitoring-config'),
    },
    data: { 'config.yaml': CONFIG_YAML },
  };
}

/** The monitoring resources of a scenario; `account` (in handle) set means a token without cluster-reader. */
export function createMonitoringApi(scenario: MonitoringScenario, stats: Stats): ResourceApi {
  const operator = JSON.stringify(clusterOperator(scenario === 'sick'));
  const config = scenario === 'off' ? undefined : JSON.stringify(configMap());
  const specs = [...platformPods(scenario === 'sick'), ...(scenario === 'off' ? [] : userWorkloadPods(scenario !== 'sick'))];
  const pods = specs
    .map((p, i) => ({ name: p.name, namespace: p.namespace, json: JSON.stringify(renderPod(p, i)) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const headers = () => ({ 'content-type': 'application/json', 'cache-control': 'no-cache, private', 'audit-id': randomBytes(16).toString('hex') });
  const CO_PATH = '/apis/config.openshift.io/v1/clusteroperators/monitoring';
  const CM = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps\/([^/]+)$/;
  const PODS = /^\/api\/v1\/namespaces\/([^/]+)\/pods$/;

  return {
    handles: (pathname) => pathname === CO_PATH || CM.test(pathname) || PODS.test(pathname),
    handle(req, res, url, account, sendStatus) {
      stats.bump('monitoring');
      const cm = CM.exec(url.pathname);
      const podList = PODS.exec(url.pathname);
      if (account !== undefined) {
        stats.bump('forbidden');
        const user = `User "${account}" cannot`;
        if (url.pathname === CO_PATH)
          sendStatus(
            res,
            403,
            'Forbidden',
            `clusteroperators.config.openshift.io "monitoring" is forbidden: ${user} get resource "clusteroperators" in API group "config.openshift.io" at the cluster scope`,
            { name: 'monitoring', group: 'config.openshift.io', kind: 'clusteroperators' },
          );
        else if (cm)
          sendStatus(
            res,
            403,
            'Forbidden',
            `configmaps "${cm[2]}" is forbidden: ${user} get resource "configmaps" in API group "" in the namespace "${cm[1]}"`,
            { name: cm[2], kind: 'configmaps' },
          );
        else
          sendStatus(res, 403, 'Forbidden', `pods is forbidden: ${user} list resource "pods" in API group "" in the namespace "${podList?.[1]}"`, {
            kind: 'pods',
          });
        return;
      }
      if (req.method !== 'GET') {
        sendStatus(res, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
        return;
      }
      if (url.pathname === CO_PATH) {
        send(res, 200, headers(), operator);
        return;
      }
      if (cm) {
        if (config === undefined || cm[1] !== PLATFORM_NS || cm[2] !== 'cluster-monitoring-config')
          sendStatus(res, 404, 'NotFound', `configmaps "${cm[2]}" not found`, { name: cm[2], kind: 'configmaps' });
        else send(res, 200, headers(), config);
        return;
      }
      // A pod list in a namespace that does not exist is empty, as the API server answers.
      const namespace = decodeURIComponent(podList![1]);
      const limit = Math.max(0, Number.parseInt(url.searchParams.get('limit') ?? '0', 10) || 0);
      let start = '';
      const cont = url.searchParams.get('continue');
      if (cont) {
        try {
          const key = decodeContinue(cont);
          if (key.rv !== RESOURCE_VERSION) throw new Error('continue key is not valid: resourceVersion of another list');
          start = key.start;
        } catch (e) {
          sendStatus(res, 400, 'BadRequest', (e as Error).message);
          return;
        }
      }
      const mine = pods.filter((p) => p.namespace === namespace && p.name >= start);
      const page = limit > 0 ? mine.slice(0, limit) : mine;
      const next = limit > 0 && mine.length > limit ? encodeContinue({ rv: RESOURCE_VERSION, start: mine[limit].name }) : undefined;
      const metadata = JSON.stringify({ resourceVersion: RESOURCE_VERSION, ...(next ? { continue: next, remainingItemCount: mine.length - limit } : {}) });
      stats.bump('pod-pages');
      send(res, 200, headers(), `{"kind":"PodList","apiVersion":"v1","metadata":${metadata},"items":[${page.map((p) => p.json).join(',')}]}`);
    },
  };
}

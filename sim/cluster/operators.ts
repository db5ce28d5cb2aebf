// The cluster operators and the cluster version, as an OpenShift 4.16 API server serves them:
// GET /apis/config.openshift.io/v1/clusteroperators and /clusterversions/version.
//
// Where the shapes come from: config.openshift.io/v1 ClusterOperator and ClusterVersion
// (openshift/api config/v1 types_cluster_operator.go, types_cluster_version.go) and the
// captures in test/fixtures/cluster/operators: the 33 operators a self-managed 4.14-4.16
// cluster on AWS runs, conditions with reason AsExpected, the messages operators write when
// etcd loses a member, the ingress controller is unavailable or a daemon set is rolling, and
// the cluster version operator's "Working towards X: n of m done (p% complete)".
// Times are set when a request is answered, so that "Degraded for 2h" stays 2 h old.
import { randomBytes } from 'node:crypto';
import type { ResourceApi } from './resource-api';
import { send } from '../faults';
import type { Stats } from '../server';

export const OPERATOR_SCENARIOS = ['healthy', 'degraded', 'unavailable', 'progressing', 'updating', 'failing', 'updates', 'sick', 'none'] as const;
export type OperatorScenario = (typeof OPERATOR_SCENARIOS)[number];

const VERSION = '4.16.27';
const NEXT = '4.16.28';
const CHANNEL = 'stable-4.16';
const INSTALLED = '2026-09-14T07:41:12Z';
/** The operators of a self-managed 4.16 cluster, as `oc get clusteroperators` lists them. */
export const OPERATOR_NAMES = [
  'authentication',
  'baremetal',
  'cloud-controller-manager',
  'cloud-credential',
  'cluster-autoscaler',
  'config-operator',
  'console',
  'control-plane-machine-set',
  'csi-snapshot-controller',
  'dns',
  'etcd',
  'image-registry',
  'ingress',
  'insights',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kube-storage-version-migrator',
  'machine-api',
  'machine-approver',
  'machine-config',
  'marketplace',
  'monitoring',
  'network',
  'node-tuning',
  'openshift-apiserver',
  'openshift-controller-manager',
  'openshift-samples',
  'operator-lifecycle-manager',
  'operator-lifecycle-manager-catalog',
  'operator-lifecycle-manager-packageserver',
  'service-ca',
  'storage',
];
// As in the captures: these report no Upgradeable condition.
const WITHOUT_UPGRADEABLE = new Set(['image-registry', 'node-tuning', 'openshift-samples']);

type Json = Record<string, unknown>;
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  /** Seconds before the answer. */
  ago: number;
}

const H = 3600;
const SETTLED = 60 * 24 * H;

function healthyConditions(name: string): Condition[] {
  const conditions: Condition[] = [
    { type: 'Degraded', status: 'False', reason: 'AsExpected', ago: SETTLED },
    {
      type: 'Progressing',
      status: 'False',
      reason: 'AsExpected',
      message: name === 'etcd' ? 'NodeInstallerProgressing: 3 nodes are at revision 8\nEtcdMembersProgressing: No unstarted etcd members found' : undefined,
      ago: SETTLED,
    },
    {
      type: 'Available',
      status: 'True',
      reason: 'AsExpected',
      message:
        name === 'etcd' ? 'StaticPodsAvailable: 3 nodes are active; 3 nodes are at revision 8\nEtcdMembersAvailable: 3 members are available' : undefined,
      ago: SETTLED,
    },
  ];
  if (!WITHOUT_UPGRADEABLE.has(name)) conditions.push({ type: 'Upgradeable', status: 'True', reason: 'AsExpected', message: 'All is well', ago: SETTLED });
  return conditions;
}

function replace(conditions: Condition[], next: Condition): Condition[] {
  return conditions.map((c) => (c.type === next.type ? next : c));
}

const SICK: Record<'degraded' | 'unavailable' | 'progressing', { name: string; condition: Condition }> = {
  degraded: {
    name: 'etcd',
    condition: {
      type: 'Degraded',
      status: 'True',
      reason: 'EtcdMembers_UnhealthyMembers::NodeController_MasterNodesReady',
      message:
        'EtcdMembersDegraded: 2 of 3 members are available, master-1.prod-eu1.example.com is unhealthy\nNodeControllerDegraded: The master nodes not ready: node "master-1.prod-eu1.example.com" not ready since 2026-11-23 10:02:11 +0000 UTC because KubeletNotReady (container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?)',
      ago: 2 * H,
    },
  },
  unavailable: {
    name: 'ingress',
    condition: {
      type: 'Available',
      status: 'False',
      reason: 'IngressUnavailable',
      message:
        'The "default" ingress controller reports Available=False: IngressControllerUnavailable: One or more status conditions indicate unavailable: DeploymentAvailable=False (DeploymentUnavailable: The deployment has Available status condition set to False (reason: MinimumReplicasUnavailable) with message: Deployment does not have minimum availability.)',
      ago: 25 * 60,
    },
  },
  progressing: {
    name: 'network',
    condition: {
      type: 'Progressing',
      status: 'True',
      reason: 'Deploying',
      message:
        'DaemonSet "/openshift-multus/multus" is not available (awaiting 1 nodes)\nDaemonSet "/openshift-ovn-kubernetes/ovnkube-node" is not available (awaiting 1 nodes)',
      ago: 3 * H,
    },
  },
};

/** Which operators are sick in a scenario, and how. */
function sickOperators(scenario: OperatorScenario): Map<string, Condition> {
  const picked: Array<keyof typeof SICK> =
    scenario === 'sick'
      ? ['degraded', 'unavailable', 'progressing']
      : scenario === 'degraded' || scenario === 'unavailable' || scenario === 'progressing'
        ? [scenario]
        : [];
  const sick = new Map(picked.map((k) => [SICK[k].name, SICK[k].condition]));
  if (scenario === 'failing')
    sick.set('monitoring', {
      type: 'Available',
      status: 'False',
      reason: 'UpdatingPrometheusFailed',
      message: 'UpdatingPrometheus: client rate limiter Wait returned an error: context deadline exceeded',
      ago: 50 * 60,
    });
  return sick;
}

function time(now: number, ago: number): string {
  return new Date(Math.floor(now / 1000 - ago) * 1000).toISOString().replace('.000Z', 'Z');
}

function renderConditions(conditions: Condition[], now: number): Json[] {
  return conditions.map((c) => ({
    lastTransitionTime: time(now, c.ago),
    ...(c.message ? { message: c.message } : {}),
    ...(c.reason ? { reason: c.reason } : {}),
    status: c.status,
    type: c.type,
  }));
}

function operator(name: string, index: number, scenario: OperatorScenario, now: number, changed?: Condition | null): Json {
  let conditions = healthyConditions(name);
  // A run-time change (null: made healthy again) replaces what the scenario says.
  const sick = changed === undefined ? sickOperators(scenario).get(name) : changed;
  if (sick) conditions = replace(conditions, sick);
  // During the update the first operators are at the new version, the rest still at the old.
  const version = scenario === 'updating' && index < OPERATOR_NAMES.indexOf('network') ? NEXT : VERSION;
  if (scenario === 'updating' && name === 'network')
    conditions = replace(conditions, { type: 'Progressing', status: 'True', message: `Working towards ${NEXT}`, ago: 12 * 60 });
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: {
      creationTimestamp: INSTALLED,
      generation: 1,
      name,
      resourceVersion: String(31_000 + index * 7),
      uid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    },
    spec: {},
    status: { conditions: renderConditions(conditions, now), extension: null, versions: [{ name: 'operator', version }] },
  };
}

function release(version: string): Json {
  const digest = Array.from(version)
    .reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, 2166136261)
    .toString(16)
    .padStart(8, '0')
    .repeat(8);
  return {
    channels: ['candidate-4.16', 'eus-4.16', 'fast-4.16', CHANNEL],
    image: `quay.io/openshift-release-dev/ocp-release@sha256:${digest}`,
    url: 'https://access.redhat.com/errata/RHBA-2026:0000',
    version,
  };
}

function clusterVersion(scenario: OperatorScenario, now: number): Json {
  const updating = scenario === 'updating';
  const desired = updating ? NEXT : VERSION;
  const conditions: Condition[] = [
    { type: 'RetrievedUpdates', status: 'True', ago: 30 * 24 * H },
    {
      type: 'ReleaseAccepted',
      status: 'True',
      reason: 'PayloadLoaded',
      message: `Payload loaded version="${desired}" image="${release(desired).image}" architecture="amd64"`,
      ago: updating ? 40 * 60 : 21 * 24 * H,
    },
    { type: 'Available', status: 'True', message: `Done applying ${VERSION}`, ago: 21 * 24 * H },
    { type: 'Failing', status: 'False', ago: 21 * 24 * H },
    { type: 'Progressing', status: 'False', message: `Cluster version is ${VERSION}`, ago: 21 * 24 * H },
  ];
  let c = conditions;
  if (updating)
    c = replace(c, {
      type: 'Progressing',
      status: 'True',
      message: `Working towards ${NEXT}: 512 of 903 done (56% complete), waiting on network`,
      ago: 40 * 60,
    });
  if (scenario === 'failing') {
    c = replace(c, {
      type: 'Failing',
      status: 'True',
      reason: 'ClusterOperatorNotAvailable',
      message: 'Cluster operator monitoring is not available',
      ago: 45 * 60,
    });
    c = replace(c, {
      type: 'Progressing',
      status: 'False',
      reason: 'ClusterOperatorNotAvailable',
      message: `Error while reconciling ${VERSION}: the cluster operator monitoring is not available`,
      ago: 45 * 60,
    });
  }
  if (scenario === 'sick')
    c = replace(c, {
      type: 'RetrievedUpdates',
      status: 'False',
      reason: 'RemoteFailed',
      message:
        'Unable to retrieve available updates: Get "https://api.openshift.com/api/upgrades_info/v1/graph?arch=amd64&channel=stable-4.16&version=4.16.27": dial tcp: lookup api.openshift.com on 172.30.0.10:53: no such host',
      ago: 6 * H,
    });
  const history = [
    {
      completionTime: updating ? null : time(now, 21 * 24 * H - 3000),
      image: release(desired).image,
      startedTime: time(now, updating ? 40 * 60 : 21 * 24 * H),
      state: updating ? 'Partial' : 'Completed',
      verified: true,
      version: desired,
    },
    ...(updating
      ? [
          {
            completionTime: time(now, 21 * 24 * H - 3000),
            image: release(VERSION).image,
            startedTime: time(now, 21 * 24 * H),
            state: 'Completed',
            verified: true,
            version: VERSION,
          },
        ]
      : []),
    { completionTime: '2026-09-14T08:32:40Z', image: release('4.16.9').image, startedTime: INSTALLED, state: 'Completed', verified: false, version: '4.16.9' },
  ];
  const offered = scenario === 'updates' || scenario === 'sick' ? ['4.16.28', '4.16.29', '4.16.30'].map(release) : null;
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: {
      creationTimestamp: INSTALLED,
      generation: updating ? 3 : 2,
      name: 'version',
      resourceVersion: '48210377',
      uid: '492c0a24-2d2f-48af-93d9-6520a4c852a7',
    },
    spec: {
      channel: CHANNEL,
      clusterID: 'bb39d7b1-588e-4cd6-bc8e-b8f2f8509321',
      ...(updating ? { desiredUpdate: { architecture: '', force: false, image: '', version: NEXT } } : {}),
    },
    status: {
      availableUpdates: offered,
      conditions: renderConditions(c, now),
      desired: release(desired),
      history,
      observedGeneration: updating ? 3 : 2,
      versionHash: 'Fy2Q3t6nYb0=',
    },
  };
}

const LIST = '/apis/config.openshift.io/v1/clusteroperators';
const VERSION_PATH = '/apis/config.openshift.io/v1/clusterversions/version';

/** The operator resources of a scenario; `account` (in handle) set means a token without cluster-reader. */
/**
 * A run-time change of one operator (`/_sim/cluster/operator?name=NAME&state=STATE[&message=TEXT]`):
 * degraded (Degraded=True), unavailable (Available=False), progressing (Progressing=True) or
 * healthy. Returns the answer's text, or throws a RangeError naming the fix.
 */
export function changeOperator(changes: Map<string, Condition | null>, name: string, state: string, message: string | null): string {
  if (!OPERATOR_NAMES.includes(name)) throw new RangeError(`name=${name}: no such operator; they are ${OPERATOR_NAMES.join(', ')}`);
  const text = message ?? `${state} at run time by the simulator's control`;
  const condition: Record<string, Condition | null> = {
    degraded: { type: 'Degraded', status: 'True', reason: 'SimulatorChange', message: text, ago: 0 },
    unavailable: { type: 'Available', status: 'False', reason: 'SimulatorChange', message: text, ago: 0 },
    progressing: { type: 'Progressing', status: 'True', reason: 'SimulatorChange', message: text, ago: 0 },
    healthy: null,
  };
  if (!(state in condition)) throw new RangeError(`state=${state}: give degraded, unavailable, progressing or healthy`);
  changes.set(name, condition[state]);
  return `${name} is ${state}`;
}

export function createOperatorsApi(scenario: OperatorScenario, stats: Stats, changes = new Map<string, Condition | null>()): ResourceApi {
  const headers = () => ({ 'content-type': 'application/json', 'cache-control': 'no-cache, private', 'audit-id': randomBytes(16).toString('hex') });
  return {
    handles: (pathname) => pathname === LIST || pathname === VERSION_PATH,
    handle(req, res, url, account, sendStatus) {
      stats.bump('operators');
      const list = url.pathname === LIST;
      if (scenario === 'none') {
        // Plain Kubernetes: the config.openshift.io group is not served at all.
        sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource', {});
        return;
      }
      if (account !== undefined) {
        stats.bump('forbidden');
        const user = `User "${account}" cannot`;
        if (list)
          sendStatus(
            res,
            403,
            'Forbidden',
            `clusteroperators.config.openshift.io is forbidden: ${user} list resource "clusteroperators" in API group "config.openshift.io" at the cluster scope`,
            { group: 'config.openshift.io', kind: 'clusteroperators' },
          );
        else
          sendStatus(
            res,
            403,
            'Forbidden',
            `clusterversions.config.openshift.io "version" is forbidden: ${user} get resource "clusterversions" in API group "config.openshift.io" at the cluster scope`,
            { name: 'version', group: 'config.openshift.io', kind: 'clusterversions' },
          );
        return;
      }
      if (req.method !== 'GET') {
        sendStatus(res, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
        return;
      }
      const now = Date.now();
      if (!list) {
        send(res, 200, headers(), JSON.stringify(clusterVersion(scenario, now)));
        return;
      }
      const items = OPERATOR_NAMES.map((name, i) => JSON.stringify(operator(name, i, scenario, now, changes.get(name))));
      send(
        res,
        200,
        headers(),
        `{"apiVersion":"config.openshift.io/v1","items":[${items.join(',')}],"kind":"ClusterOperatorList","metadata":{"continue":"","resourceVersion":"48210377"}}`,
      );
    },
  };
}

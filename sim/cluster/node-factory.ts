// Builds v1 Node objects shaped like those of an OpenShift 4 cluster on AWS: the real field
// names, labels, annotations, managedFields, capacity, nodeInfo and an images list, so that
// pages have realistic sizes (8-15 KB per node). Deterministic for a given seed.

import type { NodeCondition } from '../../lib/cluster/node';

/** A small seeded PRNG (mulberry32): the same seed gives the same cluster. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface NodeSpec {
  /** metadata.name; the Hostname address is its first label unless `noHostname`. */
  name: string;
  role: 'master' | 'worker' | 'infra';
  /** Overrides of the kubelet's four conditions, by type. */
  conditions?: Record<string, Partial<NodeCondition>>;
  /** Conditions added before the kubelet's (node-problem-detector, CSI drivers). */
  extraConditions?: NodeCondition[];
  /** The whole condition list, replacing the kubelet's (old clusters, fresh or odd nodes); [] for none. */
  conditionList?: NodeCondition[];
  unschedulable?: boolean;
  noHostname?: boolean;
  /** No status.addresses at all (a node the kubelet registered but never updated). */
  noAddresses?: boolean;
  /** How many container images the node reports (the bulk of a node's size). */
  images?: number;
  /** status.nodeInfo.kubeletVersion (default the cluster's, v1.27.10+28ed2d7): a node left behind by an upgrade. */
  kubeletVersion?: string;
  /** spec.providerID instead of the AWS instance's; null for none (a node registered without a cloud provider). */
  providerID?: string | null;
}

const HEARTBEAT = '2026-11-22T09:58:41Z';
/** The Kubernetes of the simulated OpenShift 4.14: what /version and the kubelets report. */
export const SIM_KUBE_VERSION = 'v1.27.10+28ed2d7';
const CREATED = '2026-03-04T11:17:09Z';
const ZONES = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];
const IMAGE_REPOS = [
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev',
  'registry.redhat.io/openshift4/ose-csi-external-provisioner-rhel8',
  'registry.redhat.io/rhel8/support-tools',
  'image-registry.openshift-image-registry.svc:5000/payments/api',
  'registry.example.com/platform/fluent-bit',
  'quay.io/prometheus/node-exporter',
  'registry.redhat.io/openshift-logging/vector-rhel8',
];

function hex(rand: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rand() * 16)];
  return s;
}

function uuid(rand: () => number): string {
  const h = hex(rand, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const KUBELET_CONDITIONS: Array<[string, string, string]> = [
  ['MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'KubeletReady', 'kubelet is posting ready status'],
];

/** The kubelet's conditions when it stopped posting status: every one Unknown. */
export const KUBELET_STOPPED: Record<string, Partial<NodeCondition>> = Object.fromEntries(
  KUBELET_CONDITIONS.map(([type]) => [
    type,
    {
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: '2026-11-22T08:12:03Z',
      lastTransitionTime: '2026-11-22T08:13:44Z',
    },
  ]),
);

/** Builds one Node object. */
export function makeNode(spec: NodeSpec, rand: () => number): Record<string, unknown> {
  const short = spec.name.split('.')[0];
  const zone = ZONES[Math.floor(rand() * ZONES.length)];
  const ip = `10.0.${128 + Math.floor(rand() * 64)}.${1 + Math.floor(rand() * 254)}`;
  const instance = `i-0${hex(rand, 16)}`;
  const master = spec.role === 'master';
  const roleLabels: Record<string, string> = master
    ? { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/master': '' }
    : { [`node-role.kubernetes.io/${spec.role}`]: '' };
  const type = master ? 'm6i.2xlarge' : 'm6i.4xlarge';
  const config = `rendered-${master ? 'master' : 'worker'}-${hex(rand, 32)}`;

  const conditions: NodeCondition[] = [...(spec.extraConditions ?? [])];
  if (spec.conditionList) conditions.push(...spec.conditionList);
  else
    for (const [t, reason, message] of KUBELET_CONDITIONS) {
      const healthy = t === 'Ready' ? 'True' : 'False';
      conditions.push({ type: t, status: healthy, lastHeartbeatTime: HEARTBEAT, lastTransitionTime: CREATED, reason, message, ...spec.conditions?.[t] });
    }

  const addresses = [{ type: 'InternalIP', address: ip }];
  if (!spec.noHostname) addresses.push({ type: 'Hostname', address: short });
  addresses.push({ type: 'InternalDNS', address: `ip-${ip.replace(/\./g, '-')}.eu-west-1.compute.internal` });

  const images = [];
  const count = spec.images ?? 20;
  for (let i = 0; i < count; i++) {
    const repo = IMAGE_REPOS[Math.floor(rand() * IMAGE_REPOS.length)];
    const names = [`${repo}@sha256:${hex(rand, 64)}`];
    if (rand() < 0.5) names.push(`${repo}:v4.14.${Math.floor(rand() * 40)}`);
    images.push({ names, sizeBytes: 100_000_000 + Math.floor(rand() * 900_000_000) });
  }

  const taints = [];
  if (master) taints.push({ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' });
  if (spec.unschedulable) taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-11-21T17:02:55Z' });
  if (spec.conditions?.Ready?.status === 'Unknown')
    taints.push({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-22T08:13:49Z' });
  if (spec.conditions?.Ready?.status === 'False') taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: '2026-11-22T09:31:20Z' });

  const memory = master ? 32 : 64;
  return {
    metadata: {
      name: spec.name,
      uid: uuid(rand),
      resourceVersion: String(40_000_000 + Math.floor(rand() * 9_000_000)),
      creationTimestamp: CREATED,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/instance-type': type,
        'beta.kubernetes.io/os': 'linux',
        'failure-domain.beta.kubernetes.io/region': 'eu-west-1',
        'failure-domain.beta.kubernetes.io/zone': zone,
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': short,
        'kubernetes.io/os': 'linux',
        ...roleLabels,
        'node.kubernetes.io/instance-type': type,
        'node.openshift.io/os_id': 'rhcos',
        'topology.ebs.csi.aws.com/zone': zone,
        'topology.kubernetes.io/region': 'eu-west-1',
        'topology.kubernetes.io/zone': zone,
      },
      annotations: {
        'cloud.network.openshift.io/egress-ipconfig': `[{"interface":"eni-0${hex(rand, 16)}","ifaddr":{"ipv4":"10.0.128.0/18"},"capacity":{"ipv4":14,"ipv6":15}}]`,
        'csi.volume.kubernetes.io/nodeid': `{"ebs.csi.aws.com":"${instance}"}`,
        'k8s.ovn.org/host-cidrs': `["${ip}/18"]`,
        'k8s.ovn.org/l3-gateway-config': `{"default":{"mode":"shared","bridge-id":"br-ex","interface-id":"br-ex_${short}","mac-address":"0a:${hex(rand, 2)}:${hex(rand, 2)}:${hex(rand, 2)}:${hex(rand, 2)}:${hex(rand, 2)}","ip-addresses":["${ip}/18"],"next-hops":["10.0.128.1"],"node-port-enable":"true","vlan-id":"0"}}`,
        'k8s.ovn.org/node-chassis-id': uuid(rand),
        'k8s.ovn.org/node-subnets': `{"default":["10.${128 + Math.floor(rand() * 64)}.${Math.floor(rand() * 255)}.0/23"]}`,
        'machine.openshift.io/machine': `openshift-machine-api/prod-eu1-x7k2p-${spec.role}-${zone}-${hex(rand, 5)}`,
        'machineconfiguration.openshift.io/controlPlaneTopology': 'HighlyAvailable',
        'machineconfiguration.openshift.io/currentConfig': config,
        'machineconfiguration.openshift.io/desiredConfig': config,
        'machineconfiguration.openshift.io/desiredDrain': `uncordon-${config}`,
        'machineconfiguration.openshift.io/lastAppliedDrain': `uncordon-${config}`,
        'machineconfiguration.openshift.io/lastSyncedControllerConfigResourceVersion': String(30_000_000 + Math.floor(rand() * 9_000_000)),
        'machineconfiguration.openshift.io/reason': '',
        'machineconfiguration.openshift.io/state': 'Done',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
      managedFields: [
        {
          manager: 'machine-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time: CREATED,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:machine.openshift.io/machine': {} } } },
        },
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time: CREATED,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:annotations': { '.': {}, 'f:volumes.kubernetes.io/controller-managed-attach-detach': {} },
              'f:labels': {
                '.': {},
                'f:beta.kubernetes.io/arch': {},
                'f:beta.kubernetes.io/instance-type': {},
                'f:beta.kubernetes.io/os': {},
                'f:kubernetes.io/arch': {},
                'f:kubernetes.io/hostname': {},
                'f:kubernetes.io/os': {},
                'f:node.kubernetes.io/instance-type': {},
                'f:topology.kubernetes.io/region': {},
                'f:topology.kubernetes.io/zone': {},
              },
            },
            'f:spec': { 'f:providerID': {} },
          },
        },
        {
          manager: 'machine-config-daemon',
          operation: 'Update',
          apiVersion: 'v1',
          time: HEARTBEAT,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:annotations': {
                'f:machineconfiguration.openshift.io/currentConfig': {},
                'f:machineconfiguration.openshift.io/desiredDrain': {},
                'f:machineconfiguration.openshift.io/lastAppliedDrain': {},
                'f:machineconfiguration.openshift.io/reason': {},
                'f:machineconfiguration.openshift.io/state': {},
              },
            },
          },
        },
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time: HEARTBEAT,
          fieldsType: 'FieldsV1',
          subresource: 'status',
          fieldsV1: {
            'f:status': {
              'f:allocatable': { 'f:cpu': {}, 'f:ephemeral-storage': {}, 'f:memory': {} },
              'f:conditions': {
                'k:{"type":"DiskPressure"}': { 'f:lastHeartbeatTime': {} },
                'k:{"type":"MemoryPressure"}': { 'f:lastHeartbeatTime': {} },
                'k:{"type":"PIDPressure"}': { 'f:lastHeartbeatTime': {} },
                'k:{"type":"Ready"}': { 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} },
              },
              'f:images': {},
              'f:nodeInfo': { 'f:bootID': {} },
            },
          },
        },
      ],
    },
    spec: {
      ...(spec.providerID === null ? {} : { providerID: spec.providerID ?? `aws:///${zone}/${instance}` }),
      ...(taints.length > 0 ? { taints } : {}),
      ...(spec.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      ...(spec.noAddresses ? {} : { addresses }),
      allocatable: {
        cpu: master ? '7500m' : '15500m',
        'ephemeral-storage': '114345831029',
        'hugepages-1Gi': '0',
        'hugepages-2Mi': '0',
        memory: `${memory * 1024 * 1024 - 1_600_000}Ki`,
        pods: '250',
      },
      capacity: {
        cpu: master ? '8' : '16',
        'ephemeral-storage': '125238252Ki',
        'hugepages-1Gi': '0',
        'hugepages-2Mi': '0',
        memory: `${memory * 1024 * 1024 - 480_000}Ki`,
        pods: '250',
      },
      ...(spec.conditionList?.length === 0 ? {} : { conditions }),
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images,
      nodeInfo: {
        architecture: 'amd64',
        bootID: uuid(rand),
        containerRuntimeVersion: 'cri-o://1.27.4-6.1.rhaos4.14.git7b7d4b6.el9',
        kernelVersion: '5.14.0-284.52.1.el9_2.x86_64',
        kubeProxyVersion: spec.kubeletVersion ?? SIM_KUBE_VERSION,
        kubeletVersion: spec.kubeletVersion ?? SIM_KUBE_VERSION,
        machineID: hex(rand, 32),
        operatingSystem: 'linux',
        osImage: 'Red Hat Enterprise Linux CoreOS 414.92.202402201520-0 (Plow)',
        systemUUID: `ec2${hex(rand, 5)}-${hex(rand, 4)}-${hex(rand, 4)}-${hex(rand, 4)}-${hex(rand, 12)}`,
      },
    },
  };
}

// Node shapes seen on real clusters that the OpenShift-on-AWS nodes of the other scenarios
// never have. Each node says where its shape comes from. Served in pages of at
// most two nodes whatever the limit (module.ts), with continue tokens and remainingItemCount,
// as an API server does when it filters a page or caps its size.
import type { NodeCondition } from '../../../lib/cluster/node';
import { makeNode, seededRandom } from '../node-factory';

const SEEN = { lastHeartbeatTime: '2026-11-22T09:58:41Z', lastTransitionTime: '2026-10-02T07:41:12Z' };
const condition = (type: string, status: string, reason: string, message: string): NodeCondition => ({ type, status, reason, message, ...SEEN });

/** The kubelet's conditions of Kubernetes >= 1.14, all fine. */
const kubelet = (): NodeCondition[] => [
  condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
  condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
  condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
  condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
];

export function* realworldNodes(): Generator<Record<string, unknown>> {
  const rand = seededRandom(16);
  // k3s/RKE2 server with embedded etcd: k3s's etcd controller adds EtcdIsVoter, whose good
  // status is True (reason MemberNotLearner) — healthy only with --condition EtcdIsVoter=True.
  yield makeNode(
    {
      name: 'k3s-server-1',
      role: 'master',
      images: 8,
      conditionList: [condition('EtcdIsVoter', 'True', 'MemberNotLearner', 'Node is a voting member of the etcd cluster'), ...kubelet()],
    },
    rand,
  );
  // GKE: the route controller's NetworkUnavailable=False and node-problem-detector's conditions.
  yield makeNode(
    {
      name: 'gke-prod-pool-1-3f9c2a1b-x7kd',
      role: 'worker',
      images: 12,
      conditionList: [
        condition('FrequentUnregisterNetDevice', 'False', 'NoFrequentUnregisterNetDevice', 'node is functioning properly'),
        condition('FrequentKubeletRestart', 'False', 'NoFrequentKubeletRestart', 'kubelet is functioning properly'),
        condition('FrequentDockerRestart', 'False', 'NoFrequentDockerRestart', 'docker is functioning properly'),
        condition('FrequentContainerdRestart', 'False', 'NoFrequentContainerdRestart', 'containerd is functioning properly'),
        condition('KernelDeadlock', 'False', 'KernelHasNoDeadlock', 'kernel has no deadlock'),
        condition('ReadonlyFilesystem', 'False', 'FilesystemIsNotReadOnly', 'Filesystem is not read-only'),
        condition('CorruptDockerOverlay2', 'False', 'NoCorruptDockerOverlay2', 'docker overlay2 is functioning properly'),
        condition('NetworkUnavailable', 'False', 'RouteCreated', 'NodeController create implicit route'),
        ...kubelet(),
      ],
    },
    rand,
  );
  // AKS (or any cluster) with Calico: Calico sets NetworkUnavailable=False itself.
  yield makeNode(
    {
      name: 'aks-nodepool1-12345678-vmss000000',
      role: 'worker',
      images: 12,
      conditionList: [condition('NetworkUnavailable', 'False', 'CalicoIsUp', 'Calico is running on this node'), ...kubelet()],
    },
    rand,
  );
  // OpenShift 3.7 (Kubernetes 1.7): OutOfDisk, and no PIDPressure yet.
  yield makeNode(
    {
      name: 'node-1.ocp37.example.com',
      role: 'worker',
      images: 10,
      conditionList: [
        condition('OutOfDisk', 'False', 'KubeletHasSufficientDisk', 'kubelet has sufficient disk space available'),
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
    },
    rand,
  );
  // Registered a moment ago: the kubelet has not posted a status yet (no conditions, no addresses).
  yield makeNode({ name: 'worker-7.prod-eu1.example.com', role: 'worker', images: 0, conditionList: [], noAddresses: true }, rand);
  // The kubelet never posted a status: the node lifecycle controller set every condition Unknown.
  const never = { lastHeartbeatTime: '2026-11-22T09:21:55Z', lastTransitionTime: '2026-11-22T09:22:36Z' };
  yield makeNode(
    {
      name: 'worker-8.prod-eu1.example.com',
      role: 'worker',
      images: 0,
      noAddresses: true,
      conditionList: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        ...never,
      })),
    },
    rand,
  );
}

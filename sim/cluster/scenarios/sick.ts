// A sick cluster: each way a node goes wrong in the wild, beside healthy ones.
import type { NodeCondition } from '../../../lib/cluster/node';
import { KUBELET_STOPPED, makeNode, seededRandom } from '../node-factory';

const DOMAIN = 'prod-eu1.example.com';
const SINCE = { lastHeartbeatTime: '2026-11-22T09:58:41Z', lastTransitionTime: '2026-11-22T09:31:20Z' };

// node-problem-detector's default conditions, all fine, then a kernel deadlock on one node.
function problemDetector(deadlock: boolean): NodeCondition[] {
  const fine = (type: string, reason: string, message: string): NodeCondition => ({ type, status: 'False', reason, message, ...SINCE });
  return [
    fine('FrequentKubeletRestart', 'NoFrequentKubeletRestart', 'kubelet is functioning properly'),
    fine('FrequentContainerdRestart', 'NoFrequentContainerdRestart', 'containerd is functioning properly'),
    fine('ReadonlyFilesystem', 'FilesystemIsNotReadOnly', 'Filesystem is not read-only'),
    deadlock
      ? {
          type: 'KernelDeadlock',
          status: 'True',
          reason: 'DockerHung',
          message: 'kernel: INFO: task docker:20744 blocked for more than 120 seconds.',
          ...SINCE,
        }
      : fine('KernelDeadlock', 'KernelHasNoDeadlock', 'kernel has no deadlock'),
  ];
}

export function* sickNodes(): Generator<Record<string, unknown>> {
  const rand = seededRandom(10);
  for (const name of ['master-0', 'master-1', 'master-2']) yield makeNode({ name: `${name}.${DOMAIN}`, role: 'master', images: 24 }, rand);
  yield makeNode({ name: `infra-1.${DOMAIN}`, role: 'infra', images: 26, noHostname: true }, rand);
  // Left behind by two upgrades: three minors under the API server, one more than 1.27 supports.
  yield makeNode({ name: `worker-1.${DOMAIN}`, role: 'worker', images: 30, kubeletVersion: 'v1.24.17+3f4e5a8' }, rand);
  // The kubelet stopped posting status: the node controller set every condition Unknown.
  yield makeNode({ name: `worker-2.${DOMAIN}`, role: 'worker', images: 30, conditions: KUBELET_STOPPED }, rand);
  yield makeNode(
    {
      name: `worker-3.${DOMAIN}`,
      role: 'worker',
      images: 30,
      conditions: {
        Ready: {
          status: 'False',
          reason: 'KubeletNotReady',
          message:
            'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/.',
          ...SINCE,
        },
      },
    },
    rand,
  );
  yield makeNode(
    {
      name: `worker-4.${DOMAIN}`,
      role: 'worker',
      images: 30,
      conditions: { DiskPressure: { status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure', ...SINCE } },
    },
    rand,
  );
  yield makeNode({ name: `worker-5.${DOMAIN}`, role: 'worker', images: 30, extraConditions: problemDetector(true) }, rand);
  yield makeNode({ name: `worker-6.${DOMAIN}`, role: 'worker', images: 30, unschedulable: true, extraConditions: problemDetector(false) }, rand);
}

// A cluster whose nodes are VMs of the simulated Cloud Director (vCD scenario `nodes`): each
// node's spec.providerID names its VM as the Cloud Director cloud provider writes it, but for
// the nodes that were registered without it (found by name).
import { NODE_VMS, providerIdOf, type NodeVm } from '../../node-vms';
import { KUBELET_STOPPED, makeNode, seededRandom, type NodeSpec } from '../node-factory';

const DOMAIN = 'prod-eu1.example.com';
const SINCE = { lastHeartbeatTime: '2026-11-22T09:58:41Z', lastTransitionTime: '2026-11-22T09:31:20Z' };

function conditionsOf(n: NodeVm): NodeSpec['conditions'] {
  switch (n.node) {
    case 'unknown':
      return KUBELET_STOPPED;
    case 'not-ready':
      return {
        Ready: { status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy: pleg was last seen active 3m12s ago; threshold is 3m0s', ...SINCE },
      };
    case 'memory-pressure':
      return { MemoryPressure: { status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available', ...SINCE } };
    default:
      return undefined;
  }
}

export function* vcdNodes(): Generator<Record<string, unknown>> {
  const rand = seededRandom(33);
  for (const n of NODE_VMS) {
    const role = n.name.startsWith('master') ? 'master' : 'worker';
    yield makeNode({ name: `${n.name}.${DOMAIN}`, role, images: 24, conditions: conditionsOf(n), providerID: providerIdOf(n) ?? null }, rand);
  }
}

// A large generated cluster (default 5000 nodes, about 43 MB of JSON): mostly healthy workers
// of realistic size (8-15 KB each), with a few NotReady, pressured and cordoned ones.
import { KUBELET_STOPPED, makeNode, seededRandom, type NodeSpec } from '../node-factory';

export function* largeNodes(count: number): Generator<Record<string, unknown>> {
  const rand = seededRandom(5000);
  const width = String(count).length;
  for (let i = 0; i < count; i++) {
    const master = i < 3;
    const spec: NodeSpec = {
      name: master ? `master-${i}.large.example.com` : `worker-${String(i - 2).padStart(width, '0')}.large.example.com`,
      role: master ? 'master' : 'worker',
      // Most nodes carry 12-14 images (about 8.5 KB); one in ten carries many more, as busy
      // nodes do (up to 15 KB): about 43 MB for 5000 nodes.
      images: rand() < 0.1 ? 22 + Math.floor(rand() * 20) : 12 + Math.floor(rand() * 3),
    };
    if (!master && i % 997 === 500)
      spec.conditions = {
        Ready: { status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy: pleg was last seen active 3m10s ago; threshold is 3m0s' },
      };
    if (!master && i % 1499 === 700) spec.conditions = KUBELET_STOPPED;
    if (!master && i % 1999 === 900)
      spec.conditions = { MemoryPressure: { status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' } };
    if (!master && i % 1201 === 60) spec.unschedulable = true;
    yield makeNode(spec, rand);
  }
}

// A healthy 6-node cluster: three control-plane nodes and three workers, all Ready.
import { makeNode, seededRandom } from '../node-factory';

export function* healthyNodes(): Generator<Record<string, unknown>> {
  const rand = seededRandom(6);
  for (const name of ['master-0', 'master-1', 'master-2']) yield makeNode({ name: `${name}.prod-eu1.example.com`, role: 'master', images: 24 }, rand);
  for (const name of ['worker-1', 'worker-2', 'worker-3']) yield makeNode({ name: `${name}.prod-eu1.example.com`, role: 'worker', images: 30 }, rand);
}

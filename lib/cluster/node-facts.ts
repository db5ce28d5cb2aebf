// What --pods, --version-skew and the --vcd-* options need of each node beside its health: its
// pod limit, its kubelet's version, where its machine is; kept by name as the node list is read
// (a few bytes a node).
import type { Node } from './node';
import type { NodeSink } from './node-tally';

/** A node's pod limit (allocatable, else capacity), kubelet version and machine, as listed. */
export interface NodeFact {
  /** NaN when the node says neither (or not as a whole number). */
  podLimit: number;
  kubeletVersion?: string;
  /** spec.providerID, when printable. */
  providerID?: string;
  /** The kubernetes.io/hostname label, when printable. */
  hostLabel?: string;
}

function podLimit(node: Node): number {
  const text = node.status?.allocatable?.pods ?? node.status?.capacity?.pods;
  return text !== undefined && /^\d{1,7}$/.test(text) ? Number(text) : NaN;
}

/** Collects the facts of every listed node; the caller picks the selected ones by name. */
export class NodeFacts implements NodeSink {
  readonly byName = new Map<string, NodeFact>();
  reset(): void {
    this.byName.clear();
  }
  add(node: Node): void {
    const name = node.metadata?.name;
    if (name === undefined) return;
    this.byName.set(name, {
      podLimit: podLimit(node),
      kubeletVersion: node.status?.nodeInfo?.kubeletVersion,
      providerID: node.spec?.providerID,
      hostLabel: node.metadata?.labels?.['kubernetes.io/hostname'],
    });
  }
}

/** One sink that hands every node to each of `sinks`. */
export function teeSinks(...sinks: NodeSink[]): NodeSink {
  return {
    reset: () => sinks.forEach((s) => s.reset()),
    add: (node) => sinks.forEach((s) => s.add(node)),
  };
}

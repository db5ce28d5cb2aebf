// The nodes of the cluster scenario `vcd` and the VMs of the vCD scenario `nodes`: the two
// halves of one simulated estate, a cluster whose nodes run as VMs in the simulated Cloud
// Director (each node's spec.providerID names its VM, as the Cloud Director cloud provider
// sets it), so that check_nodes --vcd-* has something to join.

/** One node of the estate and, when it has one, its VM. */
export interface NodeVm {
  /** The VM's name: the node's short name (its hostname label). */
  name: string;
  /** `vm-<guid>`, or undefined for a node whose VM is gone. */
  id?: string;
  /** What the node looks like to the cluster. */
  node: 'healthy' | 'unknown' | 'not-ready' | 'memory-pressure';
  /** How the node's spec.providerID names the VM: the cloud provider's URN (as written, or upper case), or none (found by name). */
  providerID: 'urn' | 'urn-upper' | 'none';
  /** What the VM is doing. */
  vm?: 'calm' | 'off' | 'cpu-100' | 'busy-memory';
}

/** master-0 and worker-1 healthy; worker-2 NotReady with its VM off; worker-3 NotReady at 100 % CPU; worker-4's VM deleted; worker-5 found by name. */
export const NODE_VMS: readonly NodeVm[] = [
  { name: 'master-0', id: 'vm-5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e01', node: 'healthy', providerID: 'urn', vm: 'calm' },
  { name: 'worker-1', id: 'vm-5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e11', node: 'healthy', providerID: 'urn', vm: 'calm' },
  { name: 'worker-2', id: 'vm-5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e12', node: 'unknown', providerID: 'urn', vm: 'off' },
  { name: 'worker-3', id: 'vm-5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e13', node: 'not-ready', providerID: 'urn-upper', vm: 'cpu-100' },
  { name: 'worker-4', node: 'not-ready', providerID: 'none' },
  { name: 'worker-5', id: 'vm-5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e15', node: 'memory-pressure', providerID: 'none', vm: 'busy-memory' },
];

/** The vApp the node VMs are in. */
export const NODE_VAPP = 'k8s-prod-eu1';

/** spec.providerID of a node, as the Cloud Director cloud provider writes it. */
export function providerIdOf(n: NodeVm): string | undefined {
  if (n.providerID === 'none' || n.id === undefined) return undefined;
  const urn = `urn:vcloud:vm:${n.id.slice(3)}`;
  return `vmware-cloud-director://${n.providerID === 'urn-upper' ? urn.toUpperCase() : urn}`;
}

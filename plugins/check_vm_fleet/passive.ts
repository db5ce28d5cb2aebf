// The fleet's results as passive results for the engines: one per VM service, in the parts
// each service's single check rendered (no text is taken apart again on the way).
import type { PassiveResult } from '../../lib/submit/passive-result';
import { FLEET_SERVICES, type FleetService, type FleetVmResult } from '../../lib/vcd/fleet/fleet-result';

/** The services each VM host has in the engines (contrib/icinga2/vm-discovery.conf, contrib/nagios/vm-discovery.cfg and the vm-fleet files beside them). */
export const VM_SERVICES = {
  cpu: 'vm-cpu',
  mem: 'vm-memory',
  disk: 'vm-disk',
  snapshot: 'vm-snapshot',
  tools: 'vm-tools',
  lease: 'vm-lease',
} as const satisfies Record<FleetService, string>;

/** The results of the VMs that were read, one per selected service; a VM not read keeps its last results until they go stale. */
export function passiveResultsOf(vms: readonly FleetVmResult[]): PassiveResult[] {
  const results: PassiveResult[] = [];
  for (const vm of vms) {
    if (!vm.read) continue;
    for (const s of FLEET_SERVICES) {
      const result = vm.services[s];
      if (result) results.push({ host: vm.id, service: VM_SERVICES[s], state: result.code, ...result.parts });
    }
  }
  return results;
}

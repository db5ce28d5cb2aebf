// The fleet's results as passive results for the engines: one per VM service, in the parts
// each service's single check rendered (no text is taken apart again on the way).
import type { PassiveResult } from '../../lib/submit/passive-result';
import { FLEET_SERVICES, type FleetVmResult } from '../../lib/vcd/fleet/fleet-result';

/** The services each VM host has in the engines (contrib/icinga2/vm-discovery.conf, contrib/nagios/vm-discovery.cfg). */
export const VM_SERVICES = { cpu: 'vm-cpu', mem: 'vm-memory', disk: 'vm-disk' } as const;

/** The results of the VMs that were read, one per engine service; a VM not read keeps its last results until they go stale. */
export function passiveResultsOf(vms: readonly FleetVmResult[]): PassiveResult[] {
  return vms
    .filter((vm) => vm.read)
    .flatMap((vm) => FLEET_SERVICES.map((s) => ({ host: vm.id, service: VM_SERVICES[s], state: vm.services[s].code, ...vm.services[s].parts })));
}

import type { State } from '../plugin/state';
import { FLEET_SERVICES, pluginTextParts, type FleetVmResult } from '../vcd/fleet/fleet-result';

/** The services each VM host has in the engines (contrib/icinga2/vm-discovery.conf, contrib/nagios/vm-discovery.cfg). */
export const VM_SERVICES = { cpu: 'vm-cpu', mem: 'vm-memory', disk: 'vm-disk' } as const;

/** One check result for one engine service: what a single check would have printed for it. */
export interface ServiceCheckResult {
  /** The engine's host: the VM id (vm-<guid>), the name discovery gave it. */
  host: string;
  service: string;
  state: State;
  /** The whole plugin text: status line (with `| perfdata`) and long output lines. */
  text: string;
}

/** Plugin text split as engines take it: the status line, the long output, and each perfdata item. */
export interface PluginText {
  output: string;
  longOutput: string[];
  perfdata: string[];
}

/** Splits a plugin's text (pluginTextParts) and its perfdata at blanks outside quoted labels. */
export function splitPluginText(text: string): PluginText {
  const parts = pluginTextParts(text);
  return { output: parts.output, longOutput: parts.longOutput === '' ? [] : parts.longOutput.split('\n'), perfdata: splitPerfdata(parts.perfdata) };
}

function splitPerfdata(text: string): string[] {
  const items: string[] = [];
  let item = '';
  let quoted = false;
  for (const c of text) {
    if (c === "'") quoted = !quoted;
    if (!quoted && /\s/.test(c)) {
      if (item) items.push(item);
      item = '';
    } else item += c;
  }
  if (item) items.push(item);
  return items;
}

/** The results of the VMs that were read, one per engine service; a VM not read keeps its last results until they go stale. */
export function serviceResultsOf(vms: readonly FleetVmResult[]): ServiceCheckResult[] {
  return vms
    .filter((vm) => vm.read)
    .flatMap((vm) => FLEET_SERVICES.map((s) => ({ host: vm.id, service: VM_SERVICES[s], state: vm.services[s].code, text: vm.services[s].text })));
}

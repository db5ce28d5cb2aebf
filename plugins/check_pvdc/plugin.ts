// check_pvdc: the provider's own capacity. Each provider VDC's CPU and memory, and each
// provider storage policy, in percent of capacity on what --basis names; its state, and the
// org VDCs it backs. System account only.
import type { PluginDefinition } from '../../lib/plugin/run';
import { vcdFrameCheck } from '../vcd-family';
import { writesInventory } from '../../lib/vcd/inventory/inventory-options';
import { deliverInventory, discoverySource } from '../../lib/vcd/inventory/inventory-delivery';
import { renderPvdcDiscovery } from '../../lib/vcd/inventory/discovery';
import { readProviderVdcs } from '../../lib/vcd/pvdc/pvdc-probe';
import { judgeProviderVdcs } from '../../lib/vcd/pvdc/pvdc-report';
import { configurePvdc } from './config';
import { PVDC_OPTIONS } from './options';

export const plugin: PluginDefinition<typeof PVDC_OPTIONS> = vcdFrameCheck({
  name: 'PVDC',
  command: 'check_pvdc',
  description:
    'Checks the capacity of VMware Cloud Director provider VDCs: CPU (MHz), memory and each provider storage policy in percent of capacity, on what vCD reports as used (default), allocated to org VDCs, or reserved; a disabled provider VDC is CRITICAL, a status other than READY WARNING (FAILED_CREATION CRITICAL); the org VDCs each backs are counted. Needs a System account.',
  usage:
    'check_pvdc -u URL -U USER -o System --password-file PATH [--pvdc NAME|ID] [--basis used|allocated|reserved] [-w RANGE] [-c RANGE] [--memory-warning RANGE] ... [--discovery] [options]',
  options: PVDC_OPTIONS,
  examples: [
    'check_pvdc -u https://vcd.example.com -U provider-monitor -o System --password-file /etc/nagios/vcd-system.pw',
    'check_pvdc -u https://vcd.example.com -U provider-monitor -o System --password-file PW --pvdc pvdc-gold --basis allocated --memory-warning 120 --memory-critical 150',
    'check_pvdc -u https://vcd.example.com -U provider-monitor -o System --password-file PW --discovery --discovery-format icinga2',
  ],
  notes: [
    "Capacity is the provider VDC's total (the record's cpuLimitMhz and memoryLimitMB, the document's ComputeCapacity Total; storageTotalMB per policy). used: cpuUsedMhz, memoryUsedMB, storageUsedMB. allocated: cpuAllocationMhz, memoryAllocationMB, storageAllocatedMB (API 39.1 and later; --api-version 39.1 asks for it) else storageRequestedMB. reserved: ComputeCapacity Cpu/Memory Reserved of the VMWProviderVdc document (GET /api/admin/extension/providervdc/<id>, one per provider VDC). Allocated may pass 100% (over-commitment): set ranges to match.",
    'Reads: one providerVdc query and one providerVdcStorageProfile query, whatever the number of provider VDCs. The account: System, with a role that may view provider VDCs and their storage policies (System Administrator, or a provider role with Provider VDC: View).',
    'A figure vCD does not send is unknown: said in the long output and the status line, U in perfdata, never 0 and never the whole check.',
    'Perfdata per provider VDC: <pvdc>_cpu_pct, <pvdc>_cpu_mhz, <pvdc>_memory_pct, <pvdc>_memory (bytes), <pvdc>_vdcs; per policy <pvdc>_storage_<policy>_pct and <pvdc>_storage_<policy> (bytes), each with capacity as max. Names become lower-case letters, digits and _, unique across the output. At most 1,000 values: whole provider VDCs in name order, the cut said in the long output (the others with --pvdc, one service each from --discovery); the long output has at most 5,000 lines, problems kept first.',
  ],
  failuresToStderr: writesInventory,
  // No VM is listed here: the session's bound on VM lists keeps its default.
  configure: configurePvdc,
  systemOnly: { what: 'provider VDCs are', instead: "use check_vdc for a tenant's VDCs" },
  async read(frame, config) {
    const { session } = frame;
    const readings = await readProviderVdcs(session, config.pvdc, config.basis, config.discovery !== undefined);
    frame.note();
    if (config.discovery !== undefined) {
      const pvdcs = readings.map(({ pvdc }) => ({ id: pvdc.id, name: pvdc.name }));
      const source = discoverySource('check_pvdc', config.inventory.files, session);
      const raw = renderPvdcDiscovery(config.discovery, pvdcs, source);
      return deliverInventory(raw, config.discovery, config.inventory.output, pvdcs.length, 'provider VDC', [], source.url);
    }
    return frame.finish(judgeProviderVdcs(readings, config.thresholds, config.basis));
  },
});

// check_vdc: an organisation VDC's CPU, memory and per-policy storage use against its limits,
// its state, and its VMs in failed states; or every VDC the account sees.
import type { PluginDefinition } from '../../lib/plugin/run';
import { inventoryGroupOrgs, renderVdcDiscovery } from '../../lib/vcd/inventory/discovery';
import { writesInventory } from '../../lib/vcd/inventory/inventory-options';
import { deliverInventory, discoverySource } from '../../lib/vcd/inventory/inventory-delivery';
import { vcdFrameCheck } from '../vcd-family';
import { readVdcs } from '../../lib/vcd/vdc/vdc-probe';
import { judgeVdcs } from '../../lib/vcd/vdc/vdc-report';
import { configureVdc } from './config';
import { VDC_OPTIONS } from './options';

export const plugin: PluginDefinition<typeof VDC_OPTIONS> = vcdFrameCheck({
  name: 'VDC',
  command: 'check_vdc',
  description:
    "Checks the allocation and health of VMware Cloud Director organisation VDCs: CPU (MHz), memory and each storage policy's use in percent of the VDC's limits (no limit, as pay-as-you-go has, is reported and not judged), running and total VMs; a disabled or not ready VDC is CRITICAL, VMs in FAILED_CREATION, UNRESOLVED, INCONSISTENT_STATE or an unknown state are WARNING, named.",
  usage:
    'check_vdc -u URL -U USER -o ORG --password-file PATH [--vdc NAME|ID] [--tenant-org NAME] [-w RANGE] [-c RANGE] [--memory-warning RANGE] ... [--discovery] [options]',
  options: VDC_OPTIONS,
  examples: [
    'check_vdc -u https://vcd.example.com -U monitor -o acme --password-file /etc/nagios/vcd.pw --vdc acme-prod',
    'check_vdc -u https://vcd.example.com -U monitor -o acme --password-file PW --memory-warning 85 --memory-critical 95 --storage-critical 95',
    'check_vdc -u https://vcd.example.com -U provider-monitor -o System --password-file PW --tenant-org acme --discovery --discovery-format icinga2',
  ],
  notes: [
    'A tenant account (the vApp Author or Organization Administrator role) reads its organisation with the orgVdc, orgVdcStorageProfile and vm queries; a System account reads every organisation with adminOrgVdc, adminOrgVdcStorageProfile and adminVM (--tenant-org narrows).',
    'Perfdata per VDC: <vdc>__cpu_mhz, <vdc>__memory (bytes), <vdc>__<policy>__storage (bytes), each with its limit as max, and the matching _pct values with the thresholds; <vdc>__vms and <vdc>__vms_running; a System account prefixes <org>__. A name that is not already lower-case letters, digits, - and _ keeps what it can and gets _h and 8 hex digits of its hash, so that labels never collide and never change from run to run.',
  ],
  failuresToStderr: writesInventory,
  configure: configureVdc,
  async read(frame, config) {
    const { session } = frame;
    // The account decides the queries (a provider's admin forms), --tenant-org narrows them.
    const { provider, tenantOrg } = session.scope;
    const readings = await readVdcs(session, { vdc: config.vdc, tenantOrg }, { admin: provider }, config.discovery !== undefined);
    frame.note();
    if (config.discovery !== undefined) {
      const vdcs = readings.map(({ vdc }) => ({ id: vdc.id, name: vdc.name, org: vdc.org }));
      const source = discoverySource('check_vdc', config.inventory.files, session);
      const raw = renderVdcDiscovery(config.discovery, vdcs, source);
      return deliverInventory(raw, config.discovery, config.inventory.output, vdcs.length, 'VDC', inventoryGroupOrgs(vdcs, source), source.url);
    }
    const scope = tenantOrg === undefined ? '' : ` of org ${tenantOrg}`;
    const result = judgeVdcs(readings, config.thresholds, { withOrg: provider, scope });
    return frame.finish(result);
  },
});

// The VM's own record (GET /api/vApp/vm-<id>) and why current metrics are refused: kept apart
// from the routing so that each part of the simulated API stays small.
import type { SimVm } from './vms';

const NS = 'http://www.vmware.com/vcloud/v1.5';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** vCD's status code of a VM in each simulated power state (API reference: 4, 8, 3). */
const STATUS: Record<SimVm['power'], number> = { on: 4, off: 8, suspended: 3 };

/** The `Vm` document of GET /api/vApp/vm-<id> (VmType, the sections every VM has). */
export function vmRecordDocument(base: string, prefix: string, vm: SimVm): string {
  const p = prefix ? `${prefix}:` : '';
  const xmlns = prefix ? `xmlns:${prefix}` : 'xmlns';
  const href = `${esc(base)}/api/vApp/${vm.id}`;
  const vapp = `vapp-${vm.id.slice(3, 11)}-0000-4000-8000-000000000000`;
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<${p}Vm ${xmlns}="${NS}" xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1" needsCustomization="false" nestedHypervisorEnabled="false" deployed="${vm.power !== 'off'}" status="${STATUS[vm.power]}" name="${esc(vm.name)}" id="urn:vcloud:vm:${vm.id.slice(3)}" href="${href}" type="application/vnd.vmware.vcloud.vm+xml">\n` +
    `    <${p}Link rel="up" href="${esc(base)}/api/vApp/${vapp}" type="application/vnd.vmware.vcloud.vApp+xml"/>\n` +
    `    <${p}Link rel="metrics" href="${href}/metrics/current" type="application/vnd.vmware.vcloud.metrics.currentUsageSpec+xml"/>\n` +
    `    <${p}Description>${esc(vm.role)} VM of the simulator</${p}Description>\n` +
    `    <ovf:VirtualHardwareSection><ovf:Info>Virtual hardware requirements</ovf:Info></ovf:VirtualHardwareSection>\n` +
    `    <${p}DateCreated>2024-03-01T08:00:00.000Z</${p}DateCreated>\n` +
    `</${p}Vm>\n`
  );
}

/** Why vCD refuses current metrics of this VM (HTTP 400), or undefined when it serves them. */
export function currentRefusal(vm: SimVm): { minor: string; message: string } | undefined {
  if (vm.power !== 'on') return { minor: 'BAD_REQUEST', message: `The requested operation could not be executed since VM "${vm.name}" is not running.` };
  return vm.quirks?.refuseCurrent;
}

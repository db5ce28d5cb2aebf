// check_vm_tools: VMware Tools of a VM (running, current, installed), from its query record alone.
import { hygieneCheckPlugin } from '../../lib/vcd/hygiene/hygiene-check';
import { defineOptions } from '../../lib/plugin/options';
import { configureTools, TOOLS_OPTIONS } from '../../lib/vcd/hygiene/hygiene-options';
import { toolsService } from '../../lib/vcd/hygiene/hygiene-service';
import { POWERED_OFF_STATE_OPTION } from '../../lib/vcd/vm/vm-options';

export const plugin = hygieneCheckPlugin(
  {
    name: 'VM_TOOLS',
    command: 'check_vm_tools',
    description:
      'Checks VMware Tools in a VMware Cloud Director VM: running and current is OK; running but out of date is --outdated-state (WARNING); not running or not installed is --not-running-state (WARNING); a powered-off or suspended VM is --powered-off-state (UNKNOWN), as for the other VM checks.',
    usage: '[--outdated-state STATE] [--not-running-state STATE] [--powered-off-state STATE]',
    examples: [
      'check_vm_tools -u https://vcd.example.com --vm vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --password-file /etc/nagios/vcd.pw',
      'check_vm_tools -u https://vcd.example.com --vm web-01 -U monitor -o acme --password-file PW --outdated-state OK --powered-off-state OK',
    ],
    notes: [
      "vmToolsStatus is vSphere's: toolsOk, toolsOld, toolsNotRunning, toolsNotInstalled; any other value is UNKNOWN naming it. Guest-managed Tools (open-vm-tools, version 2147483647) are never out of date.",
      'A record without vmToolsStatus (an adminVM record of a System account) is judged by vmToolsVersion: 0 is not installed, any other version installed (whether they run is not known then).',
    ],
  },
  defineOptions([...TOOLS_OPTIONS, POWERED_OFF_STATE_OPTION]),
  (options) => ({ service: toolsService(configureTools(options)), slips: [] }),
);

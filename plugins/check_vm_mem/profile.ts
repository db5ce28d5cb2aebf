import { formatDecimal } from '../../lib/plugin/number-format';
import { PERCENT, ScalarContext } from '../../lib/plugin/scalar-context';
import type { VmCheckProfile } from '../../lib/vcd/vm/profile';

/** check_vm_mem: mem.usage.average %. */
export const MEM_PROFILE: VmCheckProfile = {
  name: 'VM_MEM',
  command: 'check_vm_mem',
  description: 'Checks the memory usage of a VMware Cloud Director VM (current value, or aggregated over a window of the historic series).',
  needs: () => ['mem.usage.average'],
  reads: ['mem.usage.average'],
  zeroWhenOff: ['mem.usage.average'],
  defaultThresholds: () => ({ warning: '80', critical: '90' }),
  // vCD has the guest's memory figures from VMware Tools; without Tools running it sends none.
  missingHint: (name) =>
    name === 'mem.usage.average' ? 'memory metrics need VMware Tools running in the guest (install or start VMware Tools in the VM)' : undefined,
  evaluate({ values, thresholds, vm, mode }) {
    const value = values.get('mem.usage.average') as number;
    const judged = ScalarContext.of(thresholds).measure('mem_usage', value, PERCENT);
    return {
      state: judged.state,
      summary: `memory usage ${formatDecimal(value, 1)}% (${mode}) on ${vm}`,
      metrics: [judged.metric],
    };
  },
  examples: [
    'check_vm_mem -u https://vcd.example.com --vm vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --password-file /etc/nagios/vcd.pw',
    'check_vm_mem -u https://vcd.example.com --vm 4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --window 1h -w 90 -c 95',
  ],
};

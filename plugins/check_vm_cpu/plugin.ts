// check_vm_cpu: the shared VM check (lib/vcd/vm/vm-check.ts) with the profile of this folder.
import { vmCheckPlugin } from '../../lib/vcd/vm/vm-check';
import { CPU_OPTIONS, CPU_PROFILE } from './profile';

export const plugin = vmCheckPlugin(CPU_PROFILE, CPU_OPTIONS, (options) => ({ metric: options.metric, perDisk: false }));

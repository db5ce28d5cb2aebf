// check_vm_mem: the shared VM check (lib/vcd/vm/vm-check.ts) with the profile of this folder.
import { vmCheckPlugin } from '../../lib/vcd/vm/vm-check';
import { MEM_PROFILE } from './profile';

export const plugin = vmCheckPlugin(MEM_PROFILE, [], () => ({ metric: '', perDisk: false }));

// check_vm_mem: the shared VM check (lib/vcd/vm-check.ts) with the profile of this folder.
import { runPlugin } from '../../lib/plugin/run';
import { runVmCheck, vmCheckDefinition } from '../../lib/vcd/vm/vm-check';
import { vmCheckRunFrom } from '../../lib/vcd/vm/vm-config';
import { vmCheckOptions } from '../../lib/vcd/vm/vm-options';
import { MEM_PROFILE } from './profile';

void runPlugin({
  ...vmCheckDefinition(MEM_PROFILE),
  options: vmCheckOptions(MEM_PROFILE, []),
  run: (options, context) => runVmCheck(MEM_PROFILE, vmCheckRunFrom(MEM_PROFILE, options, { metric: '', perDisk: false }, context), context),
});

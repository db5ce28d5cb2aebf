// check_vm_cpu: the shared VM check (lib/vcd/vm-check.ts) with the profile of this folder.
import { runPlugin } from '../../lib/plugin/run';
import { runVmCheck, vmCheckDefinition } from '../../lib/vcd/vm/vm-check';
import { vmCheckRunFrom } from '../../lib/vcd/vm/vm-config';
import { vmCheckOptions } from '../../lib/vcd/vm/vm-options';
import { CPU_OPTIONS, CPU_PROFILE } from './profile';

void runPlugin({
  ...vmCheckDefinition(CPU_PROFILE),
  options: vmCheckOptions(CPU_PROFILE, CPU_OPTIONS),
  run: (options, context) => runVmCheck(CPU_PROFILE, vmCheckRunFrom(CPU_PROFILE, options, { metric: options.metric, perDisk: false }, context), context),
});

// check_vm_disk: the shared VM check (lib/vcd/vm-check.ts) with the profile of this folder.
import { runPlugin } from '../../lib/plugin/run';
import { runVmCheck, vmCheckDefinition } from '../../lib/vcd/vm/vm-check';
import { vmCheckRunFrom } from '../../lib/vcd/vm/vm-config';
import { vmCheckOptions } from '../../lib/vcd/vm/vm-options';
import { DISK_OPTIONS, DISK_PROFILE } from './profile';

void runPlugin({
  ...vmCheckDefinition(DISK_PROFILE),
  options: vmCheckOptions(DISK_PROFILE, DISK_OPTIONS),
  run: (options, context) =>
    runVmCheck(
      DISK_PROFILE,
      vmCheckRunFrom(
        DISK_PROFILE,
        options,
        { metric: options.metric, perDisk: options['per-disk'], alarmFullyAllocated: options['alarm-fully-allocated'] },
        context,
      ),
      context,
    ),
});

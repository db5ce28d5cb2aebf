// check_vm_disk: the shared VM check (lib/vcd/vm/vm-check.ts) with the profile of this folder.
import { vmCheckPlugin } from '../../lib/vcd/vm/vm-check';
import { DISK_OPTIONS, DISK_PROFILE } from './profile';

export const plugin = vmCheckPlugin(DISK_PROFILE, DISK_OPTIONS, (options) => ({
  metric: options.metric,
  perDisk: options['per-disk'],
  alarmFullyAllocated: options['alarm-fully-allocated'],
}));

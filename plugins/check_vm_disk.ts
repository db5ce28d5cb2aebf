// check_vm_disk: the shared VM check (lib/vcd/vm-check.ts) with the disk profile.
import { runPlugin } from '../lib/plugin/run';
import { DISK_PROFILE } from '../lib/vcd/profiles/disk';
import { vmCheckPlugin } from '../lib/vcd/vm-check';

void runPlugin(vmCheckPlugin(DISK_PROFILE));

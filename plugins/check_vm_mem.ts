// check_vm_mem: the shared VM check (lib/vcd/vm-check.ts) with the mem profile.
import { runPlugin } from '../lib/plugin/run';
import { MEM_PROFILE } from '../lib/vcd/profiles/mem';
import { vmCheckPlugin } from '../lib/vcd/vm-check';

void runPlugin(vmCheckPlugin(MEM_PROFILE));

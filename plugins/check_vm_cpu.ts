// check_vm_cpu: the shared VM check (lib/vcd/vm-check.ts) with the cpu profile.
import { runPlugin } from '../lib/plugin/run';
import { CPU_PROFILE } from '../lib/vcd/profiles/cpu';
import { vmCheckPlugin } from '../lib/vcd/vm-check';

void runPlugin(vmCheckPlugin(CPU_PROFILE));

import { defineOptions } from '../../lib/plugin/options';
import { hygieneCheckOptions } from '../../lib/vcd/hygiene/hygiene-check';
import { TOOLS_OPTIONS } from '../../lib/vcd/hygiene/hygiene-options';
import { POWERED_OFF_STATE_OPTION } from '../../lib/vcd/vm/vm-options';

/** check_vm_tools's options: the VM checks' session and names, the states of each finding and the powered-off policy. */
export const TOOLS_CHECK_OPTIONS = hygieneCheckOptions(defineOptions([...TOOLS_OPTIONS, POWERED_OFF_STATE_OPTION]));

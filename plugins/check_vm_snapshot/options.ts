import { SNAPSHOT_OPTIONS } from '../../lib/vcd/hygiene/hygiene-options';
import { hygieneCheckOptions } from '../../lib/vcd/hygiene/hygiene-check';

/** check_vm_snapshot's options: the VM checks' session and names, and the snapshot thresholds. */
export const SNAPSHOT_CHECK_OPTIONS = hygieneCheckOptions(SNAPSHOT_OPTIONS);

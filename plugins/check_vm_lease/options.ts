import { hygieneCheckOptions } from '../../lib/vcd/hygiene/hygiene-check';
import { LEASE_OPTIONS } from '../../lib/vcd/hygiene/hygiene-options';

/** check_vm_lease's options: the VM checks' session and names, and the time-left thresholds. */
export const LEASE_CHECK_OPTIONS = hygieneCheckOptions(LEASE_OPTIONS);

// check_vm_tools's judgement: VMware Tools of a VM as its query record reports them.
import type { Result } from '../../plugin/result';
import { State } from '../../plugin/state';
import { notRunning } from '../vm/vm-record';
import type { VmHygiene } from '../inventory/hygiene-record';

/** The states the options give each finding. */
export interface ToolsPolicy {
  /** Running but out of date (--outdated-state, default WARNING). */
  outdated: State;
  /** Not running or not installed (--not-running-state, default WARNING). */
  notRunning: State;
  /** The VM is powered off or suspended (--powered-off-state, default UNKNOWN). */
  poweredOff: State;
}

/** The version a guest-managed installation (open-vm-tools) reports: vSphere does not manage it. */
export const GUEST_MANAGED_VERSION = 2147483647;

function versionText(version: number | undefined): string {
  if (version === undefined) return '';
  return version === GUEST_MANAGED_VERSION ? ', guest-managed (open-vm-tools or a package of the guest)' : `, version ${version}`;
}

/** Judges the Tools of a VM whose query record has `status` (POWERED_ON, ...) and `hygiene`. */
export function judgeTools(status: string, hygiene: VmHygiene | undefined, policy: ToolsPolicy, vm: string): Result {
  const off = notRunning({ statusName: status });
  if (off !== undefined) return { state: policy.poweredOff, summary: `${vm} is ${off}: VMware Tools do not run (--powered-off-state)` };
  const { toolsStatus, toolsVersion } = hygiene ?? {};
  const version = versionText(toolsVersion);
  switch (toolsStatus) {
    case 'toolsOk':
      return { state: State.OK, summary: `VMware Tools running and current${version} on ${vm}` };
    case 'toolsOld':
      // A guest-managed installation reads as old to vSphere: its updates come with the guest's packages.
      if (toolsVersion === GUEST_MANAGED_VERSION) return { state: State.OK, summary: `VMware Tools running${version} on ${vm}` };
      return { state: policy.outdated, summary: `VMware Tools running but out of date${version} on ${vm} (--outdated-state)` };
    case 'toolsNotRunning':
      return { state: policy.notRunning, summary: `VMware Tools installed but not running${version} on ${vm} (--not-running-state)` };
    case 'toolsNotInstalled':
      return { state: policy.notRunning, summary: `VMware Tools not installed on ${vm} (--not-running-state)` };
    case undefined:
      return judgeVersionOnly(toolsVersion, policy, vm);
    default:
      return {
        state: State.UNKNOWN,
        summary: `unrecognised vmToolsStatus ${JSON.stringify(toolsStatus)} in the record of ${vm} (known: toolsOk, toolsOld, toolsNotRunning, toolsNotInstalled)`,
      };
  }
}

/**
 * A record without vmToolsStatus (an `adminVM` record, or an API version before the attribute):
 * the installed version still tells installed from not, but not whether they run or are
 * current. That is not OK: Tools that stopped would pass unseen for every VM of a System
 * account. It is UNKNOWN, saying why and what tells.
 */
function judgeVersionOnly(version: number | undefined, policy: ToolsPolicy, vm: string): Result {
  if (version === undefined)
    return {
      state: State.UNKNOWN,
      summary: `the record of ${vm} reports neither vmToolsStatus nor vmToolsVersion: query with a tenant account at API version 38.0 or later (see --api-version) for the Tools' state`,
    };
  if (version === 0) return { state: policy.notRunning, summary: `VMware Tools not installed on ${vm} (version 0; --not-running-state)` };
  return {
    state: State.UNKNOWN,
    summary: `VMware Tools installed${versionText(version)} on ${vm}, but its record does not say whether they run or are current (an adminVM record of a System account, or an API version before 38.0, has no vmToolsStatus): check Tools with a tenant account of the VM's organisation at API 38.0 or later`,
  };
}

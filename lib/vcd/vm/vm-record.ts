// The VM's own record (GET /api/vApp/vm-<id>): the evidence of its power state, read only when
// the metrics say nothing (current metrics refused, historic samples stopped).
import type { SessionGet } from '../api/session-reads';
import { CheckError } from '../../plugin/errors';
import { describeResponse } from '../api/connection';
import { describeVcdError, parseVcdError } from '../api/vcd-error';
import { parseXml, VCLOUD_NS } from '../api/xml';

/** vCD's resource status codes, as the API reference lists them for a VM's `status`. */
const STATUS_NAMES: Record<string, string> = {
  '-1': 'FAILED_CREATION',
  '0': 'UNRESOLVED',
  '1': 'RESOLVED',
  '2': 'DEPLOYED',
  '3': 'SUSPENDED',
  '4': 'POWERED_ON',
  '5': 'WAITING_FOR_INPUT',
  '6': 'UNKNOWN',
  '7': 'UNRECOGNIZED',
  '8': 'POWERED_OFF',
  '9': 'INCONSISTENT_STATE',
  '10': 'MIXED',
  '11': 'DESCRIPTOR_PENDING',
  '12': 'COPYING_CONTENTS',
  '13': 'DISK_CONTENTS_PENDING',
  '14': 'QUARANTINED',
  '15': 'QUARANTINE_EXPIRED',
  '16': 'REJECTED',
  '17': 'TRANSFER_TIMEOUT',
  '18': 'VAPP_UNDEPLOYED',
  '19': 'VAPP_PARTIALLY_DEPLOYED',
};

/** What the record says about the VM. */
export interface VmRecord {
  name?: string;
  status: number;
  /** `POWERED_OFF`, or `status 42` for a code vCD has not documented. */
  statusName: string;
  deployed?: boolean;
}

/** Parses a `Vm` document (vCD API reference, VmType); throws a CheckError for anything else. */
export function parseVmRecord(text: string, what = 'VM record'): VmRecord {
  const root = parseXml(text);
  if ('error' in root) throw new CheckError(`${what} is not XML (${root.error})`);
  if (root.local === 'Error') throw new CheckError(`${what}: the server answered with an error: ${describeVcdError(parseVcdError(text) ?? {})}`);
  if (root.local !== 'Vm' || root.uri !== VCLOUD_NS) {
    throw new CheckError(`${what} is not a vCD Vm document (root element ${root.uri ? `{${root.uri}}` : ''}${root.local})`);
  }
  const statusText = root.attributes.status;
  if (statusText === undefined || !/^-?\d{1,3}$/.test(statusText.trim())) {
    throw new CheckError(`${what} has no valid status (${JSON.stringify(statusText ?? null)})`);
  }
  const status = Number(statusText);
  const deployed = root.attributes.deployed;
  return {
    name: root.attributes.name,
    status,
    statusName: STATUS_NAMES[String(status)] ?? `status ${status}`,
    deployed: deployed === 'true' ? true : deployed === 'false' ? false : undefined,
  };
}

/** VM states that mean the VM is broken: vCD could not create it, or lost track of it. */
export const FAILED_VM_STATES: ReadonlySet<string> = new Set(['FAILED_CREATION', 'UNRESOLVED', 'INCONSISTENT_STATE']);

/**
 * How the record accounts for a VM without metrics: `powered off` or `suspended` (not running,
 * so --powered-off-state applies), or undefined when it is running or in a state that does not
 * explain missing metrics (then the server's refusal is reported as it is).
 */
export function notRunning(record: Pick<VmRecord, 'statusName'>): string | undefined {
  switch (record.statusName) {
    case 'POWERED_OFF':
      return 'powered off';
    case 'SUSPENDED':
      return 'suspended';
    case 'RESOLVED':
    case 'VAPP_UNDEPLOYED':
      // Created or undeployed and never started since: off, by another name.
      return 'powered off';
    default:
      return undefined;
  }
}

/** Reads the record of `vm` (`vm-<guid>`); a refusal is a CheckError with the server's words. */
export async function readVmRecord(get: SessionGet, vm: string): Promise<VmRecord> {
  const path = `/api/vApp/${vm}`;
  const res = await get(path, `reading the record of ${vm}`);
  if (res.status < 200 || res.status >= 300) throw new CheckError(`GET ${path} answered ${describeResponse(res)}`);
  return parseVmRecord(res.body.toString('utf8'), `the record of ${vm}`);
}

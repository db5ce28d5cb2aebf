// What a VM's query record says about its hygiene: VMware Tools, snapshots, its vApp's leases.
// Each attribute is optional: the 5.x records have none of them, an `adminVM` record has
// vmToolsVersion only, `numOfSnapshots` came after 38.0 (docs/vm-hygiene.md lists the versions).
import { detached } from '../api/query-pages';
import { prefixedIdAfter } from '../api/ids';

/** The hygiene attributes of one VMRecord or AdminVMRecord, as sent (dates parsed later, where judged). */
export interface VmHygiene {
  /** vmToolsStatus: toolsOk, toolsOld, toolsNotRunning, toolsNotInstalled, as vSphere says it. */
  toolsStatus?: string;
  /** vmToolsVersion (0: none installed; 2147483647: guest-managed, such as open-vm-tools). */
  toolsVersion?: number;
  /** snapshot: the VM has at least one. */
  snapshot?: boolean;
  /** snapshotCreated, as sent. */
  snapshotCreated?: string;
  /** numOfSnapshots. */
  snapshots?: number;
  /** autoUndeployDate: when the runtime lease expires, as sent. */
  autoUndeployDate?: string;
  /** autoDeleteDate: when the storage lease expires, as sent. */
  autoDeleteDate?: string;
  /** isExpired: the vApp's lease has expired. */
  expired?: boolean;
  /** isDeployed. */
  deployed?: boolean;
  /** The vApp's id (`vapp-<guid>`, from the record's `container` href). */
  vapp?: string;
}

/** Longer values are no date, status or count: they are cut, and judged as what they are. */
const MAX_VALUE_CHARS = 64;

function text(value: string | undefined): string | undefined {
  return value === undefined ? undefined : detached(value.slice(0, MAX_VALUE_CHARS));
}

function flag(value: string | undefined): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function count(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,10}$/.test(value.trim()) ? Number(value) : undefined;
}

/** The hygiene attributes of a record's attributes; undefined when it has none (a 5.x record). */
export function vmHygieneOf(a: Record<string, string>): VmHygiene | undefined {
  const h: VmHygiene = {};
  const set = <K extends keyof VmHygiene>(key: K, value: VmHygiene[K] | undefined) => {
    if (value !== undefined) h[key] = value;
  };
  set('toolsStatus', text(a.vmToolsStatus));
  set('toolsVersion', count(a.vmToolsVersion));
  set('snapshot', flag(a.snapshot));
  set('snapshotCreated', text(a.snapshotCreated));
  set('snapshots', count(a.numOfSnapshots));
  set('autoUndeployDate', text(a.autoUndeployDate));
  set('autoDeleteDate', text(a.autoDeleteDate));
  set('expired', flag(a.isExpired));
  set('deployed', flag(a.isDeployed));
  const vapp = prefixedIdAfter(a.container, 'vapp');
  if (vapp !== undefined) h.vapp = detached(vapp.toLowerCase());
  return Object.keys(h).length === 0 ? undefined : h;
}

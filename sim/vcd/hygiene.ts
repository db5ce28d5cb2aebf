// What the simulated VMs and vApps show of their hygiene: VMware Tools, snapshots and vApp
// leases, in the query records (as the 38.0 and latest references list the attributes) and in
// the SnapshotSection and LeaseSettingsSection documents (shaped like the real vCD 9.0 ones in
// test/fixtures/vcd/hygiene/). Dates are relative to the hour, so that two reads within a run
// agree on them while ages stay what the scenario says.
import type { VmRecord } from './fleet';
import type { SimVm } from './vms';

const NS = 'http://www.vmware.com/vcloud/v1.5';
const OVF = 'http://schemas.dmtf.org/ovf/envelope/1';
const HOUR = 3600;
const DAY = 24 * HOUR;
const GIB = 1024 ** 3;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A VM's Tools and snapshots (ages in seconds before the hour, sizes in bytes). */
export interface SimHygiene {
  tools: string;
  toolsVersion: number;
  snapshots: ReadonlyArray<{ age: number; size: number }>;
}

/** A vApp's leases: seconds left from the hour, or undefined for a lease that never expires (0). */
export interface SimLease {
  runtimeLeft?: number;
  storageLeft?: number;
}

const TOOLS_OK = { tools: 'toolsOk', toolsVersion: 12352 };

/** The default scenario's VMs by name: old, new and many snapshots, Tools in each state. */
const DEFAULT_HYGIENE: Record<string, Partial<SimHygiene>> = {
  'build-02': { tools: 'toolsOld', toolsVersion: 11265, snapshots: [{ age: HOUR, size: 2 * GIB }] },
  'db-03': { snapshots: [{ age: 10 * DAY, size: 40 * GIB }] },
  'old-04': {
    tools: 'toolsNotRunning',
    snapshots: [
      { age: 20 * DAY, size: 12 * GIB },
      { age: 5 * DAY, size: 3 * GIB },
    ],
  },
  'batch-05': { snapshots: Array.from({ length: 12 }, (_, i) => ({ age: DAY + i * HOUR, size: GIB / 2 })) },
  'appliance-06': { tools: 'toolsOld', toolsVersion: 2147483647 },
  'legacy-07': { tools: 'toolsNotInstalled', toolsVersion: 0 },
  'files-08': { tools: 'toolsNotRunning' },
  'paused-14': { snapshots: [{ age: 2 * DAY, size: 8 * GIB }] },
};

/** The default scenario's vApps: a runtime lease near its end, a storage lease near its end, none. */
const DEFAULT_LEASES: Record<string, SimLease> = {
  shop: {},
  ci: { runtimeLeft: DAY + 6 * HOUR, storageLeft: 30 * DAY },
  infra: { runtimeLeft: 20 * DAY, storageLeft: 5 * DAY },
  misc: { runtimeLeft: 60 * DAY },
};

/** The Tools and snapshots of a VM: by name in the default scenario, by number in the fleet one; those set at run time first. */
export function simHygieneOf(vm: SimVm): SimHygiene {
  const scenario = scenarioHygieneOf(vm);
  return vm.snapshots === undefined ? scenario : { ...scenario, snapshots: vm.snapshots };
}

function scenarioHygieneOf(vm: SimVm): SimHygiene {
  const fleet = /^fleet-(\d+)$/.exec(vm.role);
  if (fleet) {
    const n = Number(fleet[1]);
    return {
      tools: n % 20 === 0 ? 'toolsOld' : vm.power === 'on' ? 'toolsOk' : 'toolsNotRunning',
      toolsVersion: 12352,
      snapshots: n % 10 === 0 ? [{ age: n % 50 === 0 ? 10 * DAY : DAY, size: 4 * GIB }] : [],
    };
  }
  const own = DEFAULT_HYGIENE[vm.name] ?? {};
  return { ...TOOLS_OK, snapshots: [], ...(vm.power === 'on' ? {} : { tools: 'toolsNotRunning' }), ...own };
}

/** A vApp's leases: by name in the default scenario; in the fleet one, vApp 5's runtime and vApp 6's storage end soon. */
export function simLeaseOf(vapp: string): SimLease {
  if (DEFAULT_LEASES[vapp]) return DEFAULT_LEASES[vapp];
  if (vapp === 'vapp-05') return { runtimeLeft: 12 * HOUR, storageLeft: 30 * DAY };
  if (vapp === 'vapp-06') return { storageLeft: 4 * DAY };
  return {};
}

/** The id of a vApp by its name, stable across runs (its VMs share it). */
export function simVappId(name: string): string {
  let h = 0x811c9dc5;
  let hex = '';
  for (let round = 0; hex.length < 32; round++) {
    for (const c of `${round}:${name}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
    hex += (h >>> 0).toString(16).padStart(8, '0');
  }
  return `vapp-${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The start of the current hour, in ms: the simulator's dates count from it. */
function hourOf(now: number): number {
  return Math.floor(now / (HOUR * 1000)) * HOUR * 1000;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The hygiene attributes of a VM's query record. A tenant's VMRecord has them all (a lease that
 * never expires has no date: the client reads the vApp's section then); an AdminVMRecord only
 * vmToolsVersion and isExpired, as the reference lists.
 */
export function hygieneAttributes(vm: SimVm | undefined, record: VmRecord, admin: boolean, now: number): Record<string, string> {
  const h = vm ? simHygieneOf(vm) : { ...TOOLS_OK, snapshots: [] };
  const lease = simLeaseOf(record.vapp);
  const hour = hourOf(now);
  const deployed = record.status === 'POWERED_ON';
  const expired = (lease.storageLeft ?? 1) <= 0 || (deployed && (lease.runtimeLeft ?? 1) <= 0);
  if (admin) return { vmToolsVersion: String(h.toolsVersion), isExpired: String(expired) };
  const newest = h.snapshots.length === 0 ? undefined : Math.min(...h.snapshots.map((s) => s.age));
  return {
    vmToolsStatus: h.tools,
    vmToolsVersion: String(h.toolsVersion),
    snapshot: String(h.snapshots.length > 0),
    ...(newest === undefined ? {} : { snapshotCreated: iso(hour - newest * 1000) }),
    numOfSnapshots: String(h.snapshots.length),
    ...(deployed && lease.runtimeLeft !== undefined ? { autoUndeployDate: iso(hour + lease.runtimeLeft * 1000) } : {}),
    ...(lease.storageLeft !== undefined ? { autoDeleteDate: iso(hour + lease.storageLeft * 1000) } : {}),
    isExpired: String(expired),
  };
}

/** GET /api/vApp/vm-<id>/snapshotSection. */
export function snapshotSectionDocument(base: string, prefix: string, vm: SimVm, now: number): string {
  const p = prefix ? `${prefix}:` : '';
  const xmlns = prefix ? `xmlns:${prefix}` : 'xmlns';
  const hour = hourOf(now);
  const snapshots = simHygieneOf(vm)
    .snapshots.map((s) => `    <${p}Snapshot created="${iso(hour - s.age * 1000)}" poweredOn="${vm.power === 'on'}" size="${s.size}"/>\n`)
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<${p}SnapshotSection ${xmlns}="${NS}" xmlns:ovf="${OVF}" href="${esc(base)}/api/vApp/${vm.id}/snapshotSection" type="application/vnd.vmware.vcloud.snapshotSection+xml" ovf:required="false">\n` +
    `    <ovf:Info>Snapshot information section</ovf:Info>\n${snapshots}</${p}SnapshotSection>\n`
  );
}

/** GET /api/vApp/vapp-<id>/leaseSettingsSection of a vApp (deployed when one of its VMs runs). */
export function leaseSectionDocument(base: string, prefix: string, vappId: string, vapp: string, deployed: boolean, now: number): string {
  const p = prefix ? `${prefix}:` : '';
  const xmlns = prefix ? `xmlns:${prefix}` : 'xmlns';
  const lease = simLeaseOf(vapp);
  const hour = hourOf(now);
  const el = (name: string, value: string) => `    <${p}${name}>${value}</${p}${name}>\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<${p}LeaseSettingsSection ${xmlns}="${NS}" xmlns:ovf="${OVF}" href="${esc(base)}/api/vApp/${vappId}/leaseSettingsSection/" type="application/vnd.vmware.vcloud.leaseSettingsSection+xml" ovf:required="false">\n` +
    `    <ovf:Info>Lease settings section</ovf:Info>\n` +
    el('DeploymentLeaseInSeconds', String(lease.runtimeLeft === undefined ? 0 : 7 * DAY)) +
    el('StorageLeaseInSeconds', String(lease.storageLeft === undefined ? 0 : 30 * DAY)) +
    (deployed && lease.runtimeLeft !== undefined ? el('DeploymentLeaseExpiration', iso(hour + lease.runtimeLeft * 1000)) : '') +
    (lease.storageLeft !== undefined ? el('StorageLeaseExpiration', iso(hour + lease.storageLeft * 1000)) : '') +
    `</${p}LeaseSettingsSection>\n`
  );
}

// The reads of the hygiene checks beyond the VM's query record: the VM's SnapshotSection when the
// record lists a snapshot (or cannot say), the vApp's LeaseSettingsSection when the record lacks
// a lease date. Tools need none.
import type { SessionGet } from '../api/session-reads';
import { CheckError } from '../../plugin/errors';
import { describeResponse } from '../api/connection';
import { parseVmRecords, VM_LIST_REFUSED, type VmQueryType, type VmRecord } from '../inventory/vm-query';
import type { VmHygiene } from '../inventory/hygiene-record';
import { leaseFromRecord, leaseFromSection, type LeaseFacts } from './lease-judge';
import { parseLeaseSection, type LeaseSection } from './lease-section';
import { parseSnapshotSection, type Snapshot } from './snapshot-section';

/** A VM as the hygiene reads know it: its id and its query record's hygiene attributes. */
export interface HygieneSubject {
  /** `vm-<guid>`. */
  id: string;
  hygiene?: VmHygiene;
}

async function readSection<T>(get: SessionGet, path: string, phase: string, parse: (text: string) => T): Promise<T> {
  const res = await get(path, phase);
  if (res.status < 200 || res.status >= 300) throw new CheckError(`GET ${path} answered ${describeResponse(res)}`);
  return parse(res.body.toString('utf8'));
}

/**
 * The query record of one VM, with its hygiene attributes (a tenant's `vm` query, or a provider's
 * `adminVM`), found by the VM's id as the query service filters it.
 */
export async function readHygieneRecord(get: SessionGet, id: string, type: VmQueryType): Promise<VmRecord> {
  const filter = encodeURIComponent(`(id==${id.replace(/^vm-/, '')})`);
  const path = `/api/query?type=${type}&format=records&filter=${filter}&pageSize=8`;
  const res = await get(path, `reading the record of ${id}`);
  if (res.status === 401 || res.status === 403) throw new CheckError(`GET ${path} answered ${describeResponse(res)}: ${VM_LIST_REFUSED}`);
  if (res.status < 200 || res.status >= 300) throw new CheckError(`GET ${path} answered ${describeResponse(res)}`);
  const record = parseVmRecords(res.body.toString('utf8'), `query response for ${id}`, true).records.find((r) => r.id === id);
  if (!record) throw new CheckError(`the query service lists no VM ${id} (deleted, a template, or not visible to this account?)`);
  return record;
}

/** True when the record says the VM has no snapshot: then no request is needed. */
export function recordSaysNoSnapshot(h: VmHygiene | undefined): boolean {
  return h?.snapshot === false || h?.snapshots === 0;
}

/** The VM's snapshots: none when its record says so, else its SnapshotSection (one request). */
export async function readSnapshots(get: SessionGet, vm: HygieneSubject): Promise<Snapshot[]> {
  if (recordSaysNoSnapshot(vm.hygiene)) return [];
  const path = `/api/vApp/${vm.id}/snapshotSection`;
  return readSection(get, path, `reading the snapshots of ${vm.id}`, (text) => parseSnapshotSection(text, `the snapshot section of ${vm.id}`));
}

/** Lease sections by vApp id, shared by the VMs of one run: at most one request per vApp. */
export type LeaseSectionCache = Map<string, Promise<LeaseSection>>;

/** The leases of the VM's vApp: from its record when it has the dates, else from the vApp's section (once per vApp with `cache`). */
export async function readLeases(get: SessionGet, vm: HygieneSubject, cache: LeaseSectionCache = new Map()): Promise<LeaseFacts> {
  const what = `the record of ${vm.id}`;
  const fromRecord = leaseFromRecord(vm.hygiene, what);
  if (fromRecord) return fromRecord;
  const vapp = vm.hygiene?.vapp;
  if (vapp === undefined) throw new CheckError(`${what} names no vApp (no container href), so its leases cannot be read`);
  let section = cache.get(vapp);
  if (!section) {
    const path = `/api/vApp/${vapp}/leaseSettingsSection`;
    section = readSection(get, path, `reading the leases of ${vapp}`, (text) => parseLeaseSection(text, `the lease settings of ${vapp}`));
    cache.set(vapp, section);
  }
  return leaseFromSection(await section, vm.hygiene?.deployed, `the lease settings of ${vapp}`, vm.hygiene?.expired);
}

// check_vdc's reads in one session: the VDC records (one by name or id, or all, or one
// organisation's), then their storage policies and their VMs, each grouped by VDC.
import { CheckError } from '../../plugin/errors';
import { withVcdSession, type SessionRequest } from '../api/session';
import { principal } from '../api/login';
import type { SessionReader } from '../api/session-reads';
import {
  queryStoragePolicies,
  queryVdcs,
  queryVdcVms,
  storagePolicyQueryPath,
  vdcIdOf,
  vdcQueryPath,
  vdcVmQueryPath,
  type QueryForm,
  type VdcRecord,
  type VdcVm,
} from './vdc-query';
import type { VdcReading } from './vdc-report';
import { DEFAULT_MAX_VMS } from '../inventory/vm-query';

/** Which VDCs to read. */
export interface VdcSelection {
  vdc?: { kind: 'id'; id: string } | { kind: 'name'; name: string };
  tenantOrg?: string;
}

const quote = (s: string) => JSON.stringify(s);

/** The VDCs of the answer that the selection names: exact names first, then ignoring case (as vCD compares them). */
export function selectVdcs(records: readonly VdcRecord[], sel: VdcSelection, where: { account: string; origin: string }, allowNone = false): VdcRecord[] {
  const lower = (s: string) => s.toLowerCase();
  const unique = [...new Map(records.map((r) => [r.id, r])).values()];
  const inOrg = sel.tenantOrg === undefined ? unique : unique.filter((r) => lower(r.org) === lower(sel.tenantOrg as string));
  const orgText = sel.tenantOrg === undefined ? '' : ` in org ${quote(sel.tenantOrg)}`;
  const { vdc } = sel;
  if (vdc === undefined) {
    if (inOrg.length === 0 && !allowNone)
      throw new CheckError(
        `no VDC${orgText} is visible to ${where.account} at ${where.origin}, check the account's rights${orgText ? ' and --tenant-org' : ''}`,
      );
    return inOrg;
  }
  let found = vdc.kind === 'id' ? inOrg.filter((r) => r.id === vdc.id) : inOrg.filter((r) => r.name === vdc.name);
  if (found.length === 0 && vdc.kind === 'name') found = inOrg.filter((r) => lower(r.name) === lower(vdc.name));
  const asked = vdc.kind === 'id' ? `with id ${vdc.id}` : `named ${quote(vdc.name)}`;
  if (found.length === 0)
    throw new CheckError(
      `no VDC ${asked}${orgText} is visible to ${where.account} at ${where.origin}, check --vdc as the tenant portal shows it${orgText ? ' and --tenant-org' : ''}`,
    );
  if (found.length > 1) {
    const shown = found.slice(0, 10).map((r) => `${r.name} in org ${quote(r.org)} (${r.id})`);
    throw new CheckError(`${found.length} VDCs are ${asked}: ${shown.join(', ')}, add --tenant-org NAME, or give the VDC id with --vdc`);
  }
  return found;
}

/** The href by which VMs and storage policies name a VDC (the admin form's href has /admin/ in it). */
function tenantHref(vdc: VdcRecord): string {
  return vdc.href.replace('/api/admin/vdc/', '/api/vdc/');
}

/** Records grouped by the UUID of the VDC they name. */
function byVdc<T>(records: readonly T[], hrefOf: (r: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of records) {
    const id = vdcIdOf(hrefOf(r));
    if (id === undefined) continue;
    const list = groups.get(id);
    if (list) list.push(r);
    else groups.set(id, [r]);
  }
  return groups;
}

/** The VMs of the VDCs: of each one by its href when a few are chosen, else one query for all the account sees. */
async function readVms(req: SessionRequest, get: SessionReader, form: QueryForm, vdcs: readonly VdcRecord[], perVdc: boolean): Promise<VdcVm[]> {
  const max = req.maxVms ?? DEFAULT_MAX_VMS;
  if (!perVdc) return queryVdcVms(req.conn, get, vdcVmQueryPath(form), max);
  const all: VdcVm[] = [];
  for (const vdc of vdcs) {
    const vms = await queryVdcVms(req.conn, get, vdcVmQueryPath(form, tenantHref(vdc)), max - all.length);
    for (const vm of vms) all.push(vm);
  }
  return all;
}

/**
 * Reads the selected VDCs in one session: the VDC records, then (unless `recordsOnly`, for
 * discovery) the storage policies and VMs of each.
 */
export async function readVdcs(req: SessionRequest, sel: VdcSelection, form: QueryForm, recordsOnly = false): Promise<VdcReading[]> {
  const where = { account: principal(req.creds), origin: req.conn.base.origin };
  return withVcdSession(req, async (get) => {
    const path = vdcQueryPath(form, { name: sel.vdc?.kind === 'name' ? sel.vdc.name : undefined, org: sel.tenantOrg });
    const vdcs = selectVdcs(await queryVdcs(req.conn, get, path), sel, where, recordsOnly);
    if (recordsOnly) return vdcs.map((vdc) => ({ vdc, policies: [], vms: [] }));
    const one = vdcs.length === 1 ? tenantHref(vdcs[0]) : undefined;
    const policies = byVdc(await queryStoragePolicies(req.conn, get, storagePolicyQueryPath(form, one)), (p) => p.vdc);
    const vms = byVdc(await readVms(req, get, form, vdcs, sel.vdc !== undefined || sel.tenantOrg !== undefined), (v) => v.vdc);
    return vdcs.map((vdc) => ({ vdc, policies: policies.get(vdc.id) ?? [], vms: vms.get(vdc.id) ?? [] }));
  });
}

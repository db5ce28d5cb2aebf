// The org VDC records and their storage policies as the query service lists them
// (type=orgVdc / adminOrgVdc, orgVdcStorageProfile / adminOrgVdcStorageProfile), and the VMs
// of a VDC (type=vm / adminVM filtered by the VDC's href): the measurements of check_vdc.
import { CheckError } from '../../plugin/errors';
import { boundedExcerpt } from '../../plugin/server-text';
import type { VcdConnection } from '../api/connection';
import { detached, MAX_NAME_CHARS, PAGE_SIZE, parseRecordsEnvelope, queryAllPages, type RecordsPage } from '../api/query-pages';
import type { SessionReader } from '../api/session-reads';
import { fiqlValue, VM_LIST_REFUSED, vmRecordOf, type VmRecord } from '../inventory/vm-query';
import { uuidAfter } from '../api/ids';

/**
 * Used against a limit, in the record's unit (MHz, MB). A limit of 0 means unlimited (the
 * API's meaning). A figure the record does not send is undefined, and `unknown` says which
 * attribute of which record is missing (`AdminVdcRecord has no memoryLimitMB`).
 */
export interface Quota {
  used?: number;
  limit?: number;
  unknown?: string;
}

/** One OrgVdcRecord or AdminVdcRecord. */
export interface VdcRecord {
  /** The VDC's UUID, from its href (`…/api/vdc/<uuid>`). */
  id: string;
  href: string;
  name: string;
  /** orgName ('' when the record has none). */
  org: string;
  enabled: boolean;
  /** READY, NOT_READY, FAILED_CREATION, … (a number vCD sends is named as its VdcStatus); undefined when not sent. */
  status?: string;
  busy: boolean;
  cpuMhz: Quota;
  memoryMb: Quota;
  /** numberOfVMs and numberOfRunningVMs, when the record has them (the schema lists them from API 37.0). */
  vms?: number;
  runningVms?: number;
}

/** One OrgVdcStorageProfileRecord or AdminOrgVdcStorageProfileRecord. */
export interface StoragePolicyRecord {
  id: string;
  name: string;
  /** The href of its VDC. */
  vdc: string;
  storageMb: Quota;
  enabled: boolean;
  isDefault: boolean;
}

/** A VM of a VDC: its record and the href of the VDC it is in. */
export interface VdcVm extends VmRecord {
  vdc: string;
}

/** The most VDCs (or storage policies) a query may list: far above any cloud. */
export const MAX_VDCS = 10_000;

/** vCD's VdcStatus codes (the Vdc and ProviderVdc entities' `status`), for a record that sends the number. */
export const VDC_STATUS: Record<string, string> = { '-1': 'FAILED_CREATION', '0': 'NOT_READY', '1': 'READY', '2': 'UNKNOWN', '3': 'UNRECOGNIZED' };

/** The UUID of a VDC href (`…/api/vdc/<uuid>` or `…/api/admin/vdc/<uuid>`), lower case, or undefined. */
export function vdcIdOf(href: string): string | undefined {
  return uuidAfter(href, 'vdc')?.toLowerCase();
}

/** An attribute that must be a whole, non-negative number (vCD sends longs as decimal text). */
function count(a: Record<string, string>, key: string, where: () => string, required: true): number;
function count(a: Record<string, string>, key: string, where: () => string, required: false): number | undefined;
function count(a: Record<string, string>, key: string, where: () => string, required: boolean): number | undefined {
  const text = a[key];
  if (text === undefined) {
    if (!required) return undefined;
    throw new CheckError(`unexpected ${where()}: no ${key} attribute`);
  }
  if (!/^\s*\d{1,15}\s*$/.test(text)) throw new CheckError(`unexpected ${where()}: ${key} is ${JSON.stringify(boundedExcerpt(text, 40))}, not a whole number`);
  return Number(text);
}

/**
 * A quota's used and limit attributes. The schema makes every attribute of a query record
 * optional and gives no meaning to a missing one: a figure not sent is unknown (never 0,
 * never unlimited), named in `unknown`.
 */
function quota(a: Record<string, string>, record: string, usedKey: string, limitKey: string, where: () => string): Quota {
  const used = count(a, usedKey, where, false);
  const limit = count(a, limitKey, where, false);
  const missing = [...(used === undefined ? [usedKey] : []), ...(limit === undefined ? [limitKey] : [])];
  return {
    ...(used === undefined ? {} : { used }),
    ...(limit === undefined ? {} : { limit }),
    ...(missing.length === 0 ? {} : { unknown: `${record} has no ${missing.join(' or ')}` }),
  };
}

/** A name-like attribute, bounded as vCD bounds names. */
function text(a: Record<string, string>, key: string, where: () => string): string {
  const value = a[key] ?? '';
  if (value.length > MAX_NAME_CHARS) throw new CheckError(`unexpected ${where()}: ${key} is ${value.length} characters long, and vCD allows 128`);
  return detached(value);
}

/** Reads one page of OrgVdcRecord / AdminVdcRecord elements. */
export function parseVdcRecords(body: string, what = 'query response'): RecordsPage<VdcRecord> {
  const page = parseRecordsEnvelope(body, what, ['OrgVdcRecord', 'AdminVdcRecord']);
  return {
    ...page,
    records: page.records.map(({ local, attributes: a }) => {
      const id = vdcIdOf(a.href ?? '');
      if (!id || a.name === undefined)
        throw new CheckError(`unexpected ${what}: a ${local} without a VDC href or name (href ${JSON.stringify(boundedExcerpt(a.href ?? '', 120))})`);
      const where = () => `${what}: ${local} ${JSON.stringify(boundedExcerpt(a.name, 60))}`;
      const status = a.status === undefined ? undefined : (VDC_STATUS[a.status.trim()] ?? text(a, 'status', where).trim().toUpperCase());
      return {
        id,
        href: detached(a.href),
        name: text(a, 'name', where),
        org: text(a, 'orgName', where),
        enabled: a.isEnabled !== 'false',
        ...(status === undefined ? {} : { status }),
        busy: a.isBusy === 'true',
        cpuMhz: quota(a, local, 'cpuUsedMhz', 'cpuLimitMhz', where),
        memoryMb: quota(a, local, 'memoryUsedMB', 'memoryLimitMB', where),
        ...optionalCounts(a, where),
      };
    }),
  };
}

function optionalCounts(a: Record<string, string>, where: () => string): Pick<VdcRecord, 'vms' | 'runningVms'> {
  const vms = count(a, 'numberOfVMs', where, false);
  const runningVms = count(a, 'numberOfRunningVMs', where, false);
  return vms === undefined || runningVms === undefined ? {} : { vms, runningVms };
}

/** Reads one page of OrgVdcStorageProfileRecord / AdminOrgVdcStorageProfileRecord elements. */
export function parseStoragePolicyRecords(body: string, what = 'query response'): RecordsPage<StoragePolicyRecord> {
  const page = parseRecordsEnvelope(body, what, ['OrgVdcStorageProfileRecord', 'AdminOrgVdcStorageProfileRecord']);
  return {
    ...page,
    records: page.records.map(({ local, attributes: a }) => {
      const id = uuidAfter(a.href, 'vdcStorageProfile');
      if (!id || a.name === undefined || a.vdc === undefined || vdcIdOf(a.vdc) === undefined)
        throw new CheckError(
          `unexpected ${what}: a ${local} without a storage policy href, name or VDC href (href ${JSON.stringify(boundedExcerpt(a.href ?? '', 120))})`,
        );
      const where = () => `${what}: ${local} ${JSON.stringify(boundedExcerpt(a.name, 60))}`;
      return {
        id: id.toLowerCase(),
        name: text(a, 'name', where),
        vdc: detached(a.vdc),
        storageMb: quota(a, local, 'storageUsedMB', 'storageLimitMB', where),
        enabled: a.isEnabled !== 'false',
        isDefault: a.isDefaultStorageProfile === 'true',
      };
    }),
  };
}

/** Reads one page of VMRecord / AdminVMRecord elements with the href of each VM's VDC. */
export function parseVdcVmRecords(body: string, what = 'query response'): RecordsPage<VdcVm> {
  const page = parseRecordsEnvelope(body, what, ['VMRecord', 'AdminVMRecord']);
  return { ...page, records: page.records.map(({ attributes: a }) => ({ ...vmRecordOf(a, what), vdc: detached(a.vdc ?? '') })) };
}

/** `/api/query?type=…&format=records…` with the conditions ANDed (none: no filter). */
function queryPath(type: string, conditions: readonly string[], sortAsc?: string): string {
  const filter = conditions.length === 0 ? '' : `&filter=${encodeURIComponent(`(${conditions.join(';')})`)}`;
  return `/api/query?type=${type}&format=records${filter}&pageSize=${PAGE_SIZE}${sortAsc ? `&sortAsc=${sortAsc}` : ''}`;
}

/** Which query forms an account uses: the admin ones for a provider (System) account. */
export interface QueryForm {
  admin: boolean;
}

/** The VDCs, optionally by name and organisation name (the caller compares the answer's names exactly). */
export function vdcQueryPath(form: QueryForm, filter: { name?: string; org?: string }): string {
  return queryPath(
    form.admin ? 'adminOrgVdc' : 'orgVdc',
    [...(filter.name !== undefined ? [`name==${fiqlValue(filter.name)}`] : []), ...(filter.org !== undefined ? [`orgName==${fiqlValue(filter.org)}`] : [])],
    'name',
  );
}

/** The storage policies, of one VDC (by its href) or of every VDC the account sees. */
export function storagePolicyQueryPath(form: QueryForm, vdcHref?: string): string {
  return queryPath(form.admin ? 'adminOrgVdcStorageProfile' : 'orgVdcStorageProfile', vdcHref === undefined ? [] : [`vdc==${fiqlValue(vdcHref)}`], 'name');
}

/** The VMs (no templates), of one VDC (by its href) or of every VDC the account sees. */
export function vdcVmQueryPath(form: QueryForm, vdcHref?: string): string {
  return queryPath(form.admin ? 'adminVM' : 'vm', [...(vdcHref === undefined ? [] : [`vdc==${fiqlValue(vdcHref)}`]), 'isVAppTemplate==false'], 'name');
}

const NARROW = 'narrow it with --vdc or --tenant-org';

/** Every VDC record of the query at `path`. */
export function queryVdcs(conn: VcdConnection, get: SessionReader, path: string): Promise<VdcRecord[]> {
  return queryAllPages(conn, get, path, {
    parse: parseVdcRecords,
    max: MAX_VDCS,
    noun: 'VDCs',
    list: 'the VDC list',
    narrow: NARROW,
    refused: "the account needs the right to view its organisation's VDCs (Organization vDC: View), or a System account for the admin query",
  });
}

/** Every storage-policy record of the query at `path`. */
export function queryStoragePolicies(conn: VcdConnection, get: SessionReader, path: string): Promise<StoragePolicyRecord[]> {
  return queryAllPages(conn, get, path, {
    parse: parseStoragePolicyRecords,
    max: MAX_VDCS,
    noun: 'storage policies',
    list: 'the storage policies',
    narrow: NARROW,
    refused: 'the account needs the right to view them (Organization vDC Storage Policy: View)',
  });
}

/** Every VM record of the query at `path`, within `maxVms`. */
export function queryVdcVms(conn: VcdConnection, get: SessionReader, path: string, maxVms: number): Promise<VdcVm[]> {
  return queryAllPages(conn, get, path, {
    parse: parseVdcVmRecords,
    max: maxVms,
    noun: 'VMs',
    list: 'the VMs of the VDCs',
    narrow: `${NARROW} (or raise --max-vms if the VDCs are really that large)`,
    refused: VM_LIST_REFUSED,
  });
}

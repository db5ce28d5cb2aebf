// The provider VDCs and their storage policies as the query service lists them to a System
// account (type=providerVdc: VMWProviderVdcRecord; type=providerVdcStorageProfile:
// ProviderVdcStorageProfileRecord): the measurements of check_pvdc. Every figure is optional:
// a record without one (or with one that is no number) costs that figure, never the check.
import { CheckError } from '../../plugin/errors';
import { boundedExcerpt } from '../../plugin/server-text';
import type { VcdConnection } from '../api/connection';
import { detached, MAX_NAME_CHARS, PAGE_SIZE, RecordsPageReader, streamAllPages, type RecordsPage } from '../api/query-pages';
import type { SessionReader } from '../api/session-reads';
import type { XmlElement } from '../api/xml';
import { VDC_STATUS } from '../vdc/vdc-query';
import { uuidAfter } from '../api/ids';

/** A figure of a record: a whole number, or undefined when the record does not give it. */
export type Figure = number | undefined;

// A run may hold 100,000 records of each type: a record keeps only what is judged or named, and
// what many records share (no odd figure, a policy name) is one value, not one per record.

/** One VMWProviderVdcRecord. Units as the record's: MHz and MB. */
export interface ProviderVdcRecord {
  /** The provider VDC's UUID, from its href (`…/api/admin/providervdc/<uuid>`). */
  id: string;
  name: string;
  /** Undefined when the record does not say (judged as enabled: only an explicit false is disabled). */
  enabled: boolean;
  /** READY, NOT_READY, FAILED_CREATION, UNKNOWN, … (a number is named as the API's status codes); undefined when not sent. */
  status?: string;
  busy: boolean;
  cpu: { capacity: Figure; used: Figure; allocated: Figure };
  memory: { capacity: Figure; used: Figure; allocated: Figure };
  /** numberOfVdcs: the organisation VDCs backed by it. */
  vdcs: Figure;
  /** Attributes sent that were no number (`cpuUsedMhz "n/a"`): said, and unknown. */
  odd: readonly string[];
}

/** One ProviderVdcStorageProfileRecord. Units: MB. */
export interface ProviderStoragePolicyRecord {
  name: string;
  /** The UUID of its provider VDC (from the record's providerVdc href), lower case. */
  pvdcId: string;
  enabled: boolean;
  total: Figure;
  used: Figure;
  /** storageAllocatedMB where the API version sends it (39.1 and later), else storageRequestedMB. */
  allocated: Figure;
  /** Which attribute `allocated` came from. */
  allocatedFrom?: 'storageAllocatedMB' | 'storageRequestedMB';
  odd: readonly string[];
}

/** The most provider VDCs (or provider storage policies) a query may list: a page of 100,000 is read and judged. */
export const MAX_PVDC_RECORDS = 100_000;

/** The UUID of a provider VDC href (`…/api/admin/providervdc/<uuid>` or the extension's `…/api/admin/extension/providervdc/<uuid>`), lower case. */
export function pvdcIdOf(href: string): string | undefined {
  return uuidAfter(href, 'providervdc')?.toLowerCase();
}

/** A whole, non-negative figure of a record, or undefined (missing, or no number: then noted in `odd`). */
function figure(a: Record<string, string>, key: string, odd: string[]): Figure {
  const text = a[key];
  if (text === undefined) return undefined;
  if (/^\s*\d{1,15}\s*$/.test(text)) return Number(text);
  odd.push(`${key} ${JSON.stringify(boundedExcerpt(text, 40))}`);
  return undefined;
}

/** What a record with no odd figure keeps: one array for them all. */
const NONE: readonly string[] = Object.freeze([]);

function name(a: Record<string, string>, what: string, local: string): string {
  const value = a.name ?? '';
  if (value.length > MAX_NAME_CHARS) throw new CheckError(`unexpected ${what}: a ${local} name is ${value.length} characters long, and vCD allows 128`);
  return detached(value);
}

/** Storage-policy names kept once each, up to this many different ones (an estate has a handful). */
const SHARED_NAMES_AT_MOST = 1000;

/**
 * The same string for the same policy name ("Standard" of 100,000 provider VDCs is one string);
 * past SHARED_NAMES_AT_MOST different names, each record keeps the copy it made, as without it.
 */
class SharedNames {
  private readonly names = new Map<string, string>();

  /** The name kept for `own` (a string the record owns, from name()). */
  get(own: string): string {
    const known = this.names.get(own);
    if (known !== undefined) return known;
    if (this.names.size < SHARED_NAMES_AT_MOST) this.names.set(own, own);
    return own;
  }
}

function statusOf(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return VDC_STATUS[text.trim()] ?? detached(boundedExcerpt(text.trim().toUpperCase(), 40));
}

/** The provider VDC of one VMWProviderVdcRecord (or ProviderVdcRecord) element, owning its strings. */
function providerVdcRecordOf({ local, attributes: a }: XmlElement, what: string): ProviderVdcRecord {
  const id = pvdcIdOf(a.href ?? '');
  if (!id) throw new CheckError(`unexpected ${what}: a ${local} without a provider VDC href (href ${JSON.stringify(boundedExcerpt(a.href ?? '', 120))})`);
  const odd: string[] = [];
  const status = statusOf(a.status);
  const record: ProviderVdcRecord = {
    id: detached(id),
    name: name(a, what, local),
    enabled: a.isEnabled !== 'false',
    busy: a.isBusy === 'true',
    cpu: { capacity: figure(a, 'cpuLimitMhz', odd), used: figure(a, 'cpuUsedMhz', odd), allocated: figure(a, 'cpuAllocationMhz', odd) },
    memory: { capacity: figure(a, 'memoryLimitMB', odd), used: figure(a, 'memoryUsedMB', odd), allocated: figure(a, 'memoryAllocationMB', odd) },
    vdcs: figure(a, 'numberOfVdcs', odd),
    odd: odd.length === 0 ? NONE : odd,
  };
  // Set, not spread: a spread object per record is a measurable part of a page of 100,000.
  if (status !== undefined) record.status = status;
  return record;
}

/** The storage policy of one ProviderVdcStorageProfileRecord element, owning its strings (its name shared through `names`). */
function storagePolicyRecordOf({ local, attributes: a }: XmlElement, what: string, names: SharedNames): ProviderStoragePolicyRecord {
  const pvdcId = a.providerVdc === undefined ? undefined : pvdcIdOf(a.providerVdc);
  if (uuidAfter(a.href, 'pvdcStorageProfile') === undefined || pvdcId === undefined)
    throw new CheckError(
      `unexpected ${what}: a ${local} without a storage policy href or provider VDC href (href ${JSON.stringify(boundedExcerpt(a.href ?? '', 120))})`,
    );
  const odd: string[] = [];
  const allocated = figure(a, 'storageAllocatedMB', odd);
  const requested = allocated === undefined ? figure(a, 'storageRequestedMB', odd) : undefined;
  const from = allocated !== undefined ? 'storageAllocatedMB' : requested !== undefined ? 'storageRequestedMB' : undefined;
  const record: ProviderStoragePolicyRecord = {
    name: names.get(name(a, what, local)),
    pvdcId: detached(pvdcId),
    enabled: a.isEnabled !== 'false',
    total: figure(a, 'storageTotalMB', odd),
    used: figure(a, 'storageUsedMB', odd),
    allocated: allocated ?? requested,
    odd: odd.length === 0 ? NONE : odd,
  };
  if (from !== undefined) record.allocatedFrom = from;
  return record;
}

const PVDC_RECORDS = ['VMWProviderVdcRecord', 'ProviderVdcRecord'];
const POLICY_RECORDS = ['ProviderVdcStorageProfileRecord'];

/** One whole page, read as the query reads its pages as they arrive. */
function readPage<T>(body: string, what: string, names: readonly string[], record: (e: XmlElement, what: string) => T): RecordsPage<T> {
  const records: T[] = [];
  const reader = new RecordsPageReader(what, names, (e) => records.push(record(e, what)));
  reader.write(Buffer.from(body, 'utf8'));
  const { next, total } = reader.end();
  return { records, ...(next === undefined ? {} : { next }), ...(total === undefined ? {} : { total }) };
}

/** Reads one page of VMWProviderVdcRecord elements. */
export function parseProviderVdcRecords(body: string, what = 'query response'): RecordsPage<ProviderVdcRecord> {
  return readPage(body, what, PVDC_RECORDS, providerVdcRecordOf);
}

/** Reads one page of ProviderVdcStorageProfileRecord elements. */
export function parseProviderStoragePolicyRecords(body: string, what = 'query response'): RecordsPage<ProviderStoragePolicyRecord> {
  const names = new SharedNames();
  return readPage(body, what, POLICY_RECORDS, (e, w) => storagePolicyRecordOf(e, w, names));
}

/** `/api/query?type=…&format=records`, every record, sorted by name. */
function queryPath(type: string): string {
  return `/api/query?type=${type}&format=records&pageSize=${PAGE_SIZE}&sortAsc=name`;
}

/** Every provider VDC: one query, whatever their number. */
export const PVDC_QUERY_PATH = queryPath('providerVdc');
/** Every provider VDC storage policy, of every provider VDC: one query. */
export const PVDC_POLICY_QUERY_PATH = queryPath('providerVdcStorageProfile');

const NARROW = 'check --url (no cloud has that many), or narrow it with --pvdc';
const SYSTEM_NEEDED =
  'the provider VDC queries are for a System account (--org System) with the right to view provider VDCs (a System Administrator, or a role with Provider VDC: View)';

/** Every provider VDC record, each handed to `take` as its page arrives. */
export function queryProviderVdcs(conn: VcdConnection, get: SessionReader, take: (record: ProviderVdcRecord) => void): Promise<number> {
  return streamAllPages(
    conn,
    get,
    PVDC_QUERY_PATH,
    {
      recordNames: PVDC_RECORDS,
      record: providerVdcRecordOf,
      max: MAX_PVDC_RECORDS,
      noun: 'provider VDCs',
      list: 'the provider VDCs',
      narrow: NARROW,
      refused: SYSTEM_NEEDED,
    },
    take,
  );
}

/** Every provider storage-policy record, each handed to `take` as its page arrives. */
export function queryProviderStoragePolicies(conn: VcdConnection, get: SessionReader, take: (record: ProviderStoragePolicyRecord) => void): Promise<number> {
  const names = new SharedNames();
  return streamAllPages(
    conn,
    get,
    PVDC_POLICY_QUERY_PATH,
    {
      recordNames: POLICY_RECORDS,
      record: (e, what) => storagePolicyRecordOf(e, what, names),
      max: MAX_PVDC_RECORDS,
      noun: 'provider storage policies',
      list: 'the provider storage policies',
      narrow: NARROW,
      refused: SYSTEM_NEEDED,
    },
    take,
  );
}

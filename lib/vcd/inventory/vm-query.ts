import { CheckError } from '../../plugin/errors';
import { boundedExcerpt } from '../../plugin/server-text';
import type { VcdConnection } from '../api/connection';
import { vmHygieneOf, type VmHygiene } from './hygiene-record';
import {
  detached,
  MAX_NAME_CHARS,
  PAGE_SIZE,
  parseRecordsEnvelope,
  queryAllPages,
  queryEachPage,
  type PagedQuery,
  type RecordsPage as QueryRecordsPage,
} from '../api/query-pages';
import type { SessionReader } from '../api/session-reads';
import { prefixedIdAfter, uuidAfter } from '../api/ids';

/** One VMRecord of the query service: what names, discovery and messages need. */
export interface VmRecord {
  /** `vm-<guid>`, from the record's href. */
  id: string;
  name: string;
  /** containerName: the vApp. */
  vapp: string;
  /** POWERED_ON, POWERED_OFF, SUSPENDED, ... as vCD says it. */
  status: string;
  template: boolean;
  /**
   * The organisation's id (the GUID of the record's `org` href): AdminVMRecords carry it, the
   * tenant's VMRecords do not (their organisation is the account's).
   */
  orgId?: string;
  /** The organisation's name, once the listing knows it (vm-listing.ts). */
  org?: string;
  /** What the record says of VMware Tools, snapshots and leases (the hygiene checks). */
  hygiene?: VmHygiene;
}

/** One page of VMRecords. */
export type RecordsPage = QueryRecordsPage<VmRecord>;

export { PAGE_SIZE };
/** The default of --max-vms: far above any organisation. */
export const DEFAULT_MAX_VMS = 100_000;

/** The GUID of an organisation's href (`…/api/org/<guid>` or `…/api/admin/org/<guid>`), lower case. */
export function orgIdOf(href: string | undefined): string | undefined {
  return uuidAfter(href, 'org')?.toLowerCase();
}

/**
 * Reads one XML QueryResultRecords page of VMs (vCloud API schema: QueryResultRecordsType with
 * VMRecord elements, or AdminVMRecord for the provider's `adminVM` query, which adds the `org`
 * href; the VM id is the last segment of each record's href).
 */
export function parseVmRecords(text: string, what = 'query response', withHygiene = false): RecordsPage {
  const envelope = parseRecordsEnvelope(text, what, ['VMRecord', 'AdminVMRecord']);
  return { ...envelope, records: envelope.records.map((element) => vmRecordOf(element.attributes, what, withHygiene)) };
}

/**
 * One VMRecord's attributes as a VmRecord; throws a CheckError naming `what` for one that is no VM.
 * `withHygiene` keeps the attributes the hygiene checks judge (only they pay for them).
 */
export function vmRecordOf(a: Record<string, string>, what: string, withHygiene = false): VmRecord {
  const id = prefixedIdAfter(a.href, 'vm');
  if (!id || typeof a.name !== 'string')
    throw new CheckError(`unexpected ${what}: a VMRecord without a VM href or name (href ${JSON.stringify(boundedExcerpt(a.href ?? '', 120))})`);
  for (const key of ['name', 'containerName', 'status']) {
    const value = a[key];
    if (value !== undefined && value.length > MAX_NAME_CHARS)
      throw new CheckError(`unexpected ${what}: the ${key} of VMRecord ${id} is ${value.length} characters long, and vCD allows 128`);
  }
  const record: VmRecord = {
    id: detached(id.toLowerCase()),
    name: detached(a.name),
    vapp: detached(a.containerName ?? ''),
    status: detached(a.status ?? 'UNKNOWN'),
    template: a.isVAppTemplate === 'true',
  };
  const orgId = orgIdOf(a.org);
  if (orgId !== undefined) record.orgId = detached(orgId);
  const hygiene = withHygiene ? vmHygieneOf(a) : undefined;
  if (hygiene !== undefined) record.hygiene = hygiene;
  return record;
}

/** One OrgRecord of the `organization` query: the name an account logs in with, and the GUID. */
export interface OrgRecord {
  id: string;
  name: string;
  displayName?: string;
}

/** Reads one XML QueryResultRecords page of OrgRecords (vCloud API schema: QueryResultOrgRecordType). */
export function parseOrgRecords(text: string, what = 'organization query response'): QueryRecordsPage<OrgRecord> {
  const envelope = parseRecordsEnvelope(text, what, ['OrgRecord']);
  const records = envelope.records.map(({ attributes: a }) => {
    const id = orgIdOf(a.href);
    if (!id || typeof a.name !== 'string' || a.name.length > MAX_NAME_CHARS)
      throw new CheckError(
        `unexpected ${what}: an OrgRecord without an organisation href or a name (href ${JSON.stringify(boundedExcerpt(a.href ?? '', 120))})`,
      );
    const org: OrgRecord = { id: detached(id), name: detached(a.name) };
    if (a.displayName !== undefined && a.displayName.length <= MAX_NAME_CHARS) org.displayName = detached(a.displayName);
    return org;
  });
  return { ...envelope, records };
}

/**
 * A filter value for the query service. vCD reads the filter as FIQL after URL-decoding it,
 * so `;` `,` `(` `)` `=` `!` `<` `>` `\` and `*` in a name would change the expression: each
 * becomes the `*` wildcard instead, and the caller compares the names of the answer exactly.
 * Everything else (spaces, `&`, `+`, non-ASCII) is percent-encoded into the URL.
 */
export function fiqlValue(value: string): string {
  return value.replace(/[;,()=!<>\\*]/g, '*');
}

/** The query of VMs: the tenant's `vm`, or the provider's `adminVM` (every organisation). */
export type VmQueryType = 'vm' | 'adminVM';

/**
 * The first page's path: VMs (not templates), optionally by name, vApp and (adminVM only) the
 * organisation's href, or any of several VMs (`any`), sorted by name.
 */
export function queryPath(filter: { name?: string; vapp?: string; orgHref?: string; any?: readonly VmAlternative[] }, type: VmQueryType = 'vm'): string {
  const conditions = (one: { id?: string; name?: string; vapp?: string }) =>
    [
      // The query service filters `id` by the VM's bare UUID.
      ...(one.id !== undefined ? [`id==${fiqlValue(one.id.replace(/^vm-/i, ''))}`] : []),
      ...(one.name !== undefined ? [`name==${fiqlValue(one.name)}`] : []),
      ...(one.vapp !== undefined ? [`containerName==${fiqlValue(one.vapp)}`] : []),
      ...(filter.orgHref !== undefined ? [`org==${fiqlValue(filter.orgHref)}`] : []),
      'isVAppTemplate==false',
    ].join(';');
  // Several VMs in one query: each alternative a group of conditions, the groups or-ed (`,`).
  const groups = filter.any !== undefined && filter.any.length > 0 ? filter.any.map(conditions) : [conditions(filter)];
  return `/api/query?type=${type}&format=records&filter=${encodeURIComponent(`(${groups.join(',')})`)}&pageSize=${PAGE_SIZE}&sortAsc=name`;
}

/** One VM of a query for several: by its id (`vm-<guid>`), or by its name (in a vApp when given). */
export type VmAlternative = { id: string } | { name: string; vapp?: string };

/** The first page of the organisations the account sees (a provider: every one). */
export const ORG_QUERY_PATH = `/api/query?type=organization&format=records&pageSize=${PAGE_SIZE}&sortAsc=name`;

/** What a refused VM query means for the account. */
export const VM_LIST_REFUSED = "the account needs the right to view its organisation's vApps (e.g. the vApp Author role)";

/** The VM query's paging, bounds and words (queryAllPages). */
function vmQuery(onPage: ((n: number) => void) | undefined, maxVms: number, refused: string, withHygiene: boolean): PagedQuery<VmRecord> {
  return {
    parse: (text, what) => parseVmRecords(text, what, withHygiene),
    max: maxVms,
    noun: 'VMs',
    list: 'the VM list',
    narrow: 'narrow it with --vapp (or raise --max-vms if the organisation is really that large)',
    refused,
    onPage,
  };
}

/**
 * Every VM record of a query, following `nextPage` links (queryAllPages), within `maxVms`
 * records; `withHygiene` keeps the hygiene attributes of each.
 */
export function queryAllVms(
  conn: VcdConnection,
  get: SessionReader,
  firstPath: string,
  onPage?: (n: number) => void,
  maxVms = DEFAULT_MAX_VMS,
  refused = VM_LIST_REFUSED,
  withHygiene = false,
): Promise<VmRecord[]> {
  return queryAllPages(conn, get, firstPath, vmQuery(onPage, maxVms, refused, withHygiene));
}

/** Each page's VM records handed to `take` as it is read (queryEachPage); returns how many there were. */
export function queryEachVmPage(
  conn: VcdConnection,
  get: SessionReader,
  firstPath: string,
  take: (records: VmRecord[]) => void,
  onPage?: (n: number) => void,
  maxVms = DEFAULT_MAX_VMS,
  refused = VM_LIST_REFUSED,
  withHygiene = false,
): Promise<number> {
  return queryEachPage(conn, get, firstPath, vmQuery(onPage, maxVms, refused, withHygiene), take);
}

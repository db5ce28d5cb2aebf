import type { HttpResponse } from '../http/request';
import { CheckError } from '../plugin/errors';
import { describeResponse, type VcdConnection } from './connection';
import { parseXml } from './xml';

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
}

/** One page of QueryResultRecords. */
export interface RecordsPage {
  records: VmRecord[];
  /** The href of the `nextPage` link, if any. */
  next?: string;
  total?: number;
}

/** Records per page asked for: the query service's usual maximum. */
export const PAGE_SIZE = 128;
/** Bounds against a server that pages for ever: 100,000 VMs is far above any organisation. */
const MAX_PAGES = 1000;
const MAX_RECORDS = 100_000;

const VM_HREF = /\/(vm-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/**
 * Reads one XML QueryResultRecords page (vCloud API schema: QueryResultRecordsType with
 * VMRecord elements; the VM id is the last segment of each record's href).
 */
export function parseVmRecords(text: string, what = 'query response'): RecordsPage {
  const root = parseXml(text);
  if ('error' in root) throw new CheckError(`unexpected ${what}: not XML (${root.error})`);
  if (root.local !== 'QueryResultRecords') throw new CheckError(`unexpected ${what}: root element <${root.local}>, expected <QueryResultRecords>`);
  const page: RecordsPage = { records: [] };
  const total = Number(root.attributes.total);
  if (Number.isInteger(total) && total >= 0) page.total = total;
  for (const child of root.children) {
    if (child.local === 'Link' && child.attributes.rel === 'nextPage' && child.attributes.href) page.next = child.attributes.href;
    if (child.local !== 'VMRecord') continue;
    const a = child.attributes;
    const id = VM_HREF.exec(a.href ?? '')?.[1];
    if (!id || typeof a.name !== 'string') throw new CheckError(`unexpected ${what}: a VMRecord without a VM href or name (href ${JSON.stringify((a.href ?? '').slice(0, 120))})`);
    page.records.push({ id: id.toLowerCase(), name: a.name, vapp: a.containerName ?? '', status: a.status ?? 'UNKNOWN', template: a.isVAppTemplate === 'true' });
  }
  return page;
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

/** The first page's path: VMs (not templates), optionally by name and vApp, sorted by name. */
export function queryPath(filter: { name?: string; vapp?: string }): string {
  const conditions = [...(filter.name !== undefined ? [`name==${fiqlValue(filter.name)}`] : []), ...(filter.vapp !== undefined ? [`containerName==${fiqlValue(filter.vapp)}`] : []), 'isVAppTemplate==false'];
  return `/api/query?type=vm&format=records&filter=${encodeURIComponent(`(${conditions.join(';')})`)}&pageSize=${PAGE_SIZE}&sortAsc=name`;
}

/** Sends one GET with the session; the caller's function handles 401/406 and retries. */
export type SessionGet = (path: string) => Promise<HttpResponse>;

/**
 * Every record of a query, following `nextPage` links: only to the same host and to
 * /api/query (a link elsewhere would carry the session to another server), never the
 * same page twice, within MAX_PAGES and MAX_RECORDS.
 */
export async function queryAllVms(conn: VcdConnection, get: SessionGet, firstPath: string, onPage?: (n: number) => void): Promise<VmRecord[]> {
  const records: VmRecord[] = [];
  const seen = new Set<string>();
  let path: string | undefined = firstPath;
  for (let n = 1; path !== undefined; n++) {
    if (n > MAX_PAGES) throw new CheckError(`the query service of ${conn.base.origin} returned more than ${MAX_PAGES} pages, narrow it with --vapp`);
    seen.add(path);
    conn.setPhase(`reading page ${n} of the VM list`);
    onPage?.(n);
    const res = await get(path);
    if (res.status < 200 || res.status >= 300) throw queryError(conn, res);
    const page = parseVmRecords(res.body.toString('utf8'), `query response from ${conn.base.origin}`);
    records.push(...page.records);
    if (records.length > MAX_RECORDS) throw new CheckError(`the query service of ${conn.base.origin} listed more than ${MAX_RECORDS} VMs, narrow it with --vapp`);
    path = undefined;
    if (page.next !== undefined && page.records.length > 0) {
      let next: URL;
      try {
        next = new URL(page.next, conn.base);
      } catch {
        throw new CheckError(`unexpected query response from ${conn.base.origin}: nextPage link ${JSON.stringify(page.next.slice(0, 120))} is not a URL`);
      }
      if (next.origin !== conn.base.origin || next.pathname !== '/api/query') {
        throw new CheckError(`the query service of ${conn.base.origin} points its next page to ${next.origin}${next.pathname}: not followed (the session would go with it), check --url (a proxy rewriting links?)`);
      }
      const nextPath = `${next.pathname}${next.search}`;
      if (!seen.has(nextPath)) path = nextPath;
    }
  }
  return records;
}

function queryError(conn: VcdConnection, res: HttpResponse): CheckError {
  const detail = describeResponse(res);
  if (res.status === 403) return new CheckError(`the query service of ${conn.base.origin} refused to list VMs (${detail}), the account needs the right to view its organisation's vApps (e.g. the vApp Author role)`);
  return new CheckError(`the query service of ${conn.base.origin} answered ${detail}${res.status >= 500 ? ', the vCD cells may be overloaded or down, retry later' : ''}`);
}

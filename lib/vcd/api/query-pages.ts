// The query service's paged answers (GET /api/query?…&format=records): the envelope every
// record type shares, and the walk over its `nextPage` links, bounded whatever the server sends.
import type { BodyStream, HttpResponse } from '../../http/request';
import { CheckError } from '../../plugin/errors';
import { boundedExcerpt } from '../../plugin/server-text';
import { describeResponse, type VcdConnection } from './connection';
import { MAX_ATTRIBUTES, parseXml, XmlChildReader, XmlSyntaxError, type XmlElement } from './xml';
import type { SessionReader } from './session-reads';

/** One page of QueryResultRecords. */
export interface RecordsPage<T> {
  records: T[];
  /** The href of the `nextPage` link, if any. */
  next?: string;
  total?: number;
}

/** Records per page asked for: the query service's usual maximum. */
export const PAGE_SIZE = 128;
/** Bounds against a server that pages for ever: 100,000 records is far above any organisation. */
const MAX_PAGES = 1000;
/** No attribute of a query record comes near this (names, hrefs, dates); a longer one is no query page. */
const MAX_ATTRIBUTE_CHARS = 8192;

/**
 * The record elements of one XML QueryResultRecords page (vCloud API schema:
 * QueryResultRecordsType), with its paging: the elements named `recordNames`, in order.
 */
export function parseRecordsEnvelope(text: string, what: string, recordNames: readonly string[]): RecordsPage<XmlElement> {
  const root = parseXml(text, { maxAttributeChars: MAX_ATTRIBUTE_CHARS });
  if ('error' in root) throw new CheckError(`unexpected ${what}: not XML (${root.error})`);
  if (root.local !== 'QueryResultRecords') throw new CheckError(`unexpected ${what}: root element <${root.local}>, expected <QueryResultRecords>`);
  const page: RecordsPage<XmlElement> = { records: [] };
  const total = Number(root.attributes.total);
  if (Number.isInteger(total) && total >= 0) page.total = total;
  for (const child of root.children) {
    if (child.local === 'Link' && child.attributes.rel === 'nextPage' && child.attributes.href) page.next = child.attributes.href;
    if (recordNames.includes(child.local)) page.records.push(child);
  }
  return page;
}

/** A record element, its attributes longer than this, or more of them, is no query record. */
const MAX_MARKUP_CHARS = MAX_ATTRIBUTES * (MAX_ATTRIBUTE_CHARS + 64);

/** What a page read as it arrives was, once it has ended. */
export interface PageEnd {
  /** The records it held. */
  count: number;
  next?: string;
  total?: number;
}

/**
 * One QueryResultRecords page read as it arrives (parseRecordsEnvelope's reading, piece by
 * piece): each element named `recordNames` is handed to `onRecord` when it ends and not kept,
 * so what is held is one record under way, never the page.
 */
export class RecordsPageReader {
  private readonly xml: XmlChildReader;
  private readonly end_: PageEnd = { count: 0 };

  constructor(
    private readonly what: string,
    recordNames: readonly string[],
    onRecord: (record: XmlElement) => void,
  ) {
    this.xml = new XmlChildReader({ maxAttributeChars: MAX_ATTRIBUTE_CHARS, maxMarkupChars: MAX_MARKUP_CHARS }, (child, root) => {
      this.checkRoot(root);
      if (child.local === 'Link' && child.attributes.rel === 'nextPage' && child.attributes.href) this.end_.next = child.attributes.href;
      if (recordNames.includes(child.local)) {
        this.end_.count++;
        onRecord(child);
      }
    });
  }

  /** Reads the next piece of the page. */
  write(chunk: Buffer): void {
    this.notXml(() => this.xml.write(chunk));
  }

  /** The page has ended: how many records it held, and its paging. */
  end(): PageEnd {
    const root = this.notXml(() => this.xml.end());
    this.checkRoot(root);
    const total = Number(root.attributes.total);
    if (Number.isInteger(total) && total >= 0) this.end_.total = total;
    return this.end_;
  }

  private checkRoot(root: XmlElement): void {
    if (root.local !== 'QueryResultRecords') throw new CheckError(`unexpected ${this.what}: root element <${root.local}>, expected <QueryResultRecords>`);
  }

  private notXml<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof XmlSyntaxError) throw new CheckError(`unexpected ${this.what}: not XML (${error.message})`);
      throw error;
    }
  }
}

/**
 * A copy that owns its characters. A value cut from a page (a regular-expression match) is a
 * view that keeps the whole page alive: kept over many pages, a name of a few bytes would hold
 * every page ever read in memory.
 */
export function detached(value: string): string {
  return Buffer.from(value, 'utf8').toString('utf8');
}

/** How a paged query's messages name it, and its bound. */
interface QueryWords {
  /** At most this many records in all. */
  max: number;
  /** The records in messages: `VMs`, `VDCs`. */
  noun: string;
  /** How the phase names a page: `page 2 of the VM list`. */
  list: string;
  /** What to do when there are more than `max`: `narrow it with --vapp (…)`. */
  narrow: string;
  /** What a 403 means for the account (`the account needs …`). */
  refused: string;
  onPage?: (n: number) => void;
}

/** What a paged query reads and how its messages name it. */
export interface PagedQuery<T> extends QueryWords {
  /** Parses one page. */
  parse(text: string, what: string): RecordsPage<T>;
}

/** A paged query whose pages are read as they arrive (streamAllPages). */
export interface StreamedQuery<T> extends QueryWords {
  /** The names of its record elements. */
  recordNames: readonly string[];
  /** One record element as the query keeps it. */
  record(element: XmlElement, what: string): T;
}

/**
 * Every record of a query, following `nextPage` links: only to the same host and to
 * /api/query (a link elsewhere would carry the session to another server), never the
 * same page twice, within MAX_PAGES pages and `query.max` records.
 */
export async function queryAllPages<T>(conn: VcdConnection, get: SessionReader, firstPath: string, query: PagedQuery<T>): Promise<T[]> {
  const records: T[] = [];
  // One by one: spreading a page of 150,000 records into push() overflows the call stack.
  await queryEachPage(conn, get, firstPath, query, (page) => {
    for (const record of page) records.push(record);
  });
  return records;
}

/**
 * Hands each page's records to `take` as it is read, following `nextPage` links as
 * queryAllPages does (nothing is kept here: the caller keeps what it needs of each record);
 * returns the number of records.
 */
export async function queryEachPage<T>(
  conn: VcdConnection,
  get: SessionReader,
  firstPath: string,
  query: PagedQuery<T>,
  take: (records: T[]) => void,
): Promise<number> {
  let count = 0;
  await walkPages(conn, firstPath, query, async (path, what) => {
    const res = await get(path);
    if (res.status < 200 || res.status >= 300) throw queryError(conn, res, query.noun, query.refused);
    const page = query.parse(res.body.toString('utf8'), what);
    if (count + page.records.length > query.max) throw tooMany(conn, query);
    count += page.records.length;
    take(page.records);
    return { count: page.records.length, next: page.next };
  });
  return count;
}

/**
 * Every record of a query as queryAllPages reads them, each handed to `take` as it arrives:
 * no page is held whole, whatever its size (a query service whose page size was raised may
 * answer 100,000 records at once). Returns how many were taken.
 */
export async function streamAllPages<T>(
  conn: VcdConnection,
  get: SessionReader,
  firstPath: string,
  query: StreamedQuery<T>,
  take: (record: T) => void,
): Promise<number> {
  let taken = 0;
  await walkPages(conn, firstPath, query, async (path, what) => {
    const reader = new RecordsPageReader(what, query.recordNames, (element) => {
      if (++taken > query.max) throw tooMany(conn, query);
      take(query.record(element, what));
    });
    let streamed = false;
    const stream: BodyStream = (status) => {
      if (status < 200 || status >= 300) return undefined;
      streamed = true;
      return (chunk) => reader.write(chunk);
    };
    const res = await get(path, undefined, stream);
    if (res.status < 200 || res.status >= 300) throw queryError(conn, res, query.noun, query.refused);
    // A reader that does not stream gave the body whole.
    if (!streamed) reader.write(res.body);
    return reader.end();
  });
  return taken;
}

/** Reads page after page (`read` hands on its records), following `nextPage` links as queryAllPages says. */
async function walkPages(
  conn: VcdConnection,
  firstPath: string,
  query: QueryWords,
  read: (path: string, what: string) => Promise<{ count: number; next?: string }>,
): Promise<void> {
  const seen = new Set<string>();
  let path: string | undefined = firstPath;
  for (let n = 1; path !== undefined; n++) {
    if (n > MAX_PAGES) throw new CheckError(`the query service of ${conn.base.origin} returned more than ${MAX_PAGES} pages, ${query.narrow}`);
    seen.add(path);
    conn.setPhase(`reading page ${n} of ${query.list}`);
    query.onPage?.(n);
    const page = await read(path, `query response from ${conn.base.origin}`);
    path = undefined;
    if (page.next !== undefined && page.count > 0) {
      const nextPath = sameQuery(conn, page.next);
      if (!seen.has(nextPath)) path = nextPath;
    }
  }
}

function tooMany(conn: VcdConnection, query: QueryWords): CheckError {
  return new CheckError(`the query service of ${conn.base.origin} listed more than ${query.max} ${query.noun}, ${query.narrow}`);
}

/** The path of a `nextPage` link, if it stays on this host's query service. */
function sameQuery(conn: VcdConnection, href: string): string {
  let next: URL;
  try {
    next = new URL(href, conn.base);
  } catch {
    throw new CheckError(`unexpected query response from ${conn.base.origin}: nextPage link ${JSON.stringify(boundedExcerpt(href, 120))} is not a URL`);
  }
  if (next.origin !== conn.base.origin || next.pathname !== '/api/query') {
    throw new CheckError(
      `the query service of ${conn.base.origin} points its next page to ${next.origin}${next.pathname}: not followed (the session would go with it), check --url (a proxy rewriting links?)`,
    );
  }
  return `${next.pathname}${next.search}`;
}

function queryError(conn: VcdConnection, res: HttpResponse, noun: string, refused: string): CheckError {
  const detail = describeResponse(res);
  if (res.status === 403) return new CheckError(`the query service of ${conn.base.origin} refused to list ${noun} (${detail}), ${refused}`);
  return new CheckError(
    `the query service of ${conn.base.origin} answered ${detail}${res.status >= 500 ? ', the vCD cells may be overloaded or down, retry later' : ''}`,
  );
}

/**
 * vCD refuses VM and vApp names over 128 characters; twice that is still a name, more is not.
 * With at most --max-vms records this bounds what a query keeps to some tens of megabytes.
 */
export const MAX_NAME_CHARS = 256;

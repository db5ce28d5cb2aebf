// A list of the cluster API, page by page (limit/continue), each page parsed and handed on
// and then dropped: for lists whose items are small once read (CSRs, rows of a pod Table).
// The node list has its own scanner (node-list.ts): its items are large.
import { httpRequest } from '../http/request';
import { CheckError } from '../plugin/errors';
import { endpoint, httpError, type Permission } from './api-error';
import { PAGE_LIMIT, parseJsonObject, requestHeaders, type ClusterTarget, type GetOptions } from './client';

export interface PagedList {
  path: string;
  /** What the account needs, named in the fix of a 403. */
  permission: Permission;
  /** What a page is, for messages: `a CertificateSigningRequestList`. */
  what: string;
  query?: Record<string, string>;
  /** The Accept header, when not plain JSON (the Table form). */
  accept?: string;
  /** Items per page (default PAGE_LIMIT). */
  limit?: number;
  /** More items than this in all pages is refused: time and memory stay bounded. */
  maxItems: number;
  /** The option that raises maxItems, named when it is reached. */
  maxOption: string;
}

/**
 * Pages through a list, calling `read` with each page's document; `read` returns how many
 * items the page held. A continue token that expired (410 Gone) restarts the list once
 * (`restart` is called first); a server that never ends the list is stopped by the item bound.
 */
export async function pageThrough(
  target: ClusterTarget,
  list: PagedList,
  options: GetOptions,
  read: (page: Record<string, unknown>) => number,
  restart: () => void = () => undefined,
): Promise<{ pages: number; items: number }> {
  const limit = list.limit ?? PAGE_LIMIT;
  const maxPages = Math.ceil(list.maxItems / limit) * 2 + 10;
  const headers = { ...requestHeaders(target), ...(list.accept ? { accept: list.accept } : {}) };
  let continueToken: string | undefined;
  let restarted = false;
  let pages = 0;
  let items = 0;
  for (;;) {
    const url = new URL(target.url.href.replace(/\/+$/, '') + list.path);
    for (const [k, v] of Object.entries({ ...list.query, limit: String(limit), ...(continueToken ? { continue: continueToken } : {}) }))
      url.searchParams.set(k, v);
    const res = await httpRequest({ url, headers, tls: target.tls, maxBytes: options.maxBytes, signal: options.signal, trace: options.trace });
    if (res.status === 410 && continueToken !== undefined && !restarted) {
      options.trace?.('* continue token expired (410 Gone): listing again from the start');
      restarted = true;
      continueToken = undefined;
      items = 0;
      restart();
      continue;
    }
    if (res.status !== 200) throw httpError(res, target, list.permission);
    if (++pages > maxPages)
      throw new CheckError(`${endpoint(res.url)} sent more than ${maxPages} pages (${items} items) and the list still goes on; a broken proxy or API server?`);
    const doc = parseJsonObject(res, list.what);
    items += read(doc);
    if (items > list.maxItems)
      throw new CheckError(`${endpoint(res.url)} listed more than ${list.maxItems} items; raise ${list.maxOption} if the cluster really has that many`);
    const metadata = doc.metadata as { continue?: unknown } | undefined;
    const next = typeof metadata?.continue === 'string' && metadata.continue !== '' ? metadata.continue : undefined;
    if (next === undefined) return { pages, items };
    if (next === continueToken)
      throw new CheckError(`${endpoint(res.url)} returned the continue token it was given; the list would never end (a broken proxy or API server?)`);
    continueToken = next;
  }
}

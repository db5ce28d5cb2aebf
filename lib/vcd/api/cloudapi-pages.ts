// The CloudAPI's paged lists (GET /cloudapi/1.0.0/<collection>?page=N&pageSize=M): a page is
// `{ "resultTotal", "pageCount", "page", "pageSize", "values": [ … ] }`. Walked page after
// page, bounded whatever the server sends: a list that never ends, a page of a million objects.
import { CheckError } from '../../plugin/errors';
import { countJsonContainers, MAX_JSON_CONTAINERS } from '../../plugin/json-bounds';
import { describeResponse, type VcdConnection } from './connection';
import type { SessionReader } from './session-reads';

/** Objects per page asked for: the CloudAPI's maximum. */
export const CLOUDAPI_PAGE_SIZE = 128;
/** Bounds against a server that pages for ever, as the query service's reader has. */
const MAX_PAGES = 1000;

/** What a paged CloudAPI list reads and how its messages name it. */
export interface CloudApiList<T> {
  /** At most this many objects in all. */
  max: number;
  /** The objects in messages: `edge gateways`. */
  noun: string;
  /** What to do when there are more than `max`. */
  narrow: string;
  /** What a 403 means for the account. */
  refused: string;
  /** One value of `values` as the check keeps it (undefined: skipped). */
  take(value: Record<string, unknown>, what: string): T | undefined;
}

/**
 * Every object of a CloudAPI list at `path` (a path without page parameters), or `absent` when
 * the server has no such list (404 on the first page: a version or server without it).
 */
export async function cloudApiAllPages<T>(conn: VcdConnection, get: SessionReader, path: string, list: CloudApiList<T>): Promise<T[] | 'absent'> {
  const out: T[] = [];
  const what = `CloudAPI answer from ${conn.base.origin}`;
  const join = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) throw new CheckError(`the CloudAPI of ${conn.base.origin} returned more than ${MAX_PAGES} pages of ${list.noun}, ${list.narrow}`);
    conn.setPhase(`reading page ${page} of the ${list.noun}`);
    const res = await get(`${path}${join}page=${page}&pageSize=${CLOUDAPI_PAGE_SIZE}`, () => `application/json;version=${conn.apiVersion}`);
    if (res.status === 404 && page === 1) return 'absent';
    if (res.status === 403)
      throw new CheckError(`the CloudAPI of ${conn.base.origin} refused to list ${list.noun} (${describeResponse(res)}), ${list.refused}`);
    if (res.status < 200 || res.status >= 300)
      throw new CheckError(
        `the CloudAPI of ${conn.base.origin} answered ${describeResponse(res)} for ${list.noun}${res.status >= 500 ? ', the vCD cells may be overloaded or down, retry later' : ''}`,
      );
    if (countJsonContainers(res.body) > MAX_JSON_CONTAINERS)
      throw new CheckError(`unexpected ${what}: a page of far more than ${list.max} ${list.noun}, ${list.narrow}`);
    let doc: unknown;
    try {
      doc = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new CheckError(`unexpected ${what}: not JSON`);
    }
    const values = (doc as { values?: unknown } | null)?.values;
    if (!Array.isArray(values)) throw new CheckError(`unexpected ${what}: no "values" list of ${list.noun}`);
    if (out.length + values.length > list.max)
      throw new CheckError(`the CloudAPI of ${conn.base.origin} listed more than ${list.max} ${list.noun}, ${list.narrow}`);
    for (const v of values) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
      const kept = list.take(v as Record<string, unknown>, what);
      if (kept !== undefined) out.push(kept);
    }
    const pageCount = Number((doc as { pageCount?: unknown }).pageCount);
    // The last page: as the server counts them, or an empty one (a server that keeps counting stops here).
    if (values.length === 0 || !Number.isFinite(pageCount) || page >= pageCount) return out;
  }
}

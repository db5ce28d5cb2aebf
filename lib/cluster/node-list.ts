import { httpRequest, type HttpResponse } from '../http/request';
import { CheckError } from '../plugin/errors';
import { endpoint, httpError } from './api-error';
import { PAGE_LIMIT, requestHeaders, type ClusterTarget } from './client';
import type { Node } from './node';
import { NodeListShapeError, NodeListSyntaxError, scanNodeList, type NodeListPage } from './node-list-scan';
import type { NodeSink } from './node-tally';

// The node list, page by page (limit/continue), handed node by node to a sink so that
// memory stays flat however large the cluster.

export interface ListOptions {
  selector?: string;
  /** Page size; the API server caps it anyway. */
  limit?: number;
  maxBytes?: number;
  /** More nodes than this (in all pages) is refused: memory stays bounded (default DEFAULT_MAX_NODES). */
  maxNodes?: number;
  signal?: AbortSignal;
  trace?: (line: string) => void;
}

export interface ListStats {
  pages: number;
  /** The list restarted after a continue token expired (410 Gone). */
  restarted: boolean;
}

/** Far above any real cluster (Kubernetes supports 5,000 nodes; the largest run some 15,000). */
export const DEFAULT_MAX_NODES = 100_000;

/** The URL of one page of the node list. */
export function nodesUrl(base: URL, query: { selector?: string; limit?: number; continueToken?: string }): URL {
  const url = new URL(base.href.replace(/\/+$/, '') + '/api/v1/nodes');
  if (query.limit) url.searchParams.set('limit', String(query.limit));
  if (query.continueToken) url.searchParams.set('continue', query.continueToken);
  if (query.selector) url.searchParams.set('labelSelector', query.selector);
  return url;
}

/**
 * Lists the nodes page by page (`limit`/`continue`), handing each node to the sink and
 * dropping the page. The next page is requested as soon as this page's continue token is
 * read, so that the server works on it while this one is scanned. A continue token that
 * expired (410 Gone) restarts the list once.
 */
export async function listNodes(target: ClusterTarget, options: ListOptions, sink: NodeSink): Promise<ListStats> {
  const headers = requestHeaders(target);
  // Two page buffers, used in turn: one holds the page being scanned while the next page
  // arrives in the other. Reusing them keeps memory flat over a list of many 5 MB pages.
  // They start small (a small cluster's page fits) and grow to the first large page with
  // room to spare (httpRequest): one that is replaced stays garbage until a full collection.
  const buffers: Buffer[] = [Buffer.allocUnsafe(1 << 16), Buffer.allocUnsafe(1 << 16)];
  let fetches = 0;
  const fetchPage = (continueToken?: string): Promise<HttpResponse> => {
    const url = nodesUrl(target.url, { selector: options.selector, limit: options.limit ?? PAGE_LIMIT, continueToken });
    const slot = fetches++ % 2;
    const pending = httpRequest({
      url,
      headers,
      tls: target.tls,
      maxBytes: options.maxBytes,
      signal: options.signal,
      trace: options.trace,
      into: buffers[slot],
    });
    pending.then((res) => (buffers[slot] = wholeBuffer(res.body))).catch(() => undefined); // awaited later; a failure must not go unhandled meanwhile
    return pending;
  };
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  // Pages may be short (a selector filters them): allow some slack over full pages.
  const maxPages = Math.ceil(maxNodes / (options.limit ?? PAGE_LIMIT)) * 2 + 10;
  let listed = 0;
  let continueToken: string | undefined;
  let pending = fetchPage();
  let pages = 0;
  let restarted = false;
  for (;;) {
    const res = await pending;
    if (res.status === 410 && continueToken !== undefined && !restarted) {
      // The server compacted the list's snapshot while we paged: only a fresh list is consistent.
      options.trace?.('* continue token expired (410 Gone): listing again from the start');
      restarted = true;
      continueToken = undefined;
      listed = 0;
      sink.reset();
      pending = fetchPage();
      continue;
    }
    if (res.status !== 200) throw httpError(res, target);
    // A server that never ends the list (new continue tokens, short or empty pages) is
    // stopped by -t or here; one that sends more nodes than any cluster has, here.
    if (pages >= maxPages)
      throw new CheckError(
        `${endpoint(res.url)} sent more than ${maxPages} pages of nodes (${listed} nodes) and the list still goes on; a broken proxy or API server? (raise --max-nodes if the cluster is really that large)`,
      );
    let prefetched: Promise<HttpResponse> | undefined;
    const page = readNodeList(
      res,
      (node) => {
        if (++listed > maxNodes)
          throw new CheckError(`${endpoint(res.url)} listed more than ${maxNodes} nodes; raise --max-nodes if the cluster is really that large`);
        sink.add(node);
      },
      (head) => {
        if (head.continue !== undefined && head.continue !== continueToken) prefetched = fetchPage(head.continue);
      },
    );
    pages++;
    const next = page.continue;
    if (!next) return { pages, restarted };
    if (next === continueToken)
      throw new CheckError(`${endpoint(res.url)} returned the continue token it was given; the node list would never end (a broken proxy or API server?)`);
    continueToken = next;
    pending = prefetched ?? fetchPage(next);
  }
}

/** The whole buffer a body is a view of (it may have grown past the one passed in). */
function wholeBuffer(view: Buffer): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.buffer.byteLength - view.byteOffset);
}

/** Reads one page, node by node, refusing bodies that are not JSON or not a NodeList. */
export function readNodeList(res: HttpResponse, visit: (node: Node) => void, onHead?: (head: NodeListPage) => void): NodeListPage {
  let page: NodeListPage;
  try {
    page = scanNodeList(res.body, visit, onHead);
  } catch (error) {
    if (error instanceof NodeListShapeError) {
      throw new CheckError(
        `unexpected response from ${endpoint(res.url)}: ${error.message} (not a node as the Kubernetes API sends it); check that --url is the API server and that nothing in between rewrites its answers`,
      );
    }
    if (!(error instanceof NodeListSyntaxError) && !(error instanceof SyntaxError)) throw error;
    // Word the failure by what the body is: some other JSON document, or not JSON at all.
    // Only a small body is parsed to tell: 60 MB of `[{},{},…]` would build millions of objects.
    let json = true;
    if (res.body.length <= 1 << 20) {
      try {
        JSON.parse(res.body.toString('utf8'));
      } catch {
        json = false;
      }
    } else json = /^\s*\[/.test(res.body.toString('latin1', 0, 64));
    if (json) throw notNodeList(res, 'not an object with node items');
    if (/truncated/.test((error as Error).message) && res.body[0] === 0x7b) {
      throw new CheckError(
        `response from ${endpoint(res.url)} ends before its JSON does (${res.body.length} bytes, cut short); retry, or check proxies and load balancers in between`,
      );
    }
    const type = String(res.headers['content-type'] ?? 'no content-type');
    const start = JSON.stringify(res.body.toString('utf8', 0, 40));
    throw new CheckError(
      `response from ${endpoint(res.url)} is not JSON (${type}, ${res.body.length} bytes, starts ${start}); check that --url is the API server, not the web console or a login proxy`,
    );
  }
  if (page.items < 0 || (page.kind !== undefined && page.kind !== 'NodeList')) {
    throw notNodeList(res, typeof page.kind === 'string' ? `kind ${page.kind}` : 'no items array');
  }
  return page;
}

function notNodeList(res: HttpResponse, why: string): CheckError {
  return new CheckError(`response from ${endpoint(res.url)} is JSON but not a NodeList (${why}); check that --url is the Kubernetes API server`);
}

import { httpRequest, type HttpResponse, type TlsSettings } from '../http/request';
import { CheckError } from '../plugin/errors';
import { countJsonContainers, MAX_JSON_CONTAINERS } from '../plugin/json-bounds';
import { boundedExcerpt } from '../plugin/server-text';
import type { Node } from './node';
import { NodeListShapeError, NodeListSyntaxError, scanNodeList, type NodeListPage } from './node-list-scan';
import type { NodeSink } from './node-tally';

/** Where the cluster API is and how to authenticate to it. */
export interface ClusterTarget {
  /** The API server, possibly with a path prefix (a proxy such as Rancher's). */
  url: URL;
  /** The bearer token; none when a client certificate (in `tls`) authenticates. */
  token?: string;
  /** Where the credential came from, for the fix of a 401 (e.g. `--token-file /etc/x`). */
  tokenSource: string;
  /** What authenticates: a bearer token (the default) or a client certificate. */
  credential?: 'token' | 'client certificate';
  tls: TlsSettings;
  /** Whom the TLS settings trust, for -vv (e.g. "only the CA of kubeconfig /etc/kc"). */
  trustSource?: string;
  /**
   * After a 401: drops a cached credential and returns a target with a fresh one (an exec
   * plugin run once more), or undefined when there is nothing fresher to try.
   */
  renew?: () => Promise<ClusterTarget | undefined>;
}

/** An HTTP status the check cannot go past; `status` lets a caller renew a credential on 401. */
export class HttpStatusError extends CheckError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

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

export const PAGE_LIMIT = 500;
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
  const headers: Record<string, string> = target.token === undefined ? { accept: 'application/json' } : { authorization: `Bearer ${target.token}`, accept: 'application/json' };
  // Two page buffers, used in turn: one holds the page being scanned while the next page
  // arrives in the other. Reusing them keeps memory flat over a list of many 5 MB pages.
  const buffers: Buffer[] = [Buffer.allocUnsafe(1 << 20), Buffer.allocUnsafe(1 << 20)];
  let fetches = 0;
  const fetchPage = (continueToken?: string): Promise<HttpResponse> => {
    const url = nodesUrl(target.url, { selector: options.selector, limit: options.limit ?? PAGE_LIMIT, continueToken });
    const slot = fetches++ % 2;
    const pending = httpRequest({ url, headers, tls: target.tls, maxBytes: options.maxBytes, signal: options.signal, trace: options.trace, into: buffers[slot] });
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
    if (pages >= maxPages) throw new CheckError(`${origin(res.url)} sent more than ${maxPages} pages of nodes (${listed} nodes) and the list still goes on; a broken proxy or API server? (raise --max-nodes if the cluster is really that large)`);
    let prefetched: Promise<HttpResponse> | undefined;
    const page = readNodeList(res, (node) => {
      if (++listed > maxNodes) throw new CheckError(`${origin(res.url)} listed more than ${maxNodes} nodes; raise --max-nodes if the cluster is really that large`);
      sink.add(node);
    }, (head) => {
      if (head.continue !== undefined && head.continue !== continueToken) prefetched = fetchPage(head.continue);
    });
    pages++;
    const next = page.continue;
    if (!next) return { pages, restarted };
    if (next === continueToken) throw new CheckError(`${origin(res.url)} returned the continue token it was given; the node list would never end (a broken proxy or API server?)`);
    continueToken = next;
    pending = prefetched ?? fetchPage(next);
  }
}

/** The whole buffer a body is a view of (it may have grown past the one passed in). */
function wholeBuffer(view: Buffer): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.buffer.byteLength - view.byteOffset);
}

function origin(url: URL): string {
  return url.origin + url.pathname;
}

/** The `message` of a Kubernetes `Status` body, or the first line of a short text body. */
export function serverMessage(res: HttpResponse): string | undefined {
  const type = String(res.headers['content-type'] ?? '');
  if (res.body.length === 0 || res.body.length > 65536) return undefined;
  const text = res.body.toString('utf8').trim();
  if (text.startsWith('{')) {
    try {
      const doc = JSON.parse(text) as { message?: unknown };
      return typeof doc?.message === 'string' && doc.message.trim() !== '' ? boundedExcerpt(doc.message) : undefined;
    } catch {
      return undefined;
    }
  }
  if (/html/i.test(type) || text.startsWith('<')) return undefined;
  const line = text.split('\n', 1)[0].trim();
  return boundedExcerpt(line, 200) || undefined;
}

/** Turns a non-200 answer into a CheckError naming the cause and the fix. */
export function httpError(res: HttpResponse, target: Pick<ClusterTarget, 'tokenSource'> & Pick<Partial<ClusterTarget>, 'credential'>): CheckError {
  const message = serverMessage(res);
  const said = message ? ` (server says: ${message})` : '';
  const where = `HTTP ${res.status} from ${origin(res.url)}`;
  const s = res.status;
  let text: string;
  if (s === 401) text = `${where}: ${target.credential ?? 'token'} rejected (expired or revoked?)${said}; check ${target.tokenSource}`;
  else if (s === 403) text = `${where}: the account may not list nodes${said}; grant it the cluster-reader role (oc adm policy add-cluster-role-to-user cluster-reader system:serviceaccount:<namespace>:<account>)`;
  else if (s === 404) text = `${where}: not a Kubernetes API at that URL${said}; check --url/-H/-p point at the API server (e.g. https://api.cluster.example.com:6443), not the web console`;
  else if (s === 406) text = `${where}: the server will not send JSON${said}; check --url points at the Kubernetes API server`;
  else if (s === 410) text = `${where}: the node list changed faster than it could be paged (continue token expired twice)${said}; retry`;
  else if (s === 400) text = `${where}: request refused${said}; check -l/--selector`;
  else if (s === 429) text = `${where}: rate limited by the API server${said}; check less often or raise the account's priority`;
  else if (s >= 500) text = `${where}: API server error${said}; the control plane is unhealthy or overloaded, retry later`;
  else if (s >= 300 && s < 400) text = `${where}: redirected to ${String(res.headers.location ?? '?')}${said}; use the API server URL itself (a login proxy or the web console redirects)`;
  else text = `${where}: unexpected status${said}`;
  return new HttpStatusError(text, s);
}

/** Reads one page, node by node, refusing bodies that are not JSON or not a NodeList. */
export function readNodeList(res: HttpResponse, visit: (node: Node) => void, onHead?: (head: NodeListPage) => void): NodeListPage {
  let page: NodeListPage;
  try {
    page = scanNodeList(res.body, visit, onHead);
  } catch (error) {
    if (error instanceof NodeListShapeError) {
      throw new CheckError(`unexpected response from ${origin(res.url)}: ${error.message} (not a node as the Kubernetes API sends it); check that --url is the API server and that nothing in between rewrites its answers`);
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
      throw new CheckError(`response from ${origin(res.url)} ends before its JSON does (${res.body.length} bytes, cut short); retry, or check proxies and load balancers in between`);
    }
    const type = String(res.headers['content-type'] ?? 'no content-type');
    const start = JSON.stringify(res.body.toString('utf8', 0, 40));
    throw new CheckError(`response from ${origin(res.url)} is not JSON (${type}, ${res.body.length} bytes, starts ${start}); check that --url is the API server, not the web console or a login proxy`);
  }
  if (page.items < 0 || (page.kind !== undefined && page.kind !== 'NodeList')) {
    throw notNodeList(res, typeof page.kind === 'string' ? `kind ${page.kind}` : 'no items array');
  }
  return page;
}

function notNodeList(res: HttpResponse, why: string): CheckError {
  return new CheckError(`response from ${origin(res.url)} is JSON but not a NodeList (${why}); check that --url is the Kubernetes API server`);
}

/** What a request needs the account to be allowed, named in the fix of a 403. */
export interface Permission {
  verb: 'get' | 'list';
  /** Plural resource name, e.g. `pods`, `configmaps`, `clusteroperators`. */
  resource: string;
  /** API group; empty or absent for the core group. */
  group?: string;
  /** Absent for cluster-scoped resources. */
  namespace?: string;
  /** The object's name, for a get. */
  name?: string;
}

export interface GetOptions {
  query?: Record<string, string | undefined>;
  maxBytes?: number;
  signal?: AbortSignal;
  trace?: (line: string) => void;
}

/** Sends `GET {cluster}{path}` with the cluster's token (or client certificate); any status is returned for the caller to judge. */
export function getResource(target: ClusterTarget, path: string, options: GetOptions = {}): Promise<HttpResponse> {
  const url = new URL(target.url.href.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = target.token === undefined ? { accept: 'application/json' } : { authorization: `Bearer ${target.token}`, accept: 'application/json' };
  return httpRequest({ url, headers, tls: target.tls, maxBytes: options.maxBytes, signal: options.signal, trace: options.trace });
}

/** `get clusteroperators.config.openshift.io "monitoring"`, `list pods in namespace x`: the words of RBAC. */
export function describePermission(p: Permission): string {
  const resource = p.group ? `${p.resource}.${p.group}` : p.resource;
  return `${p.verb} ${resource}${p.name ? ` "${p.name}"` : ''}${p.namespace ? ` in namespace ${p.namespace}` : ' (cluster scope)'}`;
}

/**
 * Turns a non-200 answer to a request for `permission` into a CheckError: a 403 names the
 * permission and the role that grants it; other statuses are worded as for the node list.
 */
export function resourceError(res: HttpResponse, target: Pick<ClusterTarget, 'tokenSource'> & Pick<Partial<ClusterTarget>, 'credential'>, permission: Permission): CheckError {
  const message = serverMessage(res);
  const said = message ? ` (server says: ${message})` : '';
  // The node list's 400 points at -l/--selector, which these requests do not send.
  if (res.status === 400) return new CheckError(`HTTP 400 from ${origin(res.url)}: request refused${said}; check that --url is the Kubernetes API server`);
  if (res.status !== 403) return httpError(res, target);
  return new CheckError(
    `HTTP 403 from ${origin(res.url)}: the account may not ${describePermission(permission)}${said}; grant it the cluster-reader role, which may read this (oc adm policy add-cluster-role-to-user cluster-reader system:serviceaccount:<namespace>:<account>)`,
  );
}

/** Parses a 200 answer as a JSON object, refusing other bodies with the cause and the fix. */
export function parseJsonObject(res: HttpResponse, what: string): Record<string, unknown> {
  if (countJsonContainers(res.body) > MAX_JSON_CONTAINERS) throw new CheckError(`response from ${origin(res.url)} holds more than ${MAX_JSON_CONTAINERS} JSON objects and arrays, far more than ${what} has; a broken or hostile server? check --url`);
  let doc: unknown;
  try {
    doc = JSON.parse(res.body.toString('utf8'));
  } catch {
    if (res.body[0] === 0x7b) throw new CheckError(`response from ${origin(res.url)} ends before its JSON does or is broken (${res.body.length} bytes); retry, or check proxies and load balancers in between`);
    const type = String(res.headers['content-type'] ?? 'no content-type');
    const start = JSON.stringify(res.body.toString('utf8', 0, 40));
    throw new CheckError(`response from ${origin(res.url)} is not JSON (${type}, ${res.body.length} bytes, starts ${start}); check that --url is the API server, not the web console or a login proxy`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new CheckError(`response from ${origin(res.url)} is JSON but not ${what}; check that --url is the Kubernetes API server`);
  return doc as Record<string, unknown>;
}

/**
 * GETs one JSON object the account needs `permission` for: the object, or undefined when
 * the API answers 404 (the caller decides what absence means); a CheckError otherwise.
 */
export async function getJsonObject(target: ClusterTarget, path: string, permission: Permission, what: string, options: GetOptions = {}): Promise<Record<string, unknown> | undefined> {
  const res = await getResource(target, path, options);
  if (res.status === 404) {
    options.trace?.(`* 404 for ${path}: ${serverMessage(res) ?? 'no message'}`);
    return undefined;
  }
  if (res.status !== 200) throw resourceError(res, target, permission);
  return parseJsonObject(res, what);
}

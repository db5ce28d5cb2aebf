import { httpRequest, type HttpResponse, type TlsSettings } from '../http/request';
import { CheckError } from '../plugin/errors';
import { countJsonContainers, MAX_JSON_CONTAINERS } from '../plugin/json-bounds';
import { endpoint, httpError, serverMessage, type CredentialSource, type Permission } from './api-error';

// The cluster API's generic GET: where it is, how to authenticate, one JSON object. Paging
// the node list is node-list.ts; the words of a refusal are api-error.ts.

/** Where the cluster API is and how to authenticate to it. */
export interface ClusterTarget extends CredentialSource {
  /** The API server, possibly with a path prefix (a proxy such as Rancher's). */
  url: URL;
  /** The bearer token; none when a client certificate (in `tls`) authenticates. */
  token?: string;
  tls: TlsSettings;
  /** Whom the TLS settings trust, for -vv (e.g. "only the CA of kubeconfig /etc/kc"). */
  trustSource?: string;
  /**
   * After a 401: drops a cached credential and returns a target with a fresh one (an exec
   * plugin run once more), or undefined when there is nothing fresher to try.
   */
  renew?: () => Promise<ClusterTarget | undefined>;
}

/** Page size of the lists the checks page through (nodes, pods); the API server caps it anyway. */
export const PAGE_LIMIT = 500;

/** The headers of every request to the cluster: JSON, and the bearer token when one authenticates. */
export function requestHeaders(target: ClusterTarget): Record<string, string> {
  return target.token === undefined ? { accept: 'application/json' } : { authorization: `Bearer ${target.token}`, accept: 'application/json' };
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
  const headers = requestHeaders(target);
  return httpRequest({ url, headers, tls: target.tls, maxBytes: options.maxBytes, signal: options.signal, trace: options.trace });
}

/** Parses a 200 answer as a JSON object, refusing other bodies with the cause and the fix. */
export function parseJsonObject(res: HttpResponse, what: string): Record<string, unknown> {
  if (countJsonContainers(res.body) > MAX_JSON_CONTAINERS)
    throw new CheckError(
      `response from ${endpoint(res.url)} holds more than ${MAX_JSON_CONTAINERS} JSON objects and arrays, far more than ${what} has; a broken or hostile server? check --url`,
    );
  let doc: unknown;
  try {
    doc = JSON.parse(res.body.toString('utf8'));
  } catch {
    if (res.body[0] === 0x7b)
      throw new CheckError(
        `response from ${endpoint(res.url)} ends before its JSON does or is broken (${res.body.length} bytes); retry, or check proxies and load balancers in between`,
      );
    const type = String(res.headers['content-type'] ?? 'no content-type');
    const start = JSON.stringify(res.body.toString('utf8', 0, 40));
    throw new CheckError(
      `response from ${endpoint(res.url)} is not JSON (${type}, ${res.body.length} bytes, starts ${start}); check that --url is the API server, not the web console or a login proxy`,
    );
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new CheckError(`response from ${endpoint(res.url)} is JSON but not ${what}; check that --url is the Kubernetes API server`);
  return doc as Record<string, unknown>;
}

/**
 * GETs one JSON object the account needs `permission` for: the object, or undefined when
 * the API answers 404 (the caller decides what absence means); a CheckError otherwise.
 */
export async function getJsonObject(
  target: ClusterTarget,
  path: string,
  permission: Permission,
  what: string,
  options: GetOptions = {},
): Promise<Record<string, unknown> | undefined> {
  const res = await getResource(target, path, options);
  if (res.status === 404) {
    options.trace?.(`* 404 for ${path}: ${serverMessage(res) ?? 'no message'}`);
    return undefined;
  }
  if (res.status !== 200) throw httpError(res, target, permission);
  return parseJsonObject(res, what);
}

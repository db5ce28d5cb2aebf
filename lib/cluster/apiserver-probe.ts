// Reads what check_apiserver judges: /readyz?verbose, /livez?verbose (each timed) and /version.
import type { HttpResponse } from '../http/request';
import { CheckError } from '../plugin/errors';
import { endpoint, HttpStatusError, serverMessage } from './api-error';
import { getResource, type ClusterTarget, type GetOptions } from './client';
import { parseHealthChecks, type HealthReport } from './health-checks';
import { readServerVersion, type KubeVersion } from './kube-version';

export const HEALTH_ENDPOINTS = ['readyz', 'livez'] as const;
export type HealthEndpoint = (typeof HEALTH_ENDPOINTS)[number];

/** One endpoint's answer: its checks, its HTTP status and how long it took. */
export interface EndpointHealth extends HealthReport {
  endpoint: HealthEndpoint;
  status: number;
  /** Seconds from the request to the whole answer. */
  seconds: number;
}

export interface ApiServerProbe {
  readyz: EndpointHealth;
  livez: EndpointHealth;
  version?: KubeVersion;
}

/** Who may read the health endpoints, for the fix of a 401 or 403. */
const HEALTH_READERS =
  'Kubernetes lets every account (and anonymous clients) read them through the system:public-info-viewer role; where that binding was removed, or on OpenShift, bind a role with nonResourceURLs ["/readyz", "/livez", "/version"] and verb get (cluster-reader includes them); see docs/tokens.md';

function refused(res: HttpResponse, target: ClusterTarget, path: string): CheckError {
  const message = serverMessage(res);
  const said = message ? ` (server says: ${message})` : '';
  const where = `HTTP ${res.status} from ${endpoint(res.url)}`;
  if (res.status === 401)
    return new HttpStatusError(`${where}: ${target.credential ?? 'token'} rejected (expired or revoked?)${said}; check ${target.tokenSource}`, 401);
  if (res.status === 403) return new HttpStatusError(`${where}: the account may not get ${path}${said}; ${HEALTH_READERS}`, 403);
  if (res.status === 404)
    return new HttpStatusError(
      `${where}: no ${path} endpoint${said}; the API server is older than Kubernetes 1.16 or --url is not the API server (e.g. https://api.cluster.example.com:6443)`,
      404,
    );
  return new HttpStatusError(`${where}: unexpected status${said}; a proxy in between? check --url`, res.status);
}

async function readHealth(target: ClusterTarget, which: HealthEndpoint, options: GetOptions): Promise<EndpointHealth> {
  const path = `/${which}`;
  const started = performance.now();
  const res = await getResource(target, path, { ...options, query: { verbose: '' } });
  const seconds = (performance.now() - started) / 1000;
  // 500 is the answer of a failing check, with the list that names it; 503 is what an API
  // server shutting down (or a load balancer in front) answers.
  if (res.status !== 200 && res.status !== 500 && res.status !== 503) throw refused(res, target, path);
  const type = String(res.headers['content-type'] ?? '');
  const kind = /json/i.test(type) ? 'JSON' : /html/i.test(type) ? 'HTML' : undefined;
  if (kind !== undefined && res.status === 200)
    throw new CheckError(
      `${endpoint(res.url)} answered ${kind} (${type}), not the text list of checks; check --url points at the API server, not a proxy or the web console`,
    );
  const report = parseHealthChecks(res.body.toString('utf8'));
  // With ?verbose an API server always lists its checks; a bare "ok" is one that ignores it.
  if (res.status === 200 && report.checks.length === 0 && report.verdict !== 'ok')
    throw new CheckError(
      `${endpoint(res.url)} answered 200 with ${res.body.length === 0 ? 'an empty body' : `no list of checks (starts ${JSON.stringify(res.body.toString('utf8', 0, 40))})`}; check --url points at the API server`,
    );
  return { endpoint: which, status: res.status, seconds, ...report };
}

/**
 * Reads both health endpoints and the version together: three requests, one round trip. A
 * failure is said in a fixed order (readyz, livez, the version), not in the order the answers
 * came: a server that refuses both endpoints gives the same line every run.
 */
export async function probeApiServer(target: ClusterTarget, options: GetOptions): Promise<ApiServerProbe> {
  const reads = [readHealth(target, 'readyz', options), readHealth(target, 'livez', options), readServerVersion(target, options)] as const;
  // Awaited in order below; a failure of a later one meanwhile must not count as unhandled.
  for (const read of reads) read.catch(() => undefined);
  const readyz = await reads[0];
  const livez = await reads[1];
  return { readyz, livez, version: await reads[2] };
}

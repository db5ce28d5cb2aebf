// Reads what check_cluster_alerts judges: the active alerts of an Alertmanager (API v2) or of a
// Prometheus-compatible endpoint (Prometheus, Thanos Querier), and that endpoint's alerting
// rules for --discovery. On OpenShift 4 the endpoint is found from the cluster API: the
// monitoring stack's own Route (alertmanager-main, else thanos-querier) in openshift-monitoring.
import type { HttpResponse } from '../http/request';
import { CheckError } from '../plugin/errors';
import { countJsonContainers, MAX_JSON_CONTAINERS } from '../plugin/json-bounds';
import { boundedExcerpt, plainTextLine } from '../plugin/server-text';
import { readGettableAlerts, readPrometheusAlerts, readPrometheusRules, type AlertRule, type ClusterAlert } from './alerts';
import { endpoint, HttpStatusError, serverMessage } from './api-error';
import { getJsonObject, getResource, type ClusterTarget, type GetOptions } from './client';
import { ShapeError } from './shape-error';

/** What kind of endpoint answers: Alertmanager's API v2 or Prometheus's API v1 (Thanos Querier speaks it too). */
export type AlertEndpointKind = 'alertmanager' | 'prometheus';

/** The endpoint alerts are read from, and how it was chosen (said at -v and in messages). */
export interface AlertEndpoint {
  kind: AlertEndpointKind;
  target: ClusterTarget;
  /** `--alertmanager-url`, `Route openshift-monitoring/alertmanager-main`... */
  chosen: string;
  /** The OpenShift Route it was found by, when it was (then a 403 names OpenShift's roles). */
  route?: string;
}

export interface AlertsProbe {
  alerts: ClusterAlert[];
  /** --discovery on a Prometheus-compatible endpoint: its alerting rules. */
  rules?: AlertRule[];
}

export const MONITORING_NAMESPACE = 'openshift-monitoring';
/** The Routes the OpenShift monitoring stack publishes, in the order they are tried. */
export const MONITORING_ROUTES = [
  { name: 'alertmanager-main', kind: 'alertmanager' },
  { name: 'thanos-querier', kind: 'prometheus' },
] as const;
export const ALERTS_PATH = { alertmanager: '/api/v2/alerts', prometheus: '/api/v1/alerts' } as const;
export const RULES_PATH = '/api/v1/rules';
/** Far above any cluster: OpenShift ships a few hundred rules, and a sick cluster fires some hundreds of alerts. */
export const DEFAULT_MAX_ALERTS = 50_000;

const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;

export type AlertGetOptions = GetOptions & { maxAlerts: number };

/**
 * Finds the monitoring stack's endpoint on OpenShift 4: the Route alertmanager-main (Alertmanager
 * knows silences and inhibitions), else thanos-querier. `endpointOf` makes the endpoint's target
 * (the same credential, the endpoint's TLS trust).
 */
export async function findMonitoringRoute(cluster: ClusterTarget, endpointOf: (url: URL) => ClusterTarget, options: GetOptions): Promise<AlertEndpoint> {
  const tried: string[] = [];
  for (const { name, kind } of MONITORING_ROUTES) {
    const path = `/apis/route.openshift.io/v1/namespaces/${MONITORING_NAMESPACE}/routes/${name}`;
    const route = await getJsonObject(
      cluster,
      path,
      { verb: 'get', resource: 'routes', group: 'route.openshift.io', namespace: MONITORING_NAMESPACE, name },
      'a Route',
      options,
    );
    if (route === undefined) {
      tried.push(name);
      continue;
    }
    const spec = (route.spec ?? {}) as Record<string, unknown>;
    const host = typeof spec.host === 'string' ? spec.host : undefined;
    if (host === undefined || !HOST.test(host))
      throw new CheckError(
        `the Route ${MONITORING_NAMESPACE}/${name} has no usable spec.host (${host === undefined ? 'none' : JSON.stringify(boundedExcerpt(host, 80))}); give --alertmanager-url or --prometheus-url`,
      );
    const path0 = typeof spec.path === 'string' && /^\/[\x21-\x7e]{0,200}$/.test(spec.path) ? spec.path.replace(/\/+$/, '') : '';
    const url = new URL(`https://${host}${path0}`);
    return { kind, target: endpointOf(url), chosen: `Route ${MONITORING_NAMESPACE}/${name} (${url.origin}${path0})`, route: name };
  }
  throw new CheckError(
    `${cluster.url.origin} has no Route ${tried.join(' or ')} in namespace ${MONITORING_NAMESPACE} (HTTP 404): not OpenShift 4, or its monitoring stack is not installed; give --alertmanager-url or --prometheus-url`,
  );
}

/** What a refusal of the alerts endpoint means, and who may read alerts there. */
function readerFix(where: AlertEndpoint): string {
  if (where.route === 'alertmanager-main')
    return 'give the account the monitoring-alertmanager-view role of openshift-monitoring (oc adm policy add-role-to-user monitoring-alertmanager-view system:serviceaccount:NAMESPACE:ACCOUNT --role-namespace openshift-monitoring -n openshift-monitoring, see docs/tokens.md)';
  if (where.route === 'thanos-querier')
    return 'give the account the cluster-monitoring-view cluster role (oc adm policy add-cluster-role-to-user cluster-monitoring-view system:serviceaccount:NAMESPACE:ACCOUNT, see docs/tokens.md)';
  return `check the credential (${where.target.tokenSource}) and that the account may read alerts there (OpenShift: monitoring-alertmanager-view or cluster-monitoring-view, see docs/tokens.md)`;
}

/** An HTML answer: the login page of an OAuth proxy in front of the stack, most often. */
function htmlAnswer(res: HttpResponse, where: AlertEndpoint): CheckError | undefined {
  const type = String(res.headers['content-type'] ?? '');
  const start = res.body.toString('utf8', 0, 512).trimStart().toLowerCase();
  if (!/html/i.test(type) && !start.startsWith('<!doctype html') && !start.startsWith('<html')) return undefined;
  const title = /<title[^>]*>([^<]{1,120})/i.exec(res.body.toString('utf8', 0, 65536))?.[1];
  return new CheckError(
    `${endpoint(res.url)} answered an HTML page (HTTP ${res.status}${title ? `, title ${JSON.stringify(boundedExcerpt(title, 80))}` : ''}), not alerts: a login page of an OAuth proxy, which wants a bearer token it accepts; give --token-file with a service-account token and ${readerFix(where)}`,
  );
}

/** The words of a non-200 answer of the alerts endpoint. */
function alertsHttpError(res: HttpResponse, where: AlertEndpoint): CheckError {
  const html = htmlAnswer(res, where);
  if (html) return html;
  const said = serverMessage(res) ?? prometheusError(res);
  const text = said ? ` (server says: ${said})` : '';
  const at = `HTTP ${res.status} from ${endpoint(res.url)}`;
  if (res.status === 401) return new HttpStatusError(`${at}: credential rejected (expired or revoked?)${text}; check ${where.target.tokenSource}`, 401);
  if (res.status === 403) return new HttpStatusError(`${at}: the account may not read alerts${text}; ${readerFix(where)}`, 403);
  if (res.status === 404)
    return new HttpStatusError(
      `${at}: no ${where.kind === 'alertmanager' ? 'Alertmanager API v2' : 'Prometheus API'} at that URL${text}; check ${where.chosen} (the URL of the ${where.kind === 'alertmanager' ? 'Alertmanager, without /api/v2' : 'Prometheus or Thanos Querier, without /api/v1'})`,
      404,
    );
  if (res.status >= 300 && res.status < 400)
    return new HttpStatusError(
      `${at}: redirected to ${boundedExcerpt(String(res.headers.location ?? '?'), 120)}${text}; a login proxy redirects requests without an accepted bearer token: ${readerFix(where)}`,
      res.status,
    );
  if (res.status >= 500) return new HttpStatusError(`${at}: server error${text}; the monitoring stack is unhealthy or overloaded, retry later`, res.status);
  return new HttpStatusError(`${at}: unexpected status${text}`, res.status);
}

/** The `error` of a Prometheus API error answer (`{"status":"error","error":"…"}`). */
function prometheusError(res: HttpResponse): string | undefined {
  if (res.body.length === 0 || res.body.length > 65536) return undefined;
  try {
    const doc = JSON.parse(res.body.toString('utf8')) as { error?: unknown };
    return typeof doc?.error === 'string' && doc.error.trim() !== '' ? boundedExcerpt(doc.error) : undefined;
  } catch {
    return plainTextLine(res.body, String(res.headers['content-type'] ?? ''));
  }
}

/** Parses a 200 answer as JSON, bounded in objects as every reader is; HTML and other text are said as such. */
function parseAnswer(res: HttpResponse, where: AlertEndpoint, what: string): unknown {
  const html = htmlAnswer(res, where);
  if (html) throw html;
  if (countJsonContainers(res.body) > MAX_JSON_CONTAINERS)
    throw new CheckError(
      `response from ${endpoint(res.url)} holds more than ${MAX_JSON_CONTAINERS} JSON objects and arrays, far more than ${what} has; a broken or hostile server? check ${where.chosen}`,
    );
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    if (res.body.length === 0) throw new CheckError(`response from ${endpoint(res.url)} is empty (HTTP 200, no JSON); check ${where.chosen}`);
    const first = res.body[0];
    if (first === 0x7b || first === 0x5b)
      throw new CheckError(
        `response from ${endpoint(res.url)} ends before its JSON does or is broken (${res.body.length} bytes); retry, or check proxies in between`,
      );
    const start = JSON.stringify(boundedExcerpt(res.body.toString('utf8', 0, 40), 40));
    throw new CheckError(
      `response from ${endpoint(res.url)} is not JSON (${String(res.headers['content-type'] ?? 'no content-type')}, ${res.body.length} bytes, starts ${start}); check ${where.chosen}`,
    );
  }
}

/** Runs a document reader; a ShapeError becomes the one line that names the field and what was expected. */
function shaped<T>(res: HttpResponse, where: AlertEndpoint, what: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    throw new CheckError(`unexpected response from ${endpoint(res.url)}: ${e.message} (not ${what}); check ${where.chosen}`);
  }
}

async function getFrom(where: AlertEndpoint, path: string, options: GetOptions): Promise<HttpResponse> {
  const res = await getResource(where.target, path, options);
  if (res.status !== 200) throw alertsHttpError(res, where);
  return res;
}

/** GETs the active alerts (and, for --discovery on a Prometheus-compatible endpoint, the alerting rules). */
export async function probeAlerts(where: AlertEndpoint, options: AlertGetOptions & { withRules: boolean }): Promise<AlertsProbe> {
  if (where.kind === 'alertmanager') {
    const res = await getFrom(where, ALERTS_PATH.alertmanager, options);
    const what = "Alertmanager's JSON list of alerts (GettableAlerts)";
    const doc = parseAnswer(res, where, what);
    return { alerts: shaped(res, where, what, () => readGettableAlerts(doc, options.maxAlerts)) };
  }
  const [alertsRes, rulesRes] = await Promise.all([
    getFrom(where, ALERTS_PATH.prometheus, options),
    options.withRules ? getFrom(where, RULES_PATH, { ...options, query: { ...options.query, type: 'alert' } }) : Promise.resolve(undefined),
  ]);
  const what = 'a Prometheus API JSON answer with data.alerts';
  const doc = asObject(parseAnswer(alertsRes, where, what), alertsRes, where, what);
  const alerts = shaped(alertsRes, where, what, () => readPrometheusAlerts(doc, options.maxAlerts));
  if (!rulesRes) return { alerts };
  const rulesWhat = 'a Prometheus API JSON answer with data.groups';
  const rulesDoc = asObject(parseAnswer(rulesRes, where, rulesWhat), rulesRes, where, rulesWhat);
  return { alerts, rules: shaped(rulesRes, where, rulesWhat, () => readPrometheusRules(rulesDoc, options.maxAlerts)) };
}

function asObject(doc: unknown, res: HttpResponse, where: AlertEndpoint, what: string): Record<string, unknown> {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new CheckError(
      `unexpected response from ${endpoint(res.url)}: JSON but not ${what}${Array.isArray(doc) ? ' (an array: an Alertmanager? use --alertmanager-url)' : ''}; check ${where.chosen}`,
    );
  return doc as Record<string, unknown>;
}

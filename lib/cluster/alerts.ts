// The documents check_cluster_alerts reads: Alertmanager's GettableAlerts (API v2
// `GET /api/v2/alerts`), and a Prometheus-compatible query endpoint's alerts and alerting
// rules (`GET /api/v1/alerts`, `GET /api/v1/rules`, as Prometheus and Thanos Querier serve
// them). Every string in them is server (or tenant) text: kept bounded and free of control
// characters here, before anything else sees it.
import { checkDeadline } from '../plugin/deadline';
import { boundedExcerpt } from '../plugin/server-text';
import { jsonKind, ShapeError } from './shape-error';

/** Where an alert stands: firing and judged, pending (Prometheus: not yet `for` long), or suppressed by Alertmanager. */
export type AlertStatus = 'firing' | 'pending' | 'silenced' | 'inhibited';

/** One alert as the check keeps it. */
export interface ClusterAlert {
  /** The `alertname` label ("" when absent). */
  name: string;
  labels: Record<string, string>;
  /** The `summary` annotation, else `message` (OpenShift's older rules), else `description`. */
  summary?: string;
  /** When it began to fire (Alertmanager `startsAt`, Prometheus `activeAt`), as the server wrote it. */
  since?: string;
  status: AlertStatus;
}

/** An alerting rule that a Prometheus-compatible endpoint has loaded. */
export interface AlertRule {
  name: string;
  /** The rule's own `severity` label, when it sets one. */
  severity?: string;
}

/** A label value, an annotation: at most this long once kept. */
const MAX_LABEL_CHARS = 300;
const MAX_SUMMARY_CHARS = 400;
/** Labels kept per alert: real alerts carry a dozen or two. */
const MAX_LABELS = 64;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A label set (`labels`, `annotations`): string values only, bounded, first MAX_LABELS kept. */
function labelSet(value: unknown, at: string, required: boolean): Record<string, string> {
  if (value === undefined || value === null) {
    if (required) throw new ShapeError(at, 'is missing');
    return {};
  }
  if (!isObject(value)) throw new ShapeError(at, `is ${jsonKind(value)}, not an object`);
  const out: Record<string, string> = {};
  let kept = 0;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') continue;
    if (kept++ >= MAX_LABELS) break;
    out[boundedExcerpt(k, 100)] = boundedExcerpt(v, MAX_LABEL_CHARS);
  }
  return out;
}

function summaryOf(annotations: Record<string, string>): string | undefined {
  const text = annotations.summary || annotations.message || annotations.description;
  return text ? boundedExcerpt(text, MAX_SUMMARY_CHARS) : undefined;
}

function timeText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? boundedExcerpt(value, 60) : undefined;
}

function listed(items: unknown, at: string, max: number, what: string): unknown[] {
  if (!Array.isArray(items)) throw new ShapeError(at, items === undefined ? 'is missing' : `is ${jsonKind(items)}, not an array`);
  if (items.length > max) throw new ShapeError(at, `holds ${items.length} ${what}, more than --max-alerts ${max}`);
  return items;
}

function nonEmpty(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0;
}

/**
 * Reads Alertmanager's GettableAlerts (a JSON array). `status.state` active or unprocessed
 * is firing; suppressed is silenced when `silencedBy` names a silence, else inhibited
 * (`inhibitedBy`, or `mutedBy` of a mute time interval). An alert without status is firing.
 */
export function readGettableAlerts(doc: unknown, maxAlerts: number): ClusterAlert[] {
  return listed(doc, 'the answer', maxAlerts, 'alerts').map((item, i) => {
    if ((i & 4095) === 4095) checkDeadline('reading the alerts');
    const at = `[${i}]`;
    if (!isObject(item)) throw new ShapeError(at, `is ${jsonKind(item)}, not an object`);
    const labels = labelSet(item.labels, `${at}.labels`, true);
    const status = isObject(item.status) ? item.status : {};
    let state: AlertStatus = 'firing';
    if (status.state === 'suppressed') state = nonEmpty(status.silencedBy) ? 'silenced' : 'inhibited';
    return {
      name: labels.alertname ?? '',
      labels,
      summary: summaryOf(labelSet(item.annotations, `${at}.annotations`, false)),
      since: timeText(item.startsAt),
      status: state,
    };
  });
}

/** The `data` of a Prometheus API answer; `status: "error"` is the server's refusal, thrown with its words. */
export function prometheusData(doc: Record<string, unknown>): Record<string, unknown> {
  if (doc.status === 'error') {
    const said = typeof doc.error === 'string' ? boundedExcerpt(doc.error, 300) : 'no message';
    throw new ShapeError('status', `is "error" (${typeof doc.errorType === 'string' ? boundedExcerpt(doc.errorType, 40) + ': ' : ''}${said})`);
  }
  if (!isObject(doc.data)) throw new ShapeError('data', doc.data === undefined ? 'is missing' : `is ${jsonKind(doc.data)}, not an object`);
  return doc.data;
}

/** Reads a Prometheus `GET /api/v1/alerts` answer: `data.alerts`, each firing or pending (inactive ones are dropped). */
export function readPrometheusAlerts(doc: Record<string, unknown>, maxAlerts: number): ClusterAlert[] {
  const alerts: ClusterAlert[] = [];
  listed(prometheusData(doc).alerts, 'data.alerts', maxAlerts, 'alerts').forEach((item, i) => {
    if ((i & 4095) === 4095) checkDeadline('reading the alerts');
    const at = `data.alerts[${i}]`;
    if (!isObject(item)) throw new ShapeError(at, `is ${jsonKind(item)}, not an object`);
    if (item.state === 'inactive') return;
    const labels = labelSet(item.labels, `${at}.labels`, true);
    alerts.push({
      name: labels.alertname ?? '',
      labels,
      summary: summaryOf(labelSet(item.annotations, `${at}.annotations`, false)),
      since: timeText(item.activeAt),
      status: item.state === 'pending' ? 'pending' : 'firing',
    });
  });
  return alerts;
}

/** Reads the alerting rules of a Prometheus `GET /api/v1/rules` answer (recording rules are skipped), one entry per name. */
export function readPrometheusRules(doc: Record<string, unknown>, maxRules: number): AlertRule[] {
  const groups = listed(prometheusData(doc).groups, 'data.groups', maxRules, 'rule groups');
  const rules = new Map<string, AlertRule>();
  let seen = 0;
  groups.forEach((group, g) => {
    if (!isObject(group)) throw new ShapeError(`data.groups[${g}]`, `is ${jsonKind(group)}, not an object`);
    const list = group.rules === undefined || group.rules === null ? [] : listed(group.rules, `data.groups[${g}].rules`, maxRules, 'rules');
    for (const rule of list) {
      if (++seen > maxRules) throw new ShapeError('data.groups', `hold more than --max-alerts ${maxRules} rules`);
      if ((seen & 4095) === 4095) checkDeadline('reading the rules');
      if (!isObject(rule) || rule.type !== 'alerting' || typeof rule.name !== 'string' || rule.name.trim() === '') continue;
      const name = boundedExcerpt(rule.name, MAX_LABEL_CHARS);
      const severity = isObject(rule.labels) && typeof rule.labels.severity === 'string' ? boundedExcerpt(rule.labels.severity, 40) : undefined;
      const known = rules.get(name);
      if (!known) rules.set(name, { name, ...(severity ? { severity } : {}) });
      else if (known.severity === undefined && severity) known.severity = severity;
    }
  });
  return [...rules.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

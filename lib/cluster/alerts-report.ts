// The judgement of check_cluster_alerts: which alerts count (the platform's, by default; the
// --include/--exclude matchers; --min-active), what each firing one is worth (its severity,
// through --severity-map), the Watchdog that proves the pipeline works, and the words: the
// worst alerts with their objects on the status line, one line per alert below.
import type { Metric } from '../plugin/perfdata';
import type { Item, Result } from '../plugin/result';
import { unjudgedMetric } from '../plugin/scalar-context';
import { isNamed, part, partOf, resultOf, sayStateCounts, type Part } from '../plugin/part';
import { State } from '../plugin/state';
import { matches, type LabelMatcher } from './alert-matchers';
import type { AlertRule, ClusterAlert } from './alerts';
import { formatAge } from './node-report';

/** How alerts are selected and judged; durations in seconds. */
export interface AlertRules {
  /** Severity label value (lower case) → state; any other severity is OK. */
  severityMap: ReadonlyMap<string, State>;
  include: readonly LabelMatcher[];
  exclude: readonly LabelMatcher[];
  /** Tenants' alerts too (user workload, namespaces outside the platform's). */
  allAlerts: boolean;
  /** The platform's namespaces (anchored). */
  platformNamespaces: RegExp;
  /** An alert counts once it has fired this long. */
  minActive?: number;
  /** A missing Watchdog is CRITICAL. */
  watchdog: boolean;
  /** Long output lists OK alerts (info, suppressed) too. */
  listAll: boolean;
  /** The time ages are measured from (ms since the epoch). */
  now: number;
}

/** The alert whose absence means the alerting pipeline is broken: kube-prometheus and OpenShift fire it always. */
export const WATCHDOG = 'Watchdog';
/** Prometheus' `prometheus` label of OpenShift's user-workload stack: its alerts are the tenants'. */
export const USER_WORKLOAD_PROMETHEUS = 'openshift-user-workload-monitoring/';
/** The namespaces of the platform, as OpenShift's own rules scope theirs. */
export const DEFAULT_PLATFORM_NAMESPACES = 'openshift-.*|kube-.*|default';
export const DEFAULT_SEVERITY_MAP: ReadonlyMap<string, State> = new Map([
  ['critical', State.CRITICAL],
  ['warning', State.WARNING],
]);

/** Labels that name the object an alert is about, in the order they are looked for (the first found names it). */
const OBJECT_LABELS = [
  'pod',
  'deployment',
  'statefulset',
  'daemonset',
  'replicaset',
  'job_name',
  'cronjob',
  'persistentvolumeclaim',
  'horizontalpodautoscaler',
  'poddisruptionbudget',
  'node',
  'name',
  'service',
  'instance',
] as const;
/** Other labels that help find it, in the long output. */
const PLACE_LABELS = ['container', 'node', 'job', 'endpoint', 'instance'] as const;

/** Alerts named on the status line; the rest are counted there and listed below. */
const FIRST_LINE_ALERTS = 3;
/** Lines of long output the check keeps; the rest are counted. */
export const MAX_ALERT_ITEMS = 500;

/** One alert judged. */
export interface AlertVerdict {
  alert: ClusterAlert;
  /** CRITICAL, WARNING or OK (info): the state of a firing alert by its severity; OK when suppressed or pending. */
  state: State;
  /** `KubePodCrashLooping openshift-ingress/router-default-5d8f`. */
  title: string;
  severity: string;
  /** Seconds it has fired, when its start is known. */
  age?: number;
}

/** Why alerts were left out of the judgement, counted. */
interface LeftOut {
  tenant: number;
  matcher: number;
  young: number;
  pending: number;
}

/** `openshift-ingress/router-default-5d8f`, `etcd`, `openshift-monitoring`, or "" — where the alert points. */
export function alertObject(labels: Readonly<Record<string, string>>): string {
  const key = OBJECT_LABELS.find((k) => labels[k]);
  const object = key ? labels[key] : undefined;
  const ns = labels.namespace || labels.exported_namespace;
  if (ns && object) return `${ns}/${object}`;
  return object ?? ns ?? '';
}

/** An alert's name with its object: what the status line and the engines call it. */
export function alertTitle(alert: ClusterAlert): string {
  const object = alertObject(alert.labels);
  const name = alert.name || '(no alertname)';
  return object ? `${name} ${object}` : name;
}

/** Whether an alert is a tenant's: raised by OpenShift's user-workload stack, or about a namespace outside the platform's. */
export function isTenantAlert(labels: Readonly<Record<string, string>>, platformNamespaces: RegExp): boolean {
  if ((labels.prometheus ?? '').startsWith(USER_WORKLOAD_PROMETHEUS)) return true;
  const ns = labels.namespace;
  return ns !== undefined && ns !== '' && !platformNamespaces.test(ns);
}

function ageOf(since: string | undefined, now: number): number | undefined {
  const at = since === undefined ? NaN : Date.parse(since);
  return Number.isFinite(at) && at <= now ? (now - at) / 1000 : undefined;
}

/** The alerts that count, each judged, and what was left out (Watchdog is neither: it is the pipeline's). */
export function selectAlerts(alerts: readonly ClusterAlert[], rules: AlertRules): { verdicts: AlertVerdict[]; leftOut: LeftOut } {
  const leftOut: LeftOut = { tenant: 0, matcher: 0, young: 0, pending: 0 };
  const verdicts: AlertVerdict[] = [];
  for (const alert of alerts) {
    if (alert.name === WATCHDOG) continue;
    if (!rules.allAlerts && isTenantAlert(alert.labels, rules.platformNamespaces)) {
      leftOut.tenant++;
      continue;
    }
    if (!rules.include.every((m) => matches(m, alert.labels)) || rules.exclude.some((m) => matches(m, alert.labels))) {
      leftOut.matcher++;
      continue;
    }
    if (alert.status === 'pending') {
      leftOut.pending++;
      continue;
    }
    const age = ageOf(alert.since, rules.now);
    if (rules.minActive !== undefined && alert.status === 'firing' && (age === undefined || age < rules.minActive)) {
      leftOut.young++;
      continue;
    }
    const severity = (alert.labels.severity ?? '').toLowerCase();
    const state = alert.status === 'firing' ? (rules.severityMap.get(severity) ?? State.OK) : State.OK;
    verdicts.push({ alert, state, title: alertTitle(alert), severity: severity || 'none', ...(age === undefined ? {} : { age }) });
  }
  return { verdicts, leftOut };
}

/** Worst first, then the longest firing first (the oldest problem is the one on-call has ignored longest). */
function byConcern(a: AlertVerdict, b: AlertVerdict): number {
  const rank = (s: State) => (s === State.CRITICAL ? 2 : s === State.WARNING ? 1 : 0);
  return rank(b.state) - rank(a.state) || (b.age ?? -1) - (a.age ?? -1) || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);
}

function sinceText(v: AlertVerdict): string {
  if (v.alert.since === undefined) return '';
  return v.age !== undefined ? ` for ${formatAge(v.age * 1000)} (since ${v.alert.since})` : ` (since ${v.alert.since})`;
}

/** One line of long output: name and object, severity and status, since when, the summary, the labels that place it. */
function itemText(v: AlertVerdict): string {
  const status = v.alert.status === 'firing' ? 'firing' : v.alert.status;
  const labels = v.alert.labels;
  const named = OBJECT_LABELS.find((k) => labels[k]);
  const place = PLACE_LABELS.filter((k) => labels[k] && k !== named).map((k) => `${k}=${labels[k]}`);
  const summary = v.alert.summary ? `: ${v.alert.summary}` : '';
  return `${v.title} (${v.severity}, ${status}${sinceText(v)})${summary}${place.length > 0 ? ` [${place.join(', ')}]` : ''}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the counts of perfdata say; Watchdog is not among them. */
function alertMetrics(firing: readonly AlertVerdict[], suppressed: number): Metric[] {
  const count = (s: State) => firing.filter((v) => v.state === s).length;
  return [
    unjudgedMetric('alerts_critical', count(State.CRITICAL), { min: 0 }),
    unjudgedMetric('alerts_warning', count(State.WARNING), { min: 0 }),
    unjudgedMetric('alerts_info', count(State.OK), { min: 0 }),
    unjudgedMetric('alerts_suppressed', suppressed, { min: 0 }),
  ];
}

/** The facts of what was left out, for -v. */
function leftOutNotes(leftOut: LeftOut): string[] {
  return [
    ...(leftOut.tenant > 0
      ? [`${plural(leftOut.tenant, 'tenant alert')} left out (user workload or namespaces outside the platform's; --all-alerts counts them)`]
      : []),
    ...(leftOut.matcher > 0 ? [`${plural(leftOut.matcher, 'alert')} left out by --include/--exclude`] : []),
    ...(leftOut.young > 0 ? [`${plural(leftOut.young, 'alert')} firing for less than --min-active`] : []),
    ...(leftOut.pending > 0 ? [`${plural(leftOut.pending, 'alert')} pending (not yet firing for its rule's "for")`] : []),
  ];
}

/** Whether the stack should fire Watchdog and does not: the alerting pipeline is broken. */
export function isWatchdogMissing(alerts: readonly ClusterAlert[], rules: Pick<AlertRules, 'watchdog'>): boolean {
  return rules.watchdog && !alerts.some((a) => a.name === WATCHDOG && a.status !== 'pending');
}

/** The alerts as one result: Watchdog's absence and the worst firing alert decide the state. */
export function evaluateAlerts(alerts: readonly ClusterAlert[], rules: AlertRules, source: string): Result {
  const { verdicts, leftOut } = selectAlerts(alerts, rules);
  const firing = verdicts.filter((v) => v.alert.status === 'firing').sort(byConcern);
  const suppressed = verdicts.filter((v) => v.alert.status === 'silenced' || v.alert.status === 'inhibited');
  const problems = firing.filter(isNamed);
  const watchdogMissing = isWatchdogMissing(alerts, rules);
  const parts: Part[] = [];
  if (watchdogMissing) parts.push(part(`no ${WATCHDOG} alert firing: the alerting pipeline is broken`, State.CRITICAL));
  if (problems.length > 0) {
    const named = problems.slice(0, FIRST_LINE_ALERTS).map((v) => `${v.title}${sinceText(v)}`);
    const more = problems.length - named.length;
    const counts = sayStateCounts(problems, [State.CRITICAL, State.WARNING]);
    parts.push(
      partOf(`${counts} alert${problems.length === 1 ? '' : 's'} firing: ${named.join(', ')}${more > 0 ? `, and ${more} more (below)` : ''}`, problems),
    );
  } else {
    parts.push(part(`no critical or warning alert firing${firing.length > 0 ? ` (${plural(firing.length, 'other alert')})` : ''}`));
  }
  const silenced = suppressed.filter((v) => v.alert.status === 'silenced').length;
  const inhibited = suppressed.length - silenced;
  if (suppressed.length > 0)
    parts.push(part([silenced > 0 ? `${silenced} silenced` : '', inhibited > 0 ? `${inhibited} inhibited` : ''].filter(Boolean).join(', ')));
  const shown = rules.listAll ? [...firing, ...suppressed] : problems;
  const items: Item[] = shown.slice(0, MAX_ALERT_ITEMS).map((v) => ({ name: v.title, state: v.state, text: itemText(v) }));
  const hiddenOk = rules.listAll ? 0 : firing.length - problems.length + suppressed.length;
  if (hiddenOk > 0)
    items.push({ name: 'other', state: State.OK, text: `${plural(hiddenOk, 'more alert')} (info or none severity, silenced or inhibited): -v lists them` });
  const pipeline: Item[] = watchdogMissing
    ? [
        {
          name: WATCHDOG,
          state: State.CRITICAL,
          text: `${WATCHDOG} is not firing at ${source}: Prometheus does not evaluate its rules, or its alerts do not reach Alertmanager, so no other alert reaches anyone either; --no-watchdog where the stack has no Watchdog`,
        },
      ]
    : [];
  items.unshift(...pipeline);
  return resultOf(parts, {
    items,
    itemsLeftOut: Math.max(0, shown.length - MAX_ALERT_ITEMS),
    metrics: alertMetrics(firing, suppressed.length),
    notes: [`${plural(alerts.length, 'alert')} read from ${source}`, ...leftOutNotes(leftOut)],
  });
}

/** An engine service name for a rule: `alert-<name>`; undefined for a name no engine object may carry. */
export function ruleServiceName(rule: string): string | undefined {
  return /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,119}$/.test(rule) ? `alert-${rule}` : undefined;
}

/** Zabbix low-level discovery: `[{"{#ALERTNAME}":"KubePodCrashLooping","{#SEVERITY}":"warning"},...]`, by name. */
export function ruleDiscovery(rules: readonly AlertRule[]): string {
  return JSON.stringify(rules.map((r) => ({ '{#ALERTNAME}': r.name, '{#SEVERITY}': r.severity ?? '' }))) + '\n';
}

/** The rules to discover when the endpoint lists none (an Alertmanager): the names of the alerts it holds, with their severity. */
export function rulesSeen(alerts: readonly ClusterAlert[]): AlertRule[] {
  const seen = new Map<string, AlertRule>();
  for (const a of alerts) {
    if (a.name === '' || seen.has(a.name)) continue;
    seen.set(a.name, { name: a.name, ...(a.labels.severity ? { severity: a.labels.severity } : {}) });
  }
  return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One rule's verdict for its engine service: the worst of its counted alerts, and their titles. */
export interface RuleVerdict {
  rule: string;
  state: State;
  summary: string;
  items: Item[];
}

/**
 * Each rule's verdict, for the per-rule services: the rules given (the endpoint's, the ones
 * remembered) and those of every alert read each get one, OK when none of its alerts counts
 * ("not firing"); Watchdog has none.
 */
export function judgeRules(alerts: readonly ClusterAlert[], rules: readonly AlertRule[], judging: AlertRules): RuleVerdict[] {
  const { verdicts } = selectAlerts(alerts, { ...judging, minActive: judging.minActive });
  const byRule = new Map<string, AlertVerdict[]>();
  for (const v of verdicts) byRule.set(v.alert.name, [...(byRule.get(v.alert.name) ?? []), v]);
  // Every rule the stack knows or holds an alert of gets a verdict: one whose alerts are not
  // counted (a tenant's, left out by --exclude) is "not firing" here, as its service should say.
  const seen = alerts.map((a) => a.name);
  const names = [...new Set([...rules.map((r) => r.name), ...byRule.keys(), ...seen])].filter((n) => n !== WATCHDOG && n !== '').sort();
  return names.map((rule) => {
    const mine = (byRule.get(rule) ?? []).sort(byConcern);
    const firing = mine.filter((v) => v.alert.status === 'firing');
    const suppressed = mine.length - firing.length;
    const objects = firing.slice(0, FIRST_LINE_ALERTS).map((v) => `${alertObject(v.alert.labels) || v.title}${sinceText(v)}`);
    const summary =
      firing.length > 0
        ? `${plural(firing.length, 'alert')} firing (${firing[0].severity}): ${objects.join(', ')}${firing.length > objects.length ? `, and ${firing.length - objects.length} more` : ''}${suppressed > 0 ? `; ${suppressed} suppressed` : ''}`
        : `not firing${suppressed > 0 ? ` (${suppressed} silenced or inhibited)` : ''}`;
    return { rule, state: partOf(summary, firing).state, summary, items: mine.slice(0, 50).map((v) => ({ name: v.title, state: v.state, text: itemText(v) })) };
  });
}

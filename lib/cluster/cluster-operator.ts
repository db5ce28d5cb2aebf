// The ClusterOperator of OpenShift 4 (config.openshift.io/v1): each operator reports its
// component's state in status.conditions; `oc get clusteroperators` shows the same columns.
import { checkDeadline } from '../plugin/deadline';
import { boundedExcerpt, EXCERPT_CHARS } from '../plugin/server-text';
import { jsonKind, ShapeError } from './shape-error';

/** One entry of `status.conditions`. */
export interface ClusterOperatorCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** What the check needs of a ClusterOperator. */
export interface ClusterOperatorStatus {
  name: string;
  /** `status.versions[name=operator].version`, e.g. 4.14.12. */
  version?: string;
  conditions: ClusterOperatorCondition[];
}

/** The verdict on an operator: healthy is Available=True and Degraded=False. */
export interface OperatorHealth {
  healthy: boolean;
  /** Conditions that break the rule (a missing Available or Degraded counts, as Unknown). */
  broken: ClusterOperatorCondition[];
  /** Progressing=True: reported, not a failure (an upgrade or a config change is rolling out). */
  progressing?: ClusterOperatorCondition;
}

/** A condition's type, status and reason as kept (the API's own are short words). */
const MAX_WORD = 316;
/** etcd refuses a request over 1.5 MiB (its default --max-request-bytes): no stored object, so no message, is longer. */
const MAX_OBJECT_CHARS = 1.5 * 1024 * 1024;

/**
 * Reads a ClusterOperator document; throws a ShapeError naming the first field that breaks
 * the API's shape (config.openshift.io/v1: every condition has a string type and status).
 * Short server text is kept bounded and free of control characters; the message is cut
 * where it is described (a 30 MB message costs no more there than a short one).
 */
export function readClusterOperator(doc: Record<string, unknown>, defaultName = 'monitoring'): ClusterOperatorStatus {
  if (doc.kind !== undefined && doc.kind !== 'ClusterOperator') {
    throw new ShapeError(
      'kind',
      typeof doc.kind === 'string'
        ? `is ${JSON.stringify(boundedExcerpt(doc.kind, 60))}, not ClusterOperator`
        : `is ${jsonKind(doc.kind)}, not the string ClusterOperator`,
    );
  }
  const metadata = isObject(doc.metadata) ? doc.metadata : {};
  const status = doc.status;
  if (status !== undefined && status !== null && !isObject(status)) throw new ShapeError('status', `is ${jsonKind(status)}, not an object`);
  const s = (status ?? {}) as Record<string, unknown>;
  if (s.conditions !== undefined && s.conditions !== null && !Array.isArray(s.conditions))
    throw new ShapeError('status.conditions', `is ${jsonKind(s.conditions)}, not an array`);
  const conditions: ClusterOperatorCondition[] = [];
  ((s.conditions ?? []) as unknown[]).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    // Reading is synchronous: let -t interrupt a list of conditions no operator reports.
    if ((i & 4095) === 4095) checkDeadline('reading the ClusterOperator');
    if (!isObject(c)) throw new ShapeError(at, `is ${jsonKind(c)}, not an object`);
    for (const key of ['type', 'status'] as const)
      if (typeof c[key] !== 'string') throw new ShapeError(`${at}.${key}`, c[key] === undefined ? 'is missing' : `is ${jsonKind(c[key])}, not a string`);
    if (typeof c.message === 'string' && c.message.length > MAX_OBJECT_CHARS)
      throw new ShapeError(`${at}.message`, `is ${c.message.length} characters long, more than an API object may hold (1.5 MiB)`);
    const type = word(c.type);
    if (type === undefined) return;
    conditions.push({
      type,
      status: word(c.status) ?? 'Unknown',
      reason: word(c.reason),
      message: typeof c.message === 'string' && c.message.trim() !== '' ? c.message : undefined,
      lastTransitionTime: word(c.lastTransitionTime),
    });
  });
  const versions = Array.isArray(s.versions) ? (s.versions as unknown[]) : [];
  const operatorVersion = versions.find((v) => isObject(v) && v.name === 'operator') as Record<string, unknown> | undefined;
  return { name: word(metadata.name) ?? defaultName, version: word(operatorVersion?.version), conditions };
}

/**
 * Reads the items of a ClusterOperatorList (or the `List` that `oc get -o json` prints):
 * each as readClusterOperator reads one, and each must be named. More than `maxItems`
 * operators is refused as a ShapeError: a real cluster runs a few dozen.
 */
export function readClusterOperatorList(doc: Record<string, unknown>, maxItems: number): ClusterOperatorStatus[] {
  if (doc.kind !== undefined && doc.kind !== 'ClusterOperatorList' && doc.kind !== 'List') {
    throw new ShapeError(
      'kind',
      typeof doc.kind === 'string'
        ? `is ${JSON.stringify(boundedExcerpt(doc.kind, 60))}, not ClusterOperatorList`
        : `is ${jsonKind(doc.kind)}, not the string ClusterOperatorList`,
    );
  }
  if (!Array.isArray(doc.items)) throw new ShapeError('items', doc.items === undefined ? 'is missing' : `is ${jsonKind(doc.items)}, not an array`);
  if (doc.items.length > maxItems) throw new ShapeError('items', `holds ${doc.items.length} operators, more than --max-operators ${maxItems}`);
  return (doc.items as unknown[]).map((item, i) => {
    if (!isObject(item)) throw new ShapeError(`items[${i}]`, `is ${jsonKind(item)}, not an object`);
    const name = isObject(item.metadata) ? word(item.metadata.name) : undefined;
    if (name === undefined) throw new ShapeError(`items[${i}].metadata.name`, 'is missing or not a string');
    try {
      return readClusterOperator(item, name);
    } catch (e) {
      if (e instanceof ShapeError) throw new ShapeError(`items[${i}] (${name}).${e.field}`, e.problem);
      throw e;
    }
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Server text as kept: a non-empty string, cut and cleaned; undefined otherwise. */
function bounded(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? boundedExcerpt(value, max) || undefined : undefined;
}

function word(value: unknown): string | undefined {
  return bounded(value, MAX_WORD);
}

/** Judges an operator: Available must be True and Degraded False; Progressing=True is only noted. */
export function judgeClusterOperator(co: ClusterOperatorStatus): OperatorHealth {
  const find = (type: string) => co.conditions.find((c) => c.type === type);
  const broken: ClusterOperatorCondition[] = [];
  const available = find('Available') ?? { type: 'Available', status: 'Unknown', message: 'no Available condition reported' };
  const degraded = find('Degraded') ?? { type: 'Degraded', status: 'Unknown', message: 'no Degraded condition reported' };
  // Degraded first: its message says what broke; Available=False alone rarely does.
  if (degraded.status !== 'False') broken.push(degraded);
  if (available.status !== 'True') broken.push(available);
  const progressing = find('Progressing');
  return { healthy: broken.length === 0, broken, progressing: progressing?.status === 'True' ? progressing : undefined };
}

/** `Degraded=True (UpdatingPrometheusK8SFailed): Failed to rollout…`: one condition, for summary and long output. */
export function describeCondition(c: ClusterOperatorCondition, maxMessage = EXCERPT_CHARS): string {
  const message = c.message === undefined ? '' : boundedExcerpt(c.message, maxMessage);
  return `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}${message ? `: ${message}` : ''}`;
}

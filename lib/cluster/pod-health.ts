// Pods of the monitoring stacks (core/v1 Pod): Running with Ready=True is healthy; a pod that
// completed (phase Succeeded, e.g. a job) is not a failure.
import { hasControlCharacters } from '../plugin/control-characters';
import { jsonKind, ShapeError } from './shape-error';

/** The fields of a Pod the check reads (Kubernetes API reference, core/v1 Pod). */
export interface Pod {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: Array<{ type?: string; status?: string; reason?: string }>;
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
  };
}

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string }; running?: object; terminated?: { reason?: string; exitCode?: number } };
  lastState?: { terminated?: { reason?: string; exitCode?: number } };
}

/** The verdict on one pod, with what the long output says about it. */
export interface PodHealth {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  /** Phase Succeeded: left out of the counts. */
  completed: boolean;
  ready: boolean;
  restarts: number;
  /** Why it is not ready: `Running, Ready=False, prometheus: CrashLoopBackOff, last exit Error (code 1)`. */
  problems: string[];
}

/** A pod name is a DNS subdomain (at most 253 characters); a namespace a label (63). */
const MAX_NAME = 253;
const MAX_NAMESPACE = 63;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks that a list item has the shape of a core/v1 Pod in the fields the check reads (the
 * API server never sends otherwise) and returns it as a Pod; throws ShapeError naming the
 * first bad field (`items[3].status.conditions`). Absent and null optional fields are fine;
 * fields the check ignores are not looked at.
 */
export function readPod(item: unknown, at: string): Pod {
  const want = (value: unknown, field: string, ok: boolean, wanted: string) => {
    if (!ok) throw new ShapeError(field, value === undefined ? 'is missing' : `is ${jsonKind(value)}, not ${wanted}`);
  };
  const text = (value: unknown, field: string, max: number) => {
    want(value, field, typeof value === 'string', 'a string');
    const s = value as string;
    if (s === '') throw new ShapeError(field, 'is empty');
    if (s.length > max) throw new ShapeError(field, `is ${s.length} characters long, more than the API allows (${max})`);
    if (hasControlCharacters(s)) throw new ShapeError(field, 'holds control or line-separator characters');
  };
  const optional = (value: unknown, field: string, check: (v: unknown) => boolean, wanted: string) => {
    if (value !== undefined && value !== null) want(value, field, check(value), wanted);
  };
  want(item, at, isObject(item), 'an object (a pod)');
  const pod = item as Record<string, unknown>;
  want(pod.metadata, `${at}.metadata`, isObject(pod.metadata), 'an object');
  const metadata = pod.metadata as Record<string, unknown>;
  text(metadata.name, `${at}.metadata.name`, MAX_NAME);
  if (metadata.namespace !== undefined) text(metadata.namespace, `${at}.metadata.namespace`, MAX_NAMESPACE);
  optional(metadata.labels, `${at}.metadata.labels`, isObject, 'an object');
  optional(metadata.deletionTimestamp, `${at}.metadata.deletionTimestamp`, (v) => typeof v === 'string', 'a string');
  optional(pod.status, `${at}.status`, isObject, 'an object');
  const status = (pod.status ?? {}) as Record<string, unknown>;
  optional(status.phase, `${at}.status.phase`, (v) => typeof v === 'string', 'a string');
  optional(status.conditions, `${at}.status.conditions`, Array.isArray, 'an array');
  ((status.conditions ?? []) as unknown[]).forEach((c, i) => {
    const field = `${at}.status.conditions[${i}]`;
    want(c, field, isObject(c), 'an object');
    // type and status are required by the API's schema.
    want((c as Record<string, unknown>).type, `${field}.type`, typeof (c as Record<string, unknown>).type === 'string', 'a string');
    want((c as Record<string, unknown>).status, `${field}.status`, typeof (c as Record<string, unknown>).status === 'string', 'a string');
  });
  for (const key of ['initContainerStatuses', 'containerStatuses'] as const) {
    optional(status[key], `${at}.status.${key}`, Array.isArray, 'an array');
    ((status[key] ?? []) as unknown[]).forEach((c, i) => {
      want(c, `${at}.status.${key}[${i}]`, isObject(c), 'an object');
      optional((c as Record<string, unknown>).name, `${at}.status.${key}[${i}].name`, (v) => typeof v === 'string', 'a string');
    });
  }
  return pod as Pod;
}

/** Judges one pod: ready is phase Running and condition Ready=True. */
export function classifyPod(pod: Pod, fallbackNamespace: string): PodHealth {
  const name = typeof pod.metadata?.name === 'string' ? pod.metadata.name : '(unnamed)';
  const namespace = typeof pod.metadata?.namespace === 'string' ? pod.metadata.namespace : fallbackNamespace;
  const rawLabels = pod.metadata?.labels;
  const labels = rawLabels !== null && typeof rawLabels === 'object' ? rawLabels : {};
  const status = pod.status !== null && typeof pod.status === 'object' ? pod.status : {};
  const phase = typeof status.phase === 'string' ? status.phase : 'Unknown';
  const containers = [...list<ContainerStatus>(status.initContainerStatuses), ...list<ContainerStatus>(status.containerStatuses)];
  const restarts = containers.reduce((sum, c) => sum + (Number.isInteger(c?.restartCount) && c.restartCount! > 0 ? c.restartCount! : 0), 0);
  if (phase === 'Succeeded') return { name, namespace, labels, completed: true, ready: false, restarts, problems: [] };
  const conditions = list<{ type?: string; status?: string; reason?: string }>(status.conditions);
  const readyCondition = conditions.find((c) => c?.type === 'Ready');
  const scheduled = conditions.find((c) => c?.type === 'PodScheduled');
  const readyStatus = typeof readyCondition?.status === 'string' ? readyCondition.status : 'missing';
  const ready = phase === 'Running' && readyStatus === 'True' && !pod.metadata?.deletionTimestamp;
  const problems: string[] = [];
  if (!ready) {
    const phaseGiven = typeof status.phase === 'string';
    problems.push(phaseGiven ? phase + (typeof status.reason === 'string' ? ` (${status.reason})` : '') : 'no status reported yet');
    if (pod.metadata?.deletionTimestamp) problems.push('Terminating');
    if (scheduled?.status === 'False') problems.push(`PodScheduled=False${typeof scheduled.reason === 'string' ? ` (${scheduled.reason})` : ''}`);
    else if (readyCondition === undefined) {
      // No Ready condition is a stage, not a status: say which (a Failed pod's phase says it all).
      const stage = phaseGiven ? phaseStage(phase, scheduled?.status === 'True') : undefined;
      if (stage) problems.push(stage);
    } else if (readyStatus !== 'True') problems.push(`Ready=${readyStatus}`);
    for (const c of containers) {
      if (c === null || typeof c !== 'object') continue;
      const why: string[] = [];
      const waiting = c.state?.waiting?.reason;
      const terminated = c.state?.terminated?.reason;
      if (typeof waiting === 'string') why.push(waiting);
      else if (typeof terminated === 'string' && c.state?.terminated?.exitCode !== 0) why.push(`terminated ${terminated}`);
      const last = c.lastState?.terminated;
      if (why.length > 0 && typeof last?.reason === 'string')
        why.push(`last exit ${last.reason}${Number.isInteger(last.exitCode) ? ` (code ${last.exitCode})` : ''}`);
      if (why.length > 0) problems.push(`${typeof c.name === 'string' ? c.name : 'container'}: ${why.join(', ')}`);
    }
    if (restarts > 0) problems.push(`${restarts} restart${restarts === 1 ? '' : 's'}`);
  }
  return { name, namespace, labels, completed: false, ready, restarts, problems };
}

/** What a pod without a Ready condition is waiting for, by its phase; undefined when the phase says it. */
function phaseStage(phase: string, scheduled: boolean): string | undefined {
  if (phase === 'Pending') return scheduled ? 'scheduled, containers not started yet' : 'not scheduled yet';
  if (phase === 'Failed') return undefined;
  return 'no Ready condition';
}

function list<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** A component of workload (user project) monitoring and how its pods are recognised. */
export interface Component {
  name: string;
  /** Labels its pods carry: every entry must match. */
  labels: Record<string, string>;
}

/**
 * The three components that enabling workload monitoring starts, recognised by the
 * labels of the selectors in the cluster monitoring operator's manifests (its Deployment and
 * PodDisruptionBudgets in openshift-user-workload-monitoring), or, for releases that label
 * them otherwise, by the pod name the Deployment or StatefulSet gives (`<component>-…`).
 */
export const USER_WORKLOAD_COMPONENTS: readonly Component[] = [
  { name: 'prometheus-operator', labels: { 'app.kubernetes.io/name': 'prometheus-operator' } },
  { name: 'prometheus-user-workload', labels: { 'app.kubernetes.io/name': 'prometheus', 'app.kubernetes.io/instance': 'user-workload' } },
  { name: 'thanos-ruler-user-workload', labels: { 'app.kubernetes.io/name': 'thanos-ruler', 'thanos-ruler': 'user-workload' } },
];

/** Whether a pod belongs to a component: by its labels, else by its name prefix. */
export function podOfComponent(pod: Pick<PodHealth, 'name' | 'labels'>, component: Component): boolean {
  if (Object.entries(component.labels).every(([k, v]) => pod.labels[k] === v)) return true;
  return pod.name.startsWith(`${component.name}-`);
}

/** `prometheus-k8s-0 (Running, Ready=False, prometheus: CrashLoopBackOff, 37 restarts)`. */
export function describePod(p: PodHealth): string {
  return `${p.namespace}/${p.name} (${p.problems.join(', ')})`;
}

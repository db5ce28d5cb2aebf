// The ClusterOperator of OpenShift 4 (config.openshift.io/v1): each operator reports its
// component's state in status.conditions; `oc get clusteroperators` shows the same columns.

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

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Reads a ClusterOperator document; throws a plain Error naming what is wrong with its shape. */
export function readClusterOperator(doc: Record<string, unknown>): ClusterOperatorStatus {
  if (doc.kind !== undefined && doc.kind !== 'ClusterOperator') throw new Error(`kind ${JSON.stringify(doc.kind)}, not ClusterOperator`);
  const metadata = (doc.metadata ?? {}) as Record<string, unknown>;
  const status = doc.status;
  if (status !== undefined && (status === null || typeof status !== 'object')) throw new Error('status is not an object');
  const s = (status ?? {}) as Record<string, unknown>;
  if (s.conditions !== undefined && s.conditions !== null && !Array.isArray(s.conditions)) throw new Error('status.conditions is not a list');
  const conditions: ClusterOperatorCondition[] = [];
  for (const c of (s.conditions ?? []) as unknown[]) {
    const r = (c ?? {}) as Record<string, unknown>;
    const type = text(r.type);
    if (type === undefined) continue;
    conditions.push({ type, status: text(r.status) ?? 'Unknown', reason: text(r.reason), message: text(r.message)?.trim(), lastTransitionTime: text(r.lastTransitionTime) });
  }
  const versions = Array.isArray(s.versions) ? (s.versions as Array<Record<string, unknown> | null>) : [];
  const version = text(versions.find((v) => v?.name === 'operator')?.version);
  return { name: text(metadata.name) ?? 'monitoring', version, conditions };
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
export function describeCondition(c: ClusterOperatorCondition, maxMessage = Infinity): string {
  let message = (c.message ?? '').replace(/\s+/g, ' ');
  if (message.length > maxMessage) message = `${message.slice(0, maxMessage)}…`;
  return `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}${message ? `: ${message}` : ''}`;
}

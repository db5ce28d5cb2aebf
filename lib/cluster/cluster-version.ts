// The ClusterVersion of OpenShift 4 (config.openshift.io/v1, the one object named "version"):
// what the cluster runs or is moving to, the update history (newest first) and the
// conditions of the cluster version operator; `oc adm upgrade` shows the same.
import { checkDeadline } from '../plugin/deadline';
import { boundedExcerpt } from '../plugin/server-text';
import type { ClusterOperatorCondition } from './cluster-operator';
import { readClusterOperator } from './cluster-operator';
import { jsonKind, ShapeError } from './shape-error';

/** The newest entry of `status.history`: the update being applied (Partial) or the last one done. */
export interface UpdateHistoryEntry {
  state: string;
  version?: string;
  startedTime?: string;
  completionTime?: string;
}

/** What the check needs of the ClusterVersion. */
export interface ClusterVersionStatus {
  /** `status.desired.version`: what the cluster runs, or is updating to. */
  desiredVersion?: string;
  channel?: string;
  conditions: ClusterOperatorCondition[];
  latest?: UpdateHistoryEntry;
  /** Versions of `status.availableUpdates` (null and absent are none). */
  availableUpdates: string[];
}

/** More entries than any update graph offers (a cluster is offered a few dozen at most). */
const MAX_UPDATES = 10_000;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function word(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? boundedExcerpt(v, 120) || undefined : undefined;
}

/**
 * Reads a ClusterVersion document; throws a ShapeError naming the first field that breaks
 * the API's shape. Its conditions have the ClusterOperator's shape and are read the same way.
 */
export function readClusterVersion(doc: Record<string, unknown>): ClusterVersionStatus {
  // The Insights operator stores it without apiVersion and kind: absent is accepted.
  if (doc.kind !== undefined && doc.kind !== 'ClusterVersion') {
    throw new ShapeError(
      'kind',
      typeof doc.kind === 'string'
        ? `is ${JSON.stringify(boundedExcerpt(doc.kind, 60))}, not ClusterVersion`
        : `is ${jsonKind(doc.kind)}, not the string ClusterVersion`,
    );
  }
  const { conditions } = readClusterOperator({ metadata: doc.metadata, status: doc.status }, 'version');
  const status = (isObject(doc.status) ? doc.status : {}) as Record<string, unknown>;
  const spec = isObject(doc.spec) ? doc.spec : {};
  const desired = status.desired;
  if (desired !== undefined && desired !== null && !isObject(desired)) throw new ShapeError('status.desired', `is ${jsonKind(desired)}, not an object`);
  const history = status.history;
  if (history !== undefined && history !== null && !Array.isArray(history)) throw new ShapeError('status.history', `is ${jsonKind(history)}, not an array`);
  const first = Array.isArray(history) ? history[0] : undefined;
  if (first !== undefined && !isObject(first)) throw new ShapeError('status.history[0]', `is ${jsonKind(first)}, not an object`);
  const updates = status.availableUpdates;
  if (updates !== undefined && updates !== null && !Array.isArray(updates))
    throw new ShapeError('status.availableUpdates', `is ${jsonKind(updates)}, not an array or null`);
  if (Array.isArray(updates) && updates.length > MAX_UPDATES)
    throw new ShapeError('status.availableUpdates', `holds ${updates.length} entries, more than an update graph offers`);
  const availableUpdates: string[] = [];
  (Array.isArray(updates) ? updates : []).forEach((u, i) => {
    if ((i & 1023) === 1023) checkDeadline('reading the ClusterVersion');
    const version = isObject(u) ? word(u.version) : undefined;
    if (version === undefined) throw new ShapeError(`status.availableUpdates[${i}].version`, 'is missing or not a string');
    availableUpdates.push(version);
  });
  return {
    desiredVersion: isObject(desired) ? word(desired.version) : undefined,
    channel: word(spec.channel),
    conditions,
    latest:
      first === undefined
        ? undefined
        : {
            state: word(first.state) ?? 'Unknown',
            version: word(first.version),
            startedTime: word(first.startedTime),
            completionTime: word(first.completionTime),
          },
    availableUpdates,
  };
}

import { UsageError } from '../plugin/errors';

/** A node status condition as the API reports it (`status` is "True", "False" or "Unknown"). */
export interface NodeCondition {
  type: string;
  status?: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export interface NodeAddress {
  type: string;
  address: string;
}

/** The fields of a v1 Node that the check reads; the API sends many more. */
export interface Node {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { unschedulable?: boolean };
  status?: { addresses?: NodeAddress[]; conditions?: NodeCondition[] };
}

/**
 * Which condition status is healthy: `Ready` must be True and every other type False
 * (seed 2.2), except the types the operator re-declared or chose to ignore.
 */
export interface HealthRule {
  expected: ReadonlyMap<string, 'True' | 'False'>;
  ignored: ReadonlySet<string>;
}

/** What the check keeps of one node: everything else in the page is dropped. */
export interface NodeHealth {
  name: string;
  healthy: boolean;
  /** The conditions that broke the rule, as `Type=Status` (e.g. `Ready=Unknown`). */
  broken: string[];
  cordoned: boolean;
}

/** Builds the health rule from `--condition TYPE=True|False` and `--ignore-condition TYPE`. */
export function parseHealthRule(conditions: readonly string[] = [], ignored: readonly string[] = []): HealthRule {
  const expected = new Map<string, 'True' | 'False'>();
  for (const text of conditions) {
    const m = /^\s*([^=\s]+)\s*=\s*(True|False)\s*$/i.exec(text);
    if (!m) throw new UsageError(`invalid --condition ${JSON.stringify(text)}: expected TYPE=True or TYPE=False, e.g. storage.kubernetes.io/CSIReady=True`);
    if (m[1] === 'Ready') throw new UsageError('--condition cannot change Ready: a node is healthy only when Ready=True');
    expected.set(m[1], m[2].toLowerCase() === 'true' ? 'True' : 'False');
  }
  const skip = new Set<string>();
  for (const type of ignored) {
    const t = type.trim();
    if (!t) throw new UsageError('--ignore-condition needs a condition type');
    if (t === 'Ready') throw new UsageError('--ignore-condition cannot skip Ready: a node is healthy only when Ready=True');
    skip.add(t);
  }
  return { expected, ignored: skip };
}

/** The rule of seed 2.2 with no overrides. */
export const DEFAULT_HEALTH_RULE: HealthRule = parseHealthRule();

/** The node's name: its `Hostname` address, else `metadata.name` (SPEC 3.2). */
export function nodeName(node: Node): string {
  for (const a of node.status?.addresses ?? []) {
    if (a?.type === 'Hostname' && typeof a.address === 'string' && a.address !== '') return a.address;
  }
  return node.metadata?.name ?? '(unnamed)';
}

/**
 * Classifies one node (SPEC 3.1): healthy only when Ready is True and every other condition
 * has its expected status (False unless re-declared); a missing Ready and any `Unknown`
 * status are failures.
 */
export function classifyNode(node: Node, rule: HealthRule = DEFAULT_HEALTH_RULE): NodeHealth {
  const broken: string[] = [];
  let ready = false;
  const conditions = node.status?.conditions;
  if (Array.isArray(conditions)) {
    for (const c of conditions) {
      const type = typeof c?.type === 'string' ? c.type : '';
      if (rule.ignored.has(type)) continue;
      const status = typeof c?.status === 'string' ? c.status : '';
      if (type === 'Ready') ready = true;
      const want = type === 'Ready' ? 'True' : rule.expected.get(type) ?? 'False';
      if (status === want) continue;
      const text = `${type || '(no type)'}=${status || '(no status)'}`;
      // Ready first: it is what the operator reads before the pressure conditions.
      if (type === 'Ready') broken.unshift(text);
      else broken.push(text);
    }
  }
  if (!ready) broken.unshift('no Ready condition');
  return { name: nodeName(node), healthy: broken.length === 0, broken, cordoned: node.spec?.unschedulable === true };
}

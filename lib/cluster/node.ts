import { UsageError } from '../plugin/errors';
import { runRedactor } from '../plugin/redact';

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
  /** providerID: where the node's machine is (`vmware-cloud-director://urn:vcloud:vm:<uuid>` for a vCD VM). */
  spec?: { unschedulable?: boolean; providerID?: string };
  status?: {
    addresses?: NodeAddress[];
    conditions?: NodeCondition[];
    /** Only `pods` is read: how many pods the node takes (a quantity, e.g. "250"). */
    allocatable?: { pods?: string };
    capacity?: { pods?: string };
    nodeInfo?: { kubeletVersion?: string };
  };
}

/**
 * Which condition status is healthy: `Ready` must be True and every other type False
 * (the Kubernetes node conditions), except the types the operator re-declared or chose to ignore.
 */
export interface HealthRule {
  expected: ReadonlyMap<string, 'True' | 'False'>;
  ignored: ReadonlySet<string>;
}

/** A condition that broke the rule, with what the kubelet or the detector said about it. */
export interface NodeProblem {
  /** `Type=Status`, e.g. `Ready=False`, or `no Ready condition`. */
  text: string;
  reason?: string;
  /** The condition's message, redacted, blanks folded, up to 1024 characters. */
  message?: string;
  /** lastTransitionTime in ms since the epoch, when the server gave a valid one. */
  since?: number;
}

/** What the check keeps of one node: everything else in the page is dropped. */
export interface NodeHealth {
  /** metadata.name: what `kubectl get nodes` shows. */
  name: string;
  /** The `Hostname` address, when the node has one that differs from its name. */
  host?: string;
  healthy: boolean;
  /** The conditions that broke the rule, as `Type=Status` (e.g. `Ready=Unknown`). */
  broken: string[];
  /** The same, with reason, message and transition time, in the same order. */
  problems: NodeProblem[];
  cordoned: boolean;
}

/**
 * The longest condition message kept (a node-problem-detector may write kilobytes): the whole
 * of what a kubelet writes, whose last words are often the fix; the status line shortens it.
 */
const MESSAGE_CHARS = 1024;

function shorten(text: unknown, max: number): string | undefined {
  if (typeof text !== 'string') return undefined;
  // Server text: redacted before it is cut (a cut through a secret leaves a part no later redaction finds).
  const one = runRedactor
    .cut(text, max * 4)
    .replace(/\s+/g, ' ')
    .trim();
  if (one === '') return undefined;
  return one.length <= max ? one : `${one.slice(0, max - 1).trimEnd()}…`;
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

/** Ready True, every other condition False, with no overrides. */
export const DEFAULT_HEALTH_RULE: HealthRule = parseHealthRule();

/** The node's name: `metadata.name`, what kubectl shows. */
export function nodeName(node: Node): string {
  const name = node.metadata?.name;
  return typeof name === 'string' && name !== '' ? name : '(unnamed)';
}

/** The node's `Hostname` address, or undefined when it has none. */
export function nodeHostname(node: Node): string | undefined {
  const addresses = node.status?.addresses;
  if (!Array.isArray(addresses)) return undefined;
  for (const a of addresses) {
    if (a?.type === 'Hostname' && typeof a.address === 'string' && a.address !== '') return a.address;
  }
  return undefined;
}

/** `name (host h)` where the Hostname address differs from the name, else the name. */
export function displayName(h: Pick<NodeHealth, 'name' | 'host'>): string {
  return h.host ? `${h.name} (host ${h.host})` : h.name;
}

/**
 * Classifies one node: healthy only when Ready is True and every other condition
 * has its expected status (False unless re-declared); a missing Ready and any `Unknown`
 * status are failures.
 */
export function classifyNode(node: Node, rule: HealthRule = DEFAULT_HEALTH_RULE): NodeHealth {
  const problems: NodeProblem[] = [];
  let ready = false;
  const conditions = node.status?.conditions;
  if (Array.isArray(conditions)) {
    for (const c of conditions) {
      const type = typeof c?.type === 'string' ? c.type : '';
      if (rule.ignored.has(type)) continue;
      const status = typeof c?.status === 'string' ? c.status : '';
      if (type === 'Ready') ready = true;
      const want = type === 'Ready' ? 'True' : (rule.expected.get(type) ?? 'False');
      if (status === want) continue;
      const since = typeof c?.lastTransitionTime === 'string' ? Date.parse(c.lastTransitionTime) : NaN;
      const problem: NodeProblem = { text: `${shorten(type, 100) ?? '(no type)'}=${shorten(status, 40) ?? '(no status)'}` };
      const reason = shorten(c?.reason, 60);
      const message = shorten(c?.message, MESSAGE_CHARS);
      if (reason) problem.reason = reason;
      if (message) problem.message = message;
      if (Number.isFinite(since)) problem.since = since;
      // Ready first: it is what the operator reads before the pressure conditions.
      if (type === 'Ready') problems.unshift(problem);
      else problems.push(problem);
    }
  }
  if (!ready) problems.unshift({ text: 'no Ready condition' });
  const name = nodeName(node);
  const host = nodeHostname(node);
  const health: NodeHealth = {
    name,
    healthy: problems.length === 0,
    broken: problems.map((p) => p.text),
    problems,
    cordoned: node.spec?.unschedulable === true,
  };
  if (host !== undefined && host !== name) health.host = host;
  return health;
}

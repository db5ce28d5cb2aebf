import { formatDecimal } from '../plugin/number-format';
import type { Metric } from '../plugin/perfdata';
import { resultSaying } from '../plugin/part';
import type { Item, Result } from '../plugin/result';
import { unjudgedMetric, type ScalarContext } from '../plugin/scalar-context';
import { State } from '../plugin/state';
import { elideMiddle } from '../plugin/server-text';
import { displayName, type NodeHealth, type NodeProblem } from './node';
import type { NodeTally } from './node-tally';

/** How the tally becomes a state: -w/-c on failing nodes (or their share), --min-nodes, --grace. */
export interface NodeThresholds {
  /** -w/-c on the failing nodes, or on their share with `percent`. */
  failing: ScalarContext;
  /** The ranges are percentages of the selected nodes. */
  percent?: boolean;
  minNodes?: number;
  /** `--node NAME`: a node that is not listed is CRITICAL. */
  node?: string;
  /** `--grace SECONDS`: a node whose bad conditions all changed less long ago is only WARNING. */
  grace?: number;
  /** `--list-all`: long output lists the healthy nodes too, not only their count. */
  listAll?: boolean;
  /** The selection options given, named when nothing matched them (e.g. `--include "^db-"`). */
  selectionOptions?: string;
  /** `-l/--selector`, named when the API listed no node. */
  selector?: string;
  /** The time the ages are measured from (ms since the epoch). */
  now?: number;
}

/** A compact age: 45s, 12m, 5h, 3d. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 120 * 60) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** An instant as the status of a node names it: 2026-11-22T10:02Z. */
function minute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}Z`;
}

/** The reasons the node controller gives the conditions of a kubelet that is silent, as one fact each. */
const KUBELET_SILENT: Readonly<Record<string, string>> = {
  NodeStatusUnknown: 'kubelet stopped posting status',
  NodeStatusNeverUpdated: 'kubelet never posted status',
};

/**
 * `Ready=False for 12m, since 2026-11-22T09:48Z (KubeletNotReady: container runtime network
 * not ready: …)`; conditions that share age, reason and message are said once, and a kubelet
 * that stopped posting (it sets all of them Unknown at once) is one fact: `kubelet stopped
 * posting status (Ready, MemoryPressure, DiskPressure, PIDPressure Unknown) for 3h, since …`.
 * With `room` (the status line) a message keeps both ends in that many characters (0: none),
 * the reason shows only when there is no message, and the age is left to the long output;
 * without `room` the whole message is said.
 */
export function describeProblems(problems: readonly NodeProblem[], now: number, room?: number): string {
  const groups: Array<{ texts: string[]; key: string; age: string; reason?: string; message?: string }> = [];
  for (const p of problems) {
    const age = room === undefined && p.since !== undefined && p.since <= now ? ` for ${formatAge(now - p.since)}, since ${minute(p.since)}` : '';
    const message = p.message === undefined || room === undefined ? p.message : room > 0 ? elideMiddle(p.message, room) : undefined;
    const key = `${age}\n${p.reason ?? ''}\n${message ?? ''}`;
    const last = groups[groups.length - 1];
    if (last && (age !== '' || p.reason !== undefined || message !== undefined) && last.key === key) last.texts.push(p.text);
    else groups.push({ texts: [p.text], key, age, reason: p.reason, message });
  }
  return groups
    .map((g) => {
      const unknown = g.texts.length > 1 && g.texts.every((t) => t.endsWith('=Unknown'));
      const types = g.texts.map((t) => t.slice(0, -'=Unknown'.length));
      const silent = unknown && g.reason !== undefined ? KUBELET_SILENT[g.reason] : undefined;
      if (silent !== undefined) return `${silent} (${types.join(', ')} Unknown)${g.age}`;
      const what = unknown ? `${types.join(', ')} Unknown` : g.texts.join(', ');
      // The status line has room for the message, or the reason when there is none.
      if (room !== undefined) {
        const why = room > 0 ? (g.message ?? g.reason) : undefined;
        return `${what}${why ? `: ${why}` : ''}`;
      }
      const why = [g.reason, g.message].filter((x) => x !== undefined).join(': ');
      return `${what}${g.age}${why ? ` (${why})` : ''}`;
    })
    .join(', ');
}

/** True when every bad condition of the node changed less than `grace` seconds ago. */
export function inGrace(h: NodeHealth, grace: number | undefined, now: number): boolean {
  if (grace === undefined || h.problems.length === 0) return false;
  return h.problems.every((p) => p.since !== undefined && p.since <= now && now - p.since < grace * 1000);
}

/** How many failing nodes the summary names before "and N more". */
const NAMED_IN_SUMMARY = 5;
/** The room for the condition messages of the nodes the summary names, shared among them. */
const SUMMARY_MESSAGE_CHARS = 200;
/** Less room than this per node, and the summary says no messages (the long output has them). */
const MIN_MESSAGE_CHARS = 60;

function describe(h: NodeHealth, room: number): string {
  return `${h.name} (${describeProblems(h.problems, 0, room < MIN_MESSAGE_CHARS ? 0 : room)})`;
}

/** The summary's list of failing nodes: up to five, with why, then "and N more". */
export function describeFailing(failing: readonly NodeHealth[]): string {
  const shown = failing.slice(0, NAMED_IN_SUMMARY);
  const room = Math.floor(SUMMARY_MESSAGE_CHARS / Math.max(1, shown.length));
  const named = shown.map((h) => describe(h, room)).join(', ');
  const rest = failing.length - NAMED_IN_SUMMARY;
  return rest > 0 ? `${named} and ${rest} more` : named;
}

/**
 * Long output: failing nodes first (they matter when output is cut short), each with why and
 * since when; then cordoned and skipped nodes; the healthy ones as one counting line unless
 * --list-all (a 5000-node cluster must not print 5000 lines every check).
 */
function nodeItems(tally: NodeTally, failingState: State, t: NodeThresholds, now: number): Item[] {
  const items: Item[] = [];
  const cordon = (h: NodeHealth) => (h.cordoned ? ', cordoned' : '');
  for (const h of tally.failing) {
    const graced = inGrace(h, t.grace, now);
    const text = `${displayName(h)}: ${describeProblems(h.problems, now)}${cordon(h)}${graced ? `, within --grace ${formatAge(t.grace! * 1000)}` : ''}`;
    items.push({ name: h.name, state: graced ? State.WARNING : failingState, text });
  }
  let unlisted = 0;
  for (const h of tally.healthy) {
    if (t.listAll || h.cordoned) items.push({ name: h.name, state: State.OK, text: `${displayName(h)}: healthy${cordon(h)}` });
    else unlisted++;
  }
  for (const h of tally.skipped) items.push({ name: h.name, state: State.OK, text: `${displayName(h)}: skipped (cordoned, --ignore-cordoned)` });
  if (unlisted > 0) {
    const listed = tally.healthy.length - unlisted;
    items.push({
      name: '',
      state: State.OK,
      text: `${listed > 0 ? `${unlisted} more` : unlisted} node${unlisted === 1 ? '' : 's'} healthy (--list-all lists them)`,
    });
  }
  return items;
}

/** Evaluates the tally against the thresholds into the plugin's result. */
export function evaluateNodes(tally: NodeTally, t: NodeThresholds): Result {
  const now = t.now ?? Date.now();
  const nodes = tally.selected;
  const failing = tally.failing.length;
  const graced = tally.failing.filter((h) => inGrace(h, t.grace, now));
  const counted = failing - graced.length;
  const cordoned = tally.cordoned + tally.skipped.length;
  const extras: string[] = [];
  if (tally.cordoned > 0) extras.push(`${tally.cordoned} cordoned`);
  if (tally.skipped.length > 0) extras.push(`${tally.skipped.length} cordoned skipped`);
  if (graced.length > 0) extras.push(`${graced.length} within --grace ${formatAge(t.grace! * 1000)}, so WARNING`);
  const tail = extras.length > 0 ? `, ${extras.join(', ')}` : '';

  if (nodes === 0) {
    const items = nodeItems(tally, State.CRITICAL, t, now);
    if (t.node !== undefined && tally.skipped.length === 0) {
      return { state: State.CRITICAL, summary: `node ${t.node} not found among ${tally.listed} listed nodes`, items };
    }
    if (t.minNodes === undefined) {
      const why =
        tally.skipped.length > 0
          ? 'every matching node is cordoned and --ignore-cordoned is set'
          : tally.listed === 0
            ? `the API listed none${t.selector ? ` for -l/--selector ${t.selector}` : ''}`
            : `none matches ${t.selectionOptions ?? '--include, --exclude and --node'}`;
      return { state: State.UNKNOWN, summary: `no nodes to check (${tally.listed} listed: ${why}), use --min-nodes 0 if none is fine`, items };
    }
  }

  // Nodes within --grace do not count against -w/-c; they make the result WARNING at most.
  const pct = nodes === 0 ? 0 : (counted * 100) / nodes;
  // -w/-c judge the failing count, or its percentage: the perfdata of the one judged carries the ranges.
  const judged = t.percent
    ? t.failing.measure('failing_pct', pct, { uom: '%', min: 0, max: 100, decimals: 2 })
    : t.failing.measure('failing', counted, { min: 0, max: nodes });
  const tooFew = t.minNodes !== undefined && nodes < t.minNodes;
  const pctText = t.percent ? ` (${formatDecimal((failing * 100) / nodes, 1)}%)` : '';
  let summary = failing === 0 ? `${nodes} of ${nodes} nodes healthy` : `${failing} of ${nodes} nodes failing${pctText}: ${describeFailing(tally.failing)}`;
  if (tooFew) summary = `only ${nodes} nodes, expected at least ${t.minNodes}: ${summary}`;

  const metrics: Metric[] = [
    unjudgedMetric('nodes', nodes, { min: 0 }),
    unjudgedMetric('healthy', nodes - failing, { min: 0 }),
    // `failing` is what -w/-c judge: the nodes failing past --grace (`failing_in_grace` counts the others).
    t.percent ? unjudgedMetric('failing', counted, { min: 0, max: nodes }) : judged.metric,
    // Every cordoned node that matched, skipped or not: the same number the summary gives.
    unjudgedMetric('cordoned', cordoned, { min: 0 }),
  ];
  if (t.percent) metrics.push(judged.metric);
  if (t.grace !== undefined) metrics.push(unjudgedMetric('failing_in_grace', graced.length, { min: 0, max: nodes }));

  // The state: what -w/-c judge, --grace and --min-nodes; the failing nodes' lines take theirs from it.
  const judgedParts = [{ state: judged.state }, { state: graced.length > 0 ? State.WARNING : State.OK }, { state: tooFew ? State.CRITICAL : State.OK }];
  const result = resultSaying(summary + tail, judgedParts, { metrics });
  const failingState = result.state === State.CRITICAL ? State.CRITICAL : State.WARNING;
  return { ...result, items: nodeItems(tally, failingState, t, now) };
}

/**
 * Zabbix low-level discovery: a bare array sorted by name, `{#NODE}` the node's
 * name and `{#NODE.HOST}` its Hostname address (the name when it has none). One entry per
 * name, whatever the Hostname addresses say.
 */
export function discoveryJson(tally: NodeTally): string {
  const byName = new Map<string, string>();
  for (const h of [...tally.failing, ...tally.healthy]) if (!byName.has(h.name)) byName.set(h.name, h.host ?? h.name);
  const names = [...byName.keys()].sort();
  return JSON.stringify(names.map((name) => ({ '{#NODE}': name, '{#NODE.HOST}': byName.get(name) }))) + '\n';
}

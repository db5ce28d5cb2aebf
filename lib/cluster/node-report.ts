import { formatDecimal } from '../plugin/number-format';
import type { Metric } from '../plugin/perfdata';
import type { Range } from '../plugin/range';
import type { Item, Result } from '../plugin/result';
import { State } from '../plugin/state';
import { evaluateThresholds } from '../plugin/threshold';
import type { NodeHealth } from './node';
import type { NodeTally } from './node-tally';

/** How the tally becomes a state (SPEC 3.3, 3.4). */
export interface NodeThresholds {
  warning?: Range;
  critical?: Range;
  /** The ranges are percentages of the selected nodes. */
  percent?: boolean;
  minNodes?: number;
  /** `--node NAME`: a node that is not listed is CRITICAL. */
  node?: string;
}

/** How many failing nodes the summary names before "and N more". */
const NAMED_IN_SUMMARY = 5;

function describe(h: NodeHealth): string {
  return `${h.name} (${h.broken.join(', ')})`;
}

/** The summary's list of failing nodes: up to five, with why, then "and N more". */
export function describeFailing(failing: readonly NodeHealth[]): string {
  const named = failing.slice(0, NAMED_IN_SUMMARY).map(describe).join(', ');
  const rest = failing.length - NAMED_IN_SUMMARY;
  return rest > 0 ? `${named} and ${rest} more` : named;
}

/** Long output: failing nodes first (they matter when output is cut short), then the rest. */
function nodeItems(tally: NodeTally, failingState: State): Item[] {
  const items: Item[] = [];
  const cordon = (h: NodeHealth) => (h.cordoned ? ', cordoned' : '');
  for (const h of tally.failing) items.push({ name: h.name, state: failingState, text: `${h.name}: ${h.broken.join(', ')}${cordon(h)}` });
  for (const h of tally.healthy) items.push({ name: h.name, state: State.OK, text: `${h.name}: healthy${cordon(h)}` });
  for (const h of tally.skipped) items.push({ name: h.name, state: State.OK, text: `${h.name}: skipped (cordoned, --ignore-cordoned)` });
  return items;
}

/** Evaluates the tally against the thresholds into the plugin's result. */
export function evaluateNodes(tally: NodeTally, t: NodeThresholds): Result {
  const nodes = tally.selected;
  const failing = tally.failing.length;
  const extras: string[] = [];
  if (tally.cordoned > 0) extras.push(`${tally.cordoned} cordoned`);
  if (tally.skipped.length > 0) extras.push(`${tally.skipped.length} cordoned skipped`);
  const tail = extras.length > 0 ? `, ${extras.join(', ')}` : '';

  if (nodes === 0) {
    const items = nodeItems(tally, State.CRITICAL);
    if (t.node !== undefined && tally.skipped.length === 0) {
      return { state: State.CRITICAL, summary: `node ${t.node} not found among ${tally.listed} listed nodes`, items };
    }
    if (t.minNodes === undefined) {
      const why = tally.skipped.length > 0 ? 'every matching node is cordoned and --ignore-cordoned is set' : 'check -l/--selector, --include, --exclude and --node';
      return { state: State.UNKNOWN, summary: `no nodes to check (${tally.listed} listed; ${why}); use --min-nodes 0 if none is fine`, items };
    }
  }

  const pct = nodes === 0 ? 0 : (failing * 100) / nodes;
  let state = evaluateThresholds(t.percent ? pct : failing, { warning: t.warning, critical: t.critical });
  const pctText = t.percent ? ` (${formatDecimal(pct, 1)}%)` : '';
  let summary = failing === 0 ? `${nodes} of ${nodes} nodes healthy` : `${failing} of ${nodes} nodes failing${pctText}: ${describeFailing(tally.failing)}`;
  if (t.minNodes !== undefined && nodes < t.minNodes) {
    state = State.CRITICAL;
    summary = `only ${nodes} nodes, expected at least ${t.minNodes}: ${summary}`;
  }

  const metrics: Metric[] = [
    { label: 'nodes', value: nodes, min: 0 },
    { label: 'healthy', value: nodes - failing, min: 0 },
    t.percent ? { label: 'failing', value: failing, min: 0, max: nodes } : { label: 'failing', value: failing, warning: t.warning, critical: t.critical, min: 0, max: nodes },
    { label: 'cordoned', value: tally.cordoned, min: 0 },
  ];
  if (t.percent) metrics.push({ label: 'failing_pct', value: Number(pct.toFixed(2)), uom: '%', warning: t.warning, critical: t.critical, min: 0, max: 100 });

  const failingState = state === State.CRITICAL ? State.CRITICAL : State.WARNING;
  return { state, summary: summary + tail, items: nodeItems(tally, failingState), metrics };
}

/** Zabbix low-level discovery (SPEC 3.5): a bare array, sorted by name. */
export function discoveryJson(tally: NodeTally): string {
  const names = [...tally.failing, ...tally.healthy].map((h) => h.name).sort();
  return JSON.stringify(names.map((name) => ({ '{#NODE}': name }))) + '\n';
}

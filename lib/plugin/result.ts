import { formatPerfdata, type Metric } from './perfdata';
import { formatRange } from './range';
import { State, stateName, worstState } from './state';

/** One line of long output: a node, a metric, a configuration fact. */
export interface Item {
  name: string;
  state: State;
  text: string;
}

/** What a check found: the state, a one-line summary, long-output items and perfdata. */
export interface Result {
  state: State;
  summary: string;
  items?: Item[];
  metrics?: Metric[];
  /** Printed as-is instead of the plugin line, in every output format (Zabbix discovery JSON). */
  raw?: string;
}

/** A result whose state is the worst of its items' states. */
export function resultFromItems(summary: string, items: Item[], metrics: Metric[] = []): Result {
  return { state: worstState(items.map((i) => i.state)), summary, items, metrics };
}

// Plugin output is one line per field; a stray newline or `|` in a server message would
// split the summary or start perfdata early.
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/\|/g, '/').trim();
}

/** Renders the classic plugin output: `NAME STATE - summary | perfdata`, then long output. */
export function renderNagios(name: string, result: Result): string {
  if (result.raw !== undefined) return result.raw;
  let first = `${name} ${stateName(result.state)} - ${oneLine(result.summary)}`;
  const perf = formatPerfdata(result.metrics ?? []);
  if (perf) first += ` | ${perf}`;
  const lines = [first];
  for (const item of result.items ?? []) lines.push(`[${stateName(item.state)}] ${oneLine(item.text)}`);
  return lines.join('\n') + '\n';
}

/** Renders one JSON object for Zabbix dependent items and scripts. */
export function renderJson(name: string, result: Result): string {
  if (result.raw !== undefined) return result.raw;
  const doc = {
    name,
    state: stateName(result.state),
    code: result.state,
    summary: oneLine(result.summary),
    items: (result.items ?? []).map((i) => ({ name: i.name, state: stateName(i.state), text: i.text })),
    metrics: (result.metrics ?? []).map((m) => ({
      label: m.label,
      value: m.value === null || !Number.isFinite(m.value) ? null : m.value,
      uom: m.uom ?? '',
      warning: m.warning ? formatRange(m.warning) : null,
      critical: m.critical ? formatRange(m.critical) : null,
      min: m.min ?? null,
      max: m.max ?? null,
    })),
  };
  return JSON.stringify(doc) + '\n';
}

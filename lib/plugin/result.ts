import { blankControlCharacters } from './control-characters';
import { formatMetric, type Metric } from './perfdata';
import { formatRange } from './range';
import { State, stateName } from './state';
import { worstOf } from './subcheck';

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
  /** What the check noticed on the way (facts, loose file modes, choices made): shown at -v, after the summary. */
  notes?: string[];
  /** Items the check itself left out of `items` (it keeps a bounded list): counted in the "… N more lines" line as if given. */
  itemsLeftOut?: number;
}

/** The summary as -v shows it: the notes after it, in one way for every plugin: `summary [a, b]`. */
export function summaryWithNotes(result: Result): string {
  const notes = result.notes ?? [];
  return notes.length === 0 ? result.summary : `${result.summary} [${notes.join('; ')}]`;
}

/** A result whose state is the worst of its items' states (the subchecks: worst wins). */
export function resultFromItems(summary: string, items: Item[], metrics: Metric[] = []): Result {
  return { state: worstOf(items), summary, items, metrics };
}

/** The status line's longest text: a 30 MB server message must not become a 30 MB line. */
export const MAX_SUMMARY_CHARS = 1000;
/** The longest line of long output. */
export const MAX_ITEM_CHARS = 400;
/** The most long-output lines: the rest is counted in one "… N more lines" line. */
export const MAX_ITEMS = 5000;

// Control and line-separator characters would split the output or drive a terminal: they
// become spaces (control-characters.ts). `|` would start perfdata early, and Nagios rewrites
// `;` in the output to `:`, so they are said otherwise.

/** Text as one safe output line of at most `max` characters, cut with "… (N more characters)". */
export function oneLine(text: string, max = MAX_SUMMARY_CHARS): string {
  const line = blankControlCharacters(text)
    .replace(/\|/g, '/')
    .replace(/\s*;\s*/g, ', ')
    .replace(/ {2,}/g, ' ')
    .trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 30).replace(/[\uD800-\uDBFF]$/, '');
  return `${cut}… (${line.length - cut.length} more characters)`;
}

/** The items that fit the long output, and how many were left out (those the check left out itself too). */
function shownItems(items: readonly Item[] = [], leftOut = 0): { shown: readonly Item[]; more: number } {
  const total = items.length + leftOut;
  return total <= MAX_ITEMS ? { shown: items, more: 0 } : { shown: items.slice(0, MAX_ITEMS - 1), more: total - Math.min(items.length, MAX_ITEMS - 1) };
}

/** Renders the classic plugin output: `NAME STATE - summary | perfdata`, then long output. */
export function renderNagios(name: string, result: Result): string {
  if (result.raw !== undefined) return result.raw;
  const { output, perfdata, longOutput } = renderNagiosParts(name, result);
  const first = perfdata.length > 0 ? `${output} | ${perfdata.join(' ')}` : output;
  return [first, ...longOutput].join('\n') + '\n';
}

/** A plugin's output as engines take it apart: the status line without perfdata, each perfdata item, the long output's lines. */
export interface NagiosParts {
  output: string;
  perfdata: string[];
  longOutput: string[];
}

/** The parts renderNagios joins (a raw result has none: render it whole). */
export function renderNagiosParts(name: string, result: Result): NagiosParts {
  const output = `${name} ${stateName(result.state)} - ${oneLine(result.summary)}`;
  const perfdata = (result.metrics ?? []).map(formatMetric);
  const longOutput: string[] = [];
  const { shown, more } = shownItems(result.items, result.itemsLeftOut);
  for (const item of shown) longOutput.push(`[${stateName(item.state)}] ${oneLine(item.text, MAX_ITEM_CHARS)}`);
  if (more > 0) longOutput.push(`… ${more} more ${more === 1 ? 'line' : 'lines'}`);
  return { output, perfdata, longOutput };
}

/** Renders one JSON object for Zabbix dependent items and scripts. */
export function renderJson(name: string, result: Result): string {
  if (result.raw !== undefined) return result.raw;
  return JSON.stringify(jsonDocument(name, result)) + '\n';
}

/** The object `--output json` prints for a result (not a raw one). */
export function jsonDocument(name: string, result: Result) {
  const { shown, more } = shownItems(result.items, result.itemsLeftOut);
  return {
    name,
    state: stateName(result.state),
    code: result.state,
    summary: oneLine(result.summary),
    items: shown.map((i) => ({ name: oneLine(i.name, MAX_ITEM_CHARS), state: stateName(i.state), text: oneLine(i.text, MAX_ITEM_CHARS) })),
    ...(more > 0 ? { more } : {}),
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
}

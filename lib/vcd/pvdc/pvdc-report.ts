// check_pvdc's judgement: each provider VDC's CPU and memory, and each of its storage policies,
// in percent of capacity on the --basis figures; a disabled provider VDC is CRITICAL, a status
// other than READY WARNING (FAILED_CREATION CRITICAL); the org VDCs it backs are counted. A
// figure the API did not give is said to be unknown and printed as U: never 0, never UNKNOWN
// for the whole check.
import { formatBytes, formatDecimal } from '../../plugin/number-format';
import { BoundedItems, Named, Verdict } from '../../plugin/part';
import type { Metric } from '../../plugin/perfdata';
import { PerfdataLabels } from '../../plugin/perfdata-labels';
import { MAX_ITEMS, type Result } from '../../plugin/result';
import { PERCENT, unjudgedMetric, type ScalarContext } from '../../plugin/scalar-context';
import { State } from '../../plugin/state';
import { evaluateThresholds } from '../../plugin/threshold';
import type { Basis, PvdcReading } from './pvdc-probe';
import type { Figure, ProviderStoragePolicyRecord } from './pvdc-query';

/** -w/-c of each resource, in percent of capacity. */
export interface PvdcThresholds {
  cpu: ScalarContext;
  memory: ScalarContext;
  storage: ScalarContext;
}

/** A figure against capacity, with the API's names of both (for "unknown" messages). */
interface Measure {
  value: Figure;
  capacity: Figure;
  /** `cpuUsedMhz`, `ComputeCapacity Memory Reserved`, … */
  valueName: string;
  capacityName: string;
  /** Why the figures are unknown when a whole document is missing. */
  missing?: string;
}

const MIB = 1024 * 1024;
/** Problems named in the status line at most; the long output has one line per provider VDC. */
const PROBLEMS_IN_SUMMARY = 10;
/** Provider VDCs with unknown figures named in the status line at most. */
const UNKNOWN_IN_SUMMARY = 5;
/**
 * Perfdata values at most (some 55 KB): whole provider VDCs in the order listed (by name, so
 * the same ones from run to run) while they fit. Graphs of every provider VDC of a larger
 * estate come from one service each (--pvdc, --discovery), not from one line of megabytes.
 */
export const MAX_PERFDATA_VALUES = 1000;

/** The API figures behind each word of --basis, for CPU (MHz) and memory (MB). */
function computeMeasure(reading: PvdcReading, resource: 'cpu' | 'memory', basis: Basis): Measure {
  const r = reading.pvdc[resource];
  const unit = resource === 'cpu' ? 'Mhz' : 'MB';
  const capacityName = `${resource}Limit${unit}`;
  if (basis === 'used') return { value: r.used, capacity: r.capacity, valueName: `${resource}Used${unit}`, capacityName };
  if (basis === 'allocated') return { value: r.allocated, capacity: r.capacity, valueName: `${resource}Allocation${unit}`, capacityName };
  const element = resource === 'cpu' ? 'Cpu' : 'Memory';
  const names = { valueName: `ComputeCapacity ${element} Reserved`, capacityName: `ComputeCapacity ${element} Total` };
  const doc = reading.reservations;
  if (doc === undefined || 'error' in doc) return { value: undefined, capacity: undefined, ...names, missing: doc?.error ?? 'not read' };
  const figures = doc[resource];
  // The record's total is the same capacity: used when the document lacks its own.
  return { value: figures.reserved, capacity: figures.total ?? r.capacity, ...names };
}

/** Storage has no reservation: --basis reserved judges what is used. */
function storageMeasure(p: ProviderStoragePolicyRecord, basis: Basis): Measure {
  if (basis === 'allocated')
    return { value: p.allocated, capacity: p.total, valueName: p.allocatedFrom ?? 'storageAllocatedMB or storageRequestedMB', capacityName: 'storageTotalMB' };
  return { value: p.used, capacity: p.total, valueName: 'storageUsedMB', capacityName: 'storageTotalMB' };
}

/** The percentage of capacity, when both figures are known and there is a capacity. */
function percentOf(m: Measure): number | undefined {
  return m.value !== undefined && m.capacity !== undefined && m.capacity > 0 ? (m.value / m.capacity) * 100 : undefined;
}

/** One resource of a provider VDC against its capacity: its percentage judged and, while perfdata is made, graphed in the same call with its absolute figure. */
interface Use {
  what: string;
  word: string;
  m: Measure;
  unit: Unit;
  /** The state of its percentage (UNKNOWN without one). */
  state: State;
  /** Its percentage and its absolute figure; none past the perfdata's cut. */
  metrics: readonly Metric[];
}

/** How a figure is said, and what one of it is in perfdata's unit (MB in bytes). */
interface Unit {
  show: (n: number) => string;
  scale: number;
  uom?: 'B';
  /** The perfdata measure of the absolute figure (`cpu_mhz`, `memory`); its percentage is `<what>_pct`. */
  measure: (what: string) => string;
}
const MHZ: Unit = { show: (n) => `${formatDecimal(n, 0)} MHz`, scale: 1, measure: (what) => `${what}_mhz` };
const MB: Unit = { show: (n) => formatBytes(n * MIB), scale: MIB, uom: 'B', measure: (what) => what };

function capacityShape(m: Measure, scale: number, uom?: 'B') {
  return { ...(uom ? { uom } : {}), min: 0, ...(m.capacity !== undefined && m.capacity > 0 ? { max: m.capacity * scale } : {}) };
}

/** Makes a perfdata label of names and a measure. */
type Label = (names: readonly string[], measure: string) => string;

/**
 * CPU, memory and each storage policy of one provider VDC, measured once for its words and its
 * perfdata. `label` makes the perfdata's labels; without it (past the perfdata's cut) each
 * percentage is only judged: no metric is made to be dropped. Made for each of 100,000 provider
 * VDCs, the collector promoted them with the lines and the peak rose by some 40 MiB.
 */
function usesOf(r: PvdcReading, t: PvdcThresholds, basis: Basis, label: Label | undefined): Use[] {
  const scaled = (v: Figure, scale: number) => (v === undefined ? null : v * scale);
  const use = (what: string, word: string, m: Measure, ctx: ScalarContext, unit: Unit, names: readonly string[], measure: string): Use => {
    const p = percentOf(m);
    if (label === undefined) return { what, word, m, unit, state: p === undefined ? State.UNKNOWN : evaluateThresholds(p, ctx), metrics: [] };
    const pct = ctx.measure(label(names, `${measure}_pct`), p ?? null, PERCENT);
    const absolute = unjudgedMetric(label(names, unit.measure(measure)), scaled(m.value, unit.scale), capacityShape(m, unit.scale, unit.uom));
    return { what, word, m, unit, state: pct.state, metrics: [pct.metric, absolute] };
  };
  const storageWord = basis === 'reserved' ? 'used' : basis;
  return [
    use('cpu', basis, computeMeasure(r, 'cpu', basis), t.cpu, MHZ, [r.pvdc.name], 'cpu'),
    use('memory', basis, computeMeasure(r, 'memory', basis), t.memory, MB, [r.pvdc.name], 'memory'),
    ...r.policies.map((p) => use(`storage ${p.name}`, storageWord, storageMeasure(p, basis), t.storage, MB, [r.pvdc.name, p.name], 'storage')),
  ];
}

/** What one resource says: its percentage in the state it was judged, or which figure is unknown. */
function sayUse(v: Verdict, { what, word, m, unit, state }: Use): void {
  const { show } = unit;
  const p = percentOf(m);
  if (p !== undefined) v.add(`${what} ${formatDecimal(p, 1)}% ${word} (${show(m.value!)} of ${show(m.capacity!)})`, state);
  else if (m.missing !== undefined) v.addUnknown(`${what} ${word} unknown (${m.missing})`);
  else if (m.value === undefined) v.addUnknown(`${what} ${word} unknown (no ${m.valueName})`);
  else if (m.capacity === undefined) v.addUnknown(`${what} ${show(m.value)} ${word}, capacity unknown (no ${m.capacityName})`);
  else v.add(`${what} ${show(m.value)} ${word}, no capacity (${m.capacityName} 0)`);
}

/** Everything said about one provider VDC, the worst first. */
function verdictOf(r: PvdcReading, uses: readonly Use[]): Verdict {
  const { pvdc } = r;
  const v = new Verdict(r.pvdc.name, 'worst first');
  if (!pvdc.enabled) v.add('disabled', State.CRITICAL);
  if (pvdc.status !== undefined && pvdc.status !== 'READY') v.add(`status ${pvdc.status}`, pvdc.status === 'FAILED_CREATION' ? State.CRITICAL : State.WARNING);
  for (const u of uses) sayUse(v, u);
  if (pvdc.vdcs === undefined) v.addUnknown('org VDCs unknown (no numberOfVdcs)');
  else v.add(`${pvdc.vdcs} org VDC${pvdc.vdcs === 1 ? '' : 's'}`);
  const odd = [...pvdc.odd, ...r.policies.flatMap((p) => p.odd.map((o) => `${p.name}: ${o}`))];
  if (r.reservations !== undefined && !('error' in r.reservations)) for (const o of r.reservations.odd) odd.push(o);
  if (odd.length > 0) v.addUnknown(`not numbers, taken as unknown: ${odd.slice(0, 5).join(', ')}${odd.length > 5 ? ' …' : ''}`);
  return v;
}

/** Perfdata of one provider VDC: percentages with the thresholds, the basis figures with capacity as max, and the org VDC count. */
function perfdataOf(r: PvdcReading, uses: readonly Use[], label: Label): Metric[] {
  const [cpu, memory, ...storage] = uses;
  return [
    ...cpu.metrics,
    ...memory.metrics,
    unjudgedMetric(label([r.pvdc.name], 'vdcs'), r.pvdc.vdcs ?? null, { min: 0 }),
    ...storage.flatMap((u) => u.metrics),
  ];
}

/**
 * The result of check_pvdc over the provider VDCs read: one long-output line per provider VDC,
 * perfdata per provider VDC and per storage policy, and a status line that names the problems
 * (or the one provider VDC's figures). What it keeps is bounded whatever their number: the
 * lines the long output prints, MAX_PERFDATA_VALUES values, the problems the status line names.
 */
export function judgeProviderVdcs(readings: readonly PvdcReading[], t: PvdcThresholds, basis: Basis): Result {
  if (readings.length === 0)
    return {
      state: State.UNKNOWN,
      summary: 'the query service lists no provider VDC: check that the account may view them (a System Administrator, or Provider VDC: View)',
    };
  // One line is kept for the perfdata's cut, should there be one.
  const items = new BoundedItems(MAX_ITEMS - 2);
  const metrics: Metric[] = [];
  const problems = new Named(PROBLEMS_IN_SUMMARY);
  const unknown = new Named(UNKNOWN_IN_SUMMARY);
  const labels = new PerfdataLabels();
  let single = '';
  let graphed = 0;
  let cut = false;
  for (const r of readings) {
    // Whole provider VDCs while they fit; the first alone gives what fits of its own. Past the
    // cut no label is made (a label of a hostile name costs a SHA-256), nor any perfdata.
    const count = 5 + 2 * r.policies.length;
    cut = cut || metrics.length + count > MAX_PERFDATA_VALUES;
    const graph = !cut || metrics.length === 0;
    const label: Label | undefined = graph ? (names, measure) => labels.label(names, measure) : undefined;
    const uses = usesOf(r, t, basis, label);
    const v = verdictOf(r, uses);
    items.add(v.item(r.pvdc.name));
    problems.add(v.problem());
    if (v.hasUnknown) unknown.add(r.pvdc.name);
    // Only a lone provider VDC's line is said on the status line; kept from every record until
    // the next, the lines were promoted by the collector, some 50 MiB more at the peak.
    if (readings.length === 1) single = v.line;
    if (label === undefined) continue;
    for (const m of perfdataOf(r, uses, label).slice(0, MAX_PERFDATA_VALUES)) metrics.push(m);
    graphed++;
  }
  const kept = items.items();
  if (cut)
    kept.unshift({
      name: 'perfdata',
      state: State.OK,
      text: `perfdata for the first ${graphed} of ${readings.length} provider VDCs (${metrics.length} values, at most ${MAX_PERFDATA_VALUES}): the others with --pvdc, one service per provider VDC (--discovery)`,
    });
  const result = { state: items.state, items: kept, metrics, ...(items.leftOut > 0 ? { itemsLeftOut: items.leftOut } : {}) };
  if (readings.length === 1) return { ...result, summary: `provider VDC ${single}` };
  const n = `${readings.length} provider VDCs`;
  const unknownText = unknown.count === 0 ? '' : `; figures unknown for ${unknown.said(', ')} (see the long output)`;
  const summary =
    problems.count === 0
      ? `${n}: all enabled, ready and within their thresholds of capacity (${basis})${unknownText}`
      : `${n}: ${problems.said('; ')}${unknownText}`;
  return { ...result, summary };
}

// check_pvdc's judgement: each provider VDC's CPU and memory, and each of its storage policies,
// in percent of capacity on the --basis figures; a disabled provider VDC is CRITICAL, a status
// other than READY WARNING (FAILED_CREATION CRITICAL); the org VDCs it backs are counted. A
// figure the API did not give is said to be unknown and printed as U: never 0, never UNKNOWN
// for the whole check.
import { formatBytes, formatDecimal } from '../../plugin/number-format';
import type { Metric } from '../../plugin/perfdata';
import { PerfdataLabels } from '../../plugin/perfdata-labels';
import { MAX_ITEMS, type Item, type Result } from '../../plugin/result';
import { PERCENT, unjudgedMetric, type ScalarContext } from '../../plugin/scalar-context';
import { State, worstState } from '../../plugin/state';
import { worstFirst, worstOf } from '../../plugin/subcheck';
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

/** A finding about one provider VDC: its state and how it is said. */
interface Finding {
  state: State;
  text: string;
  /** A figure the API did not give. */
  unknown?: boolean;
}

function measureFinding(what: string, word: Basis, m: Measure, ctx: ScalarContext, show: (n: number) => string): Finding {
  const pct = percentOf(m);
  if (pct !== undefined)
    return { state: ctx.measure('', pct).state, text: `${what} ${formatDecimal(pct, 1)}% ${word} (${show(m.value!)} of ${show(m.capacity!)})` };
  if (m.missing !== undefined) return { state: State.OK, text: `${what} ${word} unknown (${m.missing})`, unknown: true };
  if (m.value === undefined) return { state: State.OK, text: `${what} ${word} unknown (no ${m.valueName})`, unknown: true };
  if (m.capacity === undefined) return { state: State.OK, text: `${what} ${show(m.value)} ${word}, capacity unknown (no ${m.capacityName})`, unknown: true };
  return { state: State.OK, text: `${what} ${show(m.value)} ${word}, no capacity (${m.capacityName} 0)` };
}

const mhz = (n: number) => `${formatDecimal(n, 0)} MHz`;
const mb = (n: number) => formatBytes(n * MIB);

/** Everything said about one provider VDC, the problems first. */
function findingsOf(r: PvdcReading, t: PvdcThresholds, basis: Basis): Finding[] {
  const { pvdc } = r;
  const findings: Finding[] = [];
  if (!pvdc.enabled) findings.push({ state: State.CRITICAL, text: 'disabled' });
  if (pvdc.status !== undefined && pvdc.status !== 'READY')
    findings.push({ state: pvdc.status === 'FAILED_CREATION' ? State.CRITICAL : State.WARNING, text: `status ${pvdc.status}` });
  findings.push(measureFinding('cpu', basis, computeMeasure(r, 'cpu', basis), t.cpu, mhz));
  findings.push(measureFinding('memory', basis, computeMeasure(r, 'memory', basis), t.memory, mb));
  const storageWord = basis === 'reserved' ? 'used' : basis;
  for (const p of r.policies) findings.push(measureFinding(`storage ${p.name}`, storageWord, storageMeasure(p, basis), t.storage, mb));
  findings.push(
    pvdc.vdcs === undefined
      ? { state: State.OK, text: 'org VDCs unknown (no numberOfVdcs)', unknown: true }
      : { state: State.OK, text: `${pvdc.vdcs} org VDC${pvdc.vdcs === 1 ? '' : 's'}` },
  );
  const odd = [...pvdc.odd, ...r.policies.flatMap((p) => p.odd.map((o) => `${p.name}: ${o}`))];
  if (r.reservations !== undefined && !('error' in r.reservations)) for (const o of r.reservations.odd) odd.push(o);
  if (odd.length > 0)
    findings.push({ state: State.OK, text: `not numbers, taken as unknown: ${odd.slice(0, 5).join(', ')}${odd.length > 5 ? ' …' : ''}`, unknown: true });
  return worstFirst(findings);
}

function capacityShape(m: Measure, scale: number, uom?: 'B') {
  return { ...(uom ? { uom } : {}), min: 0, ...(m.capacity !== undefined && m.capacity > 0 ? { max: m.capacity * scale } : {}) };
}

/** Perfdata of one provider VDC: percentages with the thresholds, the basis figures with capacity as max, and the org VDC count. */
function perfdataOf(r: PvdcReading, t: PvdcThresholds, basis: Basis, labels: PerfdataLabels): Metric[] {
  const out: Metric[] = [];
  const label = (measure: string) => labels.label([r.pvdc.name], measure);
  const cpu = computeMeasure(r, 'cpu', basis);
  const memory = computeMeasure(r, 'memory', basis);
  const scaled = (v: Figure, scale: number) => (v === undefined ? null : v * scale);
  out.push(
    t.cpu.measure(label('cpu_pct'), percentOf(cpu) ?? null, PERCENT).metric,
    unjudgedMetric(label('cpu_mhz'), scaled(cpu.value, 1), capacityShape(cpu, 1)),
    t.memory.measure(label('memory_pct'), percentOf(memory) ?? null, PERCENT).metric,
    unjudgedMetric(label('memory'), scaled(memory.value, MIB), capacityShape(memory, MIB, 'B')),
    unjudgedMetric(label('vdcs'), r.pvdc.vdcs ?? null, { min: 0 }),
  );
  for (const p of r.policies) {
    const m = storageMeasure(p, basis);
    out.push(
      t.storage.measure(labels.label([r.pvdc.name, p.name], 'storage_pct'), percentOf(m) ?? null, PERCENT).metric,
      unjudgedMetric(labels.label([r.pvdc.name, p.name], 'storage'), scaled(m.value, MIB), capacityShape(m, MIB, 'B')),
    );
  }
  return out;
}

/**
 * The long output's lines, at most what the runtime prints (MAX_ITEMS, the rest counted in its
 * "… N more"): in the order listed, a problem taking the place of the last line that is OK
 * once they are that many, so that no problem is left out for an OK line.
 */
export class BoundedItems {
  readonly kept: (Item | undefined)[] = [];
  private readonly okAt: number[] = [];
  leftOut = 0;

  constructor(private readonly max: number) {}

  add(item: Item): void {
    if (this.kept.length < this.max) {
      if (item.state === State.OK) this.okAt.push(this.kept.length);
      this.kept.push(item);
      return;
    }
    this.leftOut++;
    const ok = item.state === State.OK ? undefined : this.okAt.pop();
    if (ok === undefined) return;
    this.kept[ok] = undefined;
    this.kept.push(item);
  }

  items(): Item[] {
    return this.kept.filter((i): i is Item => i !== undefined);
  }
}

/** Texts named in a status line: the first `max`, and how many more. */
export class Named {
  readonly first: string[] = [];
  count = 0;

  constructor(private readonly max: number) {}

  add(text: string): void {
    if (this.count++ < this.max) this.first.push(text);
  }

  /** `a, b … 3 more` with `separator` between the texts. */
  said(separator: string): string {
    return this.first.join(separator) + (this.count > this.max ? ` … ${this.count - this.max} more` : '');
  }
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
  let state = State.OK;
  let single = '';
  let graphed = 0;
  let cut = false;
  for (const r of readings) {
    const findings = findingsOf(r, t, basis);
    const own = worstOf(findings);
    state = worstState([state, own]);
    const said = findings.map((f) => f.text).join(', ');
    items.add({ name: r.pvdc.name, state: own, text: `${r.pvdc.name}: ${said}` });
    const wrong = findings.filter((f) => f.state !== State.OK).map((f) => f.text);
    if (wrong.length > 0) problems.add(`${r.pvdc.name} ${wrong.join(', ')}`);
    if (findings.some((f) => f.unknown)) unknown.add(r.pvdc.name);
    single = `${r.pvdc.name}: ${said}`;
    if (cut) continue;
    // Whole provider VDCs while they fit; the first alone gives what fits of its own.
    const values = perfdataOf(r, t, basis, labels);
    cut = metrics.length + values.length > MAX_PERFDATA_VALUES;
    if (cut && metrics.length > 0) continue;
    for (const m of values.slice(0, MAX_PERFDATA_VALUES)) metrics.push(m);
    graphed++;
  }
  const kept = items.items();
  if (cut)
    kept.unshift({
      name: 'perfdata',
      state: State.OK,
      text: `perfdata for the first ${graphed} of ${readings.length} provider VDCs (${metrics.length} values, at most ${MAX_PERFDATA_VALUES}): the others with --pvdc, one service per provider VDC (--discovery)`,
    });
  const result = { state, items: kept, metrics, ...(items.leftOut > 0 ? { itemsLeftOut: items.leftOut } : {}) };
  if (readings.length === 1) return { ...result, summary: `provider VDC ${single}` };
  const n = `${readings.length} provider VDCs`;
  const unknownText = unknown.count === 0 ? '' : `; figures unknown for ${unknown.said(', ')} (see the long output)`;
  const summary =
    problems.count === 0
      ? `${n}: all enabled, ready and within their thresholds of capacity (${basis})${unknownText}`
      : `${n}: ${problems.said('; ')}${unknownText}`;
  return { ...result, summary };
}

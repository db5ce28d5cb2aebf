// check_pvdc's judgement: each provider VDC's CPU and memory, and each of its storage policies,
// in percent of capacity on the --basis figures; a disabled provider VDC is CRITICAL, a status
// other than READY WARNING (FAILED_CREATION CRITICAL); the org VDCs it backs are counted. A
// figure the API did not give is said to be unknown and printed as U: never 0, never UNKNOWN
// for the whole check.
import { formatBytes, formatDecimal } from '../../plugin/number-format';
import type { Metric } from '../../plugin/perfdata';
import { PerfdataLabels } from '../../plugin/perfdata-labels';
import type { Item, Result } from '../../plugin/result';
import { PERCENT, unjudgedMetric, type ScalarContext } from '../../plugin/scalar-context';
import { State } from '../../plugin/state';
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
  if (r.reservations !== undefined && !('error' in r.reservations)) odd.push(...r.reservations.odd);
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
 * The result of check_pvdc over the provider VDCs read: one long-output line per provider VDC,
 * perfdata per provider VDC and per storage policy, and a status line that names the problems
 * (or the one provider VDC's figures).
 */
export function judgeProviderVdcs(readings: readonly PvdcReading[], t: PvdcThresholds, basis: Basis): Result {
  const items: Item[] = [];
  const metrics: Metric[] = [];
  const problems: string[] = [];
  const unknown: string[] = [];
  const labels = new PerfdataLabels();
  let single = '';
  for (const r of readings) {
    const findings = findingsOf(r, t, basis);
    const state = worstOf(findings);
    const said = findings.map((f) => f.text).join(', ');
    items.push({ name: r.pvdc.name, state, text: `${r.pvdc.name}: ${said}` });
    const wrong = findings.filter((f) => f.state !== State.OK).map((f) => f.text);
    if (wrong.length > 0) problems.push(`${r.pvdc.name} ${wrong.join(', ')}`);
    if (findings.some((f) => f.unknown)) unknown.push(r.pvdc.name);
    single = `${r.pvdc.name}: ${said}`;
    for (const m of perfdataOf(r, t, basis, labels)) metrics.push(m);
  }
  if (readings.length === 0)
    return {
      state: State.UNKNOWN,
      summary: 'the query service lists no provider VDC: check that the account may view them (a System Administrator, or Provider VDC: View)',
    };
  const state = worstOf(items);
  if (readings.length === 1) return { state, summary: `provider VDC ${single}`, items, metrics };
  const n = `${readings.length} provider VDCs`;
  const shown =
    problems.slice(0, PROBLEMS_IN_SUMMARY).join('; ') + (problems.length > PROBLEMS_IN_SUMMARY ? ` … ${problems.length - PROBLEMS_IN_SUMMARY} more` : '');
  const unknownText =
    unknown.length === 0
      ? ''
      : `; figures unknown for ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ` … ${unknown.length - 5} more` : ''} (see the long output)`;
  const summary =
    problems.length === 0 ? `${n}: all enabled, ready and within their thresholds of capacity (${basis})${unknownText}` : `${n}: ${shown}${unknownText}`;
  return { state, summary, items, metrics };
}

import type { RunContext } from '../../plugin/context';
import { CheckError, UsageError } from '../../plugin/errors';
import type { Item, Result } from '../../plugin/result';
import { State } from '../../plugin/state';
import type { MetricsResponse } from './vm-metrics';
import { formatDuration } from '../../plugin/duration';
import { parseCurrentUsage, parseHistoricUsage, type MetricName, type MetricSeries } from './metrics';
import type { VmCheckProfile } from './profile';
import type { VmCheckConfig } from './vm-config';
import { notRunning, readVmRecord } from './vm-record';
import type { SessionGet } from '../api/session-reads';
import { aggregateWindow, dropFutureSamples, seriesInterval, stalenessOf } from './window';

/** One metric as read: a current value, or a window's aggregate, whole-VM or of one disk. */
interface Reading {
  name: string;
  base: MetricName;
  disk?: string;
  unit: string;
  value: number;
  /** How the value came about, for the long output. */
  detail?: string;
}

/** Rounds for the long output, where values are read, not parsed. */
const shown = (v: number) => String(Math.round(v * 1000) / 1000);

/** From the server's answer to the result: refusal, current values, or the window. */
export async function judge(
  profile: VmCheckProfile,
  cfg: VmCheckConfig,
  context: RunContext,
  response: MetricsResponse,
  get: SessionGet,
  currentUrl: string,
): Promise<Result> {
  if (response.kind === 'refused') return judgeRefusal(profile, cfg, response.detail, get, currentUrl);
  context.setPhase('parsing the metrics');
  const wanted = new Set<string>(profile.reads);
  if (cfg.window === undefined) {
    const usage = parseCurrentUsage(response.body, undefined, wanted);
    const readings: Reading[] = [...usage.values()].map((m) => ({ ...m }));
    return measure(profile, cfg, readings, 'current');
  }
  const now = response.serverTime ?? Date.now();
  const needed = new Set<string>(profile.needs(cfg.metric));
  const series = readSeries(parseHistoricUsage(response.body, undefined, wanted), needed, cfg.window, now, context);
  return judgeWindow(profile, { ...cfg, window: cfg.window }, series, needed, now, get);
}

/** The historic series without samples from the future, each with its interval; the needed ones must fit the window. */
function readSeries(history: ReadonlyMap<string, MetricSeries>, needed: ReadonlySet<string>, window: number, now: number, context: RunContext): MetricSeries[] {
  const series: MetricSeries[] = [];
  const future = { count: 0, series: 0, latest: 0 };
  for (const s of history.values()) {
    const { series: kept, dropped } = dropFutureSamples(s, now);
    if (dropped.length > 0) {
      future.count += dropped.length;
      future.series++;
      future.latest = Math.max(future.latest, dropped[dropped.length - 1].time);
    }
    const interval = seriesInterval(kept);
    context.log(2, interval.note);
    if (needed.has(kept.base) && !context.notes.all.some((n) => n.startsWith('expectedInterval'))) context.notes.add(interval.note);
    series.push({ ...kept, expectedInterval: interval.seconds });
  }
  for (const name of needed) {
    const s = series.find((x) => x.name === name) ?? series.find((x) => x.base === name);
    const every = s?.expectedInterval ?? 0;
    if (s && window < every) {
      throw new UsageError(
        `--window ${formatDuration(window)} is shorter than the ${formatDuration(every)} between samples of ${s.name}, so it may hold none: use --window ${formatDuration(every)} or longer`,
      );
    }
  }
  if (future.count > 0) {
    context.notes.add(
      `ignored ${future.count} sample${future.count > 1 ? 's' : ''} of ${future.series} series dated after the server's time, up to ${new Date(future.latest).toISOString()}`,
    );
  }
  return series;
}

/** The window's readings, judged; a VM whose samples stopped because it is off is judged on its last window, in --powered-off-state. */
async function judgeWindow(
  profile: VmCheckProfile,
  cfg: VmCheckConfig & { window: number },
  series: MetricSeries[],
  needed: ReadonlySet<string>,
  now: number,
  get: SessionGet,
): Promise<Result> {
  const advice = cfg.poweredOffGiven ? '' : ', --powered-off-state OK to accept';
  const stopped = await stoppedAt(cfg, series, needed, now, get);
  if (stopped?.since === 0) {
    return poweredOffResult(profile, cfg, `${cfg.vmLabel} is ${stopped.words}: no sample in the 24 hours of history${advice ? ` (${advice.slice(2)})` : ''}`);
  }
  const anchor = stopped?.since ?? now;
  const readings: Reading[] = [];
  for (const s of series) {
    const w = aggregateWindow(s, cfg.window, cfg.aggregate, anchor);
    if (!w) continue;
    const span = w.fellBack ? `newest sample, none in the last ${formatDuration(cfg.window)}` : `${cfg.aggregate} of ${w.count} samples`;
    readings.push({ name: s.name, base: s.base, disk: s.disk, unit: s.unit, value: w.value, detail: `${span}, newest ${new Date(w.newest).toISOString()}` });
  }
  const result = measure(profile, cfg, readings, `${cfg.aggregate} ${formatDuration(cfg.window)}`);
  if (!stopped) return result;
  return {
    ...result,
    state: cfg.poweredOff,
    summary: `${cfg.vmLabel} is ${stopped.words} since ${new Date(stopped.since).toISOString()} (its last sample${advice}). Before that: ${result.summary}`,
    items: result.items?.map((i) => ({ ...i, state: cfg.poweredOff })),
  };
}

/**
 * Samples that stopped: a powered-off VM (its record says so) is judged on the window before
 * its last sample (since 0: it has none); a collector that is stuck is UNKNOWN. Undefined when
 * the samples are fresh.
 */
async function stoppedAt(
  cfg: VmCheckConfig,
  series: MetricSeries[],
  needed: ReadonlySet<string>,
  now: number,
  get: SessionGet,
): Promise<{ words: string; since: number } | undefined> {
  // Whole-VM series first: their name is the one the admin knows.
  const judged = series.filter((s) => needed.has(s.base)).sort((a, b) => Number(a.disk !== undefined) - Number(b.disk !== undefined));
  const stale = judged.map((s) => ({ s, problem: stalenessOf(s, now, cfg.maxAge) })).find((x) => x.problem !== undefined);
  if (!stale) return undefined;
  const power = await powerState(get, cfg.vm);
  if (!power.words) throw new CheckError(`${stale.problem}${power.said ? ` (${power.said})` : ''}`);
  // The window before it stopped: what `--window 1h` of a powered-off VM shows.
  const since = judged.reduce((max, s) => Math.max(max, s.samples[s.samples.length - 1]?.time ?? 0), 0);
  return { words: power.words, since };
}

/** The VM's power state from its record, or what kept us from knowing it. */
async function powerState(get: SessionGet, vm: string): Promise<{ words?: string; said?: string }> {
  try {
    const record = await readVmRecord(get, vm);
    const words = notRunning(record);
    return { words, said: `its record says ${record.statusName}` };
  } catch (error) {
    if (!(error instanceof CheckError)) throw error;
    return { said: `its power state could not be read: ${error.message}` };
  }
}

/** Current metrics refused (HTTP 400): powered off only when the VM's record says so. */
async function judgeRefusal(profile: VmCheckProfile, cfg: VmCheckConfig, detail: string, get: SessionGet, currentUrl: string): Promise<Result> {
  const power = await powerState(get, cfg.vm);
  if (power.words) {
    const advice = cfg.poweredOffGiven ? 'use --window for the last values' : 'use --window for the last values, or --powered-off-state OK to accept';
    return poweredOffResult(profile, cfg, `${cfg.vmLabel} is ${power.words}: no current metrics (${advice})`);
  }
  throw new CheckError(`${currentUrl} answered ${detail}, and ${power.said}`);
}

/**
 * A VM that is off and has no values: in --powered-off-state, with the perfdata a running VM's
 * result has where the value is a fact while it is off (its consumption: zero), so that graphs
 * keep their series and show the VM idle. Values that are not known without metrics (a disk's
 * size and use) are left out rather than printed as U: Icinga 2 drops U ("invalid perfdata")
 * and Zabbix marks a numeric item unsupported.
 */
function poweredOffResult(profile: VmCheckProfile, cfg: VmCheckConfig, summary: string): Result {
  const values = new Map<MetricName, number>((profile.zeroWhenOff ?? []).map((name) => [name, 0]));
  let metrics: Result['metrics'] = [];
  try {
    const shape = profile.evaluate({
      values,
      metric: cfg.metric,
      thresholds: cfg.thresholds,
      vm: cfg.vmLabel,
      mode: 'current',
      disks: new Map(),
      summed: [],
      perDisk: cfg.perDisk,
      alarmFullyAllocated: cfg.alarmFullyAllocated === true,
    });
    metrics = shape.metrics?.filter((m) => m.value !== null && m.value !== undefined);
  } catch {
    // The chosen --metric is one that is unknown while the VM is off: no perfdata.
  }
  return { state: cfg.poweredOff, summary, ...(metrics?.length ? { metrics } : {}) };
}

/** Readings → measurements (per-disk sums where the whole is missing) → the profile's result. */
function measure(profile: VmCheckProfile, cfg: VmCheckConfig, readings: Reading[], mode: string): Result {
  const values = new Map<MetricName, number>();
  const disks = new Map<string, Map<MetricName, number>>();
  const items: Item[] = [];
  for (const r of readings) {
    if (r.disk === undefined) {
      values.set(r.base, r.value);
    } else {
      let disk = disks.get(r.disk);
      if (!disk) disks.set(r.disk, (disk = new Map()));
      disk.set(r.base, r.value);
    }
  }
  const summed: MetricName[] = [];
  for (const name of profile.reads) {
    if (values.has(name)) continue;
    const parts = readings.filter((r) => r.base === name && r.disk !== undefined);
    if (parts.length === 0) continue;
    values.set(
      name,
      parts.reduce((a, r) => a + r.value, 0),
    );
    summed.push(name);
  }
  // Per-disk readings stay out of the long output (perfdata has them); a sum says what it adds.
  for (const r of readings) {
    if (r.disk !== undefined) continue;
    items.push({ name: r.name, state: State.OK, text: `${r.name} = ${shown(r.value)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}` });
  }
  for (const name of summed) {
    const parts = readings.filter((r) => r.base === name && r.disk !== undefined).sort((a, b) => Number(a.disk) - Number(b.disk));
    items.push({
      name,
      state: State.OK,
      text: `${name} = ${shown(values.get(name) as number)} ${parts[0].unit}: the server sends no whole-VM value, so the sum of disks ${parts.map((p) => p.disk).join(', ')}`,
    });
  }

  const needed = profile.needs(cfg.metric);
  const missing = needed.filter((n) => !values.has(n));
  if (missing.length > 0) {
    const hints = [...new Set(missing.map((n) => profile.missingHint?.(n)).filter((h): h is string => h !== undefined))];
    throw new CheckError(
      `the ${cfg.window === undefined ? 'current' : 'historic'} metrics of ${cfg.vmLabel} lack ${missing.join(', ')} (the server sent no value for ${missing.length > 1 ? 'them' : 'it'})${hints.length > 0 ? `: ${hints.join(', ')}` : ''}`,
    );
  }
  const result = profile.evaluate({
    values,
    metric: cfg.metric,
    thresholds: cfg.thresholds,
    vm: cfg.vmLabel,
    mode,
    disks,
    summed,
    perDisk: cfg.perDisk,
    alarmFullyAllocated: cfg.alarmFullyAllocated === true,
  });
  // The state belongs to the metric the thresholds judged, not to the ones it was derived from;
  // with --per-disk the profile's own items carry each disk's state.
  if (!cfg.perDisk) for (const item of items) if (item.name === needed[0]) item.state = result.state;
  return { ...result, items: [...items, ...(result.items ?? [])] };
}

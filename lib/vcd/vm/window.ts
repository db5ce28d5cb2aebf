import { CheckError } from '../../plugin/errors';
import { formatDuration } from '../../plugin/duration';
import type { MetricSeries, Sample } from './metrics';

export type Aggregate = 'avg' | 'max' | 'min' | 'last';
export const AGGREGATES: readonly Aggregate[] = ['avg', 'max', 'min', 'last'];

/** How far ahead of the server's clock a sample may be dated and still count (clocks drift). */
export const CLOCK_SKEW_MS = 60_000;

/** A series reduced to one value over a window. */
export interface WindowValue {
  value: number;
  /** Samples the value was computed from. */
  count: number;
  /** Time of the newest sample used (ms since the epoch). */
  newest: number;
  /** The window held no sample (published late): the newest sample stands in. */
  fellBack: boolean;
}

/** The seconds between a series' samples, and how that was decided (said at -v). */
export interface SeriesInterval {
  seconds: number;
  note: string;
}

/** The median gap between consecutive samples, in ms; undefined with fewer than two samples. */
function medianSpacing(samples: readonly Sample[]): number | undefined {
  const gaps: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const gap = samples[i].time - samples[i - 1].time;
    if (gap > 0) gaps.push(gap);
  }
  if (gaps.length === 0) return undefined;
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1];
}

/** A spacing in ms as whole seconds, to the minute above one (samples carry seconds of jitter). */
function roundSpacing(ms: number): number {
  return ms >= 60_000 ? Math.round(ms / 60_000) * 60 : Math.max(1, Math.round(ms / 1000));
}

/**
 * Reads `expectedInterval` in the unit the samples agree with. The schema reference says
 * seconds, the programming guide milliseconds; a server that sends 300000 for five minutes
 * would otherwise get a --max-age of 10 days, and staleness would never be seen.
 */
export function seriesInterval(series: MetricSeries): SeriesInterval {
  const announced = series.expectedInterval;
  const spacing = medianSpacing(series.samples);
  const said = `expectedInterval ${announced} of ${series.name}`;
  if (announced === undefined) {
    if (spacing === undefined)
      return { seconds: 300, note: `${series.name} announces no expectedInterval and has too few samples to measure one: assuming 5m` };
    const seconds = roundSpacing(spacing);
    return { seconds, note: `${series.name} announces no expectedInterval: using its samples' spacing, ${formatDuration(seconds)}` };
  }
  let inMs: boolean;
  let why: string;
  if (spacing !== undefined) {
    // Whichever reading lies nearer (by ratio) to the spacing the samples actually have.
    inMs = Math.abs(Math.log(spacing / announced)) < Math.abs(Math.log(spacing / (announced * 1000)));
    why = `its samples are ${formatDuration(roundSpacing(spacing))} apart`;
  } else {
    // One sample tells nothing; an interval in seconds longer than the 24 h of history cannot be.
    inMs = announced > 86400;
    why = inMs ? 'more than the 24h of history if read as seconds' : "too few samples to measure, so the schema reference's unit";
  }
  const seconds = inMs ? Math.max(1, Math.round(announced / 1000)) : announced;
  return { seconds, note: `${said} read as ${inMs ? 'milliseconds' : 'seconds'} (${formatDuration(seconds)}): ${why}` };
}

/**
 * Leaves out samples dated after `now` (plus CLOCK_SKEW_MS): one sample dated 2099 would
 * otherwise pass every staleness check for ever. Gives the series kept and what was dropped.
 */
export function dropFutureSamples(series: MetricSeries, now: number): { series: MetricSeries; dropped: Sample[] } {
  const limit = now + CLOCK_SKEW_MS;
  let keep = series.samples.length;
  while (keep > 0 && series.samples[keep - 1].time > limit) keep--;
  if (keep === series.samples.length) return { series, dropped: [] };
  return { series: { ...series, samples: series.samples.slice(0, keep) }, dropped: series.samples.slice(keep) };
}

/**
 * Fails with UNKNOWN when the newest sample of a series is older than maxAgeSeconds (default
 * 3 × the series' interval) at `now`: a collector that stopped must not look healthy.
 */
export function checkStaleness(series: MetricSeries, now: number, maxAgeSeconds?: number, intervalSeconds = series.expectedInterval ?? 300): void {
  const problem = stalenessOf(series, now, maxAgeSeconds, intervalSeconds);
  if (problem) throw new CheckError(problem);
}

/** What checkStaleness would say, or undefined when the series is fresh. */
export function stalenessOf(series: MetricSeries, now: number, maxAgeSeconds?: number, intervalSeconds = series.expectedInterval ?? 300): string | undefined {
  const maxAge = maxAgeSeconds ?? 3 * intervalSeconds;
  const newest = series.samples[series.samples.length - 1];
  const option = maxAgeSeconds === undefined ? `--max-age ${formatDuration(maxAge)}, 3 × its interval` : `--max-age ${formatDuration(maxAge)}`;
  if (!newest) return `no sample of ${series.name} in the last 24 hours of history; is the VM collecting metrics?`;
  if (now - newest.time > maxAge * 1000) {
    return `no sample of ${series.name} since ${new Date(newest.time).toISOString()} (older than ${option}); check that the VM is running and vCD collects its metrics`;
  }
  return undefined;
}

/**
 * Aggregates the samples of the last `windowSeconds` before `now`. A window that holds no
 * sample (the newest was published late) uses the newest one; staleness is checked apart.
 */
export function aggregateWindow(series: MetricSeries, windowSeconds: number, aggregate: Aggregate, now: number): WindowValue | undefined {
  const from = now - windowSeconds * 1000;
  const inside: Sample[] = series.samples.filter((s) => s.time > from && s.time <= now + CLOCK_SKEW_MS);
  const newestOverall = series.samples[series.samples.length - 1];
  if (inside.length === 0) {
    return newestOverall ? { value: newestOverall.value, count: 1, newest: newestOverall.time, fellBack: true } : undefined;
  }
  // A loop, not Math.max(...values): spreading 200,000 samples overflows the call stack.
  let value = aggregate === 'last' ? inside[inside.length - 1].value : aggregate === 'avg' ? 0 : inside[0].value;
  if (aggregate !== 'last') {
    for (const s of inside) {
      if (aggregate === 'max') value = s.value > value ? s.value : value;
      else if (aggregate === 'min') value = s.value < value ? s.value : value;
      else value += s.value;
    }
    if (aggregate === 'avg') value /= inside.length;
  }
  return { value, count: inside.length, newest: inside[inside.length - 1].time, fellBack: false };
}

/**
 * What a part of the history lacks to give the verdict the whole day would: undefined when
 * nothing (every judged metric has its series, whole-VM or per disk, none stale by the
 * judgement's own rule, --max-age or 3 × the interval, each with two samples at least, so
 * that its interval is measured from their spacing as from the day's); else the seconds that
 * would hold two samples of each judged series by the intervals they announce, or Infinity
 * (the day) for a series missing or stopped: the judgement then reads the window before it
 * stopped, or says there is no sample in 24 hours. Fresh series end with the newest samples
 * the day has, so the window's aggregate and the fallback to the newest sample are the same.
 */
export function windowShortfall(history: ReadonlyMap<string, MetricSeries>, needs: Iterable<string>, now: number, maxAgeSeconds?: number): number | undefined {
  let longest = 0;
  for (const name of needs) {
    let found = false;
    for (const s of history.values()) {
      if (s.base !== name) continue;
      found = true;
      const { series } = dropFutureSamples(s, now);
      if (series.samples.length === 0 || stalenessOf(series, now, maxAgeSeconds, seriesInterval(series).seconds) !== undefined) return Infinity;
      // The larger reading of the interval (seconds, not milliseconds): enough either way.
      if (series.samples.length < 2) longest = Math.max(longest, series.expectedInterval ?? Infinity);
    }
    if (!found) return Infinity;
  }
  return longest > 0 ? 2 * longest : undefined;
}

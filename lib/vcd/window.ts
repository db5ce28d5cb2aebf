import { CheckError } from '../plugin/errors';
import { formatDuration } from './duration';
import type { MetricSeries, Sample } from './metrics';

export type Aggregate = 'avg' | 'max' | 'min' | 'last';
export const AGGREGATES: readonly Aggregate[] = ['avg', 'max', 'min', 'last'];

/** A series reduced to one value over a window. */
export interface WindowValue {
  value: number;
  /** Samples the value was computed from. */
  count: number;
  /** Time of the newest sample used (ms since the epoch). */
  newest: number;
  /** The window held no sample (the series' interval is longer): the newest sample stands in. */
  fellBack: boolean;
}

/**
 * Fails with UNKNOWN when the newest sample of a series is older than maxAgeSeconds (default
 * 3 × the series' expectedInterval) at `now`: a collector that stopped must not look healthy.
 */
export function checkStaleness(series: MetricSeries, now: number, maxAgeSeconds?: number): void {
  const maxAge = maxAgeSeconds ?? 3 * series.expectedInterval;
  const newest = series.samples[series.samples.length - 1];
  const option = maxAgeSeconds === undefined ? `--max-age ${formatDuration(maxAge)}, 3 × its interval` : `--max-age ${formatDuration(maxAge)}`;
  if (!newest) throw new CheckError(`no sample of ${series.name} in the last 24 hours of history; is the VM collecting metrics?`);
  if (now - newest.time > maxAge * 1000) {
    throw new CheckError(`no sample of ${series.name} since ${new Date(newest.time).toISOString()} (older than ${option}); check that the VM is running and vCD collects its metrics`);
  }
}

/**
 * Aggregates the samples of the last `windowSeconds` before `now`. A window shorter than the
 * series' interval may hold no sample: then the newest one is used (staleness is checked apart).
 */
export function aggregateWindow(series: MetricSeries, windowSeconds: number, aggregate: Aggregate, now: number): WindowValue | undefined {
  const from = now - windowSeconds * 1000;
  const inside: Sample[] = series.samples.filter((s) => s.time > from && s.time <= now + 60_000);
  const newestOverall = series.samples[series.samples.length - 1];
  if (inside.length === 0) {
    return newestOverall ? { value: newestOverall.value, count: 1, newest: newestOverall.time, fellBack: true } : undefined;
  }
  const values = inside.map((s) => s.value);
  let value: number;
  switch (aggregate) {
    case 'max':
      value = Math.max(...values);
      break;
    case 'min':
      value = Math.min(...values);
      break;
    case 'last':
      value = values[values.length - 1];
      break;
    default:
      value = values.reduce((a, b) => a + b, 0) / values.length;
  }
  return { value, count: inside.length, newest: inside[inside.length - 1].time, fellBack: false };
}

// What a VM check asks vCD for (API 5.6 and later): a HistoricUsageSpec or CurrentUsageSpec
// posted to …/metrics/historic|current names the metrics judged and, for history, how far back.
// A day of every metric is ~200 KB per VM; the window of three metrics is a few KB.
import { VCLOUD_NS } from '../api/xml';
import type { MetricName } from './metrics';

export const HISTORIC_SPEC_TYPE = 'application/vnd.vmware.vcloud.metrics.historicUsageSpec+xml';
export const CURRENT_SPEC_TYPE = 'application/vnd.vmware.vcloud.metrics.currentUsageSpec+xml';

/** The whole day vCD keeps, in seconds: what GET …/metrics/historic answers. */
export const HISTORY_SECONDS = 24 * 3600;

/**
 * Asked for beyond twice the window: samples are published a little late, and the server's
 * clock runs a little apart from ours.
 */
export const SPAN_MARGIN_SECONDS = 300;

/** Metrics that come per disk too (`disk.used.latest.2000`), which a check sums when the whole-VM name is missing. */
const PER_DISK_BASES: ReadonlySet<string> = new Set(['disk.used.latest', 'disk.provisioned.latest', 'disk.read.average', 'disk.write.average']);

/** The MetricPatterns for these metrics: the name itself, or `name*` for the ones that also come per disk; sorted, once each. */
export function metricPatterns(names: Iterable<MetricName>): string[] {
  return [...new Set([...names].map((n) => (PER_DISK_BASES.has(n) ? `${n}*` : n)))].sort();
}

/**
 * The seconds of history asked for a window: twice the window and the margin, at most the day
 * vCD keeps. A window is never shorter than the interval between samples (the judgement refuses
 * it), so twice the window holds two samples of each fresh series: the interval is measured
 * from their spacing as from the day's, and a window published late falls back to the same
 * newest sample.
 */
export function historySpan(windowSeconds: number): number {
  return Math.min(HISTORY_SECONDS, 2 * windowSeconds + SPAN_MARGIN_SECONDS);
}

/** A RelativeTimeType: whole hours when the span is, else minutes rounded up (its interval is an xs:short). */
function relativeTime(seconds: number): { interval: number; unit: 'hour' | 'minute' } {
  return seconds % 3600 === 0 ? { interval: seconds / 3600, unit: 'hour' } : { interval: Math.ceil(seconds / 60), unit: 'minute' };
}

function patternElements(patterns: readonly string[]): string {
  // Names are the check's own (METRIC_NAMES), never the server's or a tenant's: nothing to escape.
  return patterns.map((p) => `<MetricPattern>${p}</MetricPattern>`).join('');
}

/** The HistoricUsageSpec for the last `spanSeconds` up to now (no end: the newest samples), of these patterns. */
export function historicUsageSpec(spanSeconds: number, patterns: readonly string[]): string {
  const start = relativeTime(spanSeconds);
  return `<?xml version="1.0" encoding="UTF-8"?><HistoricUsageSpec xmlns="${VCLOUD_NS}"><RelativeStartTime interval="${start.interval}" unit="${start.unit}"/>${patternElements(patterns)}</HistoricUsageSpec>`;
}

/** The CurrentUsageSpec of these patterns. */
export function currentUsageSpec(patterns: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><CurrentUsageSpec xmlns="${VCLOUD_NS}">${patternElements(patterns)}</CurrentUsageSpec>`;
}

/**
 * Answers to the POST that say the server does not take the spec (an older or stricter server,
 * a proxy that passes only GET): 400 bad request, 404/405 no such operation, 406/415 media type
 * refused, 501 the operation unknown to the server. 401 and 403 say the account's rights (the same for a GET), and
 * a server error (500-599) the cells' trouble: neither is a refusal of the spec. A GET then
 * tells which it was: see requestMetrics.
 */
export const SPEC_REFUSALS: ReadonlySet<number> = new Set([400, 404, 405, 406, 415, 501]);

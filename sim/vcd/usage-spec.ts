// The metrics specs a client posts (HistoricUsageSpec, CurrentUsageSpec): which metrics it wants
// and, for history, from when to when. The simulator answers with only those, as vCD does.
import { parseXml, VCLOUD_NS, type XmlElement } from '../../lib/vcd/api/xml';

/** What a spec selects: the metric names it matches, and the samples' time range (ms since the epoch). */
export interface UsageFilter {
  matches(name: string): boolean;
  from?: number;
  to?: number;
  /** The spec as a key: equal filters select the same documents. */
  key: string;
}

const SPEC_TYPES = {
  historic: 'application/vnd.vmware.vcloud.metrics.historicusagespec+xml',
  current: 'application/vnd.vmware.vcloud.metrics.currentusagespec+xml',
} as const;

/** Seconds of each TimeUnitType (vCD's metrics.xsd: second, minute, hour, day, week). */
const UNIT_SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 };

/** The posted body read as a spec of `which`, or why the server refuses it (status and message). */
export function readUsageSpec(
  which: 'current' | 'historic',
  contentType: string | undefined,
  body: string,
  now: number,
): { filter: UsageFilter } | { status: number; minor: string; message: string } {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== SPEC_TYPES[which]) return { status: 415, minor: 'UNSUPPORTED_MEDIA_TYPE', message: `Unsupported media type ${type || '(none)'}` };
  const root = parseXml(body, { maxTextChars: 256 });
  const expected = which === 'historic' ? 'HistoricUsageSpec' : 'CurrentUsageSpec';
  if ('error' in root || root.local !== expected || root.uri !== VCLOUD_NS) return badRequest(`The request body is not a valid ${expected}`);
  const patterns: string[] = [];
  let from: number | undefined;
  let to: number | undefined;
  for (const el of root.children) {
    if (el.uri !== VCLOUD_NS) return badRequest(`Unexpected element ${el.local}`);
    if (el.local === 'MetricPattern') {
      patterns.push((el.text ?? '').trim());
      continue;
    }
    if (which !== 'historic') return badRequest(`Unexpected element ${el.local}`);
    const time = timeOf(el, now);
    if (time === undefined) return badRequest(`Invalid ${el.local}`);
    if (el.local.endsWith('StartTime')) from = time;
    else to = time;
  }
  const regexes = patterns.map((p) => new RegExp(`^${p.split('*').map(escapeRegex).join('.*')}$`));
  return {
    filter: {
      matches: (name) => regexes.length === 0 || regexes.some((r) => r.test(name)),
      from,
      to,
      // Relative times move with the clock: the key holds the span, not the instant.
      key: `${which}|${patterns.join(',')}|${root.children
        .filter((c) => c.local !== 'MetricPattern')
        .map((c) => `${c.local}:${c.attributes.interval ?? ''}${c.attributes.unit ?? ''}${c.attributes.time ?? ''}`)
        .join(',')}`,
    },
  };
}

function badRequest(message: string): { status: number; minor: string; message: string } {
  return { status: 400, minor: 'BAD_REQUEST', message };
}

/** The instant an AbsoluteStartTime/EndTime or RelativeStartTime/EndTime names, or undefined when it is not one. */
function timeOf(el: XmlElement, now: number): number | undefined {
  if (el.local === 'AbsoluteStartTime' || el.local === 'AbsoluteEndTime') {
    const time = Date.parse(el.attributes.time ?? '');
    return Number.isNaN(time) ? undefined : time;
  }
  if (el.local === 'RelativeStartTime' || el.local === 'RelativeEndTime') {
    const interval = Number(el.attributes.interval);
    const unit = UNIT_SECONDS[el.attributes.unit ?? ''];
    // xs:short, as the schema has it.
    if (!Number.isInteger(interval) || interval < 0 || interval > 32767 || unit === undefined) return undefined;
    return now - interval * unit * 1000;
  }
  return undefined;
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

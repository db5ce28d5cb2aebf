// Dates as vCD writes them (xs:dateTime) and spans as the hygiene checks word them.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * An xs:dateTime (`2018-04-16T09:36:59.459+02:00`) in ms since the epoch, or undefined when
 * it is not one. A date without a zone is read as UTC; fractions finer than ms are cut.
 */
export function parseDateTime(text: string): number | undefined {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${(frac ?? '').padEnd(3, '0').slice(0, 3)}${zone ?? 'Z'}`);
  return Number.isFinite(ms) ? ms : undefined;
}

/** A moment as a short UTC text for messages: `2018-04-16 07:36 UTC`. */
export function formatMoment(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A span of seconds in its two largest units: `10d 2h`, `5h 3m`, `3m 12s`, `42s`. */
export function formatSpan(seconds: number): string {
  const s = Math.floor(Math.abs(seconds));
  const parts: Array<[number, string]> = [
    [Math.floor(s / 86400), 'd'],
    [Math.floor((s % 86400) / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'm'],
    [s % 60, 's'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  if (first < 0) return '0s';
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, u]) => `${n}${u}`)
    .join(' ');
}

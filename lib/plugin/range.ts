import { UsageError } from './errors';
import { formatDecimal, isPlainNumber } from './number-format';

/**
 * A threshold range of the Monitoring Plugins Development Guidelines. An alert is raised
 * when the value is outside [start, end], or inside it when `inside` is set (the `@` form).
 */
export interface Range {
  start: number; // -Infinity for `~`
  end: number; // Infinity when open-ended
  inside: boolean;
  text: string; // as given, for perfdata
}

/** Parses one number of a range; `parseValue` lets a plugin accept units such as `500G`. */
export type ValueParser = (text: string) => number | undefined;

const plainNumber: ValueParser = (text) => (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : undefined);

/**
 * Parses the range syntax `10`, `10:`, `~:10`, `10:20`, `@10:20`; throws a UsageError naming
 * the option and the text when it is malformed.
 */
export function parseRange(text: string, option: string, parseValue: ValueParser = plainNumber): Range {
  const bad = (why: string) => new UsageError(`invalid range ${JSON.stringify(text)} for ${option}: ${why}`);
  let body = text.trim();
  if (body === '') throw bad('empty');
  const inside = body.startsWith('@');
  if (inside) body = body.slice(1);
  let start = 0;
  let end: number;
  const colon = body.indexOf(':');
  if (colon < 0) {
    end = value(body, 'end');
  } else {
    if (body.indexOf(':', colon + 1) >= 0) throw bad('more than one ":"');
    const left = body.slice(0, colon);
    const right = body.slice(colon + 1);
    start = left === '~' ? -Infinity : left === '' ? 0 : value(left, 'start');
    end = right === '' ? Infinity : value(right, 'end');
  }
  if (start > end) throw bad('start is greater than end');
  return { start, end, inside, text: text.trim() };

  function value(part: string, which: string): number {
    const n = parseValue(part);
    if (n === undefined || Number.isNaN(n)) throw bad(`${which} ${JSON.stringify(part)} is not a number`);
    if (!isPlainNumber(n)) throw bad(`${which} ${JSON.stringify(part)} is too large`);
    return n;
  }
}

/** True when the value raises an alert against the range. */
export function rangeAlerts(range: Range, value: number): boolean {
  const within = value >= range.start && value <= range.end;
  return range.inside ? within : !within;
}

/** The range written back in canonical form (numbers without units), e.g. for perfdata. */
export function formatRange(range: Range): string {
  const start = range.start === -Infinity ? '~' : formatDecimal(range.start);
  const end = range.end === Infinity ? '' : formatDecimal(range.end);
  const body = range.start === 0 && range.end !== Infinity ? end : `${start}:${end}`;
  return (range.inside ? '@' : '') + body;
}

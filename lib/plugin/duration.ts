import { UsageError } from './errors';

/** How one option reads a duration. */
export interface DurationRule {
  /**
   * A bare number is seconds (`-t 10`, as the plugin guidelines have it). Elsewhere it is
   * refused: `--window 15` read as 15 seconds, where 15 minutes was meant, judges the wrong
   * samples without a word.
   */
  bareSeconds?: boolean;
  /** The longest duration accepted, in seconds. */
  maxSeconds?: number;
  /** Days (`7d`, `30d`, `1d12h`) are accepted: for ages, lifetimes and time left, counted in days; not for delays of minutes. */
  days?: boolean;
}

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const UNITS = new RegExp(String.raw`^(?:${NUMBER}\s*d)?\s*(?:${NUMBER}\s*h)?\s*(?:${NUMBER}\s*m)?\s*(?:${NUMBER}\s*s)?$`);

/**
 * Parses `90s`, `15m`, `1h`, `1h30m`, `30d` (and, with `bareSeconds`, `10`) into seconds, for every
 * option that takes a duration; throws a UsageError naming `option` and what to write.
 */
export function parseDuration(text: string, option: string, rule: DurationRule = {}): number {
  const t = text.trim().toLowerCase();
  const bare = /^\d+(?:\.\d+)?$/.test(t);
  if (bare && !rule.bareSeconds) {
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: a duration needs a unit: ${t}s, ${t}m or ${t}h`);
  }
  const m = bare ? undefined : UNITS.exec(t);
  if (m?.[1] !== undefined && !rule.days)
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: expected a duration such as 900s, 15m or 1h (days as hours: ${Number(m[1]) * 24}h)`);
  const seconds = bare ? Number(t) : m ? Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0) : NaN;
  if ((!bare && !m) || t === '' || !(seconds > 0)) {
    const examples = rule.days ? '900s, 15m, 1h or 7d' : '900s, 15m or 1h';
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: expected a duration such as ${rule.bareSeconds ? '10 (seconds), ' : ''}${examples}`);
  }
  if (rule.maxSeconds !== undefined && seconds > rule.maxSeconds) {
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: at most ${formatDuration(rule.maxSeconds)}`);
  }
  return seconds;
}

/** Writes seconds back the way a user would type them: 900 → 15m, 3600 → 1h, 90 → 90s. */
export function formatDuration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${Math.round(seconds * 1000) / 1000}s`;
}

import { UsageError } from '../plugin/errors';

/**
 * Parses `90s`, `15m`, `1h`, `1h30m` into seconds; throws a UsageError naming the option. A
 * bare number is refused: `--window 15` read as 15 seconds, where 15 minutes was meant, judges
 * the wrong samples without a word.
 */
export function parseDuration(text: string, option: string): number {
  const t = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(t)) {
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: a duration needs a unit: ${t}s, ${t}m or ${t}h`);
  }
  const m = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(t);
  const seconds = m ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) : NaN;
  if (!m || t === '' || !(seconds > 0)) {
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: expected a duration such as 900s, 15m or 1h`);
  }
  return seconds;
}

/** Writes seconds back the way a user would type them: 900 → 15m, 3600 → 1h, 90 → 90s. */
export function formatDuration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${Math.round(seconds * 1000) / 1000}s`;
}

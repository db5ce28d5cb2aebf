import { expect } from 'vitest';
import type { RunResult } from '../support/spawn';

/** What every fault must end as: one UNKNOWN line (or the state asked for), fast, no trace. */
export function expectCleanFailure(
  r: RunResult,
  cause: RegExp,
  options: { timeoutSeconds: number; code?: number; secrets?: string[]; maxRssMb?: number },
): void {
  const code = options.code ?? 3;
  const state = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'][code];
  const context = `stdout=${JSON.stringify(r.stdout.slice(0, 2000))} stderr=${JSON.stringify(r.stderr.slice(0, 2000))} code=${r.code} ms=${r.ms}${r.maxRssKb === undefined ? '' : ` peak=${Math.round(r.maxRssKb / 1024)} MiB`}`;
  if (options.maxRssMb !== undefined) expect(r.maxRssKb ?? Number.POSITIVE_INFINITY, `peak memory; ${context}`).toBeLessThan(options.maxRssMb * 1024);
  expect(r.code, context).toBe(code);
  const lines = r.stdout.replace(/\n$/, '').split('\n');
  expect(lines, context).toHaveLength(1);
  expect(lines[0], context).toMatch(new RegExp(`^\\S+ ${state} - .+`));
  expect(lines[0], context).toMatch(cause);
  // Server text is quoted in excerpts: a flood of it never becomes the status line.
  expect(lines[0].length, `status line of ${lines[0].length} characters`).toBeLessThan(4096);
  expect(r.stdout, context).not.toMatch(/\n\s+at /);
  expect(r.stderr, context).toBe('');
  // Within a second of -t: a CPU-bound flood (66 MB of elements) on a host shared with two other
  // test lanes once took 0.78 s past it to stop and exit.
  expect(r.ms, context).toBeLessThan(options.timeoutSeconds * 1000 + 1000);
  for (const s of options.secrets ?? []) expect(r.stdout + r.stderr, 'secret leaked').not.toContain(s);
}

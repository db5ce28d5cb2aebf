// How the control-plane e2e files run a built plugin against a simulator's cluster API and what
// they ask of every answer: one clean line with the state, no stack trace, nothing on stderr.
import { resolve } from 'node:path';
import { expect } from 'vitest';
import type { Simulator } from '../../sim/simulator';
import { runExecutable, type RunResult } from './spawn';

const DIST = resolve(__dirname, '../../dist');
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

/** The cluster options of `sim` (its HTTPS URL, CA and token file), then `extra`. */
export const clusterArgs = (sim: Simulator, extra: string[] = []): string[] => [
  '--url',
  sim.apis.cluster.httpsUrl,
  '--ca-file',
  sim.caFile,
  '--token-file',
  sim.apis.cluster.info.tokenFile,
  ...extra,
];

/** Runs dist/`plugin` as an engine would (killed after `killAfterMs`, 20 s unless said). */
export const runPlugin = (plugin: string, argv: string[], killAfterMs?: number): Promise<RunResult> =>
  runExecutable(resolve(DIST, plugin), argv, { env: ENV, killAfterMs });

export const firstLine = (r: RunResult): string => r.stdout.split('\n')[0];

/** One clean line: the state, no stack trace, nothing on stderr. */
export function expectClean(r: RunResult, code: number, pattern: RegExp): void {
  expect(r.code, r.stdout + r.stderr).toBe(code);
  expect(firstLine(r)).toMatch(pattern);
  expect(r.stdout).not.toMatch(/\n\s+at |TypeError|RangeError/);
  expect(r.stderr).toBe('');
}

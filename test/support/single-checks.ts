// The single VM checks as the differential tests run them beside a fleet: the built executables,
// at most four at a time, so that a loaded host does not make them time out.
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { runExecutable } from './spawn';

const DIST = resolve(__dirname, '../../dist');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
let running = 0;
const waiting: Array<() => void> = [];

/** Runs dist/<exe> with -t 60 and gives its stdout; its stderr must be empty. */
export async function runSingle(exe: string, argv: string[]): Promise<string> {
  if (running >= 4) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    const r = await runExecutable(join(DIST, exe), [...argv, '-t', '60'], { env, killAfterMs: 70_000 });
    expect(r.stderr).toBe('');
    return r.stdout;
  } finally {
    running--;
    waiting.shift()?.();
  }
}

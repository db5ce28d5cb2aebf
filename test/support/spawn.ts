import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident memory of the process in KiB, when measured (`measureRss`). */
  maxRssKb?: number;
}

/** GNU time: reports the peak resident set of the command it runs (getrusage ru_maxrss). */
export const GNU_TIME = '/usr/bin/time';

/**
 * Runs an executable as a monitoring engine would: no stdin, stdout/stderr captured, bounded.
 * With `measureRss` it runs under GNU time, which writes the peak memory to a file of its own
 * (stdout and stderr stay the executable's); the whole process group is killed on expiry.
 */
export function runExecutable(
  file: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; killAfterMs?: number; measureRss?: boolean } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const dir = options.measureRss ? mkdtempSync(join(tmpdir(), 'cc-rss-')) : undefined;
    const [command, argv] = dir ? [GNU_TIME, ['-f', '%M', '-o', join(dir, 'rss'), file, ...args]] : [file, [...args]];
    const child = spawn(command, argv, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: dir !== undefined });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => {
      if (dir && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    }, options.killAfterMs ?? 20_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(killer);
      const result: RunResult = { code, stdout, stderr, ms: Date.now() - started };
      if (dir) {
        // The last line: GNU time writes "Command exited with non-zero status 3" before it.
        const lines = readFileSync(join(dir, 'rss'), 'utf8').trim().split('\n');
        result.maxRssKb = Number(lines[lines.length - 1]);
        rmSync(dir, { recursive: true, force: true });
      }
      resolve(result);
    });
  });
}

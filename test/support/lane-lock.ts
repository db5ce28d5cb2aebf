import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Holds an exclusive lock on `file` across processes until the returned function is called: a
 * `flock` child that keeps the lock while its stdin is open, so a test run that dies releases it
 * too. `make test` runs the e2e files on two Node.js versions in two lanes at once; the files
 * whose tests time a run to half a second take this lock so that they never run side by
 * side on the host's cores. The wait happens before their tests, never inside a timed one.
 */
export async function holdLock(file: string, waitMs: number): Promise<() => void> {
  mkdirSync(dirname(file), { recursive: true });
  const child = spawn('flock', ['--exclusive', '--timeout', String(Math.ceil(waitMs / 1000)), file, '-c', 'echo held; exec cat'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`flock ${file}: exit ${code} (not held within ${waitMs} ms)`)));
    child.stdout.once('data', () => resolve());
  });
  return () => {
    child.stdin.end();
  };
}

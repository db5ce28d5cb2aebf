// An attacker's trick against a root job: open a file, keep the descriptor, and read it after
// the job has run, whatever the name points to by then.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/**
 * Has `user` open `held` now and read it through that descriptor once `release()` is called
 * (at most 60 s later); `release()` resolves to what it read, `stop()` ends it either way.
 */
export function holdOpenAs(user: string, held: string, go: string): { release: () => Promise<string>; stop: () => void } {
  const reader = spawn('runuser', [
    '-u',
    user,
    '--',
    '/bin/sh',
    '-c',
    'exec 3<"$1"; i=0; while [ ! -e "$2" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; cat <&3',
    'sh',
    held,
    go,
  ]);
  let seen = '';
  reader.stdout.on('data', (d: Buffer) => (seen += d.toString()));
  const done = new Promise((resolve) => reader.on('close', resolve));
  return {
    release: async () => {
      writeFileSync(go, '');
      await done;
      return seen;
    },
    stop: () => reader.kill(),
  };
}

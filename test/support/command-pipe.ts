// A named pipe standing in for Nagios's external command file: what a plugin writes to it.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, createReadStream, openSync } from 'node:fs';

/** Makes the pipe at `path` and reads it; `written()` gives its lines once the writer has closed it. */
export function commandPipe(path: string): { path: string; written(): Promise<string[]> } {
  execFileSync('mkfifo', ['-m', '0600', path]);
  // Held open so that the writer finds a reader before the stream below has opened it.
  const present = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let text = '';
  const reading = new Promise<void>((done) =>
    createReadStream(path, { encoding: 'utf8' })
      .on('data', (d) => (text += d))
      .on('end', () => done()),
  );
  return {
    path,
    written: async () => {
      await reading;
      closeSync(present);
      return text.split('\n').filter(Boolean);
    },
  };
}

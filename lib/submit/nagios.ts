// Passive check results for Nagios: PROCESS_SERVICE_CHECK_RESULT lines written to its external
// command file, the named pipe Nagios reads (command_file in nagios.cfg).
import { closeSync, constants, fstatSync, openSync, statSync, write } from 'node:fs';
import { dirname } from 'node:path';
import { blankControlCharacters, hasControlCharacters } from '../plugin/control-characters';
import { CheckError } from '../plugin/errors';
import type { PassiveResult } from './passive-result';

/**
 * A FIFO takes a write of at most PIPE_BUF bytes (4096 on Linux) whole, never interleaved with
 * another writer's (the web interface's commands): each write is whole lines within it.
 */
const PIPE_BUF = 4096;

/** One command line, output and perfdata included, cut to fit one atomic write. */
export function serviceResultCommand(result: PassiveResult, epochSeconds: number): string {
  for (const [what, name] of [
    ['host', result.host],
    ['service', result.service],
  ]) {
    // These fields end at `;`; a name holding one would shift the state into another field.
    if (name === '' || name.includes(';') || hasControlCharacters(name))
      throw new CheckError(
        `cannot write ${what} name ${JSON.stringify(blankControlCharacters(name))} into a Nagios command: it is empty or holds ';' or a control character`,
      );
  }
  // The output runs to the end of the line: no character in it can reach another field, but a
  // line break would start a command of its own. Long output travels as escaped \n, which
  // Nagios turns back into lines.
  const output = [result.output + (result.perfdata.length > 0 ? `|${result.perfdata.join(' ')}` : ''), ...result.longOutput]
    .map((line) => blankControlCharacters(line))
    .join('\\n');
  const head = `[${Math.floor(epochSeconds)}] PROCESS_SERVICE_CHECK_RESULT;${result.host};${result.service};${result.state};`;
  const room = PIPE_BUF - 1 - Buffer.byteLength(head);
  if (room < 16) throw new CheckError(`Nagios command for ${result.host}!${result.service} would be longer than ${PIPE_BUF} bytes`);
  return `${head}${cutToBytes(output, room)}\n`;
}

/** At most `bytes` bytes of UTF-8, cut between characters and never after a lone backslash of an escape. */
function cutToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let cut = Buffer.from(text)
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  if (/(^|[^\\])(\\\\)*\\$/.test(cut)) cut = cut.slice(0, -1);
  return cut;
}

/** Whole lines packed into writes of at most PIPE_BUF bytes. */
function packWrites(lines: readonly string[]): Buffer[] {
  const writes: Buffer[] = [];
  let pending = '';
  for (const line of lines) {
    if (pending !== '' && Buffer.byteLength(pending) + Buffer.byteLength(line) > PIPE_BUF) {
      writes.push(Buffer.from(pending));
      pending = '';
    }
    pending += line;
  }
  if (pending !== '') writes.push(Buffer.from(pending));
  return writes;
}

/**
 * Opens the command file for writing without blocking: a FIFO nobody reads would block an
 * ordinary open forever. Refuses what is not a FIFO, and a FIFO that any local user may
 * write or swap (another user could then read the results meant for Nagios, or feed it).
 */
export function openCommandFile(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | constants.O_NOCTTY);
  } catch (error) {
    throw openFailure(path, (error as NodeJS.ErrnoException).code ?? 'error');
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFIFO())
      throw new CheckError(`Nagios command file ${path} is not a named pipe; give the command_file of nagios.cfg (Debian: /var/lib/nagios4/rw/nagios.cmd)`);
    if (st.mode & 0o002)
      throw new CheckError(
        `Nagios command file ${path} is writable by every local user (mode ${modeText(st.mode)}), so anyone may send Nagios commands; chmod o-w ${path} (Nagios makes it 0660)`,
      );
    const dir = dirname(path);
    const dirMode = statSync(dir).mode;
    if (dirMode & 0o002)
      throw new CheckError(
        `the directory ${dir} of the Nagios command file is writable by every local user (mode ${modeText(dirMode)}), so anyone could put a pipe of their own in its place; chmod o-w ${dir}`,
      );
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error instanceof CheckError ? error : openFailure(path, (error as NodeJS.ErrnoException).code ?? 'error');
  }
}

function modeText(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

function openFailure(path: string, code: string): CheckError {
  const why: Record<string, string> = {
    ENXIO: 'no process reads it (ENXIO): Nagios is not running, or check_external_commands=0 in nagios.cfg',
    ENOENT: 'it does not exist (ENOENT): Nagios creates it at start when check_external_commands=1; check command_file in nagios.cfg',
    EACCES: "this user may not write it (EACCES): add the user to the command file's group (Debian: nagios)",
    ELOOP: 'it is a symbolic link (ELOOP); give the path of the pipe itself',
  };
  return new CheckError(`cannot write to the Nagios command file ${path}: ${why[code] ?? `open failed (${code})`}`);
}

/**
 * Writes one command line per result to the command file and resolves with the number
 * written. A full pipe (Nagios busy) is retried until `deadline` (ms since the epoch), then
 * a CheckError says how many got through.
 */
export async function submitToNagios(
  results: readonly PassiveResult[],
  path: string,
  options: { deadline: number; now?: number; signal?: AbortSignal },
): Promise<number> {
  const now = (options.now ?? Date.now()) / 1000;
  const lines = results.map((r) => serviceResultCommand(r, now));
  const fd = openCommandFile(path);
  let written = 0;
  try {
    for (const chunk of packWrites(lines)) {
      await writeWhole(fd, chunk, path, options, written, results.length);
      written += chunk.toString('utf8').split('\n').length - 1;
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

async function writeWhole(
  fd: number,
  chunk: Buffer,
  path: string,
  options: { deadline: number; signal?: AbortSignal },
  done: number,
  total: number,
): Promise<void> {
  for (;;) {
    try {
      const n = await new Promise<number>((resolve, reject) =>
        write(fd, chunk, 0, chunk.length, null, (error, bytes) => (error ? reject(error) : resolve(bytes))),
      );
      // A write of at most PIPE_BUF bytes to a pipe is all or nothing.
      if (n === chunk.length) return;
      throw new CheckError(`short write to the Nagios command file ${path} (${n} of ${chunk.length} bytes)`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE')
        throw new CheckError(`Nagios closed its command file ${path} after ${done} of ${total} results (EPIPE); check that Nagios is running`);
      if (code !== 'EAGAIN')
        throw error instanceof CheckError ? error : new CheckError(`cannot write to the Nagios command file ${path} (${code ?? String(error)})`);
      if (Date.now() >= options.deadline || options.signal?.aborted)
        throw new CheckError(
          `the Nagios command file ${path} stayed full: ${done} of ${total} results written before the timeout; Nagios reads it too slowly, raise -t`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

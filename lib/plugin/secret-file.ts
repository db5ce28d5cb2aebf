import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { CheckError } from './errors';
import type { Notes } from './notes';

/**
 * Reads a file that holds a secret (token, password): one open, and its mode read from the
 * same descriptor, so that a file others may read is reported in `notes` (shown at -v).
 * Returns the text as it is; callers strip what their secret may not contain.
 */
export function readSecretFile(path: string, label: string, notes: Notes): string {
  const unreadable = (error: unknown) =>
    new CheckError(
      `cannot read ${label} ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}); check the path and that the monitoring user may read it`,
    );
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw unreadable(error);
  }
  try {
    const mode = fstatSync(fd).mode & 0o777;
    if (mode & 0o077) notes.add(`${label} ${path} is readable by others (mode ${mode.toString(8).padStart(4, '0')}); chmod 600 it`);
    return readFileSync(fd, 'utf8');
  } catch (error) {
    throw unreadable(error);
  } finally {
    closeSync(fd);
  }
}

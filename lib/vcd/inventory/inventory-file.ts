import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { CheckError } from '../../plugin/errors';
import type { DiscoveryFormat } from './discovery';

/** A new inventory below this share of the existing one's hosts is refused unless allowed. */
export const SHRINK_LIMIT = 0.5;

/** How many hosts an inventory of this format holds; undefined when the text is not one. */
export function countInventoryHosts(format: DiscoveryFormat, text: string): number | undefined {
  if (format === 'icinga2') return text.match(/^object Host /gm)?.length ?? 0;
  if (format === 'nagios') return text.match(/^define host \{/gm)?.length ?? 0;
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.length : undefined;
  } catch {
    return undefined;
  }
}

/** What writing the inventory did. */
export interface InventoryWrite {
  /** false: the file already held this text and was left untouched (mtime too). */
  changed: boolean;
  /** Hosts of the file that was there before; undefined when there was none. */
  previous?: number;
}

/** Why a file could not be read or written, in words that name the path and the fix. */
function fileError(path: string, error: unknown, doing: string): CheckError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied (run discovery as a user that may write there)'
      : code === 'ENOENT'
        ? 'no such directory'
        : (error as Error).message;
  return new CheckError(`cannot ${doing} --discovery-file ${path}: ${why}; the existing file is kept`);
}

/**
 * Writes a discovery inventory so that an engine never loads a half-written, empty or
 * sharply smaller one: the text goes to a temporary name in the same directory (a name no
 * engine loads: it does not end in .conf or .cfg) and is renamed over the file only when
 * complete. The file's mode is kept. The same text leaves the file untouched, so that a
 * reload can be skipped. No host at all, or fewer than half the hosts of the existing file,
 * is refused unless `allowShrink`. `noun` names what the hosts are (VM, VDC, provider VDC).
 */
export function writeInventory(path: string, format: DiscoveryFormat, text: string, allowShrink: boolean, noun = 'VM'): InventoryWrite {
  let old: string | undefined;
  let mode = 0o644;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new CheckError(`--discovery-file ${path} is not a regular file; give the path of the inventory file`);
    mode = st.mode & 0o7777;
    old = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof CheckError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(path, error, 'read');
  }
  const count = countInventoryHosts(format, text) ?? 0;
  const previous = old === undefined ? undefined : countInventoryHosts(format, old);
  if (old === text) return { changed: false, previous };
  if (!allowShrink) {
    if (count === 0) {
      throw new CheckError(
        `discovery found no ${noun}, so ${path} is kept${previous ? ` with its ${previous} hosts` : ''}: check --vapp/--include/--exclude and the account's rights, or give --allow-shrink to write an empty inventory`,
      );
    }
    if (previous !== undefined && count < previous * SHRINK_LIMIT) {
      throw new CheckError(
        `discovery found ${count} ${noun}s where ${path} has ${previous} hosts (fewer than half), so the file is kept: check the account's rights and the selection, or give --allow-shrink to accept the smaller inventory`,
      );
    }
  }
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(temp, 'wx', 0o600);
  } catch (error) {
    throw fileError(path, error, 'write');
  }
  try {
    const buffer = Buffer.from(text);
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(fd, buffer, offset);
    fchmodSync(fd, mode);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(temp);
    } catch {
      // never created or already renamed
    }
    throw fileError(path, error, 'write');
  }
  return { changed: true, previous };
}

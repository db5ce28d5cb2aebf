import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { homedir, hostname, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A private, per-user cache of small JSON entries that survive between runs (sessions,
 * credentials from exec plugins, resolved names), safe against a hostile local user and a
 * broken file system:
 *
 * - the directory must be owned by this user and writable by nobody else (its parents
 *   may be shared only if sticky, like /tmp); a missing one is created 0700, parents too;
 * - every file is opened with O_NOFOLLOW (no symlink is followed) and O_NONBLOCK (a FIFO
 *   cannot hang the check), and must be a regular file of this user, not writable by
 *   others, of bounded size;
 * - each entry stores its *binding* (the public key material it belongs to: URL, user,
 *   org …) and is refused when it does not match the reader's, so a file renamed to
 *   another entry's name is worthless;
 * - writes go to a temp file with a random name created exclusively, then rename;
 *   locks are created exclusively too, and name their holder so a dead one can be broken.
 *
 * The cache never fails a check: every problem is a note (for -v) and the caller goes on
 * without it ("log in and out"). It never blocks: no call waits on the file system except
 * for ordinary local I/O, and the one call that waits for another process (`produceOnce`)
 * stops waiting well before the caller's deadline.
 *
 * Usage:
 * ```ts
 * const cache = new PrivateCache(dir ?? defaultCacheDir());
 * const binding = { server: url.origin, user };           // public values only, no secrets
 * const name = entryName('kube-exec', binding);             // 'kube-exec-<40 hex>'
 * const hit = cache.read(name, binding, (d) => (typeof d === 'string' ? d : undefined));
 * if (!hit || Date.now() - hit.created > ttl) cache.write(name, binding, await fetchIt());
 * for (const n of cache.notes) context.log(2, n);
 * ```
 */

/** Public key material of an entry: what it belongs to. Never put a secret here (store its hash). */
export type CacheBinding = Readonly<Record<string, string | number | boolean | null>>;

/** Per-entry limits that differ from the cache's own. */
export interface EntryBounds {
  /** Largest entry file read or written. */
  maxEntryBytes?: number;
}

/** One entry as read back: the data, and when it was written (ms since the epoch). */
export interface CacheHit<T> {
  value: T;
  created: number;
}

/** Bytes an entry file may have by default; larger ones are refused unread. */
export const DEFAULT_MAX_ENTRY_BYTES = 64 * 1024;

const FORMAT = 1;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * The default cache directory: $XDG_CACHE_HOME/cloudchecks when that variable is an absolute
 * path that is this user's directory (or does not exist yet), else .cache/cloudchecks in the
 * home directory of the user running the check, as the password database names it. $HOME is
 * not read: an engine started from a root shell passes HOME=/root to checks that run as its
 * own user, who cannot write there.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && xdg.startsWith('/') && ownedOrMissing(xdg)) return join(xdg, 'cloudchecks');
  return join(ownHome(), '.cache', 'cloudchecks');
}

/** The running user's home from the password database; $HOME only when that has no entry. */
function ownHome(): string {
  try {
    const home = userInfo().homedir;
    if (home) return home;
  } catch {
    // no entry for this uid (a container's arbitrary uid)
  }
  return homedir();
}

/** True when `dir` does not exist or is a directory of this user. */
function ownedOrMissing(dir: string): boolean {
  try {
    const st = statSync(dir);
    return st.isDirectory() && (uid() === undefined || st.uid === uid());
  } catch (error) {
    return errorCode(error) === 'ENOENT';
  }
}

/** The file name of the entry bound to `binding`: `<prefix>-<hash>`, revealing nothing of the binding. */
export function entryName(prefix: string, binding: CacheBinding): string {
  return `${prefix}-${createHash('sha256').update(canonical(binding)).digest('hex').slice(0, 40)}`;
}

/** A binding as one string, independent of the order its keys were written in. */
function canonical(binding: CacheBinding): string {
  return JSON.stringify(
    Object.keys(binding)
      .sort()
      .map((k) => [k, binding[k]]),
  );
}

const uid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);
const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;
const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(4, '0');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LockInfo {
  pid: number;
  host: string;
  time: number;
}

/** See the module comment. One instance per directory and run. */
export class PrivateCache {
  /** What went wrong with the cache, for -v. */
  readonly notes: string[] = [];
  private checked: boolean | undefined;
  private realDir: string | undefined;
  private readonly maxEntryBytes: number;
  private readonly label: string;
  private readonly fallback: string;

  constructor(
    /** The directory as configured (--cache-dir or the default). */
    readonly dir: string,
    options: {
      /** Largest entry file read or written (default 64 KiB); a read or write may allow more. */
      maxEntryBytes?: number;
      /** What the cache is called in notes, e.g. 'session cache' (default 'cache'). */
      label?: string;
      /** What the caller does without it, e.g. 'logging in without it'. */
      fallback?: string;
    } = {},
  ) {
    this.maxEntryBytes = options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
    this.label = options.label ?? 'cache';
    this.fallback = options.fallback ?? 'going on without it';
  }

  /** False once the directory was refused or could not be written: callers go on without a cache. */
  get usable(): boolean {
    return this.checked !== false;
  }

  /** The path of an entry's file (for messages; the cache itself opens it safely). */
  path(name: string): string {
    return join(this.realDir ?? this.dir, name);
  }

  /**
   * Checks the directory once per run, creating it (0700, parents as needed) when missing:
   * it must be a directory owned by this user that nobody else may write, under parents
   * that nobody else may rename it in. False (with a note) when it cannot be used.
   */
  ready(): boolean {
    if (this.checked !== undefined) return this.checked;
    try {
      makeDirectories(this.dir);
      // Symlinks along the way are resolved first, so that what is checked is what is used.
      const real = realpathSync(this.dir);
      const problem = directoryProblem(real);
      if (problem) return this.refuse(problem);
      this.realDir = real;
      this.checked = true;
    } catch (error) {
      this.unusable(error);
      return false;
    }
    return true;
  }

  /**
   * The entry `name` if it is a safe file whose stored binding equals `binding` and whose
   * data `accept` takes (returning undefined refuses it); undefined otherwise, with a note
   * unless the entry simply does not exist. `bounds.maxEntryBytes` overrides the cache's
   * bound for an entry known to be larger (names resolved for a fleet).
   */
  read<T>(name: string, binding: CacheBinding, accept: (data: unknown) => T | undefined, bounds: EntryBounds = {}): CacheHit<T> | undefined {
    const text = this.readFile(name, false, bounds.maxEntryBytes ?? this.maxEntryBytes);
    if (text === undefined) return undefined;
    let doc: { format?: unknown; binding?: unknown; created?: unknown; data?: unknown };
    try {
      doc = JSON.parse(text) as typeof doc;
    } catch {
      this.note(`ignoring ${this.path(name)}: corrupt`);
      return undefined;
    }
    if (doc === null || typeof doc !== 'object' || doc.format !== FORMAT || typeof doc.created !== 'number') {
      this.note(`ignoring ${this.path(name)}: not a cache entry`);
      return undefined;
    }
    // Flat values only (as written): a deeply nested one must not reach JSON.stringify.
    const flat = typeof doc.binding === 'object' && doc.binding !== null && Object.values(doc.binding).every((v) => v === null || typeof v !== 'object');
    if (!flat || canonical(doc.binding as CacheBinding) !== canonical(binding)) {
      this.note(`ignoring ${this.path(name)}: it belongs to another ${Object.keys(binding).join('/')}`);
      return undefined;
    }
    const value = accept(doc.data);
    if (value === undefined) {
      this.note(`ignoring ${this.path(name)}: not the expected entry`);
      return undefined;
    }
    return { value, created: doc.created };
  }

  /**
   * Stores `data` (JSON) as entry `name` bound to `binding`: written to a temp file with an
   * unpredictable name created exclusively (0600), then renamed over the entry, so a reader
   * never sees half a file and nobody can plant a symlink where it writes. False (and the
   * cache becomes unusable, with a note) when that fails. `bounds` as for `read`.
   */
  write(name: string, binding: CacheBinding, data: unknown, bounds: EntryBounds = {}): boolean {
    if (!this.ready()) return false;
    const text = JSON.stringify({ format: FORMAT, binding, created: Date.now(), data });
    const max = bounds.maxEntryBytes ?? this.maxEntryBytes;
    if (Buffer.byteLength(text) > max) {
      this.note(`not caching ${this.path(name)}: larger than ${max} bytes`);
      return false;
    }
    const tmp = this.path(`${checkName(name)}.${randomBytes(12).toString('hex')}.tmp`);
    try {
      const fd = openSync(tmp, CREATE_FLAGS, 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.path(name));
      return true;
    } catch (error) {
      this.remove(tmp.slice(tmp.lastIndexOf('/') + 1));
      this.unusable(error);
      return false;
    }
  }

  /** Deletes an entry (or lock) if it is there. */
  remove(name: string): void {
    try {
      unlinkSync(this.path(checkName(name)));
    } catch {
      // not there
    }
  }

  /**
   * Takes the lock `name` (created exclusively, naming this process). True when taken;
   * false when another process holds it, or when the cache is unusable (see `usable`).
   */
  tryLock(name: string): boolean {
    if (!this.ready()) return false;
    let fd: number;
    try {
      fd = openSync(this.path(checkName(name)), CREATE_FLAGS, 0o600);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') this.unusable(error);
      return false;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now() } satisfies LockInfo));
    } catch (error) {
      // A lock nobody can read (a full disk) would hold every other check up until it aged.
      closeSync(fd);
      this.remove(name);
      this.unusable(error);
      return false;
    }
    closeSync(fd);
    return true;
  }

  /** Releases a lock taken with tryLock (unless another process broke it already). */
  unlock(name: string): void {
    this.remove(name);
  }

  /**
   * Removes the lock `name` when its holder is gone (same host, dead pid), when it names no
   * holder a second after it was made (its writer hit a full disk), or when it is older
   * than `maxAgeMs` (longer than any holder may run). True when it was broken.
   */
  breakStaleLock(name: string, maxAgeMs: number): boolean {
    let age: number;
    try {
      age = Date.now() - lstatSync(this.path(checkName(name))).mtimeMs;
    } catch {
      return false; // released meanwhile
    }
    let info: Partial<LockInfo> = {};
    try {
      info = JSON.parse(this.readFile(name, true, this.maxEntryBytes) ?? '') as Partial<LockInfo>;
    } catch {
      // still being written, or released: judged by its age alone
    }
    const dead = typeof info.pid === 'number' && info.host === hostname() && !processAlive(info.pid);
    const orphan = typeof info.pid !== 'number' && age > 1000;
    if (!dead && !orphan && age <= maxAgeMs) return false;
    try {
      unlinkSync(this.path(name));
    } catch {
      return false; // another waiter broke it first
    }
    this.note(
      `broke a stale lock ${this.path(name)} (${dead ? `holder pid ${info.pid} is gone` : orphan ? 'it names no holder' : `older than ${Math.round(age / 1000)}s`})`,
    );
    return true;
  }

  /**
   * A value made by one process at a time (a login, an exec plugin's run): `cached()` if it
   * gives one, else `produce()` under the lock `lockName`, after trying `cached()` again
   * (another process may have finished between the read and the lock). While another
   * process holds the lock this one polls, breaking the lock once older than
   * `lockTimeoutMs`, and gives up waiting early enough to leave time before `deadline`
   * for the request the value is for; then, or without a usable cache, it runs
   * `produceUnlocked()` (default `produce`). `cached()` may throw to end the wait.
   */
  async produceOnce<T>(
    lockName: string,
    options: { deadline: number; lockTimeoutMs: number; waitingFor: string },
    steps: { cached: () => T | undefined; produce: () => Promise<T>; produceUnlocked?: () => Promise<T> },
  ): Promise<T> {
    const waitUntil = options.deadline - Math.min(2000, (options.deadline - Date.now()) / 4);
    let waited = false;
    while (this.ready()) {
      const cached = steps.cached();
      if (cached !== undefined) return cached;
      if (this.tryLock(lockName)) {
        if (waited) {
          // The check this one waited for left nothing to read (its cache write failed, a full
          // file system): making the value under the lock would queue every waiting check
          // behind the one before it. Each makes its own, at once.
          let again: T | undefined;
          try {
            again = steps.cached();
          } finally {
            this.unlock(lockName);
          }
          if (again !== undefined) return again;
          this.note(`another check could not leave what it made to ${options.waitingFor} in the cache`);
          break;
        }
        try {
          return steps.cached() ?? (await steps.produce());
        } finally {
          this.unlock(lockName);
        }
      }
      if (!this.usable) break;
      if (Date.now() >= waitUntil) {
        this.note(`gave up waiting for another check to ${options.waitingFor}`);
        break;
      }
      this.breakStaleLock(lockName, options.lockTimeoutMs);
      waited = true;
      await sleep(25 + Math.floor(Math.random() * 25));
    }
    return (steps.produceUnlocked ?? steps.produce)();
  }

  /** Adds a note for -v (once). */
  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /**
   * The text of file `name`, read only if it is a regular file of this user that others may
   * not write, no larger than the bound; undefined (with a note unless it is missing) else.
   */
  private readFile(name: string, quiet: boolean, max: number): string | undefined {
    if (!this.ready()) return undefined;
    const file = this.path(checkName(name));
    let fd: number;
    try {
      fd = openSync(file, READ_FLAGS);
    } catch (error) {
      const code = errorCode(error);
      // ELOOP: a symlink, refused by O_NOFOLLOW.
      if (code !== 'ENOENT' && !quiet) this.note(`ignoring ${file}: ${code === 'ELOOP' ? 'a symbolic link' : `cannot open (${code})`}`);
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      const me = uid();
      let problem: string | undefined;
      if (!st.isFile()) problem = 'not a regular file';
      else if (me !== undefined && st.uid !== me) problem = `owned by uid ${st.uid}, not by this user (${me})`;
      else if ((st.mode & 0o022) !== 0) problem = `writable by others (mode ${octal(st.mode)})`;
      else if (st.size > max) problem = `larger than ${max} bytes`;
      if (problem) {
        if (!quiet) this.note(`ignoring ${file}: ${problem}`);
        return undefined;
      }
      // Read at most one byte more than allowed: a file that grows meanwhile is still bounded.
      const buffer = Buffer.alloc(max + 1);
      let length = 0;
      for (;;) {
        const n = readSync(fd, buffer, length, buffer.length - length, null);
        if (n === 0) break;
        length += n;
        if (length === buffer.length) {
          if (!quiet) this.note(`ignoring ${file}: larger than ${max} bytes`);
          return undefined;
        }
      }
      return buffer.toString('utf8', 0, length);
    } catch (error) {
      if (!quiet) this.note(`ignoring ${file}: cannot read (${errorCode(error)})`);
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  private refuse(why: string): false {
    this.checked = false;
    this.note(`${this.label} ${this.dir} not used (${why}); ${this.fallback}`);
    return false;
  }

  private unusable(error: unknown): void {
    this.checked = false;
    this.note(`${this.label} ${this.dir} unusable (${errorCode(error)}); ${this.fallback}`);
  }
}

/** Why directory `real` (symlinks resolved) is unsafe to keep secrets in, or undefined. */
function directoryProblem(real: string): string | undefined {
  const me = uid();
  const st = lstatSync(real);
  if (!st.isDirectory()) return 'not a directory';
  if (me === undefined) return undefined; // no owners to compare (Windows)
  if (st.uid !== me) return `owned by uid ${st.uid}, not by this user (${me}); use a directory of your own`;
  // Sticky or not: anybody who may write it may create entries, locks and records in it.
  if ((st.mode & 0o022) !== 0) return `writable by group or others (mode ${octal(st.mode)}); chmod 700 ${real}`;
  // A parent that others may write (without the sticky bit) lets them rename ours away and
  // put theirs in its place; one owned by another user (not root) lets that user do so.
  for (let parent = dirname(real); ; parent = dirname(parent)) {
    const p = lstatSync(parent);
    if (p.uid !== me && p.uid !== 0) return `its parent ${parent} is owned by uid ${p.uid}; use a directory under one of your own`;
    if ((p.mode & 0o022) !== 0 && (p.mode & 0o1000) === 0)
      return `its parent ${parent} is writable by others (mode ${octal(p.mode)}); use a directory under one of your own`;
    if (parent === '/' || dirname(parent) === parent) break;
  }
  return undefined;
}

function checkName(name: string): string {
  // Callers derive names from entryName(): anything else is a bug, not an input to tolerate.
  if (!NAME.test(name)) throw new Error(`invalid cache entry name ${JSON.stringify(name)}`);
  return name;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates a directory and its missing parents (0700), one level at a time. Node's own
 * recursive mkdir never returns on some paths (/proc/x: mkdir answers ENOENT for ever), and a
 * plugin must not hang past its timeout whatever --cache-dir says.
 */
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    try {
      lstatSync(d);
      break;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || dirname(d) === d || missing.length >= 64) throw error;
      missing.push(d);
    }
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }
}

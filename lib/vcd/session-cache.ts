import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { CheckError } from '../plugin/errors';
import type { Credentials, VcdSession } from './login';

/** The default cache directory: $XDG_CACHE_HOME/cloudchecks or ~/.cache/cloudchecks. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'cloudchecks');
}

/**
 * The file stem of the cache entry of one url+user+org (and API token): a hash, so that
 * neither the name nor a directory listing reveals a secret.
 */
export function cacheKey(base: URL, creds: Credentials): string {
  const token = creds.kind === 'api-token' ? createHash('sha256').update(creds.refreshToken).digest('hex') : '';
  const material = JSON.stringify([base.origin, creds.kind, creds.user ?? '', creds.org.toLowerCase(), token]);
  return 'vcd-' + createHash('sha256').update(material).digest('hex').slice(0, 40);
}

interface LockInfo {
  pid: number;
  host: string;
  time: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One session kept between runs (SPEC 4.2): a 0600 file in a 0700 directory, replaced
 * atomically, and a lock so that concurrent checks with no valid session make one login.
 * The cache never fails a check: every problem becomes a note and a fresh login.
 */
export class SessionCache {
  readonly file: string;
  readonly lockFile: string;
  /** The last failed login (time and message), shared with the checks that waited for it. */
  readonly failureFile: string;
  /** What went wrong with the cache, for -v. */
  readonly notes: string[] = [];
  private usable = true;

  /** False once the cache could not be written: the session will not be kept for later runs. */
  get keepsSessions(): boolean {
    return this.usable;
  }

  constructor(
    readonly dir: string,
    key: string,
    /** A lock older than this is abandoned (its holder's timeout has long expired). */
    private readonly lockTimeoutMs: number,
  ) {
    this.file = join(dir, `${key}.json`);
    this.lockFile = join(dir, `${key}.lock`);
    this.failureFile = join(dir, `${key}.failed`);
  }

  /** The cached session, or undefined when there is none or it cannot be trusted. */
  read(): VcdSession | undefined {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.note(`cannot read ${this.file} (${(error as NodeJS.ErrnoException).code})`);
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      // Someone else's file, or one others may write, could hand us a session of their choosing.
      if (typeof process.getuid === 'function' && (st.uid !== process.getuid() || (st.mode & 0o022) !== 0)) {
        this.note(`ignoring ${this.file}: not owned by this user or writable by others`);
        return undefined;
      }
      const data = JSON.parse(readFileSync(fd, 'utf8')) as Partial<VcdSession>;
      if ((data.auth === 'bearer' || data.auth === 'legacy') && typeof data.token === 'string' && data.token !== '') {
        return { auth: data.auth, token: data.token };
      }
      this.note(`ignoring ${this.file}: not a session entry`);
    } catch {
      this.note(`ignoring ${this.file}: corrupt`);
    } finally {
      closeSync(fd);
    }
    return undefined;
  }

  /** Stores a session: temp file then rename, so a reader never sees half a file. */
  write(session: VcdSession): void {
    if (!this.usable) return;
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    try {
      this.ensureDir();
      const fd = openSync(tmp, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ auth: session.auth, token: session.token, created: new Date().toISOString() }));
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch (error) {
      this.unusable(error);
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
    }
  }

  /**
   * A session that is not `staleToken`: the cached one if valid, else one from `login`, made
   * by this process under the lock or by another process while this one waited.
   */
  async obtain(login: () => Promise<VcdSession>, options: { deadline: number; staleToken?: string }): Promise<VcdSession> {
    // Leave time for the metrics request after waiting for another process's login.
    const waitUntil = options.deadline - Math.min(2000, (options.deadline - Date.now()) / 4);
    while (this.usable) {
      const cached = this.read();
      if (cached && cached.token !== options.staleToken) return cached;
      this.throwSharedFailure();
      if (this.tryLock()) {
        try {
          const again = this.read(); // another process may have finished between our read and our lock
          if (again && again.token !== options.staleToken) return again;
          this.throwSharedFailure();
          let session: VcdSession;
          try {
            session = await login();
          } catch (error) {
            this.recordFailure(error);
            throw error;
          }
          this.write(session);
          this.forget(this.failureFile);
          return session;
        } finally {
          this.unlock();
        }
      }
      if (!this.usable) break;
      if (Date.now() >= waitUntil) {
        this.note('gave up waiting for another check to log in');
        break;
      }
      this.breakStaleLock();
      await sleep(25 + Math.floor(Math.random() * 25));
    }
    const session = await login();
    this.write(session);
    return session;
  }

  /**
   * A login that failed a moment ago (within the lock timeout) is not repeated: twenty checks
   * rejected at once would trip vCD's account lockout. They report the same failure instead.
   */
  private throwSharedFailure(): void {
    let failure: { time?: number; message?: string };
    try {
      failure = JSON.parse(readFileSync(this.failureFile, 'utf8')) as typeof failure;
    } catch {
      return;
    }
    const age = Date.now() - (failure.time ?? 0);
    if (typeof failure.message === 'string' && age >= 0 && age < this.lockTimeoutMs) {
      const window = Math.round(this.lockTimeoutMs / 1000);
      throw new CheckError(`${failure.message} (a login ${(age / 1000).toFixed(1)}s ago by another check; not retried for ${window}s, to spare the account a lockout)`);
    }
  }

  private recordFailure(error: unknown): void {
    if (!(error instanceof CheckError)) return;
    const tmp = `${this.failureFile}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ time: Date.now(), message: error.message }), { mode: 0o600 });
      renameSync(tmp, this.failureFile);
    } catch {
      // only an optimisation for concurrent checks
    }
  }

  private tryLock(): boolean {
    try {
      this.ensureDir();
      const fd = openSync(this.lockFile, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now() } satisfies LockInfo));
      } catch (error) {
        // A lock nobody can read (a full disk) would hold every other check up until it aged.
        this.forget(this.lockFile);
        throw error;
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') this.unusable(error);
      return false;
    }
  }

  private unlock(): void {
    this.forget(this.lockFile); // unless another process broke it already
  }

  private forget(file: string): void {
    try {
      unlinkSync(file);
    } catch {
      // not there
    }
  }

  /** Removes a lock whose holder died or has held it longer than any check may run. */
  private breakStaleLock(): void {
    let age: number;
    let info: Partial<LockInfo> = {};
    try {
      age = Date.now() - statSync(this.lockFile).mtimeMs;
    } catch {
      return; // released meanwhile
    }
    try {
      info = JSON.parse(readFileSync(this.lockFile, 'utf8')) as Partial<LockInfo>;
    } catch {
      // still being written, or released: judged by its age alone
    }
    const dead = typeof info.pid === 'number' && info.host === hostname() && !processAlive(info.pid);
    // A holder writes its pid the moment it creates the lock: one still without it after a
    // second was left by a process that could not write (full disk) and will never release it.
    const orphan = info.pid === undefined && age > 1000;
    if (dead || orphan || age > this.lockTimeoutMs) {
      try {
        unlinkSync(this.lockFile);
        this.note(`broke a stale lock ${this.lockFile} (${dead ? `holder pid ${info.pid} is gone` : orphan ? 'it names no holder' : `older than ${Math.round(age / 1000)}s`})`);
      } catch {
        // another waiter broke it first
      }
    }
  }

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  private unusable(error: unknown): void {
    this.usable = false;
    this.note(`session cache ${this.dir} unusable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); logging in without it`);
  }

  private note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

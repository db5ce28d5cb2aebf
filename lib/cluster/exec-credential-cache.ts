import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runExecPlugin, type ExecCredential } from './exec-credential';
import type { KubeconfigContext } from './kubeconfig';

/** A credential is not used in its last minute: the request may take that long. */
export const EXPIRY_MARGIN_MS = 60_000;
/** Nor kept longer than this, whatever expiry the plugin names. */
const MAX_KEEP_MS = 12 * 3600_000;

export interface ExecCredentialOptions {
  /** Undefined: no cache (--no-cache), the plugin runs on every check. */
  cacheDir?: string;
  deadline: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  addSecret(value: string | undefined): void;
  /** What went wrong with the cache, for -v. */
  notes: string[];
}

export interface ObtainedCredential {
  credential: ExecCredential;
  /** After a 401: drops the kept credential; runs the plugin again if the rejected one was kept from an earlier run. */
  renew(): Promise<ExecCredential | undefined>;
}

/**
 * The file stem of one kubeconfig user+cluster+server (and the plugin's command line): a
 * hash, so that neither the name nor a directory listing reveals anything.
 */
export function execCacheKey(kc: Pick<KubeconfigContext, 'cluster' | 'user'>): string {
  const exec = kc.user.exec;
  const material = JSON.stringify([kc.user.name, kc.cluster.name, kc.cluster.server, exec?.command, exec?.args, exec?.env, exec?.apiVersion]);
  return 'exec-' + createHash('sha256').update(material).digest('hex').slice(0, 40);
}

/**
 * The credential of a kubeconfig's exec plugin: kept in the cache until its expiry (minus a
 * margin) so that a check every minute does not start the plugin every minute.
 */
export async function execCredentialFor(kc: KubeconfigContext, options: ExecCredentialOptions): Promise<ObtainedCredential> {
  const exec = kc.user.exec!;
  const run = async (): Promise<ExecCredential> => {
    const cred = await runExecPlugin({ exec, cluster: kc.cluster, deadline: options.deadline, signal: options.signal, env: options.env });
    options.addSecret(cred.token);
    options.addSecret(cred.key);
    return cred;
  };
  if (options.cacheDir === undefined) {
    return { credential: await run(), renew: async () => undefined };
  }
  const cache = new CredentialCache(options.cacheDir, execCacheKey(kc), Math.max(1000, options.deadline - Date.now()));
  const { credential, kept } = await cache.obtain(run, options.deadline);
  options.addSecret(credential.token);
  options.addSecret(credential.key);
  for (const n of cache.notes) options.notes.push(n);
  return {
    credential,
    async renew() {
      cache.drop();
      if (!kept) return undefined;
      const fresh = await run();
      cache.write(fresh);
      return fresh;
    },
  };
}

interface LockInfo {
  pid: number;
  host: string;
  time: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One credential kept between runs, under the same rules as the VM checks' session cache: a
 * 0600 file in a 0700 directory, replaced atomically (temp file + rename), ignored unless
 * this user owns it and nobody else may write it, and a lock so that concurrent checks that
 * find none run the plugin once. The cache never fails a check: a problem is a note for -v.
 */
export class CredentialCache {
  readonly file: string;
  readonly lockFile: string;
  readonly notes: string[] = [];
  private usable = true;

  constructor(
    readonly dir: string,
    key: string,
    /** A lock older than this is abandoned (its holder's timeout has expired). */
    private readonly lockTimeoutMs: number,
  ) {
    this.file = join(dir, `${key}.json`);
    this.lockFile = join(dir, `${key}.lock`);
  }

  /** The kept credential, if it is still valid for longer than the margin. */
  read(now = Date.now()): ExecCredential | undefined {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.note(`cannot read ${this.file} (${(error as NodeJS.ErrnoException).code})`);
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      // Someone else's file, or one others may write, could hand us a credential of their choosing.
      if (typeof process.getuid === 'function' && (st.uid !== process.getuid() || (st.mode & 0o022) !== 0)) {
        this.note(`ignoring ${this.file}: not owned by this user or writable by others`);
        return undefined;
      }
      const data = JSON.parse(readFileSync(fd, 'utf8')) as { until?: unknown; token?: unknown; cert?: unknown; key?: unknown };
      if (typeof data.until !== 'number' || data.until <= now) return undefined;
      if (typeof data.token === 'string' && data.token !== '') return { token: data.token, expires: data.until + EXPIRY_MARGIN_MS };
      if (typeof data.cert === 'string' && typeof data.key === 'string') return { cert: data.cert, key: data.key, expires: data.until + EXPIRY_MARGIN_MS };
      this.note(`ignoring ${this.file}: not a credential entry`);
    } catch {
      this.note(`ignoring ${this.file}: corrupt`);
    } finally {
      closeSync(fd);
    }
    return undefined;
  }

  /** Keeps a credential until its expiry minus the margin; one without expiry is not kept. */
  write(cred: ExecCredential, now = Date.now()): void {
    if (!this.usable) return;
    if (cred.expires === undefined) {
      this.note('the exec plugin gave no expirationTimestamp: its credential is not kept, the plugin runs on every check');
      return;
    }
    const until = Math.min(cred.expires - EXPIRY_MARGIN_MS, now + MAX_KEEP_MS);
    if (until <= now) return;
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const fd = openSync(tmp, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ until, token: cred.token, cert: cred.cert, key: cred.key }));
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch (error) {
      this.unusable(error);
      this.forget(tmp);
    }
  }

  /** Forgets the kept credential (the server rejected it). */
  drop(): void {
    this.forget(this.file);
  }

  /** The kept credential, else one from `run`, made by this process under the lock or by another while this one waited. */
  async obtain(run: () => Promise<ExecCredential>, deadline: number): Promise<{ credential: ExecCredential; kept: boolean }> {
    // Leave time for the request itself after waiting for another check's plugin.
    const waitUntil = deadline - Math.min(2000, (deadline - Date.now()) / 4);
    while (this.usable) {
      const cached = this.read();
      if (cached) return { credential: cached, kept: true };
      if (this.tryLock()) {
        try {
          const again = this.read(); // another process may have finished between our read and our lock
          if (again) return { credential: again, kept: true };
          const fresh = await run();
          this.write(fresh);
          return { credential: fresh, kept: false };
        } finally {
          this.forget(this.lockFile);
        }
      }
      if (!this.usable) break;
      if (Date.now() >= waitUntil) {
        this.note('gave up waiting for another check to run the exec plugin');
        break;
      }
      this.breakStaleLock();
      await sleep(25 + Math.floor(Math.random() * 25));
    }
    const fresh = await run();
    this.write(fresh);
    return { credential: fresh, kept: false };
  }

  private tryLock(): boolean {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const fd = openSync(this.lockFile, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now() } satisfies LockInfo));
      } catch (error) {
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

  /** Removes a lock whose holder died, never wrote its pid, or has held it past any timeout. */
  private breakStaleLock(): void {
    let age: number;
    let info: Partial<LockInfo> = {};
    try {
      age = Date.now() - statSync(this.lockFile).mtimeMs;
    } catch {
      return;
    }
    try {
      info = JSON.parse(readFileSync(this.lockFile, 'utf8')) as Partial<LockInfo>;
    } catch {
      // still being written: judged by its age alone
    }
    const dead = typeof info.pid === 'number' && info.host === hostname() && !processAlive(info.pid);
    const orphan = info.pid === undefined && age > 1000;
    if (dead || orphan || age > this.lockTimeoutMs) {
      this.forget(this.lockFile);
      this.note(`broke a stale lock ${this.lockFile}`);
    }
  }

  private forget(file: string): void {
    try {
      unlinkSync(file);
    } catch {
      // not there
    }
  }

  private unusable(error: unknown): void {
    this.usable = false;
    this.note(`credential cache ${this.dir} unusable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); running the exec plugin without it`);
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

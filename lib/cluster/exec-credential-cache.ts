import { createHash } from 'node:crypto';
import { entryName, PrivateCache, type CacheBinding } from '../plugin/private-cache';
import { credentialProblem, runExecPlugin, type ExecCredential } from './exec-credential';
import type { KubeconfigContext } from './kubeconfig';
import type { Notes } from '../plugin/notes';

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
  /** Where what went wrong with the cache is said, for -v. */
  notes: Notes;
}

export interface ObtainedCredential {
  credential: ExecCredential;
  /** After a 401: drops the kept credential; runs the plugin again if the rejected one was kept from an earlier run. */
  renew(): Promise<ExecCredential | undefined>;
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
  const cache = new CredentialCache(options.cacheDir, execBinding(kc), Math.max(1000, options.deadline - Date.now()));
  const { credential, kept } = await cache.obtain(run, options.deadline);
  options.addSecret(credential.token);
  options.addSecret(credential.key);
  for (const n of cache.notes) options.notes.add(n);
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

/** The public values a kept credential belongs to (no secret: the env values are hashed). */
export function execBinding(kc: Pick<KubeconfigContext, 'cluster' | 'user'>): CacheBinding {
  const exec = kc.user.exec;
  return {
    user: kc.user.name,
    cluster: kc.cluster.name,
    server: kc.cluster.server,
    plugin: createHash('sha256')
      .update(JSON.stringify([exec?.command, exec?.args, exec?.env, exec?.apiVersion]))
      .digest('hex'),
  };
}

/**
 * One credential kept between runs in the private cache (0600 files in a 0700 directory of
 * this user, atomic writes, entries bound to their user+cluster+server), and a lock so that
 * concurrent checks that find none run the plugin once. The cache never fails a check: a
 * problem is a note for -v and the plugin runs without it.
 */
export class CredentialCache {
  readonly name: string;
  readonly lockName: string;
  private readonly cache: PrivateCache;

  constructor(
    dir: string,
    private readonly binding: CacheBinding,
    /** A lock older than this is abandoned (its holder's timeout has expired). */
    private readonly lockTimeoutMs: number,
  ) {
    this.cache = new PrivateCache(dir, { label: 'credential cache', fallback: 'running the exec plugin without it' });
    this.name = entryName('kube-exec', binding);
    this.lockName = `${this.name}.lock`;
  }

  /** What went wrong with the cache, for -v. */
  get notes(): string[] {
    return this.cache.notes;
  }

  /** The path of the entry (for tests and messages). */
  get file(): string {
    return this.cache.path(this.name);
  }

  /** The kept credential, if it is still valid for longer than the margin. */
  read(now = Date.now()): ExecCredential | undefined {
    const hit = this.cache.read(this.name, this.binding, (d) => {
      const data = d as { until?: unknown; token?: unknown; cert?: unknown; key?: unknown } | null;
      if (!data || typeof data !== 'object' || typeof data.until !== 'number') return undefined;
      if (typeof data.token === 'string' && data.token !== '') return { until: data.until, cred: { token: data.token } as ExecCredential };
      if (typeof data.cert === 'string' && data.cert !== '' && typeof data.key === 'string' && data.key !== '')
        return { until: data.until, cred: { cert: data.cert, key: data.key } as ExecCredential };
      return undefined;
    });
    if (!hit || hit.value.until <= now) return undefined;
    // One that cannot be sent (kept by an older version, or written by hand) is no credential.
    if (credentialProblem(hit.value.cred)) {
      this.cache.note('the kept credential cannot be sent (a token with spaces or control characters, or an unusable key): running the exec plugin again');
      this.drop();
      return undefined;
    }
    return { ...hit.value.cred, expires: hit.value.until + EXPIRY_MARGIN_MS };
  }

  /** Keeps a credential until its expiry minus the margin; one without expiry, or one that cannot be sent, is not kept. */
  write(cred: ExecCredential, now = Date.now()): void {
    if (credentialProblem(cred)) return;
    if (cred.expires === undefined) {
      this.cache.note('the exec plugin gave no expirationTimestamp: its credential is not kept, the plugin runs on every check');
      return;
    }
    const until = Math.min(cred.expires - EXPIRY_MARGIN_MS, now + MAX_KEEP_MS);
    if (until <= now) return;
    this.cache.write(this.name, this.binding, { until, token: cred.token, cert: cred.cert, key: cred.key });
  }

  /** Forgets the kept credential (the server rejected it). */
  drop(): void {
    this.cache.remove(this.name);
  }

  /** The kept credential, else one from `run`, made by this process under the lock or by another while this one waited. */
  async obtain(run: () => Promise<ExecCredential>, deadline: number): Promise<{ credential: ExecCredential; kept: boolean }> {
    return this.cache.produceOnce<{ credential: ExecCredential; kept: boolean }>(
      this.lockName,
      { deadline, lockTimeoutMs: this.lockTimeoutMs, waitingFor: 'run the exec plugin' },
      {
        cached: () => {
          const credential = this.read();
          return credential && { credential, kept: true };
        },
        produce: async () => {
          const fresh = await run();
          this.write(fresh);
          return { credential: fresh, kept: false };
        },
      },
    );
  }
}

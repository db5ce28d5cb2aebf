import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { tokenProblem } from '../../http/sendable';
import { CheckError } from '../../plugin/errors';
import { PrivateCache, entryName, type CacheBinding } from '../../plugin/private-cache';
import { Redactor } from '../../plugin/redact';
import { boundedExcerpt } from '../../plugin/server-text';
import { FleetCache } from './fleet-cache';
import { CredentialsRefusedError, type Credentials, type VcdSession } from './login';

export { defaultCacheDir } from '../../plugin/private-cache';

/**
 * What a cache entry belongs to: its file stem (a hash, so that neither the name nor a
 * directory listing reveals anything), its binding (url, login kind, user, org and, for an
 * API token, the token's hash: stored in the entry and checked on every read) and the
 * credential itself, kept in a private field: it only ever leaves as a salted slow hash
 * (the failure hold) or as text to redact.
 */
export class VcdCacheKey {
  readonly stem: string;
  readonly binding: CacheBinding;
  readonly #secrets: string[];

  constructor(base: URL, creds: Credentials) {
    const token = creds.kind === 'api-token' ? createHash('sha256').update(creds.refreshToken).digest('hex') : '';
    this.binding = { url: base.origin, kind: creds.kind, user: creds.user ?? '', org: creds.org.toLowerCase(), token };
    this.stem = entryName('vcd', this.binding);
    const secret = creds.kind === 'api-token' ? creds.refreshToken : creds.password;
    this.#secrets = [secret];
    if (creds.kind === 'password') this.#secrets.push(Buffer.from(`${creds.user}@${creds.org}:${creds.password}`).toString('base64'));
  }

  /** A salted, deliberately slow hash of the credential: tells "the same password" apart without keeping it. */
  fingerprint(salt: string): string {
    return scryptSync(this.#secrets[0], `cloudchecks-vcd-login:${salt}`, 24, { N: 4096, r: 8, p: 1 }).toString('hex');
  }

  /** `text` with the credential (in all the forms it could be echoed in) redacted. */
  redact(text: string): string {
    const redactor = new Redactor();
    for (const s of this.#secrets) redactor.add(s);
    return redactor.redact(text);
  }
}

/** The cache key of one url+user+org (and API token); see VcdCacheKey. */
export function cacheKey(base: URL, creds: Credentials): VcdCacheKey {
  return new VcdCacheKey(base, creds);
}

// A session whose token cannot be sent is never kept, nor used when found (kept by an older
// version, or written by hand): it would fail every check until it expired.
function acceptSession(data: unknown): VcdSession | undefined {
  const d = data as Partial<VcdSession> | null;
  return d && (d.auth === 'bearer' || d.auth === 'legacy') && typeof d.token === 'string' && tokenProblem(d.token) === undefined
    ? { auth: d.auth, token: d.token }
    : undefined;
}

interface FailureRecord {
  salt: string;
  fingerprint: string;
  message: string;
}

function acceptFailure(data: unknown): FailureRecord | undefined {
  const d = data as Partial<FailureRecord> | null;
  return d && typeof d.salt === 'string' && typeof d.fingerprint === 'string' && typeof d.message === 'string'
    ? { salt: d.salt, fingerprint: d.fingerprint, message: d.message }
    : undefined;
}

/**
 * One session kept between runs (vCD counts sessions: one login per check would flood it) in a PrivateCache (see lib/plugin/private-cache.ts
 * for what makes it safe), and a lock so that concurrent checks with no valid session make
 * one login. The cache never fails a check: every problem becomes a note and a fresh login.
 */
export class SessionCache {
  private readonly cache: PrivateCache;
  private readonly entry: string;
  private readonly lock: string;
  private readonly failure: string;
  /** The API version and resolved names kept beside the session, in the same directory. */
  readonly fleet: FleetCache;

  constructor(
    readonly dir: string,
    private readonly key: VcdCacheKey,
    /** A lock older than this is abandoned, and a failed login is not repeated within it. */
    private readonly lockTimeoutMs: number,
  ) {
    this.cache = new PrivateCache(dir, { label: 'session cache', fallback: 'logging in without it' });
    this.entry = `${key.stem}.json`;
    this.lock = `${key.stem}.lock`;
    this.failure = `${key.stem}.failed`;
    this.fleet = new FleetCache(this.cache, key);
  }

  /** The session file, for messages. */
  get file(): string {
    return this.cache.path(this.entry);
  }
  get lockFile(): string {
    return this.cache.path(this.lock);
  }
  /** The last failed login of this credential, shared with the checks that come soon after it. */
  get failureFile(): string {
    return this.cache.path(this.failure);
  }
  /** What went wrong with the cache, for -v. */
  get notes(): string[] {
    return this.cache.notes;
  }
  /** False once the cache could not be used: the session will not be kept for later runs. */
  get keepsSessions(): boolean {
    return this.cache.usable;
  }

  /** The cached session, or undefined when there is none or it cannot be trusted. */
  read(): VcdSession | undefined {
    return this.cache.read(this.entry, this.key.binding, acceptSession)?.value;
  }

  /** Stores a session for later runs (atomically; see PrivateCache.write). */
  write(session: VcdSession): void {
    if (!acceptSession(session)) return;
    this.cache.write(this.entry, this.key.binding, { auth: session.auth, token: session.token });
  }

  /**
   * A session that is not `staleToken`: the cached one if valid, else one from `login`, made
   * by this process under the lock or by another process while this one waited.
   */
  async obtain(login: () => Promise<VcdSession>, options: { deadline: number; staleToken?: string }): Promise<VcdSession> {
    return this.cache.produceOnce(
      this.lock,
      { deadline: options.deadline, lockTimeoutMs: this.lockTimeoutMs, waitingFor: 'log in' },
      {
        cached: () => {
          const cached = this.read();
          if (cached && cached.token !== options.staleToken) return cached;
          this.throwSharedFailure();
          return undefined;
        },
        produce: async () => {
          let session: VcdSession;
          try {
            session = await login();
          } catch (error) {
            this.recordFailure(error);
            throw error;
          }
          this.write(session);
          this.cache.remove(this.failure);
          return session;
        },
        // Without the lock (no usable cache, or tired of waiting) a failure is not shared.
        produceUnlocked: async () => {
          const session = await login();
          this.write(session);
          return session;
        },
      },
    );
  }

  /**
   * A login with these very credentials that failed a moment ago (within the lock timeout)
   * is not repeated: twenty checks rejected at once would trip vCD's account lockout. They
   * report the same failure instead. Other credentials (the password was just fixed) are
   * not held back by it.
   */
  private throwSharedFailure(): void {
    const hit = this.cache.read(this.failure, this.key.binding, acceptFailure);
    if (!hit) return;
    const age = Date.now() - hit.created;
    if (age < 0 || age >= this.lockTimeoutMs) return;
    if (!sameHex(hit.value.fingerprint, this.key.fingerprint(hit.value.salt))) {
      this.cache.note('the last failed login used other credentials: trying these');
      return;
    }
    const window = Math.round(this.lockTimeoutMs / 1000);
    // Written by this user into a private directory, but still text a server once sent:
    // only a bounded, one-line excerpt is ever printed.
    throw new CheckError(
      `${boundedExcerpt(this.key.redact(hit.value.message))} (the same credentials failed ${(age / 1000).toFixed(1)}s ago, in this or another check; not retried for ${window}s, to spare the account a lockout)`,
    );
  }

  private recordFailure(error: unknown): void {
    // Only the credentials refused (401, 403) are held back: a cell that is down (5xx), a
    // network fault or a token that cannot be used says nothing of them, and the next check may try again.
    if (!(error instanceof CredentialsRefusedError)) return;
    const salt = randomBytes(16).toString('hex');
    // Redacted before it is written: the server's message may echo what it was sent.
    this.cache.write(this.failure, this.key.binding, {
      salt,
      fingerprint: this.key.fingerprint(salt),
      message: boundedExcerpt(this.key.redact(error.message), 1000),
    });
  }
}

function sameHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

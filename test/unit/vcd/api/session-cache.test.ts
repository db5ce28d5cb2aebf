import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { CheckError } from '../../../../lib/plugin/errors';
import { CredentialsRefusedError, type Credentials, type VcdSession } from '../../../../lib/vcd/api/login';
import { cacheKey, defaultCacheDir, SessionCache } from '../../../../lib/vcd/api/session-cache';

const creds: Credentials = { kind: 'password', user: 'monitor', org: 'acme', password: 'pw-secret-123' };
const base = new URL('https://vcd.example.com');
const newDir = () => join(mkdtempSync(join(tmpdir(), 'cc-cache-')), 'cloudchecks');
const KEY = cacheKey(base, creds);
const deadline = () => Date.now() + 10_000;

function counter(token = 'token-new') {
  const calls = { n: 0 };
  const login = async (): Promise<VcdSession> => {
    calls.n++;
    await new Promise((r) => setTimeout(r, 30));
    return { auth: 'bearer', token };
  };
  return { calls, login };
}

describe('cacheKey and defaultCacheDir', () => {
  it('names the entry by a hash of url, user and org, never by a secret', () => {
    const key = cacheKey(base, creds).stem;
    expect(key).toMatch(/^vcd-[0-9a-f]{40}$/);
    expect(cacheKey(new URL('https://vcd.example.com:443/'), { ...creds, password: 'other' }).stem).toBe(key);
    expect(cacheKey(base, { ...creds, org: 'other' }).stem).not.toBe(key);
    expect(cacheKey(new URL('https://vcd2.example.com'), creds).stem).not.toBe(key);
    const token: Credentials = { kind: 'api-token', org: 'acme', refreshToken: 'refresh-token-secret' };
    expect(JSON.stringify(cacheKey(base, token))).not.toContain('refresh');
    expect(JSON.stringify(cacheKey(base, creds))).not.toContain(creds.password);
    expect(cacheKey(base, token).stem).not.toBe(cacheKey(base, { ...token, refreshToken: 'another-token' }).stem);
  });
  it("follows XDG_CACHE_HOME when it is ours (or not there yet), else .cache in the running user's own home, never $HOME", () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/nagios-none-such' })).toBe('/var/cache/nagios-none-such/cloudchecks');
    const own = join(userInfo().homedir, '.cache', 'cloudchecks');
    expect(defaultCacheDir({})).toBe(own);
    // An engine started from another user's shell inherits its HOME: the cache does not follow it.
    const saved = process.env.HOME;
    process.env.HOME = '/root-of-someone-else';
    try {
      expect(defaultCacheDir({ HOME: '/root-of-someone-else' })).toBe(own);
    } finally {
      process.env.HOME = saved;
    }
    const mine = mkdtempSync(join(tmpdir(), 'cc-xdg-'));
    expect(defaultCacheDir({ XDG_CACHE_HOME: mine })).toBe(join(mine, 'cloudchecks'));
    // An inherited XDG_CACHE_HOME of another user is not ours: the own home instead.
    const theirs = mkdtempSync(join(tmpdir(), 'cc-xdg-'));
    const other = process.getuid?.() === 0 ? 65534 : undefined;
    if (other !== undefined) {
      chownSync(theirs, other, other);
      expect(defaultCacheDir({ XDG_CACHE_HOME: theirs })).toBe(own);
    }
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/etc/passwd' })).toBe(own);
  });
});

describe('SessionCache', () => {
  it('writes a 0600 file in a 0700 directory, and reads it back', async () => {
    const dir = newDir();
    const cache = new SessionCache(dir, KEY, 10_000);
    expect(cache.read()).toBeUndefined();
    const { calls, login } = counter();
    expect(await cache.obtain(login, { deadline: deadline() })).toEqual({ auth: 'bearer', token: 'token-new' });
    expect(calls.n).toBe(1);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(cache.file).mode & 0o777).toBe(0o600);
    expect(existsSync(cache.lockFile)).toBe(false);
    expect(new SessionCache(dir, KEY, 10_000).read()).toEqual({ auth: 'bearer', token: 'token-new' });
    expect(cache.notes).toEqual([]);
  });

  it('reuses a valid session without logging in', async () => {
    const cache = new SessionCache(newDir(), KEY, 10_000);
    cache.write({ auth: 'legacy', token: 'old' });
    const { calls, login } = counter();
    expect(await cache.obtain(login, { deadline: deadline() })).toEqual({ auth: 'legacy', token: 'old' });
    expect(calls.n).toBe(0);
  });

  it('replaces the session that was rejected (staleToken)', async () => {
    const cache = new SessionCache(newDir(), KEY, 10_000);
    cache.write({ auth: 'bearer', token: 'expired' });
    const { calls, login } = counter();
    expect((await cache.obtain(login, { deadline: deadline(), staleToken: 'expired' })).token).toBe('token-new');
    expect(calls.n).toBe(1);
    expect(cache.read()?.token).toBe('token-new');
  });

  it('treats a corrupt file as no session and overwrites it', async () => {
    const cache = new SessionCache(newDir(), KEY, 10_000);
    cache.write({ auth: 'bearer', token: 'x' });
    writeFileSync(cache.file, '{"auth":"bearer","tok');
    expect(cache.read()).toBeUndefined();
    expect(cache.notes[0]).toMatch(/ignoring .*vcd-[0-9a-f]{40}\.json: corrupt/);
    const { calls, login } = counter();
    await cache.obtain(login, { deadline: deadline() });
    expect(calls.n).toBe(1);
    expect(JSON.parse(readFileSync(cache.file, 'utf8')).data.token).toBe('token-new');
  });

  it('ignores a file others may write', () => {
    const cache = new SessionCache(newDir(), KEY, 10_000);
    cache.write({ auth: 'bearer', token: 'x' });
    chmodSync(cache.file, 0o666);
    expect(cache.read()).toBeUndefined();
    expect(cache.notes[0]).toMatch(/writable by others \(mode 0666\)/);
  });

  it('falls back to a plain login when the directory cannot be used', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'cc-cache-'));
    writeFileSync(join(parent, 'file'), '');
    const cache = new SessionCache(join(parent, 'file', 'cloudchecks'), KEY, 10_000);
    const { calls, login } = counter();
    expect((await cache.obtain(login, { deadline: deadline() })).token).toBe('token-new');
    expect(calls.n).toBe(1);
    expect(cache.notes.join()).toMatch(/session cache .* unusable \((ENOTDIR|EEXIST)\); logging in without it/);
  });

  it('lets concurrent waiters reuse the one login made under the lock', async () => {
    const dir = newDir();
    const { calls, login } = counter();
    const sessions = await Promise.all(Array.from({ length: 10 }, () => new SessionCache(dir, KEY, 10_000).obtain(login, { deadline: deadline() })));
    expect(calls.n).toBe(1);
    expect(new Set(sessions.map((s) => s.token))).toEqual(new Set(['token-new']));
  });

  it('waits for a live holder and takes the session it writes', async () => {
    const dir = newDir();
    const holder = new SessionCache(dir, KEY, 10_000);
    holder.write({ auth: 'bearer', token: 'placeholder' }); // creates the directory
    writeFileSync(holder.lockFile, JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now() }));
    setTimeout(() => holder.write({ auth: 'bearer', token: 'from-holder' }), 150);
    const { calls, login } = counter();
    const started = Date.now();
    const s = await new SessionCache(dir, KEY, 10_000).obtain(login, { deadline: deadline(), staleToken: 'placeholder' });
    expect(s.token).toBe('from-holder');
    expect(calls.n).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('breaks a lock whose holder is dead', async () => {
    const cache = new SessionCache(newDir(), KEY, 10_000);
    cache.write({ auth: 'bearer', token: 'stale' });
    writeFileSync(cache.lockFile, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), time: Date.now() }));
    const { calls, login } = counter();
    expect((await cache.obtain(login, { deadline: deadline(), staleToken: 'stale' })).token).toBe('token-new');
    expect(calls.n).toBe(1);
    expect(cache.notes.join()).toMatch(/broke a stale lock .*holder pid \d+ is gone/);
  });

  it('breaks a lock that names no holder after a second (its writer hit a full disk)', async () => {
    const cache = new SessionCache(newDir(), KEY, 60_000);
    cache.write({ auth: 'bearer', token: 'stale' });
    writeFileSync(cache.lockFile, '');
    const old = new Date(Date.now() - 2_000);
    utimesSync(cache.lockFile, old, old);
    const { calls, login } = counter();
    const started = Date.now();
    expect((await cache.obtain(login, { deadline: deadline(), staleToken: 'stale' })).token).toBe('token-new');
    expect(calls.n).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(cache.notes.join()).toMatch(/broke a stale lock .*it names no holder/);
  });

  it('breaks a lock older than the timeout, even of a live or foreign holder', async () => {
    const cache = new SessionCache(newDir(), KEY, 1_000);
    cache.write({ auth: 'bearer', token: 'stale' });
    writeFileSync(cache.lockFile, JSON.stringify({ pid: process.pid, host: 'other-host', time: Date.now() - 5_000 }));
    const old = new Date(Date.now() - 5_000);
    utimesSync(cache.lockFile, old, old);
    const { calls, login } = counter();
    expect((await cache.obtain(login, { deadline: deadline(), staleToken: 'stale' })).token).toBe('token-new');
    expect(calls.n).toBe(1);
    expect(cache.notes.join()).toMatch(/broke a stale lock .*older than 5s/);
  });

  it('stops waiting before the deadline and logs in itself', async () => {
    const cache = new SessionCache(newDir(), KEY, 60_000);
    cache.write({ auth: 'bearer', token: 'stale' });
    writeFileSync(cache.lockFile, JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now() }));
    const { calls, login } = counter();
    const started = Date.now();
    expect((await cache.obtain(login, { deadline: Date.now() + 800, staleToken: 'stale' })).token).toBe('token-new');
    expect(calls.n).toBe(1);
    expect(Date.now() - started).toBeLessThan(800);
    expect(cache.notes.join()).toMatch(/gave up waiting/);
  });

  it('shares a failed login with the checks that come within the lock timeout', async () => {
    const dir = newDir();
    let calls = 0;
    const failing = async (): Promise<VcdSession> => {
      calls++;
      await new Promise((r) => setTimeout(r, 50));
      throw new CredentialsRefusedError('login to https://vcd.example.com as monitor@acme rejected (HTTP 401)');
    };
    // A lock timeout of 3 s: under a loaded CI host, 300 ms let a waiter take the lock for stale.
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => new SessionCache(dir, KEY, 3_000).obtain(failing, { deadline: deadline() })));
    expect(calls).toBe(1);
    expect(results.map((r) => r.status)).toEqual(Array(8).fill('rejected'));
    const messages = results.map((r) => (r as PromiseRejectedResult).reason.message as string);
    expect(messages.filter((m) => m.endsWith('rejected (HTTP 401)'))).toHaveLength(1);
    for (const m of messages)
      expect(m).toMatch(
        /rejected \(HTTP 401\)( \(the same credentials failed \d+\.\ds ago, in this or another check; not retried for \d+s, to spare the account a lockout\))?$/,
      );
    await new Promise((r) => setTimeout(r, 320));
    const later = counter();
    expect((await new SessionCache(dir, KEY, 300).obtain(later.login, { deadline: deadline() })).token).toBe('token-new');
    expect(later.calls.n).toBe(1);
    expect(existsSync(join(dir, `${KEY.stem}.failed`))).toBe(false);
  });

  it('shares no failure that is not the credentials refused: a cell down (503) is tried again by the next check', async () => {
    const dir = newDir();
    let calls = 0;
    const down = async (): Promise<VcdSession> => {
      calls++;
      throw new CheckError('login to https://vcd.example.com as monitor@acme failed (HTTP 503 (server says: no healthy vCD cell))');
    };
    for (let i = 0; i < 2; i++)
      await expect(new SessionCache(dir, KEY, 3_000).obtain(down, { deadline: deadline() })).rejects.toThrow(
        /^login .* failed \(HTTP 503 .*no healthy vCD cell\)\)$/,
      );
    expect(calls).toBe(2);
    expect(existsSync(join(dir, `${KEY.stem}.failed`))).toBe(false);
  });

  it('holds back only the same credentials: a fixed password logs in at once', async () => {
    const dir = newDir();
    const wrong = cacheKey(base, { ...creds, password: 'wrong-password-1' });
    const failing = async (): Promise<VcdSession> => {
      throw new CredentialsRefusedError('login to https://vcd.example.com as monitor@acme rejected (HTTP 401): wrong user, org or password');
    };
    await expect(new SessionCache(dir, wrong, 10_000).obtain(failing, { deadline: deadline() })).rejects.toThrow(/wrong user, org or password$/);
    // The same wrong password again, within the hold: not sent to vCD again.
    const again = counter();
    await expect(new SessionCache(dir, wrong, 10_000).obtain(again.login, { deadline: deadline() })).rejects.toThrow(/the same credentials failed \d\.\ds ago/);
    expect(again.calls.n).toBe(0);
    // The admin fixes the password: the next run logs in.
    const fixed = counter();
    const cache = new SessionCache(dir, KEY, 10_000);
    expect((await cache.obtain(fixed.login, { deadline: deadline() })).token).toBe('token-new');
    expect(fixed.calls.n).toBe(1);
    expect(cache.notes).toContain('the last failed login used other credentials: trying these');
    expect(existsSync(cache.failureFile)).toBe(false);
  });

  it('keeps no secret in the failure record and prints only a bounded line of it', async () => {
    const dir = newDir();
    const basic = Buffer.from(`monitor@acme:${creds.password}`).toString('base64');
    const echo = async (): Promise<VcdSession> => {
      throw new CredentialsRefusedError(`login rejected (HTTP 401: bad password ${creds.password} in ${basic})\u2028\u0000injected ${'x'.repeat(50_000)}`);
    };
    const first = new SessionCache(dir, KEY, 10_000);
    await expect(first.obtain(echo, { deadline: deadline() })).rejects.toThrow();
    const record = readFileSync(first.failureFile, 'utf8');
    expect(record).not.toContain(creds.password);
    expect(record).not.toContain(basic);
    expect(record.length).toBeLessThan(2000);
    const error = await new SessionCache(dir, KEY, 10_000).obtain(counter().login, { deadline: deadline() }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^login rejected \(HTTP 401: bad password <redacted> in <redacted>\) injected x+… \(\d+ more characters\) \(the same credentials/,
    );
    expect((error as Error).message.length).toBeLessThan(500);
    expect((error as Error).message).not.toMatch(/[\u0000-\u001f\u2028]/);
  });

  it('does not send the session of one vCD to another when its file is renamed', async () => {
    const dir = newDir();
    const a = new SessionCache(dir, KEY, 10_000);
    a.write({ auth: 'bearer', token: 'session-of-a' });
    const otherKey = cacheKey(new URL('https://vcd-b.example.com'), creds);
    const b = new SessionCache(dir, otherKey, 10_000);
    renameSync(a.file, b.file);
    const { calls, login } = counter('session-of-b');
    expect((await b.obtain(login, { deadline: deadline() })).token).toBe('session-of-b');
    expect(calls.n).toBe(1);
    expect(b.notes[0]).toMatch(/it belongs to another url\/kind\/user\/org\/token/);
  });

  it('logs in instead of hanging when a FIFO stands in for the session file', async () => {
    const dir = newDir();
    const cache = new SessionCache(dir, KEY, 10_000);
    cache.write({ auth: 'bearer', token: 'x' });
    unlinkSync(cache.file);
    execFileSync('mkfifo', [cache.file]);
    const { calls, login } = counter();
    const started = Date.now();
    expect((await new SessionCache(dir, KEY, 10_000).obtain(login, { deadline: deadline() })).token).toBe('token-new');
    expect(calls.n).toBe(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('logs in without the cache when the directory is shared with others', async () => {
    const dir = newDir();
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    const cache = new SessionCache(dir, KEY, 10_000);
    const { calls, login } = counter();
    expect((await cache.obtain(login, { deadline: deadline() })).token).toBe('token-new');
    expect(calls.n).toBe(1);
    expect(cache.keepsSessions).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(cache.notes).toEqual([`session cache ${dir} not used (writable by group or others (mode 1777); chmod 700 ${dir}); logging in without it`]);
  });
});

describe('SessionCache: a session that cannot be sent is never kept', () => {
  it('refuses to write one, and ignores one found (older version, written by hand)', () => {
    const dir = newDir();
    const cache = new SessionCache(dir, KEY, 10_000);
    for (const token of ['a\nb', 'a b', 'a\u0000b', 'x'.repeat(20_000)]) {
      cache.write({ auth: 'bearer', token });
      expect(cache.read()).toBeUndefined();
    }
    cache.write({ auth: 'bearer', token: 'good' });
    const doc = JSON.parse(readFileSync(cache.file, 'utf8'));
    doc.data.token = 'line\nbreak';
    writeFileSync(cache.file, JSON.stringify(doc), { mode: 0o600 });
    expect(cache.read()).toBeUndefined();
  });
});

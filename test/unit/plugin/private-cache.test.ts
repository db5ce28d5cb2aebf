import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryName, PrivateCache } from '../../../lib/plugin/private-cache';

// The attacks below are those of another local user sharing a cache directory such as
// /tmp/cloudchecks: renamed entries, planted symlinks, FIFOs, /dev/zero.
const scratch = () => mkdtempSync(join(tmpdir(), 'cc-private-'));
const A = { url: 'https://vcd-a.example.com', user: 'monitor', org: 'acme' };
const B = { url: 'https://vcd-b.example.com', user: 'monitor', org: 'acme' };
const asString = (d: unknown) => (typeof d === 'string' ? d : undefined);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('entryName', () => {
  it('is a hash of the binding, whatever the order of its keys', () => {
    expect(entryName('vcd', A)).toMatch(/^vcd-[0-9a-f]{40}$/);
    expect(entryName('vcd', { org: 'acme', user: 'monitor', url: 'https://vcd-a.example.com' })).toBe(entryName('vcd', A));
    expect(entryName('vcd', B)).not.toBe(entryName('vcd', A));
    expect(entryName('vcd', A)).not.toContain('acme');
  });
});

describe('PrivateCache: the directory', () => {
  it('creates a missing directory 0700, parents too, and keeps entries 0600', () => {
    const root = scratch();
    const dir = join(root, 'home', '.cache', 'cloudchecks');
    const cache = new PrivateCache(dir);
    expect(cache.write('e1', A, 'one')).toBe(true);
    for (const d of [join(root, 'home'), join(root, 'home', '.cache'), dir]) expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'e1')).mode & 0o777).toBe(0o600);
    expect(cache.read('e1', A, asString)?.value).toBe('one');
    expect(cache.notes).toEqual([]);
  });

  it.each([
    [0o777, '0777'],
    [0o1777, '1777'],
    [0o770, '0770'],
  ])('refuses a directory others may write (mode %o), sticky or not, and says how to fix it', (mode, shown) => {
    const dir = join(scratch(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, mode);
    const cache = new PrivateCache(dir, { label: 'session cache', fallback: 'logging in without it' });
    expect(cache.write('e1', A, 'one')).toBe(false);
    expect(cache.read('e1', A, asString)).toBeUndefined();
    expect(cache.tryLock('e1.lock')).toBe(false);
    expect(cache.usable).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(cache.notes).toEqual([`session cache ${dir} not used (writable by group or others (mode ${shown}); chmod 700 ${dir}); logging in without it`]);
  });

  it.runIf(isRoot)('refuses a directory owned by another user', () => {
    const dir = join(scratch(), 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 4242, 4242);
    const cache = new PrivateCache(dir);
    expect(cache.write('e1', A, 'one')).toBe(false);
    expect(cache.notes[0]).toMatch(/not used \(owned by uid 4242, not by this user \(0\); use a directory of your own\)/);
  });

  it('refuses a directory in a parent that others may write without the sticky bit', () => {
    const parent = join(scratch(), 'open');
    mkdirSync(parent);
    chmodSync(parent, 0o777);
    const cache = new PrivateCache(join(parent, 'cloudchecks'));
    expect(cache.write('e1', A, 'one')).toBe(false);
    expect(cache.notes[0]).toMatch(/its parent .*open is writable by others \(mode 0777\)/);
  });

  it('checks the directory a symlink points to, not the link', () => {
    const root = scratch();
    const real = join(root, 'real');
    mkdirSync(real);
    chmodSync(real, 0o777);
    symlinkSync(real, join(root, 'link'));
    const cache = new PrivateCache(join(root, 'link'));
    expect(cache.write('e1', A, 'one')).toBe(false);
    expect(cache.notes[0]).toMatch(/mode 0777/);
  });

  it('is unusable, not an error, when the path cannot be a directory', () => {
    const root = scratch();
    writeFileSync(join(root, 'file'), '');
    const cache = new PrivateCache(join(root, 'file', 'cloudchecks'));
    expect(cache.write('e1', A, 'x')).toBe(false);
    expect(cache.notes[0]).toMatch(/cache .* unusable \((ENOTDIR|EEXIST)\); going on without it/);
  });

  it('is unusable at once under /proc, where a recursive mkdir never returns', () => {
    const started = Date.now();
    const cache = new PrivateCache('/proc/cloudchecks-test/cache');
    expect(cache.write('e1', A, 'x')).toBe(false);
    expect(cache.notes[0]).toMatch(/cache \/proc\/cloudchecks-test\/cache unusable \(ENOENT\); going on without it/);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('PrivateCache: the entries', () => {
  const fresh = () => {
    const dir = join(scratch(), 'cloudchecks');
    const cache = new PrivateCache(dir);
    cache.write('warmup', A, 'w');
    return { dir, cache };
  };

  it('refuses an entry renamed to another binding’s name', () => {
    const { dir, cache } = fresh();
    const a = entryName('vcd', A);
    const b = entryName('vcd', B);
    cache.write(a, A, 'session of A');
    renameSync(join(dir, a), join(dir, b));
    expect(new PrivateCache(dir).read(b, B, asString)).toBeUndefined();
    const reader = new PrivateCache(dir);
    reader.read(b, B, asString);
    expect(reader.notes[0]).toMatch(/ignoring .*: it belongs to another url\/user\/org/);
  });

  it('refuses data the caller does not accept, and corrupt or foreign files', () => {
    const { dir, cache } = fresh();
    cache.write('e1', A, { not: 'a string' });
    expect(cache.read('e1', A, asString)).toBeUndefined();
    writeFileSync(join(dir, 'e2'), '{"auth":"bearer","token":"old format"}', { mode: 0o600 });
    expect(cache.read('e2', A, asString)).toBeUndefined();
    writeFileSync(join(dir, 'e3'), '{"format":1,"binding":', { mode: 0o600 });
    const deep = `{"format":1,"created":1,"binding":{"url":${'['.repeat(20_000)}${']'.repeat(20_000)}},"data":"x"}`;
    writeFileSync(join(dir, 'e4'), deep, { mode: 0o600 });
    expect(new PrivateCache(dir).read('e4', A, asString)).toBeUndefined();
    expect(cache.read('e3', A, asString)).toBeUndefined();
    expect(cache.notes).toEqual([
      `ignoring ${join(dir, 'e1')}: not the expected entry`,
      `ignoring ${join(dir, 'e2')}: not a cache entry`,
      `ignoring ${join(dir, 'e3')}: corrupt`,
    ]);
  });

  it('follows no symlink: neither to a file nor to /dev/zero', () => {
    const { dir, cache } = fresh();
    const victim = join(scratch(), 'victim');
    writeFileSync(victim, JSON.stringify({ format: 1, binding: A, created: Date.now(), data: 'planted' }));
    symlinkSync(victim, join(dir, 'e1'));
    symlinkSync('/dev/zero', join(dir, 'e2'));
    expect(cache.read('e1', A, asString)).toBeUndefined();
    expect(cache.read('e2', A, asString)).toBeUndefined();
    expect(cache.notes).toEqual([`ignoring ${join(dir, 'e1')}: a symbolic link`, `ignoring ${join(dir, 'e2')}: a symbolic link`]);
    // Writing replaces the link itself; the file it pointed to is untouched.
    expect(cache.write('e1', A, 'mine')).toBe(true);
    expect(JSON.parse(readFileSync(victim, 'utf8')).data).toBe('planted');
    expect(cache.read('e1', A, asString)?.value).toBe('mine');
  });

  it('does not hang on a FIFO in place of an entry', () => {
    const { dir, cache } = fresh();
    execFileSync('mkfifo', [join(dir, 'e1')]);
    const started = Date.now();
    expect(cache.read('e1', A, asString)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(cache.notes[0]).toBe(`ignoring ${join(dir, 'e1')}: not a regular file`);
  });

  it('refuses a file others may write, one of another user, and one over the size bound', () => {
    const { dir, cache } = fresh();
    cache.write('e1', A, 'x');
    chmodSync(join(dir, 'e1'), 0o622);
    expect(cache.read('e1', A, asString)).toBeUndefined();
    const small = new PrivateCache(dir, { maxEntryBytes: 300 });
    small.write('e2', A, 'y'.repeat(50));
    writeFileSync(join(dir, 'e3'), JSON.stringify({ format: 1, binding: A, created: 1, data: 'z'.repeat(400) }), { mode: 0o600 });
    expect(small.read('e2', A, asString)?.value).toHaveLength(50);
    expect(small.read('e3', A, asString)).toBeUndefined();
    expect(small.write('e4', A, 'w'.repeat(400))).toBe(false);
    expect(existsSync(join(dir, 'e4'))).toBe(false);
    expect(cache.notes[0]).toMatch(/e1: writable by others \(mode 0622\)/);
    expect(small.notes).toEqual([`ignoring ${join(dir, 'e3')}: larger than 300 bytes`, `not caching ${join(dir, 'e4')}: larger than 300 bytes`]);
    if (isRoot) {
      cache.write('e5', A, 'x');
      chownSync(join(dir, 'e5'), 4242, 4242);
      expect(cache.read('e5', A, asString)).toBeUndefined();
      expect(cache.notes.at(-1)).toMatch(/e5: owned by uid 4242/);
    }
  });

  it('writes through unpredictable temp names and leaves none behind', () => {
    const { dir, cache } = fresh();
    for (let i = 0; i < 5; i++) cache.write('e1', A, `v${i}`);
    expect(readdirSync(dir).sort()).toEqual(['e1', 'warmup']);
    expect(cache.read('e1', A, asString)?.value).toBe('v4');
  });

  it('takes a lock exclusively, and never through a planted symlink', () => {
    const { dir, cache } = fresh();
    expect(cache.tryLock('e1.lock')).toBe(true);
    expect(new PrivateCache(dir).tryLock('e1.lock')).toBe(false);
    cache.unlock('e1.lock');
    const victim = join(scratch(), 'victim');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(dir, 'e2.lock'));
    const other = new PrivateCache(dir);
    expect(other.tryLock('e2.lock')).toBe(false);
    expect(other.usable).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('produceOnce: a check that waited for a holder who left nothing to read makes its own at once, not one after another under the lock', async () => {
    const { dir } = fresh();
    const holder = new PrivateCache(dir);
    expect(holder.tryLock('v.lock')).toBe(true);
    const waiter = new PrivateCache(dir);
    const made: string[] = [];
    const deadline = Date.now() + 10_000;
    const steps = { cached: () => undefined, produce: async () => (made.push('locked'), 'v'), produceUnlocked: async () => (made.push('unlocked'), 'v') };
    const waiting = waiter.produceOnce('v.lock', { deadline, lockTimeoutMs: 60_000, waitingFor: 'log in' }, steps);
    await new Promise((r) => setTimeout(r, 120));
    holder.unlock('v.lock'); // its value could not be written (a full file system)
    expect(await waiting).toBe('v');
    expect(made).toEqual(['unlocked']);
    expect(existsSync(join(dir, 'v.lock'))).toBe(false);
    // A shared failure read after the wait ends it, and leaves no lock behind.
    expect(holder.tryLock('w.lock')).toBe(true);
    const failing = waiter.produceOnce(
      'w.lock',
      { deadline, lockTimeoutMs: 60_000, waitingFor: 'log in' },
      {
        cached: () => {
          if (!existsSync(join(dir, 'w.lock'))) throw new Error('the same credentials failed a moment ago');
          return undefined;
        },
        produce: async () => 'never',
      },
    );
    await new Promise((r) => setTimeout(r, 120));
    holder.unlock('w.lock');
    await expect(failing).rejects.toThrow(/failed a moment ago/);
    expect(existsSync(join(dir, 'w.lock'))).toBe(false);
  });

  it('refuses names that are not plain file names', () => {
    const { cache } = fresh();
    expect(() => cache.read('../escape', A, asString)).toThrow(/invalid cache entry name/);
  });
});

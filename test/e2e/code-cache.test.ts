// The built plugins start from V8's code cache (lib/plugin/code-cache.ts), kept in the user's
// private cache directory. The cache is executable code: it must come only from a directory
// and a file nobody else can write, and a cache that cannot be used, of whatever kind, is
// skipped without a word: the run is the same, only slower.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runExecutable } from '../support/spawn';

const REPO = resolve(__dirname, '../..');
const PLUGIN = join(REPO, 'dist/check_nodes');
const root = mkdtempSync(join(tmpdir(), 'cc-code-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A fresh XDG_CACHE_HOME (created 0700 unless `make` is false). */
function cacheHome(make = true): string {
  const home = join(root, `home-${++n}`);
  if (make) mkdirSync(home, { mode: 0o700 });
  return home;
}
const run = (xdg: string) => runExecutable(PLUGIN, ['--version'], { env: { PATH: process.env.PATH, XDG_CACHE_HOME: xdg } });
const cacheFile = (xdg: string) => join(xdg, 'cloudchecks', `code-check_nodes-${process.version}-${process.arch}`);

async function expectPlainRun(xdg: string): Promise<void> {
  const r = await run(xdg);
  expect(r.stdout).toMatch(/^check_nodes \S+\n$/);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(3);
}

describe('the code cache of the plugins', () => {
  it('is made by the first run, private, and used as it is by the next', async () => {
    const xdg = cacheHome();
    await expectPlainRun(xdg);
    const file = cacheFile(xdg);
    const st = statSync(file);
    expect(st.mode & 0o777).toBe(0o600);
    expect(statSync(join(xdg, 'cloudchecks')).mode & 0o777).toBe(0o700);
    // It heads with the SHA-256 of the bundle it was made from.
    expect(readFileSync(file).toString('latin1', 0, 64)).toMatch(/^[0-9a-f]{64}$/);
    const before = readFileSync(file);
    await expectPlainRun(xdg);
    // Accepted: not made again.
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('is made anew when it is corrupt, from another bundle, or empty', async () => {
    const xdg = cacheHome();
    await expectPlainRun(xdg);
    const file = cacheFile(xdg);
    const good = readFileSync(file);
    const corrupt = Buffer.from(good);
    for (let i = 200; i < corrupt.length; i += 97) corrupt[i] ^= 0x5a;
    const otherBundle = Buffer.concat([Buffer.from('0'.repeat(64), 'latin1'), good.subarray(64)]);
    for (const bad of [corrupt, otherBundle, Buffer.alloc(0), Buffer.from('not a cache')]) {
      writeFileSync(file, bad, { mode: 0o600 });
      await expectPlainRun(xdg);
      expect(readFileSync(file).subarray(0, 64).equals(good.subarray(0, 64))).toBe(true);
    }
  });

  it('is neither read nor written in a directory others may write, or owned by another user', async () => {
    const open = cacheHome();
    chmodSync(open, 0o777); // the parent of cloudchecks/: others could swap it
    await expectPlainRun(open);
    expect(existsSync(cacheFile(open))).toBe(false);

    const theirs = cacheHome();
    mkdirSync(join(theirs, 'cloudchecks'), { mode: 0o700 });
    if (process.getuid?.() === 0) {
      chownSync(join(theirs, 'cloudchecks'), 65534, 65534);
      await expectPlainRun(theirs);
      expect(existsSync(cacheFile(theirs))).toBe(false);
    }

    const groupWritable = cacheHome();
    mkdirSync(join(groupWritable, 'cloudchecks'), { mode: 0o700 });
    chmodSync(join(groupWritable, 'cloudchecks'), 0o770);
    await expectPlainRun(groupWritable);
    expect(existsSync(cacheFile(groupWritable))).toBe(false);
  });

  it('refuses a planted file: a symbolic link, one others may write, one too large', async () => {
    const xdg = cacheHome();
    await expectPlainRun(xdg);
    const file = cacheFile(xdg);
    const good = readFileSync(file);

    // A link to a file with a valid cache: not followed, replaced by a file of our own.
    const elsewhere = join(root, `planted-${n}`);
    writeFileSync(elsewhere, good, { mode: 0o600 });
    rmSync(file);
    symlinkSync(elsewhere, file);
    await expectPlainRun(xdg);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(elsewhere).equals(good)).toBe(true);

    // Writable by others: ignored and replaced.
    chmodSync(file, 0o666);
    await expectPlainRun(xdg);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Larger than the bound (4 MiB): not read, replaced.
    writeFileSync(file, Buffer.concat([good.subarray(0, 64), Buffer.alloc(5 * 1024 * 1024)]), { mode: 0o600 });
    await expectPlainRun(xdg);
    expect(statSync(file).size).toBeLessThan(4 * 1024 * 1024);
  });

  it('is skipped when there is no cache directory to be had', async () => {
    // XDG_CACHE_HOME under a file: the directory cannot be made; the run goes on without it.
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    await expectPlainRun(join(file, 'cache'));
    // Not writable at all (a read-only home): no cache, same run.
    const readOnly = cacheHome();
    chmodSync(readOnly, 0o500);
    if (process.getuid?.() !== 0) {
      await expectPlainRun(readOnly);
      expect(existsSync(cacheFile(readOnly))).toBe(false);
    }
  });
});

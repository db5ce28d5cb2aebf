import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { defaultCacheDir, PrivateCache } from './private-cache';

/**
 * Starts a plugin's code from V8's code cache. build.mjs writes each executable as this
 * starter followed by the plugin's bundle as a string; the starter compiles that string with
 * the cache V8 made of it on an earlier run (the functions the run compiled, in bytecode), so
 * that a run does not parse and compile the same code again.
 *
 * The cache is executable code: it is read only from the user's private cache directory
 * (the default of the session cache: owned by this user and writable by nobody else, files
 * opened without following links, of this user, bounded in size) and only when it was made
 * from the very same bundle (its SHA-256, written at build time, heads the file, with the
 * cache's own SHA-256) on the same Node.js (V8 checks its own version and flags, and refuses
 * a cache that does not match).
 * A directory that cannot be used (no home, an unwritable one, a hostile one) is skipped
 * silently: the bundle is then compiled as any script is. One file per plugin, Node.js
 * version and architecture, replaced when the bundle changes: the cache stays bounded.
 */

/** Largest code cache read or written; a plugin's is some 100-400 KB. */
export const MAX_CODE_CACHE_BYTES = 4 * 1024 * 1024;
/** The file: the bundle's SHA-256 and the cache's own (hex), then the cache. */
const HEAD_BYTES = 128;

type Wrapper = (exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string) => void;

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The cache file's name for this plugin on this Node.js. */
export function codeCacheName(plugin: string): string {
  return `code-${plugin}-${process.version}-${process.arch}`.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * The cache made earlier from the bundle whose hash is `hash`, or undefined. Its own hash is
 * checked too: V8 does not check the bytes of a code cache it is given, and a damaged one
 * would run as damaged code.
 */
export function readCodeCache(cache: PrivateCache, plugin: string, hash: string): Buffer | undefined {
  const file = cache.readBytes(codeCacheName(plugin), MAX_CODE_CACHE_BYTES + HEAD_BYTES);
  if (!file || file.length <= HEAD_BYTES || file.toString('latin1', 0, 64) !== hash) return undefined;
  const data = file.subarray(HEAD_BYTES);
  return file.toString('latin1', 64, HEAD_BYTES) === sha256(data) ? data : undefined;
}

/** Stores `data` as the cache of the bundle whose hash is `hash`. */
export function writeCodeCache(cache: PrivateCache, plugin: string, hash: string, data: Buffer): boolean {
  if (!/^[0-9a-f]{64}$/.test(hash)) return false;
  return cache.writeBytes(codeCacheName(plugin), Buffer.concat([Buffer.from(hash + sha256(data), 'latin1'), data]), MAX_CODE_CACHE_BYTES + HEAD_BYTES);
}

/**
 * Compiles and runs `body` (a CommonJS module's code, SHA-256 `hash` in hex) as the module
 * `mod`, with the code cache when there is a usable one; makes the cache at exit when there
 * was none or V8 refused it. `cacheDir` is for the tests; the plugins use the default.
 */
export function runCached(plugin: string, hash: string, body: string, mod: NodeJS.Module, req: NodeJS.Require, cacheDir?: string): void {
  let cache: PrivateCache | undefined;
  let cached: Buffer | undefined;
  try {
    cache = new PrivateCache(cacheDir ?? defaultCacheDir(), { label: 'code cache' });
    cached = readCodeCache(cache, plugin, hash);
  } catch {
    cache = undefined; // no home directory, no password database entry: no cache
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, {
    filename: mod.filename,
    cachedData: cached,
  });
  if (cache && (cached === undefined || script.cachedDataRejected === true)) {
    const store = cache;
    // At exit: the cache then holds every function the run compiled, not only the top level.
    process.once('exit', () => {
      try {
        writeCodeCache(store, plugin, hash, script.createCachedData());
      } catch {
        // a cache that cannot be written is skipped, as one that cannot be read
      }
    });
  }
  const run = script.runInThisContext() as Wrapper;
  run.call(mod.exports, mod.exports, req, mod, mod.filename, mod.path);
}

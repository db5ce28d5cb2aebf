import { execFileSync, type ChildProcess } from 'node:child_process';
import { accessSync, appendFileSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe } from 'vitest';

/**
 * The full path of an executable found in PATH or the sbin directories, if any.
 * CLOUDCHECKS_<NAME> (e.g. CLOUDCHECKS_ICINGA2) names another build to use instead.
 */
export function findExecutable(name: string): string | undefined {
  const override = process.env[`CLOUDCHECKS_${name.toUpperCase()}`];
  if (override !== undefined) {
    try {
      accessSync(override, constants.X_OK);
      return override;
    } catch {
      return undefined;
    }
  }
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Tests that could not run, as the summary at the end of make test lists them (scripts/test-summary.mjs). */
export interface SkipRecord {
  /** The test file, from the repository's root. */
  file: string;
  /** What did not run ("the nagios4 integration tests"). */
  what: string;
  /** Why ("'nagios4' is not installed"). */
  why: string;
  /** What makes it run. */
  fix?: string;
  /** Set when not running is allowed in CI too, saying where that is documented: else a skip fails a CI run. */
  optional?: string;
}

/** The test file (test/...) that called, read from the stack: the record names the file that skipped. */
function callingTestFile(): string {
  const frames = new Error().stack?.split('\n') ?? [];
  for (const frame of frames) {
    const file = /(test\/[\w./-]+\.test\.ts)/.exec(frame)?.[1];
    if (file) return file;
  }
  return 'test/integration (file not known)';
}

/**
 * Says loudly, once per suite, that tests are skipped and why, and records it where make test
 * sums its runs up (CLOUDCHECKS_SKIP_LOG, set by scripts/run-tests for each run): the summary
 * at the end lists every test that did not run, and in CI, which installs the engines itself,
 * a skip that is not `optional` fails the run. A skipped engine test must never pass for a
 * green one unnoticed.
 */
export function reportSkip(skip: Omit<SkipRecord, 'file'>, file = callingTestFile()): void {
  const bar = '!'.repeat(78);
  console.warn(`\n${bar}\nSKIPPED: ${skip.what} did not run: ${skip.why}.\n${skip.fix ? `${skip.fix}\n` : ''}${bar}\n`);
  const log = process.env.CLOUDCHECKS_SKIP_LOG;
  if (log) appendFileSync(log, JSON.stringify({ file, ...skip } satisfies SkipRecord) + '\n');
}

/**
 * Engines the Debian 13 run leaves to the host's run by design: Nagios is 4.4.6 in both, so the
 * trixie root has no Nagios, and a file that tests Nagios beside Icinga 2 skips that part there.
 */
const NOT_IN_DEBIAN_13: Record<string, string> = {
  nagios4: 'README.md: the Debian 13 run is Icinga 2.14 and Zabbix 7.0 (Nagios is 4.4.6 in both, tested on Debian 12)',
};

/** reportSkip for an engine that is not installed, with the packages that install it. */
export function announceSkip(engine: string, packages: string): void {
  reportSkip(
    {
      what: `the ${engine} integration tests`,
      why: `'${engine}' is not installed`,
      fix: `Install it with: apt-get install --no-install-recommends ${packages}  (or run 'make integration-deps' as root)`,
      optional: process.env.CLOUDCHECKS_EXPECT_DEBIAN === '13' ? NOT_IN_DEBIAN_13[engine] : undefined,
    },
    callingTestFile(),
  );
}

/**
 * The suite of a test that runs only when asked (docs/DEVELOPING.md, "Tests that run only when
 * asked"): `describe` when the variable `env` is 1 and nothing it needs is `missing`, else
 * `describe.skip`, the skip reported: optional when not asked for (in CI too), a failure where
 * skips fail when asked for and something is missing.
 */
export function askedSuite(test: { env: string; what: string; takes: string; missing?: string; fix?: string }): typeof describe | typeof describe.skip {
  const asked = process.env[test.env] === '1';
  const why = !asked ? `not asked for (${test.env}=1 runs it: ${test.takes})` : test.missing ? `${test.missing} is not installed` : '';
  if (!why) return describe;
  reportSkip(
    {
      what: test.what,
      why,
      ...(test.fix ? { fix: test.fix } : {}),
      ...(asked ? {} : { optional: 'docs/DEVELOPING.md: tests that run only when asked' }),
    },
    callingTestFile(),
  );
  return describe.skip;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `done` holds for the value `read` gives, every 250 ms, for at most `ms`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms: ${JSON.stringify(v).slice(0, 2000)}`);
    await sleep(250);
  }
}

/** Stops a daemon the tests started, by its own pid: SIGTERM, then its process group on a hang. */
export async function stopDaemon(child: ChildProcess | undefined, exited: Promise<void> | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited!.then(() => true), sleep(10_000).then(() => false)]);
  if (stopped) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  await Promise.race([exited, sleep(2_000)]);
}

/** Runs a command line as Nagios does (through /bin/sh): its stdout and exit code. */
export function runCommandLine(line: string, home: string): { out: string; code: number } {
  try {
    return { out: execFileSync('/bin/sh', ['-c', line], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } }), code: 0 };
  } catch (e) {
    const err = e as { status?: number; stdout?: string };
    return { out: err.stdout ?? '', code: err.status ?? 1 };
  }
}

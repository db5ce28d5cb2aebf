// An engine test that cannot run says so in the summary make test prints at its end
// (scripts/test-summary.mjs), and in CI, which installs the engines itself, fails the run unless
// not running is documented as allowed. The tests record it through reportSkip
// (test/integration/support/engines.ts); scripts/run-tests gives each run its record file.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { announceSkip, reportSkip } from '../integration/support/engines';

const REPO = resolve(__dirname, '../..');
const SUMMARY = join(REPO, 'scripts/test-summary.mjs');
const work = mkdtempSync(join(tmpdir(), 'cc-summary-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('reportSkip', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('says it loudly and records the skip, naming the test file that skipped, in CLOUDCHECKS_SKIP_LOG', () => {
    const log = join(work, 'skipped-host-engines.jsonl');
    vi.stubEnv('CLOUDCHECKS_SKIP_LOG', log);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    announceSkip('nagios4', 'nagios4-core (its stock /etc/nagios4)');
    reportSkip({ what: 'the 2,000-VM Zabbix fleet test', why: 'not asked for', optional: 'docs/DEVELOPING.md: tests that run only when asked' });
    expect(warn.mock.calls[0][0]).toMatch(/SKIPPED: the nagios4 integration tests did not run: 'nagios4' is not installed\.\nInstall it with: apt-get install/);
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(records).toEqual([
      {
        file: 'test/unit/test-summary.test.ts',
        what: 'the nagios4 integration tests',
        why: "'nagios4' is not installed",
        fix: "Install it with: apt-get install --no-install-recommends nagios4-core (its stock /etc/nagios4)  (or run 'make integration-deps' as root)",
      },
      {
        file: 'test/unit/test-summary.test.ts',
        what: 'the 2,000-VM Zabbix fleet test',
        why: 'not asked for',
        optional: 'docs/DEVELOPING.md: tests that run only when asked',
      },
    ]);
  });

  it('in the Debian 13 run, which has no Nagios by design, a missing nagios4 is allowed; a missing Icinga 2 or Zabbix is not', () => {
    const log = join(work, 'skipped-debian13.jsonl');
    vi.stubEnv('CLOUDCHECKS_SKIP_LOG', log);
    vi.stubEnv('CLOUDCHECKS_EXPECT_DEBIAN', '13');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    announceSkip('nagios4', 'nagios4-core');
    announceSkip('icinga2', 'icinga2-bin');
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(records.map((r) => r.optional)).toEqual([expect.stringMatching(/^README\.md: .*Nagios is 4\.4\.6 in both/), undefined]);
    expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toMatch(/\(Nagios is 4\.4\.6 in both\)/);
  });

  it('writes nothing without CLOUDCHECKS_SKIP_LOG (a test run by hand)', () => {
    vi.stubEnv('CLOUDCHECKS_SKIP_LOG', '');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const before = readdirSync(work);
    announceSkip('icinga2', 'icinga2-bin');
    expect(readdirSync(work)).toEqual(before);
  });
});

describe('scripts/test-summary.mjs', () => {
  /** A folder with one engine run's results (2 passed, 3 skipped) and its skip records. */
  function runFolder(skips: object[]): string {
    const dir = mkdtempSync(join(work, 'run-'));
    mkdirSync(join(dir, '.cache'));
    const results = { success: true, numPassedTests: 2, numFailedTests: 0, numPendingTests: 3, numTodoTests: 0, testResults: [] };
    writeFileSync(join(dir, '.cache/vitest-results-host-engines.json'), JSON.stringify(results));
    writeFileSync(join(dir, '.cache/skipped-host-engines.jsonl'), skips.map((s) => JSON.stringify(s) + '\n').join(''));
    return dir;
  }
  const summary = (dir: string, ci: string) => {
    const r = spawnSync(process.execPath, [SUMMARY, 'host-engines'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, CI: ci } });
    return { code: r.status, lines: r.stdout.trim().split('\n') };
  };
  const NAGIOS = {
    file: 'test/integration/nagios.test.ts',
    what: 'the nagios4 integration tests',
    why: "'nagios4' is not installed",
    fix: 'make integration-deps',
  };
  const FLEET = { file: 'test/integration/zabbix-fleet.test.ts', what: 'the 2,000-VM Zabbix fleet test', why: 'not asked for', optional: 'docs/DEVELOPING.md' };

  it('lists every test that did not run, by run and file, before the total', () => {
    const { code, lines } = summary(runFolder([NAGIOS, NAGIOS, FLEET]), '');
    expect(code).toBe(0);
    expect(lines).toEqual([
      expect.stringMatching(/engine integration tests: 2 passed, 0 failed, 3 skipped$/),
      "NOT RUN host-engines: test/integration/nagios.test.ts: the nagios4 integration tests: 'nagios4' is not installed; make integration-deps",
      'NOT RUN host-engines: test/integration/zabbix-fleet.test.ts: the 2,000-VM Zabbix fleet test: not asked for (allowed: docs/DEVELOPING.md)',
      '2 passed, 0 failed, 3 skipped',
    ]);
  });

  it('in CI a test that could not run fails the run; one documented as allowed does not', () => {
    const failing = summary(runFolder([NAGIOS, FLEET]), 'true');
    expect(failing.code).toBe(1);
    expect(failing.lines).toContain(
      "FAILED host-engines: test/integration/nagios.test.ts: the nagios4 integration tests: 'nagios4' is not installed (CI installs the engines: a test that cannot run there is a failure); make integration-deps",
    );
    expect(failing.lines.some((l) => l.startsWith('NOT RUN host-engines: test/integration/zabbix-fleet.test.ts'))).toBe(true);
    expect(summary(runFolder([FLEET]), 'true').code).toBe(0);
  });

  it('a run that was not made at all (the Debian 13 root missing) is listed from its records alone', () => {
    const dir = runFolder([]);
    // As scripts/run-tests records it when trixie-run.sh finds no root.
    const record = [join(REPO, 'scripts/record-skip.mjs'), 'debian13', 'the Debian 13 run', 'no usable trixie root', 'make integration-deps', ''];
    execFileSync(process.execPath, [...record, 'test/integration/zabbix.test.ts'], { cwd: dir });
    const { code, lines } = summary(dir, 'true');
    expect(code).toBe(1);
    expect(lines).toContain(
      'FAILED debian13: test/integration/zabbix.test.ts: the Debian 13 run: no usable trixie root (CI installs the engines: a test that cannot run there is a failure); make integration-deps',
    );
  });
});

describe('every skip reaches the summary', () => {
  const INTEGRATION = join(REPO, 'test/integration');

  it('every integration test file that can skip a suite records why (reportSkip or announceSkip)', () => {
    const silent = readdirSync(INTEGRATION)
      .filter((f) => f.endsWith('.test.ts'))
      .filter((f) => {
        const text = readFileSync(join(INTEGRATION, f), 'utf8');
        return /describe\.skip/.test(text) && !/\b(reportSkip|announceSkip)\(/.test(text);
      });
    expect(silent).toEqual([]);
  });

  it('scripts/run-tests gives each run its record file, and the Debian 13 root passes it on', () => {
    expect(readFileSync(join(REPO, 'scripts/run-tests'), 'utf8')).toMatch(/CLOUDCHECKS_SKIP_LOG="\$PWD\/\.cache\/skipped-\$name\.jsonl"/);
    expect(readFileSync(join(REPO, 'test/integration/trixie-run.sh'), 'utf8')).toMatch(/CLOUDCHECKS_SKIP_LOG="\$\{CLOUDCHECKS_SKIP_LOG:-\}"/);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlugin } from '../support/build-test-plugin';
import { holdLock } from '../support/lane-lock';
import { runExecutable } from '../support/spawn';

let plugin: string;
let release: (() => void) | undefined;
beforeAll(async () => {
  plugin = await buildTestPlugin();
  // Its -t cases are judged to half a second and one spins a core: never beside its twin on the
  // other lane's Node.js (two of them at once, with the other lanes, took 2.4 s on two cores).
  release = await holdLock(join(__dirname, '../../.cache/runtime-test.lock'), 240_000);
}, 300_000);
afterAll(() => release?.());

describe('plugin runtime, as a monitoring engine sees it', () => {
  it('prints one line with perfdata and long output, exit 0', async () => {
    const r = await runExecutable(plugin, ['--label', 'a', '--label', 'b']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('TEST OK - labels a,b secret undefined | value=1.5s\n[OK] item a\n');
    expect(r.stderr).toBe('');
  });

  it('cuts a hanging probe at -t 1 with UNKNOWN, within 1.5 s', async () => {
    const r = await runExecutable(plugin, ['--mode', 'hang', '-t', '1']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^TEST UNKNOWN - timed out after 1s while waiting forever, raise -t\/--timeout/);
    expect(r.ms).toBeLessThan(1500);
  });

  it('reports the :STATE given with the timeout', async () => {
    const r = await runExecutable(plugin, ['--mode', 'busy', '-t', '1:CRITICAL']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^TEST CRITICAL - timed out after 1s while spinning/);
    expect(r.ms).toBeLessThan(1500);
  });

  it('reports a result that is ready only after the deadline as the timeout: -t wins', async () => {
    const r = await runExecutable(plugin, ['--mode', 'late', '-t', '1']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^TEST UNKNOWN - timed out after 1s while parsing without a pause, raise -t\/--timeout/);
  });

  it('turns a thrown CheckError into one UNKNOWN line', async () => {
    const r = await runExecutable(plugin, ['--mode', 'throw']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('TEST UNKNOWN - the probe failed (secret undefined)\n');
    expect(r.stderr).toBe('');
  });

  it('keeps the state a CheckError asks for', async () => {
    const r = await runExecutable(plugin, ['--mode', 'reject']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('TEST CRITICAL - powered off\n');
  });

  it('turns an unexpected error into UNKNOWN without a stack trace, with one at -vvv', async () => {
    const r = await runExecutable(plugin, ['--mode', 'crash']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('TEST UNKNOWN - internal error: boom (run with -vvv for details)\n');
    expect(r.stderr).toBe('');
    const v = await runExecutable(plugin, ['--mode', 'crash', '-vvv']);
    expect(v.stderr).toMatch(/TypeError: boom\n\s+at /);
  });

  it('redacts secret option values everywhere, at every verbosity', async () => {
    const secret = 'S3cr3t-value-xyz';
    for (const mode of ['ok', 'throw']) {
      const r = await runExecutable(plugin, ['--mode', mode, '--secret', secret, '-vvv']);
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect(r.stdout + r.stderr).toContain('<redacted>');
    }
  });

  it('redacts a secret before the output is rewritten (a ; or | in it would change its spelling)', async () => {
    for (const secret of ['S3cr3t;value|xyz', 'pass\u2028word;long']) {
      for (const args of [
        ['--mode', 'throw'],
        ['--mode', 'throw', '--output', 'json'],
        ['--mode', 'ok', '-vvv'],
      ]) {
        const r = await runExecutable(plugin, [...args, '--secret', secret]);
        const all = r.stdout + r.stderr;
        expect(all).toContain('<redacted>');
        for (const spelling of [
          secret,
          secret.replace(/;/g, ', '),
          secret.replace(/\|/g, '/'),
          secret.replace(/;\s*/g, ', ').replace(/\|/g, '/'),
          'S3cr3t',
          'value/xyz',
          'word, long',
        ]) {
          expect(all).not.toContain(spelling);
        }
      }
    }
  });

  it("keeps Node's own warnings off stderr, except as -vvv trace", async () => {
    const quiet = await runExecutable(plugin, ['--mode', 'warn']);
    expect(quiet.stdout).toBe('TEST OK - warned\n');
    expect(quiet.stderr).toBe('');
    const traced = await runExecutable(plugin, ['--mode', 'warn', '-vvv']);
    expect(traced.stderr).toContain('warning: something is deprecated');
  });

  it('writes the -vvv trace after the result, so an engine merging stderr still reads the status line first', async () => {
    // Icinga 2 merges stderr into the plugin output: a shell redirect does the same here.
    const merged = await runExecutable('/bin/sh', ['-c', `exec "$0" --mode ok -vvv 2>&1`, plugin]);
    expect(merged.stdout).toMatch(/^TEST OK - labels {2}secret <redacted>|^TEST OK - labels /);
    expect(merged.stdout.split('\n')[0]).toMatch(/^TEST OK - /);
    expect(merged.stdout).toContain('trace: secret is undefined');
    const crash = await runExecutable('/bin/sh', ['-c', `exec "$0" --mode crash -vvv 2>&1`, plugin]);
    expect(crash.stdout.split('\n')[0]).toBe('TEST UNKNOWN - internal error: boom (stack trace on stderr)');
    expect(crash.stdout).toMatch(/TypeError: boom\n\s+at /);
  });

  it('refuses a repeated single-value option, naming it, and keeps lists repeatable', async () => {
    const r = await runExecutable(plugin, ['--mode', 'ok', '--mode', 'throw']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('TEST UNKNOWN - --mode given 2 times ("ok", "throw"), give it once (see --help)\n');
    const l = await runExecutable(plugin, ['--label', 'a', '--label', 'b']);
    expect(l.stdout).toMatch(/^TEST OK - labels a,b /);
  });

  it('adds configuration lines to long output at -vv', async () => {
    const r = await runExecutable(plugin, ['-vv']);
    expect(r.stdout.split('\n')).toContain('mode=ok');
  });

  it('reads options from --extra-opts, command line winning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-rt-'));
    const ini = join(dir, 'p.ini');
    writeFileSync(ini, '[check_test]\nmode=throw\nlabel=from-ini\n[custom]\nmode=reject\n');
    const a = await runExecutable(plugin, ['--extra-opts', `@${ini}`]);
    expect(a.stdout).toMatch(/^TEST UNKNOWN - the probe failed/);
    const b = await runExecutable(plugin, ['--extra-opts', `@${ini}`, '--mode', 'ok', '--label', 'cli']);
    expect(b.stdout).toMatch(/^TEST OK - labels from-ini,cli /);
    const c = await runExecutable(plugin, ['--extra-opts', 'custom'], { env: { ...process.env, MP_CONFIG_FILE: ini } });
    expect(c.stdout).toBe('TEST CRITICAL - powered off\n');
  });

  it('exits 3 for --help and --version', async () => {
    const h = await runExecutable(plugin, ['--help']);
    expect(h.code).toBe(3);
    expect(h.stdout).toContain('Usage: check_test');
    expect(h.stdout).toContain('--timeout SECONDS[:STATE]');
    const v = await runExecutable(plugin, ['-V']);
    expect(v.code).toBe(3);
    expect(v.stdout).toMatch(/^check_test \d+\.\d+\.\d+\n$/);
  });

  it.each([
    [['--bogus'], /^TEST UNKNOWN - unknown option --bogus \(see --help\)\n$/],
    [['-t', 'x'], /^TEST UNKNOWN - invalid -t\/--timeout "x"/],
    [['--mode', 'nope'], /^TEST UNKNOWN - invalid --mode "nope": expected one of/],
    [['--extra-opts', '@/nonexistent.ini'], /^TEST UNKNOWN - --extra-opts: cannot read \/nonexistent.ini \(ENOENT\)/],
  ])('usage error %j is one UNKNOWN line', async (args, pattern) => {
    const r = await runExecutable(plugin, args);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(pattern);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe('');
  });

  it('renders a usage error as JSON when --output json was asked for', async () => {
    const r = await runExecutable(plugin, ['--output', 'json', '--bogus']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'TEST', state: 'UNKNOWN', code: 3, summary: 'unknown option --bogus (see --help)' });
  });

  it('renders --output json', async () => {
    const r = await runExecutable(plugin, ['--output', 'json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'TEST', state: 'OK', code: 0, metrics: [{ label: 'value', value: 1.5, uom: 's' }] });
  });
});

// Many checks of one vCD start at the same moment with an empty cache (a monitoring engine
// after a restart): they must make exactly one login between them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { simVcdArgs } from '../support/sim-vcd-args';
import { runExecutable } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_vm_cpu');
const BUSY = 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const HEALTHY = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
let sim: Simulator;

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_vm_cpu is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs([], [VCD_MODULE]);
});
afterAll(() => sim?.close());

describe('concurrent checks with a cold cache', () => {
  it('50 processes at once make exactly one login, leave one sound cache file, and all report the right state', async () => {
    const api = sim.apis.vcd;
    const cacheDir = join(mkdtempSync(join(tmpdir(), 'cc-conc-')), 'cache');
    api.stats.counts = {};
    const runs = Array.from({ length: 50 }, (_, i) => {
      const vm = i % 2 === 0 ? BUSY : HEALTHY;
      const argv = [...simVcdArgs(sim), '--vm', vm, '--cache-dir', cacheDir, '-t', '15'];
      return runExecutable(PLUGIN, argv, { env: { PATH: process.env.PATH } }).then((r) => ({ ...r, vm }));
    });
    const results = await Promise.all(runs);
    for (const r of results) {
      const busy = r.vm === BUSY;
      expect(r.code, r.stdout).toBe(busy ? 1 : 0);
      expect(r.stdout).toMatch(new RegExp(`^VM_CPU ${busy ? 'WARNING' : 'OK'} - cpu usage [\\d.]+% \\(current\\) on ${r.vm} \\| cpu_usage=`));
      expect(r.stderr).toBe('');
    }
    expect(api.stats.counts.login).toBe(1);
    expect(api.stats.counts['metrics.current']).toBe(50);
    expect(readdirSync(cacheDir).filter((f) => !f.endsWith('.json'))).toEqual([]); // no lock or temp file left behind
    // One session file (beside it the remembered API version: .fleet.json).
    const files = readdirSync(cacheDir).filter((f) => !f.endsWith('.fleet.json'));
    expect(files).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(cacheDir, files[0]), 'utf8'))).toMatchObject({ data: { auth: 'bearer' } });
  });

  // A cache that cannot be written (read-only, or a full disk) must never fail a check. As root
  // a chmod does not stop writes, so real read-only and full filesystems are mounted (tmpfs).
  const canMount =
    process.getuid?.() === 0 &&
    (() => {
      try {
        const probe = mkdtempSync(join(tmpdir(), 'cc-mount-probe-'));
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', probe], { stdio: 'ignore' });
        execFileSync('umount', [probe], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    })();
  if (!canMount) console.warn('\nSKIPPED: read-only and full cache filesystem tests need root and mount(8)\n');
  it.skipIf(!canMount).each([
    ['read-only', 'ro,size=64k'],
    ['full', 'size=8k'],
  ])('with a %s cache filesystem, 10 concurrent checks are all correct', async (_kind, mountOptions) => {
    const mnt = mkdtempSync(join(tmpdir(), 'cc-mnt-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', mountOptions, 'tmpfs', mnt]);
    try {
      if (!mountOptions.startsWith('ro')) {
        mkdirSync(join(mnt, 'cache'), { mode: 0o700 });
        try {
          writeFileSync(join(mnt, 'filler'), Buffer.alloc(64 * 1024)); // fills it: ENOSPC part-way
        } catch {
          // full now, as intended
        }
      }
      const argv = [...simVcdArgs(sim), '--vm', BUSY, '--cache-dir', join(mnt, 'cache'), '-t', '15'];
      const results = await Promise.all(Array.from({ length: 10 }, () => runExecutable(PLUGIN, argv, { env: { PATH: process.env.PATH } })));
      for (const r of results) {
        expect(r.code, r.stdout).toBe(1);
        expect(r.stdout).toMatch(/^VM_CPU WARNING - cpu usage [\d.]+% \(current\) on vm-8a1d/);
        expect(r.stderr).toBe('');
        // No check waits on a lock another could not write (it once held them up for 8 s).
        expect(r.ms).toBeLessThan(5000);
      }
    } finally {
      execFileSync('umount', [mnt]);
    }
  });

  it('20 processes with a wrong password make one failed login between them (no account lockout)', async () => {
    const api = sim.apis.vcd;
    const dir = mkdtempSync(join(tmpdir(), 'cc-conc-'));
    writeFileSync(join(dir, 'pw'), 'not-the-password\n', { mode: 0o600 });
    api.stats.counts = {};
    const argv = [
      '-u',
      api.httpsUrl,
      '--ca-file',
      sim.caFile,
      '-U',
      'monitor',
      '-o',
      'acme',
      '--password-file',
      join(dir, 'pw'),
      '--vm',
      BUSY,
      '--cache-dir',
      join(dir, 'cache'),
    ];
    const results = await Promise.all(Array.from({ length: 20 }, () => runExecutable(PLUGIN, argv, { env: { PATH: process.env.PATH } })));
    for (const r of results) {
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /^VM_CPU UNKNOWN - login to https:\/\/127.0.0.1:\d+ as monitor@acme rejected \(HTTP 401: Invalid credentials \(UNAUTHORIZED\)\): wrong user, org or password, check --user, --org and --password-file( \(the same credentials failed [\d.]+s ago, in this or another check, not retried for 10s, to spare the account a lockout\))?\n$/,
      );
    }
    expect(api.stats.counts['login-failed']).toBe(1);
    expect(api.stats.counts.login ?? 0).toBe(0);

    // The admin fixes the password file: the very next run logs in, it is not
    // held back by the failure of the wrong password a moment ago.
    writeFileSync(join(dir, 'pw'), readFileSync(api.info.passwordFile));
    const fixed = await runExecutable(PLUGIN, [...argv, '-v'], { env: { PATH: process.env.PATH } });
    expect(fixed.stdout).toMatch(
      /^VM_CPU WARNING - cpu usage [\d.]+% \(current\) on vm-8a1d.* \[the last failed login used other credentials: trying these, API version 34\.0 \(.*\)\] \|/,
    );
    expect(api.stats.counts.login).toBe(1);
  });

  it("vCD answering 503 at login: the server's words quoted, and the next check tries again (no lockout guard for a cell that is down)", async () => {
    const api = sim.apis.vcd;
    const dir = mkdtempSync(join(tmpdir(), 'cc-conc-503-'));
    const page =
      '<html><head><title>503 Service Unavailable</title><style>h1{color:red}</style></head><body><h1>503</h1><p>no healthy vCD cell</p></body></html>';
    api.faults.set([{ path: '/sessions', kind: 'status', status: 503, body: page, contentType: 'text/html' }]);
    try {
      const argv = [...simVcdArgs(sim), '--vm', BUSY, '--cache-dir', join(dir, 'cache')];
      for (let i = 0; i < 2; i++) {
        const r = await runExecutable(PLUGIN, argv, { env: { PATH: process.env.PATH } });
        expect(r.code).toBe(3);
        expect(r.stdout).toMatch(
          /^VM_CPU UNKNOWN - login to \S+ as monitor@acme failed \(HTTP 503 \(server says: 503 Service Unavailable 503 no healthy vCD cell\)\)[;,] check --url and the vCD cells' health\n$/,
        );
        expect(r.stdout).not.toMatch(/spare the account|password/);
      }
    } finally {
      api.faults.set([]);
    }
  });
});

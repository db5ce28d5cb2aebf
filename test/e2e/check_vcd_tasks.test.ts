// check_vcd_tasks as an engine runs it: the built executable against the simulator's tasks
// over HTTPS (four failed composes in the tenant's organisation, a failed deploy in globex),
// a tenant and a System account, the window cut by the server, hostile names inert, and a
// page of 100,000 tasks read within -t. Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { parsePerfdataStrict } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const EXE = join(DIST, 'check_vcd_tasks');

let sim: Simulator;
let hostile: Simulator;
let bulk: Simulator;

beforeAll(async () => {
  if (!existsSync(EXE)) throw new Error('dist/check_vcd_tasks is missing: run `node build.mjs dist` first');
  [sim, hostile, bulk] = await Promise.all([
    startSimulatorFromArgs([], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'hostile'], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-scenario', 'healthy', '--vcd-tasks', '100000', '--vcd-query-page-size', '100000'], [VCD_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([sim, hostile, bulk].filter(Boolean).map((s) => s.close()));
});

function run(s: Simulator, account: 'system' | 'tenant', extra: string[]): Promise<RunResult> {
  const { vcd } = s.apis;
  const [user, org] = account === 'system' ? [vcd.info.providerUser, 'System'] : [vcd.info.user, vcd.info.org];
  const argv = ['-u', vcd.httpsUrl, '--ca-file', s.caFile, '-U', user, '-o', org, '--password-file', vcd.info.passwordFile];
  argv.push('--cache-dir', mkdtempSync(join(tmpdir(), 'cc-tasks-cache-')), ...extra);
  return runExecutable(EXE, argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME }, killAfterMs: 30_000 });
}
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];
const perfOf = (r: RunResult) => parsePerfdataStrict(firstLine(r).split(' | ')[1] ?? '');

describe('check_vcd_tasks', () => {
  it('a System account sees every organisation: grouped in the first line, one line per failed task', async () => {
    const r = await run(sim, 'system', []);
    expect(r.code, r.stdout).toBe(1);
    expect(firstLine(r)).toMatch(/^VCD_TASKS WARNING - 5 failed: vdcComposeVapp ×4 \(acme\), vappDeploy ×1 \(globex\) in the last 15m \(of 10 tasks\) \| /);
    expect(perfOf(r).map((m) => [m.label, m.value])).toEqual([
      ['tasks_failed', 5],
      ['tasks_total', 10],
    ]);
    expect(r.stdout).toMatch(
      /^\[WARNING\] vappDeploy on vApp "erp" by bob \(org globex\), started \S+Z, ended \S+Z: error: Cannot deploy: the vApp lease has expired\.$/m,
    );
    expect(r.stdout.split('\n').filter((l) => l.startsWith('[WARNING] vdcComposeVapp'))).toHaveLength(4);
    // The server cut the window: the abort of two hours ago was never sent.
    expect(r.stdout).not.toMatch(/vdcCopyTemplate/);
    expect(r.stderr).toBe('');
  });

  it('a tenant account sees its own organisation; -w/-c and --window, --operation, --ignore, --tenant-org', async () => {
    const tenant = await run(sim, 'tenant', ['-w', '4', '-c', '5']);
    expect(tenant.code).toBe(0);
    expect(firstLine(tenant)).toMatch(/^VCD_TASKS OK - 4 failed: vdcComposeVapp ×4 \(acme\) in the last 15m \(of 8 tasks\)/);
    const wide = await run(sim, 'tenant', ['--window', '3h', '--ignore', 'no suitable resource', '--operation', 'Template$']);
    expect(firstLine(wide)).toMatch(/^VCD_TASKS WARNING - 1 failed: vdcCopyTemplate ×1 \(acme\) in the last 3h \(of 1 task\)/);
    const globex = await run(sim, 'system', ['--tenant-org', 'globex', '-c', '0']);
    expect(globex.code).toBe(2);
    expect(firstLine(globex)).toMatch(/^VCD_TASKS CRITICAL - 1 failed: vappDeploy ×1 \(globex\) in the last 15m in org globex \(of 2 tasks\)/);
    const refused = await run(sim, 'tenant', ['--tenant-org', 'globex']);
    expect(refused.code).toBe(3);
    expect(firstLine(refused)).toMatch(/needs a provider account/);
    const bad = await run(sim, 'tenant', ['--window', '15']);
    expect(firstLine(bad)).toMatch(/^VCD_TASKS UNKNOWN - invalid --window "15": a duration needs a unit/);
  });

  it('hostile names and messages stay inert: one status line, no macro, no perfdata from a message', async () => {
    const r = await run(hostile, 'tenant', ['-c', '100']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^VCD_TASKS WARNING - 8 failed: vdcComposeVapp ×8 \(acme\) .* \| tasks_failed=8;0;100;0 tasks_total=8;;;0$/);
    expect(lines).toHaveLength(9);
    for (const l of lines.slice(1)) expect(l).toMatch(/^\[WARNING\] vdcComposeVapp on vApp "/);
    expect(r.stdout).not.toMatch(/[\r\u2028\u2029\u0085\u001b]/);
  });

  it('a page of 100,000 tasks is read as it arrives, within -t', async () => {
    const started = Date.now();
    const r = await run(bulk, 'system', ['-t', '25']);
    expect(firstLine(r)).toMatch(/^VCD_TASKS CRITICAL - 10000 failed: vdcComposeVapp ×10000 \(acme\) in the last 15m \(of 100005 tasks\)/);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('['))).toHaveLength(101);
    expect(Date.now() - started).toBeLessThan(25_500);
  }, 40_000);
});

// --last-state as the engines pass it (Nagios '$SERVICESTATEID$', Icinga 2 $service.state_id$):
// the built dist/check_vdc and dist/check_vm_cpu, already WARNING or CRITICAL, keep that state
// while vCD does not answer at all (a closed port, a reset, no answer within -t), and are
// UNKNOWN as ever when vCD answers badly (HTTP 503). check_vcd, the parent, and check_vm_fleet,
// the runner whose VM services wait on its failure, have no such option.
// Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const ACME_WEB = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
const KEPT = "the last result's state is kept (check_vcd reports the outage)";

let sim: Simulator;
let closedUrl: string;

beforeAll(async () => {
  if (!existsSync(join(DIST, 'check_vdc'))) throw new Error('dist/check_vdc is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs([], [VCD_MODULE]);
  // A port that was just free: nothing listens on it.
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise<void>((ok) => server.close(() => ok()));
  closedUrl = `https://127.0.0.1:${port}`;
});
afterEach(() => sim?.apis.vcd.faults.set([]));
afterAll(() => sim?.close());

/** A check as the engine runs it, against `url` (the simulator by default), each run with a fresh session cache. */
function run(exe: string, extra: string[], url = sim.apis.vcd.httpsUrl): Promise<RunResult> {
  const { vcd } = sim.apis;
  const argv = ['-u', url, '--ca-file', sim.caFile, '-U', vcd.info.user, '-o', vcd.info.org, '--password-file', vcd.info.passwordFile];
  argv.push('--cache-dir', mkdtempSync(join(tmpdir(), 'cc-last-state-')), ...extra);
  return runExecutable(join(DIST, exe), argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
}
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];

const CHECKS = [
  { exe: 'check_vdc', name: 'VDC', own: ['--vdc', 'acme-prod'] },
  { exe: 'check_vm_cpu', name: 'VM_CPU', own: ['--vm', ACME_WEB] },
] as const;

describe.each(CHECKS)('$exe --last-state', ({ exe, name, own }) => {
  it('vCD refusing the connection: WARNING and CRITICAL are kept, said, without perfdata; OK, UNKNOWN and no state are UNKNOWN', async () => {
    const [warning, critical, ok, unknown, empty, none] = await Promise.all(
      [['--last-state', '1'], ['--last-state', '2'], ['--last-state', '0'], ['--last-state', '3'], ['--last-state', ''], []].map((x) =>
        run(exe, [...own, ...x], closedUrl),
      ),
    );
    const origin = closedUrl.replace(/[.]/g, '\\.');
    expect(warning.code, warning.stdout).toBe(1);
    expect(firstLine(warning)).toMatch(
      new RegExp(`^${name} WARNING - vCD at ${origin} is not answering: connection refused by .*, ${KEPT.replace(/[()]/g, '\\$&')}$`),
    );
    expect(warning.stdout).not.toContain('|');
    expect(critical.code, critical.stdout).toBe(2);
    expect(firstLine(critical)).toMatch(new RegExp(`^${name} CRITICAL - vCD at ${origin} is not answering: connection refused`));
    for (const r of [ok, unknown, empty, none]) {
      expect(r.code, r.stdout).toBe(3);
      expect(firstLine(r)).toMatch(new RegExp(`^${name} UNKNOWN - connection refused by 127\\.0\\.0\\.1:`));
    }
    expect(warning.stderr + critical.stderr + none.stderr).toBe('');
  });

  it('vCD answering HTTP 503 to everything: UNKNOWN, as without the option', async () => {
    sim.apis.vcd.faults.set([{ kind: 'status', status: 503, body: 'Service Unavailable' }]);
    const r = await run(exe, [...own, '--last-state', '2']);
    expect(r.code, r.stdout).toBe(3);
    expect(firstLine(r)).toMatch(new RegExp(`^${name} UNKNOWN - .*503`));
    expect(r.stdout).not.toContain('kept');
  });

  it('vCD resetting every connection: the state is kept', async () => {
    sim.apis.vcd.faults.set([{ kind: 'reset' }]);
    const r = await run(exe, [...own, '--last-state', '1']);
    expect(r.code, r.stdout).toBe(1);
    expect(firstLine(r)).toMatch(new RegExp(`^${name} WARNING - vCD at https://127\\.0\\.0\\.1:\\d+ is not answering: connection to .* was reset`));
  });

  it('vCD answering: the result is the measurement, whatever the last state was', async () => {
    const r = await run(exe, [...own, '--last-state', '2']);
    expect([0, 1, 2]).toContain(r.code);
    expect(firstLine(r)).toContain(' | ');
    expect(r.stdout).not.toContain('kept');
  });
});

describe('no answer within -t', () => {
  it('check_vdc keeps CRITICAL and names the timeout; without --last-state it is the UNKNOWN timeout', async () => {
    sim.apis.vcd.faults.set([{ kind: 'hang' }]);
    const [kept, plain] = await Promise.all([run('check_vdc', ['-t', '2', '--last-state', '2']), run('check_vdc', ['-t', '2'])]);
    expect(kept.code, kept.stdout).toBe(2);
    expect(firstLine(kept)).toMatch(
      /^VDC CRITICAL - vCD at https:\/\/127\.0\.0\.1:\d+ is not answering: no answer within -t, the last result's state is kept .*\(-t 2s then expired while /,
    );
    expect(plain.code, plain.stdout).toBe(3);
    expect(firstLine(plain)).toMatch(/^VDC UNKNOWN - timed out after 2s while /);
  });
});

describe('check_vcd, the parent', () => {
  it('has no --last-state: it must go CRITICAL when vCD does not answer', async () => {
    const refused = await run('check_vcd', [], closedUrl);
    expect(refused.code, refused.stdout).toBe(2);
    const option = await run('check_vcd', ['--last-state', '1'], closedUrl);
    expect(option.code).toBe(3);
    expect(firstLine(option)).toMatch(/^VCD UNKNOWN - unknown option --last-state/);
  });
});

describe('check_vm_fleet, the runner', () => {
  it('has no --last-state: its VM services are held back only while it fails, so it must fail when vCD does', async () => {
    const refused = await run('check_vm_fleet', [], closedUrl);
    expect(refused.code, refused.stdout).toBe(3);
    expect(firstLine(refused)).toMatch(/^VM_FLEET UNKNOWN - .*connection refused/);
    const option = await run('check_vm_fleet', ['--last-state', '1'], closedUrl);
    expect(option.code).toBe(3);
    expect(firstLine(option)).toMatch(/^VM_FLEET UNKNOWN - unknown option --last-state/);
  });
});

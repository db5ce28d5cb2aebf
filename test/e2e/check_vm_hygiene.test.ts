// check_vm_snapshot, check_vm_tools and check_vm_lease as an engine runs them: the built dist/
// executables against the simulator over HTTPS, with their defaults, by id and by name, as a
// tenant and as a provider (whose adminVM records lack the hygiene attributes, so the sections
// are read instead), and the request each costs. Run `node build.mjs dist` first.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable, type RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
let tenant: Simulator;
let provider: Simulator;

beforeAll(async () => {
  for (const p of ['check_vm_snapshot', 'check_vm_tools', 'check_vm_lease'])
    if (!existsSync(join(DIST, p))) throw new Error(`dist/${p} is missing: run \`node build.mjs dist\` first`);
  [tenant, provider] = await Promise.all([
    startSimulatorFromArgs([], [VCD_MODULE]),
    startSimulatorFromArgs(['--vcd-org', 'System', '--vcd-user', 'provider'], [VCD_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([tenant, provider].filter(Boolean).map((s) => s.close()));
});

function run(s: Simulator, exe: string, extra: string[]): Promise<RunResult> {
  const { vcd } = s.apis;
  const argv = ['-u', vcd.httpsUrl, '--ca-file', s.caFile, '-U', vcd.info.user, '-o', vcd.info.org, '--password-file', vcd.info.passwordFile];
  argv.push('--cache-dir', mkdtempSync(join(tmpdir(), 'cc-hygiene-cache-')), ...extra);
  return runExecutable(join(DIST, exe), argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
}
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];

describe('check_vm_snapshot', () => {
  it.each([
    ['web-01', 0, /^VM_SNAPSHOT OK - no snapshot on web-01 \(vm-[0-9a-f-]+\) \| snapshots=0;;;0 snapshot_age=0s;259200;604800;0 snapshot_size=0B;;;0$/],
    ['build-02', 0, /^VM_SNAPSHOT OK - 1 snapshot on build-02 .*, oldest \d+h( \d+m)? old .*, 2 GiB \| /],
    [
      'db-03',
      2,
      /^VM_SNAPSHOT CRITICAL - 1 snapshot on db-03 .*, oldest 10d( \d+h)? old .*, 40 GiB \| snapshots=1;;;0 snapshot_age=\d+s;259200;604800;0 snapshot_size=42949672960B;;;0$/,
    ],
    ['old-04', 2, /^VM_SNAPSHOT CRITICAL - 2 snapshots on old-04 .*, oldest 20d/],
    ['batch-05', 0, /^VM_SNAPSHOT OK - 12 snapshots on batch-05/],
  ])('%s by name', async (vm, code, line) => {
    const r = await run(tenant, 'check_vm_snapshot', ['--vm', vm]);
    expect(r.code, r.stdout + r.stderr).toBe(code);
    expect(firstLine(r)).toMatch(line);
  });
  it('count and size thresholds', async () => {
    const r = await run(tenant, 'check_vm_snapshot', ['--vm', 'batch-05', '--count-warning', '10', '--size-critical', '5GiB']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^\[WARNING\] 12 snapshots$/m);
    expect(r.stdout).toMatch(/^\[CRITICAL\] 6 GiB in snapshots$/m);
  });
  it('refuses a size unit that could be read two ways', async () => {
    const r = await run(tenant, 'check_vm_snapshot', ['--vm', 'db-03', '--size-warning', '50G']);
    expect(r.code).toBe(3);
    expect(firstLine(r)).toMatch(/invalid range "50G" for --size-warning/);
  });
});

describe('check_vm_tools', () => {
  it.each([
    ['web-01', 0, /^VM_TOOLS OK - VMware Tools running and current, version 12352 on web-01/],
    ['build-02', 1, /^VM_TOOLS WARNING - VMware Tools running but out of date, version 11265 on build-02/],
    ['appliance-06', 0, /^VM_TOOLS OK - VMware Tools running, guest-managed/],
    ['legacy-07', 1, /^VM_TOOLS WARNING - VMware Tools not installed on legacy-07/],
    ['files-08', 1, /^VM_TOOLS WARNING - VMware Tools installed but not running/],
    ['old-04', 3, /^VM_TOOLS UNKNOWN - old-04 \(vm-[0-9a-f-]+\) is powered off: VMware Tools do not run/],
  ])('%s', async (vm, code, line) => {
    const r = await run(tenant, 'check_vm_tools', ['--vm', vm]);
    expect(r.code, r.stdout + r.stderr).toBe(code);
    expect(firstLine(r)).toMatch(line);
  });
  it('the options set the states', async () => {
    expect((await run(tenant, 'check_vm_tools', ['--vm', 'old-04', '--powered-off-state', 'OK'])).code).toBe(0);
    expect((await run(tenant, 'check_vm_tools', ['--vm', 'build-02', '--outdated-state', 'CRITICAL'])).code).toBe(2);
  });
});

describe('check_vm_lease', () => {
  it.each([
    ['web-01', 0, /^VM_LEASE OK - no expiry on web-01/],
    [
      'build-02',
      2,
      /^VM_LEASE CRITICAL - runtime lease expires in 1d \d+h .* on build-02 .* \| lease_runtime=\d+s;604800:;172800: lease_storage=\d+s;604800:;172800:$/,
    ],
    ['old-04', 1, /^VM_LEASE WARNING - storage lease expires in 4d \d+h .* on old-04 .* \| lease_storage=\d+s;604800:;172800:$/],
  ])('%s', async (vm, code, line) => {
    const r = await run(tenant, 'check_vm_lease', ['--vm', vm]);
    expect(r.code, r.stdout + r.stderr).toBe(code);
    expect(firstLine(r)).toMatch(line);
  });
  it('-w and -c take durations', async () => {
    expect((await run(tenant, 'check_vm_lease', ['--vm', 'build-02', '-w', '3d', '-c', '1d'])).code).toBe(1);
    const r = await run(tenant, 'check_vm_lease', ['--vm', 'build-02', '-w', '80']);
    expect(firstLine(r)).toMatch(/invalid -w\/--warning "80": a duration needs a unit/);
  });
});

describe('what each costs', () => {
  it('Tools: the record only; snapshots: one section for a VM with one; leases: the section of a vApp without dates', async () => {
    const count = (name: string) => tenant.apis.vcd.stats.counts[name] ?? 0;
    const before = { snapshots: count('snapshot-section'), leases: count('lease-section') };
    await run(tenant, 'check_vm_tools', ['--vm', 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d']);
    await run(tenant, 'check_vm_snapshot', ['--vm', 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70']);
    expect(count('snapshot-section') - before.snapshots).toBe(0);
    await run(tenant, 'check_vm_snapshot', ['--vm', 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f']);
    await run(tenant, 'check_vm_lease', ['--vm', 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d']);
    expect(count('snapshot-section') - before.snapshots).toBe(1);
    expect(count('lease-section') - before.leases).toBe(0);
  });
});

describe('a provider account: adminVM records lack the attributes, the sections are read', () => {
  it('snapshots and leases as the tenant sees them; Tools from the version: not installed, or UNKNOWN saying the record cannot tell whether they run', async () => {
    const snap = await run(provider, 'check_vm_snapshot', ['--vm', 'db-03', '--tenant-org', 'acme']);
    expect(firstLine(snap)).toMatch(/^VM_SNAPSHOT CRITICAL - 1 snapshot on db-03 .*, oldest 10d/);
    const lease = await run(provider, 'check_vm_lease', ['--vm', 'build-02', '--tenant-org', 'acme']);
    expect(firstLine(lease)).toMatch(/^VM_LEASE CRITICAL - runtime lease expires in 1d/);
    const tools = await run(provider, 'check_vm_tools', ['--vm', 'legacy-07', '--tenant-org', 'acme']);
    expect(firstLine(tools)).toMatch(/^VM_TOOLS WARNING - VMware Tools not installed on legacy-07 .* \(version 0/);
    // build-02's Tools are out of date, files-08's not running: a System account's record cannot say either, and must not say OK.
    for (const vm of ['build-02', 'files-08']) {
      const r = await run(provider, 'check_vm_tools', ['--vm', vm, '--tenant-org', 'acme']);
      expect(r.code).toBe(3);
      expect(firstLine(r)).toMatch(
        new RegExp(
          `^VM_TOOLS UNKNOWN - VMware Tools installed, version \\d+ on ${vm} \\(vm-[0-9a-f-]+\\), but its record does not say whether they run or are current .*check Tools with a tenant account`,
        ),
      );
    }
  });
});

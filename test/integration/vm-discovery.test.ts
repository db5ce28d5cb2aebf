// VM discovery into the real engines: the Icinga 2 and Nagios objects that
// `check_vm_cpu --discovery --discovery-format icinga2|nagios` prints for the simulator's
// 2,000-VM fleet are loaded with the shipped contrib files (icinga2 daemon -C, nagios4 -v),
// and a private Icinga 2 daemon runs the services of a discovered VM end to end.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecutable } from '../support/spawn';
import { announceSkip, findExecutable } from './support/engines';
import { PrivateIcinga, validateConfig } from './support/icinga2';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const icinga2 = findExecutable('icinga2');
const nagios4 = findExecutable('nagios4');
if (!icinga2) announceSkip('icinga2', 'icinga2-bin icinga2-common');
if (!nagios4) announceSkip('nagios4', 'nagios4-core');

const fleet = new BuiltSimulator(['--vcd-scenario', 'fleet']);
const work = mkdtempSync(join(tmpdir(), 'cc-int-discovery-'));

beforeAll(async () => {
  assertBuilt();
  await fleet.start();
}, 30_000);
afterAll(async () => {
  await fleet.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The discovery output of the fleet in a format, with optional selection. */
async function discover(format: string, extra: string[] = []): Promise<string> {
  const api = fleet.ready.apis.vcd;
  const r = await runExecutable(
    join(DIST, 'check_vm_cpu'),
    ['--discovery', '--discovery-format', format, '--url', api.httpsUrl, '--ca-file', fleet.ready.caFile, '--user', api.user, '--org', api.org, '--password-file', api.passwordFile, '--cache-dir', join(work, 'cache'), ...extra],
    { env: { PATH: process.env.PATH, HOME: work } },
  );
  expect(r.code, r.stdout).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout;
}

(icinga2 ? describe : describe.skip)('Icinga 2 loads the discovered VMs with contrib/icinga2/vm-discovery.conf', () => {
  it('icinga2 daemon -C: 2,000 hosts and 6,000 services, no warning', async () => {
    const file = join(work, 'vms.conf');
    writeFileSync(file, await discover('icinga2'));
    const r = validateConfig(
      icinga2!,
      ['const NodeName = "cloudchecks-test"', 'const ZoneName = NodeName', `const PluginDir = ${JSON.stringify(DIST)}`, 'include <itl>', `include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`, `include ${JSON.stringify(join(REPO, 'contrib/icinga2/vm-discovery.conf'))}`, `include ${JSON.stringify(file)}`, ''].join('\n'),
    );
    expect(r.output).toMatch(/Finished validating the configuration file/);
    expect(r.output).toMatch(/Instantiated 2000 Hosts\./);
    expect(r.output).toMatch(/Instantiated 6000 Services\./);
    expect(r.output).not.toMatch(/warning\/|critical\//);
    expect(r.code).toBe(0);
  }, 60_000);

  it('a discovered VM named with a space and & is checked by the daemon through the apply rules', async () => {
    const objects = await discover('icinga2', ['--vapp', 'Sales & Marketing', '--include', '^Web & DB 01$']);
    const id = /object Host "(vm-[0-9a-f-]{36})"/.exec(objects)![1];
    const previous = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = join(work, 'icinga-cache'); // the daemon's plugins keep their sessions here
    const icinga = new PrivateIcinga({ icinga2: icinga2!, pluginDir: DIST, objects: [`include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`, `include ${JSON.stringify(join(REPO, 'contrib/icinga2/vm-discovery.conf'))}`, objects].join('\n') });
    try {
      await icinga.start();
      for (const [service, line] of [
        ['vm-cpu', /^VM_CPU OK - cpu usage [\d.]+% \(avg 15m\) on vm-/],
        ['vm-memory', /^VM_MEM OK - memory usage [\d.]+% \(current\) on vm-/],
        ['vm-disk', /^VM_DISK OK - disk used [\d.]+% /],
      ] as const) {
        const r = await icinga.check(id, service);
        expect(r.output).toMatch(line);
        expect(r.state).toBe(0);
        expect(r.command).toContain(id);
      }
    } finally {
      await icinga.stop();
      if (previous === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = previous;
    }
  }, 120_000);
});

const NAGIOS_BASE = `
define timeperiod {
    timeperiod_name 24x7
    alias           always
    sunday          00:00-24:00
    monday          00:00-24:00
    tuesday         00:00-24:00
    wednesday       00:00-24:00
    thursday        00:00-24:00
    friday          00:00-24:00
    saturday        00:00-24:00
}
define command {
    command_name    notify-none
    command_line    /bin/true
}
define contact {
    contact_name                  cloudchecks-test
    host_notifications_enabled    0
    service_notifications_enabled 0
    host_notification_period      24x7
    service_notification_period   24x7
    host_notification_options     n
    service_notification_options  n
    host_notification_commands    notify-none
    service_notification_commands notify-none
}
define host {
    name                  generic-host
    register              0
    max_check_attempts    3
    check_period          24x7
    contacts              cloudchecks-test
    notification_period   24x7
    notification_interval 0
}
define service {
    name                  generic-service
    register              0
    max_check_attempts    3
    check_interval        5
    retry_interval        1
    check_period          24x7
    contacts              cloudchecks-test
    notification_period   24x7
    notification_interval 0
}
`;

(nagios4 ? describe : describe.skip)('Nagios 4 loads the discovered VMs with contrib/nagios/vm-discovery.cfg', () => {
  it('nagios4 -v: 2,000 hosts and 6,000 services, no errors and no warnings', async () => {
    const root = join(work, 'nagios');
    const v = join(root, 'var');
    mkdirSync(join(v, 'checkresults'), { recursive: true });
    writeFileSync(join(root, 'base.cfg'), NAGIOS_BASE);
    writeFileSync(join(root, 'vms.cfg'), await discover('nagios'));
    writeFileSync(join(root, 'resource.cfg'), `$USER1$=${DIST}\n`);
    let group = userInfo().username;
    try {
      group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
    } catch {
      // the user name as the group
    }
    const main = join(root, 'nagios.cfg');
    writeFileSync(
      main,
      [
        `log_file=${join(v, 'nagios.log')}`,
        `cfg_file=${join(root, 'base.cfg')}`,
        `cfg_file=${join(REPO, 'contrib/nagios/commands.cfg')}`,
        `cfg_file=${join(REPO, 'contrib/nagios/vm-discovery.cfg')}`,
        `cfg_file=${join(root, 'vms.cfg')}`,
        `object_cache_file=${join(v, 'objects.cache')}`,
        `precached_object_file=${join(v, 'objects.precache')}`,
        `resource_file=${join(root, 'resource.cfg')}`,
        `status_file=${join(v, 'status.dat')}`,
        `temp_file=${join(v, 'nagios.tmp')}`,
        `temp_path=${v}`,
        `command_file=${join(v, 'nagios.cmd')}`,
        `lock_file=${join(v, 'nagios.lock')}`,
        `check_result_path=${join(v, 'checkresults')}`,
        `state_retention_file=${join(v, 'retention.dat')}`,
        `nagios_user=${userInfo().username}`,
        `nagios_group=${group}`,
        'illegal_macro_output_chars=`~$&|\'"<>',
        '',
      ].join('\n'),
    );
    let output: string;
    let code = 0;
    try {
      output = execFileSync(nagios4!, ['-v', main], { encoding: 'utf8', timeout: 60_000 });
    } catch (e) {
      const err = e as { status?: number; stdout?: string };
      output = err.stdout ?? '';
      code = err.status ?? 1;
    }
    expect(output).toMatch(/Checked 6000 services\./);
    expect(output).toMatch(/Checked 2000 hosts\./);
    expect(output).toMatch(/Total Warnings: 0\s+Total Errors:\s+0/);
    expect(code).toBe(0);
  }, 60_000);

  it('the command line Nagios builds from a discovered host runs the check', async () => {
    // What Nagios does with cloudchecks_vm_cpu_discovered!--window 15m for the host: the
    // custom variables substituted, then the line run by /bin/sh.
    const objects = await discover('nagios', ['--vapp', 'Sales & Marketing', '--include', '^Web & DB 01$']);
    const id = /_VM_ID\s+(\S+)/.exec(objects)![1];
    const vcdArgs = /_VCD_ARGS\s+(.+)$/m.exec(objects)![1].replace(/\\;/g, ';');
    const line = `${DIST}/check_vm_cpu ${vcdArgs} --vm '${id}' --window 15m --cache-dir '${join(work, 'nagios-cache')}'`;
    let out = '';
    let code = 0;
    try {
      out = execFileSync('/bin/sh', ['-c', line], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: work } });
    } catch (e) {
      const err = e as { status?: number; stdout?: string };
      out = err.stdout ?? '';
      code = err.status ?? 1;
    }
    expect(out).toMatch(new RegExp(`^VM_CPU OK - cpu usage [\\d.]+% \\(avg 15m\\) on ${id} \\|`));
    expect(code).toBe(0);
  });
});

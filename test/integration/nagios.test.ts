// contrib/nagios/*.cfg, checked by the real Nagios 4 (`nagios4 -v`) with a private main
// config: its own log, status, spool and lock paths, and just enough objects (a time period,
// a contact and the two templates the examples use) around the shipped files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { announceSkip, findExecutable } from './support/engines';
import { DIST, REPO } from './support/simulator';

const nagios4 = findExecutable('nagios4');
if (!nagios4) announceSkip('nagios4', 'nagios4-core');
const suite = nagios4 ? describe : describe.skip;

const BASE_OBJECTS = `
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

function group(): string {
  try {
    return execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  } catch {
    return userInfo().username;
  }
}

suite('Nagios 4 accepts contrib/nagios', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-nagios-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('nagios4 -v: commands.cfg and example-services.cfg, no errors and no warnings', () => {
    const v = join(root, 'var');
    mkdirSync(join(v, 'checkresults'), { recursive: true });
    writeFileSync(join(root, 'base.cfg'), BASE_OBJECTS);
    writeFileSync(join(root, 'resource.cfg'), `$USER1$=${DIST}\n`);
    const main = join(root, 'nagios.cfg');
    writeFileSync(
      main,
      [
        `log_file=${join(v, 'nagios.log')}`,
        `cfg_file=${join(root, 'base.cfg')}`,
        `cfg_file=${join(REPO, 'contrib/nagios/commands.cfg')}`,
        `cfg_file=${join(REPO, 'contrib/nagios/example-services.cfg')}`,
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
        `nagios_group=${group()}`,
        'illegal_macro_output_chars=`~$&|\'"<>',
        '',
      ].join('\n'),
    );
    let output: string;
    let code = 0;
    try {
      output = execFileSync(nagios4!, ['-v', main], { encoding: 'utf8', timeout: 30_000 });
    } catch (e) {
      const err = e as { status?: number; stdout?: string };
      output = err.stdout ?? '';
      code = err.status ?? 1;
    }
    expect(output).toMatch(/Checked 10 commands\./);
    expect(output).toMatch(/Checked 6 services\./);
    expect(output).toMatch(/Total Warnings: 0\s+Total Errors:\s+0/);
    expect(code).toBe(0);
  });
});

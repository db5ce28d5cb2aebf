// The real Nagios 4 (`nagios4 -v`) run on a private main config: its own log, status, spool
// and lock paths under a throw-away directory, and just enough objects (a time period, a
// contact and the two templates the shipped examples use) around the files under test.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { DIST } from './simulator';

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

/** The current user's primary group, which nagios4 -v wants as nagios_group. */
function currentGroup(): string {
  try {
    return execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  } catch {
    return userInfo().username;
  }
}

/** Runs `nagios4 -v` on the given object files with a private main config in root; never throws. */
export function verifyNagiosConfig(nagios4: string, root: string, cfgFiles: string[], timeoutMs: number): { code: number; output: string } {
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
      ...cfgFiles.map((f) => `cfg_file=${f}`),
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
      `nagios_group=${currentGroup()}`,
      'illegal_macro_output_chars=`~$&|\'"<>',
      '',
    ].join('\n'),
  );
  try {
    return { code: 0, output: execFileSync(nagios4, ['-v', main], { encoding: 'utf8', timeout: timeoutMs }) };
  } catch (e) {
    const err = e as { status?: number; stdout?: string };
    return { code: err.status ?? 1, output: err.stdout ?? '' };
  }
}

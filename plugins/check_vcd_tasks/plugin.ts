// check_vcd_tasks: the tasks that failed in Cloud Director within a window (provisioning that
// fails all morning), counted and grouped by operation and organisation.
import type { PluginDefinition } from '../../lib/plugin/run';
import { vcdFrameCheck } from '../vcd-family';
import { readTasks } from '../../lib/vcd/tasks/task-probe';
import { judgeTasks, TaskTally } from '../../lib/vcd/tasks/task-report';
import { configureTasks } from './config';
import { TASKS_OPTIONS } from './options';

export const plugin: PluginDefinition<typeof TASKS_OPTIONS> = vcdFrameCheck({
  name: 'VCD_TASKS',
  command: 'check_vcd_tasks',
  description:
    "Checks the tasks of VMware Cloud Director that failed (ended in error, or were aborted) within --window: their number against -w/-c, grouped by operation and organisation in the status line, one line per task in the long output (operation, object, owner, organisation, start, the error's message). A tenant account sees its organisation's tasks, a System account every organisation's (--tenant-org narrows).",
  usage:
    'check_vcd_tasks -u URL -U USER -o ORG --password-file PATH [--window DURATION] [--tenant-org NAME] [--operation REGEX] [--ignore REGEX] [-w RANGE] [-c RANGE] [options]',
  options: TASKS_OPTIONS,
  examples: [
    'check_vcd_tasks -u https://vcd.example.com -U provider-monitor -o System --password-file /etc/nagios/vcd-system.pw',
    "check_vcd_tasks -u https://vcd.example.com -U monitor -o acme --password-file PW --window 1h --operation '^vdc(Compose|Instantiate)' -w 2 -c 5",
    "check_vcd_tasks -u https://vcd.example.com -U provider-monitor -o System --password-file PW --tenant-org globex --ignore 'lease'",
  ],
  notes: [
    'Reads the query service: type=task (TaskRecord, the organisation of the login) for a tenant account, type=adminTask (AdminTaskRecord, every organisation; the System Administrator role) for a System account, filtered on the server by startDate=gt=<now - window>, the pages read as they arrive. A task that started before the window and failed within it is not counted: make the window longer than the longest task.',
    "Failed: status error or aborted (canceled, by a user, is not). Fields read: name (the operation), objectName and objectType, ownerName, orgName, startDate, endDate, status, message (the error's message). A field a record does not send is said as unknown and costs nothing else.",
    'Perfdata: tasks_failed (with -w/-c) and tasks_total, the tasks of the window that --operation and --tenant-org keep: a steady failure rate shows in the graphs. The long output lists the newest 100 failed tasks.',
  ],
  configure: configureTasks,
  async read(frame, config) {
    const { session } = frame;
    const { provider, tenantOrg } = session.scope;
    const rules = { ...config.rules, ...(tenantOrg !== undefined ? { org: tenantOrg } : {}) };
    const since = Date.now() - config.rules.windowSeconds * 1000;
    const tally = await readTasks(session, { admin: provider, since, ...(tenantOrg !== undefined ? { org: tenantOrg } : {}) }, new TaskTally(rules));
    frame.note();
    const scope = tenantOrg === undefined ? '' : ` in org ${tenantOrg}`;
    return frame.finish(judgeTasks(tally, rules, scope));
  },
});

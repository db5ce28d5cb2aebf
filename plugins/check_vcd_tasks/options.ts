import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { thresholdOptions } from '../../lib/plugin/scalar-context';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../lib/vcd/api/connection-options';

/** The options of check_vcd_tasks, in --help order. */
export const TASKS_OPTIONS = defineOptions([
  VCD_URL_OPTION,
  {
    long: 'tenant-org',
    type: 'string',
    arg: 'NAME',
    description: "With a provider account (--org System): only this organisation's tasks. A tenant account sees only its own.",
  },
  ...VCD_LOGIN_OPTIONS,
  {
    long: 'window',
    type: 'string',
    arg: 'DURATION',
    default: '15m',
    description:
      'The tasks started within this time before now (15m, 1h; at most 24h). Make it the check interval or longer: a failure is seen as long as its start is in the window.',
  },
  {
    long: 'operation',
    type: 'string',
    arg: 'REGEX',
    description: "Only tasks whose operation (the record's name: vdcComposeVapp, vappDeploy, vdcUpdateVdc ...) matches; in the counts too.",
  },
  {
    long: 'ignore',
    type: 'string',
    arg: 'REGEX',
    description: "A failed task whose error message matches is not counted as failed (it still counts in tasks_total), e.g. 'quota|lease'.",
  },
  ...thresholdOptions({
    warning: 'Range of failed tasks in the window that is WARNING (default 0: WARNING from the first failure).',
    critical: 'Range of failed tasks in the window that is CRITICAL (default 9: CRITICAL from ten).',
  }),
  ...HTTP_OPTIONS,
]);

/** check_vcd_tasks' options as parsed. */
export type TasksOptions = PluginOptions<typeof TASKS_OPTIONS>;

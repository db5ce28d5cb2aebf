import { parseDuration } from '../../lib/plugin/duration';
import { compileLinearRegExp } from '../../lib/plugin/linear-regexp';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import type { TaskRules } from '../../lib/vcd/tasks/task-report';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { TasksOptions } from './options';

/** Everything check_vcd_tasks' options say, validated before the first request. */
export interface TasksConfig {
  base: URL;
  rules: Omit<TaskRules, 'org'>;
  /** Notes for -v about the thresholds. */
  slips: string[];
}

/** The longest window: the query service keeps finished tasks for a while, not for ever. */
const MAX_WINDOW_SECONDS = 24 * 3600;

/** The options of check_vcd_tasks as its config. */
export function configureTasks(options: TasksOptions): TasksConfig {
  const failed = ScalarContext.fromOptions({ warning: options.warning ?? '0', critical: options.critical ?? '9' });
  return {
    base: baseUrl(options.url),
    rules: {
      windowSeconds: parseDuration(options.window, '--window', { maxSeconds: MAX_WINDOW_SECONDS }),
      ...(options.operation !== undefined ? { operation: compileLinearRegExp(options.operation, '--operation') } : {}),
      ...(options.ignore !== undefined ? { ignore: compileLinearRegExp(options.ignore, '--ignore') } : {}),
      failed,
    },
    slips: failed.slip === undefined ? [] : [failed.slip],
  };
}

// check_vcd_tasks' judgement: the failed tasks of the window, counted against -w/-c, grouped by
// operation and organisation in the status line, one long-output line for each (the newest
// first, bounded); tasks_failed and tasks_total as perfdata.
import type { Item, Result } from '../../plugin/result';
import type { ScalarContext } from '../../plugin/scalar-context';
import { unjudgedMetric } from '../../plugin/scalar-context';
import { formatDuration } from '../../plugin/duration';
import { State } from '../../plugin/state';
import { FAILED_TASK_STATUSES, type TaskRecord } from './task-query';

/** Which tasks count, and how the failures are judged. */
export interface TaskRules {
  /** --operation: only tasks whose operation matches. */
  operation?: RegExp;
  /** --tenant-org (compared ignoring case, as vCD compares organisation names). */
  org?: string;
  /** --ignore: a failure whose message matches is not counted as failed. */
  ignore?: RegExp;
  /** -w/-c on the number of failed tasks. */
  failed: ScalarContext;
  /** The window, in seconds (said in the status line). */
  windowSeconds: number;
}

/** Failed tasks named one per long-output line at most: the newest. */
export const MAX_TASKS_LISTED = 100;
/** Groups (operation × organisation) counted apart at most: the rest are counted as one. */
const MAX_GROUPS = 1000;
/** Groups named in the status line. */
const GROUPS_IN_SUMMARY = 5;

/**
 * The tally of a window, fed one task at a time as the pages arrive: counts and groups of the
 * failures, and the newest MAX_TASKS_LISTED of them; nothing else is kept.
 */
export class TaskTally {
  total = 0;
  failed = 0;
  ignored = 0;
  private readonly groups = new Map<string, { operation: string; org: string; n: number }>();
  private otherGroups = 0;
  private newest: TaskRecord[] = [];

  constructor(private readonly rules: Pick<TaskRules, 'operation' | 'org' | 'ignore'>) {}

  /** Counts one task of the window. */
  add(task: TaskRecord): void {
    const { operation, org, ignore } = this.rules;
    if (operation && !operation.test(task.operation)) return;
    if (org !== undefined && task.org.toLowerCase() !== org.toLowerCase()) return;
    this.total++;
    if (!FAILED_TASK_STATUSES.has(task.status)) return;
    if (ignore && ignore.test(task.message)) {
      this.ignored++;
      return;
    }
    this.failed++;
    const key = `${task.operation}\u0000${task.org}`;
    const group = this.groups.get(key);
    if (group) group.n++;
    else if (this.groups.size < MAX_GROUPS) this.groups.set(key, { operation: task.operation, org: task.org, n: 1 });
    else this.otherGroups++;
    this.newest.push(task);
    // Sorted and cut only now and then: a window of 100,000 failures costs a few hundred sorts.
    if (this.newest.length >= 2 * MAX_TASKS_LISTED) this.newest = newestFirst(this.newest).slice(0, MAX_TASKS_LISTED);
  }

  /** The failure groups, the largest first (then by operation, then organisation). */
  groupList(): Array<{ operation: string; org: string; n: number }> {
    return [...this.groups.values()].sort((a, b) => b.n - a.n || cmp(a.operation, b.operation) || cmp(a.org, b.org));
  }

  /** Failures beyond the MAX_GROUPS groups counted apart. */
  get ungrouped(): number {
    return this.otherGroups;
  }

  /** The newest failures kept, the newest first. */
  listed(): TaskRecord[] {
    return newestFirst(this.newest).slice(0, MAX_TASKS_LISTED);
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Newest start first; a task without a start date last. */
function newestFirst(tasks: readonly TaskRecord[]): TaskRecord[] {
  return [...tasks].sort((a, b) => (b.start ?? -Infinity) - (a.start ?? -Infinity));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const orNone = (text: string, none: string) => (text === '' ? none : text);

/** One failed task as a long-output line: operation, object, owner, organisation, when, the message. */
export function describeTask(t: TaskRecord): string {
  const object = t.object === '' ? 'an unnamed object' : `${t.objectType === '' ? '' : `${t.objectType} `}${JSON.stringify(t.object)}`;
  const when = t.start === undefined ? 'start unknown' : `started ${new Date(t.start).toISOString().slice(0, 19)}Z`;
  const ended = t.end === undefined ? '' : `, ended ${new Date(t.end).toISOString().slice(11, 19)}Z`;
  return `${orNone(t.operation, 'operation unknown')} on ${object} by ${orNone(t.owner, 'owner unknown')} (org ${orNone(t.org, 'unknown')}), ${when}${ended}: ${t.status}${t.message === '' ? '' : `: ${t.message}`}`;
}

/** The result of check_vcd_tasks over a window's tally. */
export function judgeTasks(tally: TaskTally, rules: TaskRules, scope: string): Result {
  const window = formatDuration(rules.windowSeconds);
  const judged = rules.failed.measure('tasks_failed', tally.failed, { min: 0 });
  const metrics = [judged.metric, unjudgedMetric('tasks_total', tally.total, { min: 0 })];
  const listed = tally.listed();
  const items: Item[] = listed.map((t) => ({ name: t.operation, state: judged.state, text: describeTask(t) }));
  if (tally.failed > listed.length)
    items.push({ name: 'more', state: judged.state, text: `… ${tally.failed - listed.length} more failed tasks (the newest ${listed.length} are listed)` });
  if (tally.ignored > 0) items.push({ name: 'ignored', state: State.OK, text: `${tally.ignored} failed tasks ignored (--ignore)` });
  const ignored = tally.ignored > 0 ? `, ${tally.ignored} ignored` : '';
  if (tally.failed === 0)
    return { state: judged.state, summary: `no failed tasks in the last ${window}${scope} (${plural(tally.total, 'task')}${ignored})`, items, metrics };
  const groups = tally.groupList();
  const named = groups.slice(0, GROUPS_IN_SUMMARY).map((g) => `${orNone(g.operation, '?')} ×${g.n}${g.org === '' ? '' : ` (${g.org})`}`);
  const rest = groups.slice(GROUPS_IN_SUMMARY).reduce((n, g) => n + g.n, 0) + tally.ungrouped;
  const more = rest > 0 ? `, ${rest} more` : '';
  const summary = `${tally.failed} failed: ${named.join(', ')}${more} in the last ${window}${scope} (of ${plural(tally.total, 'task')}${ignored})`;
  return { state: judged.state, summary, items, metrics };
}

// check_vcd_tasks' judgement: counts against -w/-c, the status line grouped by operation and
// organisation, the long output bounded to the newest failures whatever the window holds.
import { describe, expect, it } from 'vitest';
import { ScalarContext } from '../../../../lib/plugin/scalar-context';
import { State } from '../../../../lib/plugin/state';
import type { TaskRecord } from '../../../../lib/vcd/tasks/task-query';
import { judgeTasks, MAX_TASKS_LISTED, TaskTally, type TaskRules } from '../../../../lib/vcd/tasks/task-report';

const rules = (over: Partial<TaskRules> = {}): TaskRules => ({
  failed: ScalarContext.fromOptions({ warning: '0', critical: '9' }),
  windowSeconds: 900,
  ...over,
});

const task = (over: Partial<TaskRecord>): TaskRecord => ({
  operation: 'vdcComposeVapp',
  operationFull: '',
  object: 'web',
  objectType: 'vApp',
  owner: 'alice',
  org: 'acme',
  status: 'success',
  start: Date.parse('2024-03-11T08:00:00Z'),
  message: '',
  ...over,
});

function judge(tasks: TaskRecord[], r = rules()) {
  const tally = new TaskTally(r);
  for (const t of tasks) tally.add(t);
  return judgeTasks(tally, r, '');
}

describe('judgeTasks', () => {
  it('groups the failures by operation and organisation, the largest first', () => {
    const tasks = [
      ...Array.from({ length: 4 }, (_, i) => task({ status: 'error', object: `web-0${i}` })),
      task({ operation: 'vappDeploy', org: 'globex', status: 'aborted', message: 'lease expired' }),
      task({ status: 'success' }),
      task({ status: 'canceled' }),
    ];
    const result = judge(tasks);
    expect(result.state).toBe(State.WARNING);
    expect(result.summary).toBe('5 failed: vdcComposeVapp ×4 (acme), vappDeploy ×1 (globex) in the last 15m (of 7 tasks)');
    expect(result.metrics?.map((m) => [m.label, m.value])).toEqual([
      ['tasks_failed', 5],
      ['tasks_total', 7],
    ]);
    expect(result.items?.find((i) => i.text.startsWith('vappDeploy'))?.text).toBe(
      'vappDeploy on vApp "web" by alice (org globex), started 2024-03-11T08:00:00Z: aborted: lease expired',
    );
  });

  it('is OK without failures, CRITICAL from ten (defaults 0 and 9)', () => {
    expect(judge([task({})]).state).toBe(State.OK);
    expect(judge([task({})]).summary).toBe('no failed tasks in the last 15m (1 task)');
    expect(judge(Array.from({ length: 10 }, () => task({ status: 'error' }))).state).toBe(State.CRITICAL);
  });

  it('narrows by --operation and --tenant-org, and --ignore keeps a failure out of the failed count only', () => {
    const tasks = [
      task({ status: 'error', message: 'quota exceeded' }),
      task({ operation: 'vappDeploy', status: 'error' }),
      task({ org: 'globex', status: 'error' }),
    ];
    const r = rules({ operation: /^vdc/, org: 'ACME', ignore: /quota/ });
    const result = judge(tasks, r);
    expect(result.state).toBe(State.OK);
    expect(result.metrics?.map((m) => m.value)).toEqual([0, 1]);
    expect(result.summary).toBe('no failed tasks in the last 15m (1 task, 1 ignored)');
  });

  it('says a missing field as unknown and judges the rest', () => {
    const result = judge([task({ status: 'error', operation: '', org: '', owner: '', object: '', start: undefined })]);
    expect(result.summary).toBe('1 failed: ? ×1 in the last 15m (of 1 task)');
    expect(result.items?.[0].text).toBe('operation unknown on an unnamed object by owner unknown (org unknown), start unknown: error');
  });

  it('keeps the newest failures and bounded groups whatever the window holds (100,000 failures, all of other names)', () => {
    const r = rules();
    const tally = new TaskTally(r);
    const t0 = Date.parse('2024-03-11T08:00:00Z');
    for (let n = 0; n < 100_000; n++) tally.add(task({ status: 'error', operation: `op${n}`, start: t0 + n * 1000 }));
    const result = judgeTasks(tally, r, '');
    expect(result.state).toBe(State.CRITICAL);
    expect(result.items).toHaveLength(MAX_TASKS_LISTED + 1);
    expect(result.items?.[0].text).toMatch(/^op99999 /);
    expect(result.items?.[MAX_TASKS_LISTED].text).toBe(`… ${100_000 - MAX_TASKS_LISTED} more failed tasks (the newest ${MAX_TASKS_LISTED} are listed)`);
    expect(result.summary).toMatch(/^100000 failed: op0 ×1 \(acme\), .*, 99995 more in the last 15m/);
    expect(result.summary.length).toBeLessThan(400);
  });
});

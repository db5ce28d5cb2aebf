// The task records, read as check_vcd_tasks reads them (a page as it arrives), from documents
// built from the API reference (test/fixtures/vcd/tasks/README.md): a field a record lacks is
// unknown, and the server's text is made inert.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordsPageReader } from '../../../../lib/vcd/api/query-pages';
import { taskQueryPath, taskRecordOf, type TaskRecord } from '../../../../lib/vcd/tasks/task-query';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd/tasks', name));

function readPage(name: string): { tasks: TaskRecord[]; next?: string } {
  const tasks: TaskRecord[] = [];
  const reader = new RecordsPageReader('query response', ['TaskRecord', 'AdminTaskRecord'], (e) => tasks.push(taskRecordOf(e)));
  const body = fixture(name);
  // In pieces, as a socket gives them.
  for (let i = 0; i < body.length; i += 700) reader.write(body.subarray(i, i + 700));
  return { tasks, next: reader.end().next };
}

describe('task records', () => {
  it('reads the task query: operation, object, owner, org, dates and the error message', () => {
    const { tasks } = readPage('task-records-schema-api36.xml');
    expect(tasks.map((t) => [t.operation, t.status])).toEqual([
      ['vdcComposeVapp', 'error'],
      ['vappDeploy', 'success'],
      ['vdcUpdateVdc', 'running'],
      ['vdcCopyTemplate', 'aborted'],
      ['vappUndeployPowerOff', 'canceled'],
    ]);
    expect(tasks[0]).toMatchObject({ object: 'web-01', objectType: 'vApp', owner: 'alice', org: 'acme', start: Date.parse('2024-03-11T08:04:12.207Z') });
    expect(tasks[0].message).toMatch(/^\[ 4d1f5b0e-.*no suitable resource was found/);
    expect(tasks[1].start).toBe(Date.parse('2024-03-11T07:05:30.004Z'));
    expect(tasks[2].end).toBeUndefined();
    // No startDate, orgName, ownerName or message: unknown, the record still read.
    expect(tasks[3]).toMatchObject({ org: '', owner: '', message: '' });
    expect(tasks[3].start).toBeUndefined();
  });

  it('reads the adminTask query with its paging; hostile text has no line break left', () => {
    const { tasks, next } = readPage('adminTask-records-schema-api39.xml');
    expect(next).toContain('page=2');
    expect(tasks[0].org).toBe('globex');
    expect(tasks[0].object).toBe('erp next');
    expect(tasks[0].message).toBe('Cannot deploy vApp "erp": lease expired $(touch /tmp/x) $USER1$ |perf=1');
    expect(tasks[1]).toMatchObject({ status: 'error', org: 'System' });
    expect(tasks[1].start).toBeUndefined();
  });

  it('bounds a name and a message however long the server makes them', () => {
    const t = taskRecordOf({ local: 'TaskRecord', uri: '', children: [], attributes: { name: 'x'.repeat(100_000), message: 'm'.repeat(100_000) } });
    expect(t.operation.length).toBeLessThan(300);
    expect(t.message.length).toBeLessThan(400);
  });

  it('asks the server for the window only, and the organisation of --tenant-org', () => {
    const since = Date.parse('2024-03-11T08:00:00Z');
    expect(decodeURIComponent(taskQueryPath({ admin: false, since }))).toBe(
      '/api/query?type=task&format=records&filter=(startDate=gt=2024-03-11T08:00:00.000Z)&pageSize=128',
    );
    const admin = decodeURIComponent(taskQueryPath({ admin: true, since, org: 'a;b' }));
    expect(admin).toContain('type=adminTask');
    // A FIQL operator in a name cannot change the filter.
    expect(admin).toContain(';orgName==a*b)');
  });
});

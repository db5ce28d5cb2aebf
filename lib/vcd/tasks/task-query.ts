// The tasks of a window as the query service lists them (type=task for a tenant, adminTask for
// System: TaskRecord / AdminTaskRecord, QueryResultTaskRecordType), filtered by start date on
// the server and read as the pages arrive: whatever the window holds, what is kept is bounded.
import { blankControlCharacters } from '../../plugin/control-characters';
import { boundedExcerpt } from '../../plugin/server-text';
import type { VcdConnection } from '../api/connection';
import { detached, MAX_NAME_CHARS, PAGE_SIZE, streamAllPages } from '../api/query-pages';
import type { SessionReader } from '../api/session-reads';
import type { XmlElement } from '../api/xml';
import { fiqlValue } from '../inventory/vm-query';
import { parseDateTime } from '../api/vcd-time';

/** One task record: what the check says of it. Every attribute is optional in the schema: a missing one is ''. */
export interface TaskRecord {
  /** The operation (`name`: vdcComposeVapp, vappDeploy, …). */
  operation: string;
  /** operationFull, the sentence the portal shows ('' when not sent). */
  operationFull: string;
  /** objectName and objectType (vApp, vm, vdc, …). */
  object: string;
  objectType: string;
  owner: string;
  org: string;
  /** queued, preRunning, running, success, error, canceled, aborted. */
  status: string;
  /** startDate in ms since the epoch, undefined when absent or not a date. */
  start?: number;
  end?: number;
  /** The error's message (`message`), blanked of control characters and bounded. */
  message: string;
}

/** The statuses of a task that failed: it ended in error, or was aborted (by the system, not a user's cancel). */
export const FAILED_TASK_STATUSES: ReadonlySet<string> = new Set(['error', 'aborted']);

/** More characters of an error message than the long output shows. */
const MAX_MESSAGE_CHARS = 300;

/** The most tasks one window may hold before the check asks for a shorter one: far above any cloud's quarter hour. */
export const MAX_TASKS = 1_000_000;

const short = (a: Record<string, string>, key: string): string => {
  const v = a[key];
  return v === undefined ? '' : detached(blankControlCharacters(v.length > MAX_NAME_CHARS ? `${v.slice(0, MAX_NAME_CHARS)}…` : v).trim());
};

/** One TaskRecord / AdminTaskRecord element as the check keeps it. */
export function taskRecordOf(element: XmlElement): TaskRecord {
  const a = element.attributes;
  const start = a.startDate === undefined ? undefined : parseDateTime(a.startDate);
  const end = a.endDate === undefined ? undefined : parseDateTime(a.endDate);
  return {
    operation: short(a, 'name'),
    operationFull: short(a, 'operationFull'),
    object: short(a, 'objectName'),
    objectType: short(a, 'objectType'),
    owner: short(a, 'ownerName'),
    org: short(a, 'orgName'),
    status: short(a, 'status').toLowerCase(),
    ...(start === undefined ? {} : { start }),
    ...(end === undefined ? {} : { end }),
    message: a.message === undefined ? '' : detached(boundedExcerpt(blankControlCharacters(a.message).trim(), MAX_MESSAGE_CHARS)),
  };
}

/** Which query an account uses, and what narrows it on the server. */
export interface TaskQuery {
  admin: boolean;
  /** Tasks started after this moment (ms since the epoch). */
  since: number;
  /** --tenant-org (a System account's). */
  org?: string;
}

/** `/api/query?type=task|adminTask&format=records&filter=(startDate=gt=…[;orgName==…])`: the window is cut by the server. */
export function taskQueryPath(q: TaskQuery): string {
  const conditions = [`startDate=gt=${new Date(q.since).toISOString()}`, ...(q.org !== undefined ? [`orgName==${fiqlValue(q.org)}`] : [])];
  return `/api/query?type=${q.admin ? 'adminTask' : 'task'}&format=records&filter=${encodeURIComponent(`(${conditions.join(';')})`)}&pageSize=${PAGE_SIZE}`;
}

/** Hands every task of the window to `take` as it is read; returns how many there were. */
export function streamTasks(conn: VcdConnection, get: SessionReader, q: TaskQuery, take: (task: TaskRecord) => void): Promise<number> {
  return streamAllPages(
    conn,
    get,
    taskQueryPath(q),
    {
      recordNames: ['TaskRecord', 'AdminTaskRecord'],
      record: taskRecordOf,
      max: MAX_TASKS,
      noun: 'tasks',
      list: 'the tasks of the window',
      narrow: 'shorten --window',
      refused: q.admin
        ? 'the adminTask query is for System administrators: log in with a System account whose role may view every task (System Administrator)'
        : "the task query lists the tasks of the account's organisation to any user the role lets view them: check the account's role",
    },
    take,
  );
}

// check_vcd_tasks' read in one session: the tasks started within the window (the server cuts
// it), each counted as it arrives.
import { withVcdSession, type SessionRequest } from '../api/session';
import { streamTasks, type TaskQuery } from './task-query';
import type { TaskTally } from './task-report';

/** Reads the window's tasks into `tally`; returns it. */
export async function readTasks(req: SessionRequest, query: TaskQuery, tally: TaskTally): Promise<TaskTally> {
  await withVcdSession(req, (get) => streamTasks(req.conn, get, query, (task) => tally.add(task)));
  return tally;
}

// check_vm_fleet's reads: one session, the VM list from the query service, then one metrics
// request per VM, so many at a time over kept-alive connections. vCD counts simultaneous
// operations per user and organisation and refuses those over its limit with HTTP 400
// OPERATION_LIMITS_EXCEEDED: then fewer are sent at a time and the VM is asked again later.
import type { HttpResponse } from '../../http/request';
import { CheckError } from '../../plugin/errors';
import { DeadlineError } from '../../plugin/deadline';
import { metricsAnswer, queryVmList, withVcdSession, type MetricsKind, type MetricsResponse, type SessionReader, type SessionRequest } from '../api/client';
import { selectVms, type DiscoverySelection } from '../inventory/discovery';
import { parseVcdError } from '../vm/metrics';
import type { VmRecord } from '../inventory/vm-query';

/** What vCD answers (HTTP 400, this minorErrorCode) to an operation beyond the simultaneous ones it allows. */
export const OPERATION_LIMITS_EXCEEDED = 'OPERATION_LIMITS_EXCEEDED';
/** A VM refused for operation limits is asked at most this many times; the last refusal is judged as the single check would. */
export const MAX_ATTEMPTS = 5;
/** The first wait before a refused VM is asked again; each further refusal doubles it, up to MAX_RETRY_DELAY_MS. */
const RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 2000;

/** A VM's answer: the metrics (or their refusal), or why there is none (a CheckError naming the cause). */
export type FleetAnswer = MetricsResponse | CheckError;

export interface FleetRequest<T> extends SessionRequest {
  selection: DiscoverySelection;
  which: MetricsKind;
  /** Requests under way at most (and connections kept open). */
  concurrency: number;
  /** When requests still under way are stopped and no more are started (ms since the epoch). */
  cutoff: number;
  /** Judges one VM from its answer as soon as it comes (the document is not kept); `get` reads more with the session. */
  judge(vm: VmRecord, answer: FleetAnswer, get: (path: string, phase: string) => Promise<HttpResponse>): Promise<T>;
}

/** What the collection made: the selected VMs in order, their judgements, and the VMs that were not read and why. */
export interface FleetCollection<T> {
  vms: VmRecord[];
  records: number;
  pages: number;
  judged: Map<string, T>;
  unread: Map<string, string>;
  /** OPERATION_LIMITS_EXCEEDED answers met, and the fewest requests at a time the collection went down to. */
  limited: number;
  lowestConcurrency: number;
}

/** True when the server refused a request for too many simultaneous operations. */
export function isOperationLimit(res: HttpResponse): boolean {
  if (res.status !== 400) return false;
  // The error document is small; a body that is not one is no such refusal.
  if (res.body.length > 65536) return false;
  return parseVcdError(res.body.toString('utf8'))?.minorErrorCode === OPERATION_LIMITS_EXCEEDED;
}

/**
 * Lists the VMs (one session: the cached one or a login), selects them as --discovery does,
 * then reads and judges each VM's metrics, `concurrency` at a time. At `cutoff` the requests
 * under way are stopped and the VMs not judged yet are reported as unread; what was judged
 * is kept.
 */
export function collectFleet<T>(req: FleetRequest<T>): Promise<FleetCollection<T>> {
  req.conn.sockets = req.concurrency;
  return withVcdSession(req, async (get) => {
    const { records, pages } = await queryVmList(req, get, { vapp: req.selection.vapp });
    const vms = selectVms(records, req.selection);
    req.log(`${records.length} VM records in ${pages} page${pages === 1 ? '' : 's'}, ${vms.length} VMs after selection`);
    const outer = req.conn.signal;
    const cut = new AbortController();
    const stop = () => cut.abort();
    outer?.addEventListener('abort', stop);
    const timer = setTimeout(stop, Math.max(0, req.cutoff - Date.now()));
    req.conn.signal = cut.signal;
    try {
      return { vms, records: records.length, pages, ...(await readAll(req, vms, get, cut.signal)) };
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', stop);
      req.conn.signal = outer;
    }
  });
}

interface Job {
  vm: VmRecord;
  attempts: number;
}

/** Reads and judges every VM, at most `limit` at a time; the limit halves at each operation-limits refusal and grows back by one after as many answers. */
function readAll<T>(req: FleetRequest<T>, vms: readonly VmRecord[], get: SessionReader, cut: AbortSignal) {
  const judged = new Map<string, T>();
  const unread = new Map<string, string>();
  const queue: Job[] = vms.map((vm) => ({ vm, attempts: 0 }));
  const waiting = new Set<NodeJS.Timeout>();
  let next = 0;
  let active = 0;
  let limit = req.concurrency;
  let lowest = limit;
  let streak = 0;
  let limited = 0;
  const notReached = 'not read within -t';

  return new Promise<Omit<FleetCollection<T>, 'vms' | 'records' | 'pages'>>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      for (const t of waiting) clearTimeout(t);
      waiting.clear();
      for (const job of queue) if (!judged.has(job.vm.id) && !unread.has(job.vm.id)) unread.set(job.vm.id, notReached);
      resolve({ judged, unread, limited, lowestConcurrency: lowest });
    };
    const pump = () => {
      if (cut.aborted) {
        if (active === 0) finish();
        return;
      }
      while (active < limit && next < queue.length) {
        const job = queue[next++];
        active++;
        void readOne(job).finally(() => {
          active--;
          pump();
        });
      }
      if (active === 0 && next >= queue.length && waiting.size === 0) finish();
    };
    const retryLater = (job: Job) => {
      const delay = Math.min(MAX_RETRY_DELAY_MS, RETRY_DELAY_MS * 2 ** (job.attempts - 1));
      const timer = setTimeout(() => {
        waiting.delete(timer);
        queue.push(job);
        pump();
      }, delay);
      waiting.add(timer);
    };
    const readOne = async (job: Job): Promise<void> => {
      const { vm } = job;
      job.attempts++;
      let res: HttpResponse;
      try {
        req.conn.setPhase(`reading ${req.which} metrics of ${vm.id} (and ${active - 1} more)`);
        res = await get(`/api/vApp/${vm.id}/metrics/${req.which}`);
      } catch (error) {
        unread.set(vm.id, cut.aborted || !(error instanceof CheckError) ? notReached : error.message);
        return;
      }
      const delay = Math.min(MAX_RETRY_DELAY_MS, RETRY_DELAY_MS * 2 ** (job.attempts - 1));
      if (isOperationLimit(res) && job.attempts < MAX_ATTEMPTS && Date.now() + delay < req.cutoff) {
        limited++;
        streak = 0;
        // Fewer at a time: half of those under way when the server said no.
        limit = Math.max(1, Math.min(limit, Math.floor(active / 2)));
        lowest = Math.min(lowest, limit);
        retryLater(job);
        return;
      }
      if (++streak >= limit && limit < req.concurrency) {
        limit++;
        streak = 0;
      }
      let answer: FleetAnswer;
      try {
        answer = metricsAnswer(req, { id: vm.id }, req.which, res);
      } catch (error) {
        answer = error instanceof CheckError ? error : new CheckError(String(error));
      }
      // The record read for a refusal is read once for the three judgements.
      const reads = new Map<string, Promise<HttpResponse>>();
      const follow = (path: string, phase: string) => {
        req.conn.setPhase(phase);
        let r = reads.get(path);
        if (!r) reads.set(path, (r = get(path)));
        return r;
      };
      try {
        const result = await req.judge(vm, answer, follow);
        // A judgement that needed a read after the cut-off may rest on a request that was stopped.
        if (cut.aborted) unread.set(vm.id, notReached);
        else judged.set(vm.id, result);
      } catch (error) {
        unread.set(vm.id, error instanceof DeadlineError || cut.aborted ? notReached : error instanceof Error ? error.message : String(error));
      }
    };
    cut.addEventListener('abort', () => {
      // The requests under way end with an abort error; waiting retries are not started.
      for (const t of waiting) clearTimeout(t);
      waiting.clear();
      if (active === 0) finish();
    });
    pump();
  });
}

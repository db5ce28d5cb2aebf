// check_vm_fleet's reads: one session, the VM list from the query service, then one metrics
// request per VM, so many at a time over kept-alive connections. vCD counts simultaneous
// operations per user and organisation and refuses those over its limit with HTTP 400
// OPERATION_LIMITS_EXCEEDED: then fewer are sent at a time and the VM is asked again later.
import type { HttpResponse } from '../../http/request';
import { CheckError } from '../../plugin/errors';
import { DeadlineError } from '../../plugin/deadline';
import { withVcdSession, type OpenSession, type SessionRequest } from '../api/session';
import { selectVms, type DiscoverySelection } from '../inventory/discovery';
import { parseVcdError } from '../api/vcd-error';
import { queryVmList } from '../inventory/vm-listing';
import type { VmRecord } from '../inventory/vm-query';
import { metricsAnswer, type MetricsKind, type MetricsResponse } from '../vm/vm-metrics';
import { vmInSession, type VmInSession } from '../vm/vm-session';

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
  /** The metrics each VM is read for; undefined when no service selected needs them (then a VM costs no request of its own). */
  which?: MetricsKind;
  /** Keep the hygiene attributes of the query records (the hygiene services judge them). */
  hygiene?: boolean;
  /** Requests under way at most (and connections kept open). */
  concurrency: number;
  /** When requests still under way are stopped and no more are started (ms since the epoch). */
  cutoff: number;
  /** Judges one VM from its answer as soon as it comes (the document is not kept); `vm` reads more of it with the session. */
  judge(vm: VmRecord, answer: FleetAnswer | undefined, inSession: VmInSession): Promise<T>;
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
  return withVcdSession(req, async (get, session) => {
    const { records, pages } = await queryVmList(req, get, { vapp: req.selection.vapp, withHygiene: req.hygiene });
    const vms = selectVms(records, req.selection);
    req.log(`${records.length} VM records in ${pages} page${pages === 1 ? '' : 's'}, ${vms.length} VMs after selection`);
    const read = await session.until(req.cutoff, (cut) => new FleetReader(req, session, cut).readAll(vms));
    return { vms, records: records.length, pages, ...read };
  });
}

interface Job {
  vm: VmRecord;
  attempts: number;
}

const NOT_REACHED = 'not read within -t';

/**
 * Reads and judges every VM, at most `limit` at a time; the limit halves at each
 * operation-limits refusal and grows back by one after as many answers.
 */
class FleetReader<T> {
  private readonly judged = new Map<string, T>();
  private readonly unread = new Map<string, string>();
  private readonly waiting = new Set<NodeJS.Timeout>();
  private queue: Job[] = [];
  private next = 0;
  private active = 0;
  private limit: number;
  private lowest: number;
  private streak = 0;
  private limited = 0;
  private done = false;
  private resolve: (read: Omit<FleetCollection<T>, 'vms' | 'records' | 'pages'>) => void = () => undefined;

  constructor(
    private readonly req: FleetRequest<T>,
    private readonly session: OpenSession,
    private readonly cut: AbortSignal,
  ) {
    this.limit = this.lowest = req.concurrency;
  }

  readAll(vms: readonly VmRecord[]): Promise<Omit<FleetCollection<T>, 'vms' | 'records' | 'pages'>> {
    this.queue = vms.map((vm) => ({ vm, attempts: 0 }));
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.cut.addEventListener('abort', () => {
        // The requests under way end with an abort error; waiting retries are not started.
        this.clearWaiting();
        if (this.active === 0) this.finish();
      });
      this.pump();
    });
  }

  private clearWaiting(): void {
    for (const t of this.waiting) clearTimeout(t);
    this.waiting.clear();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.clearWaiting();
    for (const job of this.queue) if (!this.judged.has(job.vm.id) && !this.unread.has(job.vm.id)) this.unread.set(job.vm.id, NOT_REACHED);
    this.resolve({ judged: this.judged, unread: this.unread, limited: this.limited, lowestConcurrency: this.lowest });
  }

  private pump(): void {
    if (this.cut.aborted) {
      if (this.active === 0) this.finish();
      return;
    }
    while (this.active < this.limit && this.next < this.queue.length) {
      const job = this.queue[this.next++];
      this.active++;
      void this.readOne(job).finally(() => {
        this.active--;
        this.pump();
      });
    }
    if (this.active === 0 && this.next >= this.queue.length && this.waiting.size === 0) this.finish();
  }

  private retryLater(job: Job, delay: number): void {
    const timer = setTimeout(() => {
      this.waiting.delete(timer);
      this.queue.push(job);
      this.pump();
    }, delay);
    this.waiting.add(timer);
  }

  private async readOne(job: Job): Promise<void> {
    const { req } = this;
    const { vm } = job;
    job.attempts++;
    if (req.which === undefined) return this.judgeOne(vm, undefined);
    let res: HttpResponse;
    try {
      res = await this.session.get(`/api/vApp/${vm.id}/metrics/${req.which}`, `reading ${req.which} metrics of ${vm.id} (and ${this.active - 1} more)`);
    } catch (error) {
      this.unread.set(vm.id, this.cut.aborted || !(error instanceof CheckError) ? NOT_REACHED : error.message);
      return;
    }
    const delay = Math.min(MAX_RETRY_DELAY_MS, RETRY_DELAY_MS * 2 ** (job.attempts - 1));
    if (isOperationLimit(res) && job.attempts < MAX_ATTEMPTS && Date.now() + delay < req.cutoff) {
      this.limited++;
      this.streak = 0;
      // Fewer at a time: half of those under way when the server said no.
      this.limit = Math.max(1, Math.min(this.limit, Math.floor(this.active / 2)));
      this.lowest = Math.min(this.lowest, this.limit);
      this.retryLater(job, delay);
      return;
    }
    if (++this.streak >= this.limit && this.limit < req.concurrency) {
      this.limit++;
      this.streak = 0;
    }
    await this.judgeOne(vm, res);
  }

  /** Judges one VM's answer, in the per-VM seam: its record, read for a refusal, is read once for every judgement. */
  private async judgeOne(vm: VmRecord, res: HttpResponse | undefined): Promise<void> {
    const { req } = this;
    let answer: FleetAnswer | undefined;
    try {
      answer = res === undefined || req.which === undefined ? undefined : metricsAnswer(req, { id: vm.id }, req.which, res);
    } catch (error) {
      answer = error instanceof CheckError ? error : new CheckError(String(error));
    }
    const reads = new Map<string, Promise<HttpResponse>>();
    const once = {
      get: (path: string, phase?: string) => {
        let r = reads.get(path);
        if (!r) reads.set(path, (r = this.session.get(path, phase)));
        return r;
      },
    };
    try {
      const result = await req.judge(vm, answer, vmInSession(req, once, { id: vm.id }));
      // A judgement that needed a read after the cut-off may rest on a request that was stopped.
      if (this.cut.aborted) this.unread.set(vm.id, NOT_REACHED);
      else this.judged.set(vm.id, result);
    } catch (error) {
      this.unread.set(vm.id, error instanceof DeadlineError || this.cut.aborted ? NOT_REACHED : error instanceof Error ? error.message : String(error));
    }
  }
}

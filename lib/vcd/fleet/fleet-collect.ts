// check_vm_fleet's reads: one session, the VM list from the query service, then one metrics
// request per VM, so many at a time over kept-alive connections. vCD counts simultaneous
// operations per user and organisation and refuses those over its limit with HTTP 400
// OPERATION_LIMITS_EXCEEDED: then fewer are sent at a time and the VM is asked again later.
import { ResponseTooLargeError, type HttpResponse } from '../../http/request';
import { CheckError } from '../../plugin/errors';
import { DeadlineError } from '../../plugin/deadline';
import { withVcdSession, type OpenSession, type SessionRequest } from '../api/session';
import type { DiscoverySelection } from '../inventory/discovery';
import { eachListedVm } from '../inventory/vm-listing';
import type { VmRecord } from '../inventory/vm-query';
import { isOperationLimit, metricsAnswer, requestMetrics, type MetricsAsk, type MetricsKind, type MetricsResponse } from '../vm/vm-metrics';

export { isOperationLimit, OPERATION_LIMITS_EXCEEDED } from '../vm/vm-metrics';
import { vmInSession, type VmInSession } from '../vm/vm-session';
import { FleetList } from './fleet-list';

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
  /** What the judgements read (the spec posted, see requestMetrics); without it, each VM's whole document by GET. */
  ask?: MetricsAsk;
  /** Requests under way at most (and connections kept open). */
  concurrency: number;
  /** When requests still under way are stopped and no more are started (ms since the epoch). */
  cutoff: number;
  /**
   * Bytes the documents under way may hold together (--max-bytes-in-flight): each may be at
   * most its share, this divided by `concurrency` (and --max-bytes); a larger one is refused
   * for its VM only, whatever the server sends.
   */
  inFlightBytes: number;
  /** Judges one VM from its answer as soon as it comes (the document is not kept); `vm` reads more of it with the session. */
  judge(vm: VmRecord, answer: FleetAnswer | undefined, inSession: VmInSession): Promise<T>;
  /**
   * Takes one VM's judgement as soon as it is made (`index`: its place in the list); the
   * collection keeps none. Reading waits while it does: a slow taker slows the reads, never
   * piles results up.
   */
  deliver(result: T, vm: VmRecord, index: number): Promise<void> | void;
  /** A VM's judgement when it was not read (`why`: the cause, or NOT_REACHED), delivered after the reads in the list's order. */
  unread(vm: VmRecord, why: string): T;
  /** Called when the reads are over, before the VMs not read are delivered (a result then stands for every VM). */
  collected?(collection: FleetCollection): void;
}

/** What the collection did: records listed, VMs selected, read (judged) and not read, each delivered. */
export interface FleetCollection {
  records: number;
  pages: number;
  selected: number;
  judged: number;
  unread: number;
  /** OPERATION_LIMITS_EXCEEDED answers met, and the fewest requests at a time the collection went down to. */
  limited: number;
  lowestConcurrency: number;
}

/**
 * Lists the VMs (one session: the cached one or a login), selects them as --discovery does,
 * then reads and judges each VM's metrics, `concurrency` at a time. At `cutoff` the requests
 * under way are stopped and the VMs not judged yet are reported as unread; what was judged
 * is kept.
 */
export function collectFleet<T>(req: FleetRequest<T>): Promise<FleetCollection> {
  return withVcdSession(req, async (get, session) => {
    // Each record taken as its page comes, kept compactly (fleet-list.ts): the list is held for the whole run.
    const vms = new FleetList(req.selection);
    const { records, pages } = await eachListedVm(req, get, { vapp: req.selection.vapp, withHygiene: req.hygiene }, (r) => vms.add(r));
    req.log(`${records} VM records in ${pages} page${pages === 1 ? '' : 's'}, ${vms.length} VMs after selection`);
    const read = await session.until(req.cutoff, (cut) => withDocumentBound(req, () => new FleetReader(req, session, cut, vms).readAll()));
    const collection = {
      records,
      pages,
      selected: vms.length,
      judged: read.judged,
      limited: read.limited,
      lowestConcurrency: read.lowestConcurrency,
      unread: read.unread,
    };
    req.collected?.(collection);
    // The VMs not read, in the list's order, with the cause each met. Most of a large fleet
    // when -t cut it short: the timers (-t) get their turn between slices.
    if (read.unread > 0) req.conn.setPhase(`handing on the results of the ${read.unread} VMs not read`);
    let delivered = 0;
    for (let index = 0; index < vms.length; index++) {
      const why = read.why[index];
      if (why === undefined) continue;
      const vm = vms.vm(index);
      await req.deliver(req.unread(vm, why), vm, index);
      if (++delivered % UNREAD_SLICE === 0) await new Promise((resume) => setImmediate(resume));
    }
    return collection;
  });
}

/** The bound of one document while the VMs are read: its share of the in-flight budget, at most --max-bytes. */
export function documentShare(req: Pick<FleetRequest<unknown>, 'inFlightBytes' | 'concurrency' | 'conn'>): number {
  return Math.max(1, Math.min(req.conn.maxBytes, Math.floor(req.inFlightBytes / req.concurrency)));
}

/** `work` with every response bounded by its share of the in-flight budget; --max-bytes is back after it. */
async function withDocumentBound<R>(req: FleetRequest<unknown>, work: () => Promise<R>): Promise<R> {
  const maxBytes = req.conn.maxBytes;
  req.conn.maxBytes = documentShare(req);
  try {
    return await work();
  } finally {
    req.conn.maxBytes = maxBytes;
  }
}

/** Why a VM's document was refused for its size, in the fleet's words when its share (not --max-bytes) was the bound. */
function oversizeWords(error: ResponseTooLargeError, req: FleetRequest<unknown>): string {
  if (error.limit >= req.conn.maxBytes && error.limit >= req.inFlightBytes) return error.message;
  return `metrics document larger than ${error.limit} bytes, its share of --max-bytes-in-flight ${req.inFlightBytes} at --concurrency ${req.concurrency}; raise --max-bytes-in-flight (or lower --concurrency) if the server is right to send that much`;
}

/** What the reads left: the VMs not read and why (by place in the list), and the back-off met. */
interface ReaderOutcome {
  judged: number;
  unread: number;
  why: ReadonlyArray<string | undefined>;
  limited: number;
  lowestConcurrency: number;
}

/** A VM asked again after an operation-limits refusal. */
interface Retry {
  /** The VM's place in the list. */
  index: number;
  attempts: number;
}

/** VMs not read delivered between two turns of the event loop. */
const UNREAD_SLICE = 256;

/** Why a VM was not read when the cut-off came first. */
export const NOT_REACHED = 'not read within -t';

/**
 * Reads and judges every VM, at most `limit` at a time; the limit halves at each
 * operation-limits refusal and grows back by one after as many answers.
 */
class FleetReader<T> {
  /** Per place in the list: judged and delivered. */
  private readonly judged: Uint8Array;
  private judgedCount = 0;
  /** Per place in the list: why the VM was not read, if it was not. */
  private readonly why: Array<string | undefined>;
  private unreadCount = 0;
  private readonly waiting = new Set<NodeJS.Timeout>();
  /** The VMs refused and asked again, after the list's (in the order they were refused). */
  private readonly retries: Retry[] = [];
  private next = 0;
  private active = 0;
  private limit: number;
  private lowest: number;
  private streak = 0;
  private limited = 0;
  private done = false;
  private resolve: (read: ReaderOutcome) => void = () => undefined;

  constructor(
    private readonly req: FleetRequest<T>,
    private readonly session: OpenSession,
    private readonly cut: AbortSignal,
    private readonly vms: FleetList,
  ) {
    this.limit = this.lowest = req.concurrency;
    this.judged = new Uint8Array(vms.length);
    this.why = new Array<string | undefined>(vms.length).fill(undefined);
  }

  readAll(): Promise<ReaderOutcome> {
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

  private setUnread(index: number, why: string): void {
    if (this.why[index] === undefined) this.unreadCount++;
    this.why[index] = why;
  }

  private clearWaiting(): void {
    for (const t of this.waiting) clearTimeout(t);
    this.waiting.clear();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.clearWaiting();
    for (let index = 0; index < this.why.length; index++) if (this.judged[index] === 0 && this.why[index] === undefined) this.setUnread(index, NOT_REACHED);
    this.resolve({ judged: this.judgedCount, unread: this.unreadCount, why: this.why, limited: this.limited, lowestConcurrency: this.lowest });
  }

  private pump(): void {
    if (this.cut.aborted) {
      if (this.active === 0) this.finish();
      return;
    }
    while (this.active < this.limit && (this.next < this.vms.length || this.retries.length > 0)) {
      const job = this.next < this.vms.length ? { index: this.next++, attempts: 0 } : this.retries.shift()!;
      this.active++;
      void this.readOne(job).finally(() => {
        this.active--;
        this.pump();
      });
    }
    if (this.active === 0 && this.next >= this.vms.length && this.retries.length === 0 && this.waiting.size === 0) this.finish();
  }

  private retryLater(job: Retry, delay: number): void {
    const timer = setTimeout(() => {
      this.waiting.delete(timer);
      this.retries.push(job);
      this.pump();
    }, delay);
    this.waiting.add(timer);
  }

  private async readOne(job: Retry): Promise<void> {
    const { req } = this;
    // The VM's record, made for the time it is read and judged.
    const vm = this.vms.vm(job.index);
    job.attempts++;
    if (req.which === undefined) return this.judgeOne(vm, job.index, undefined);
    let res: HttpResponse;
    try {
      res = await requestMetrics(req, this.session, vm.id, req.which, req.ask, `reading ${req.which} metrics of ${vm.id} (and ${this.active - 1} more)`);
    } catch (error) {
      const why = error instanceof ResponseTooLargeError ? oversizeWords(error, req) : error instanceof CheckError ? error.message : NOT_REACHED;
      this.setUnread(job.index, this.cut.aborted ? NOT_REACHED : why);
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
    await this.judgeOne(vm, job.index, res);
  }

  /** Judges one VM's answer, in the per-VM seam: its record, read for a refusal, is read once for every judgement. */
  private async judgeOne(vm: VmRecord, index: number, res: HttpResponse | undefined): Promise<void> {
    const { req } = this;
    let answer: FleetAnswer | undefined;
    try {
      answer = res === undefined || req.which === undefined ? undefined : metricsAnswer(req, { id: vm.id, status: vm.status }, req.which, res);
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
      if (this.cut.aborted) this.setUnread(index, NOT_REACHED);
      else {
        this.judged[index] = 1;
        this.judgedCount++;
        await req.deliver(result, vm, index);
      }
    } catch (error) {
      this.setUnread(index, error instanceof DeadlineError || this.cut.aborted ? NOT_REACHED : error instanceof Error ? error.message : String(error));
    }
  }
}

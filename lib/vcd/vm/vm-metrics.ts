// A VM's metrics read through the per-VM seam: POST /api/vApp/<vm>/metrics/current|historic with
// a spec of the metrics judged and the window (GET, the whole document, where the server refuses
// the spec), and what its answer means (the document, the refusal of current metrics, or a CheckError).
import type { HttpResponse } from '../../http/request';
import { CheckError } from '../../plugin/errors';
import { describeResponse, type VcdConnection } from '../api/connection';
import { principal } from '../api/login';
import type { SessionRequest } from '../api/session';
import type { SessionGet, SessionPost } from '../api/session-reads';
import { parseVcdError } from '../api/vcd-error';
import { parseHistoricUsage, type MetricName } from './metrics';
import {
  CURRENT_SPEC_TYPE,
  currentUsageSpec,
  HISTORIC_SPEC_TYPE,
  historicUsageSpec,
  HISTORY_SECONDS,
  historySpan,
  metricPatterns,
  SPAN_MARGIN_SECONDS,
  SPEC_REFUSALS,
} from './metrics-spec';
import type { VmCheckProfile } from './profile';
import type { VmCheckConfig } from './vm-config';
import { FAILED_VM_STATES, readVmRecord } from './vm-record';

export type { SessionPost };
import type { VmIdentity } from './vm-session';
import { windowShortfall } from './window';

export type MetricsKind = 'current' | 'historic';

/** A metrics document as received, or the server's refusal (HTTP 400) of current metrics. */
export type MetricsResponse = { kind: 'document'; body: string; serverTime?: number } | { kind: 'refused'; detail: string };

/** What a check asks of a VM's metrics: current values or a window, the metrics it reads and those it judges. */
export interface MetricsAsk {
  which: MetricsKind;
  /** --window in seconds (historic). */
  window?: number;
  /** --max-age in seconds, when given: the staleness the judgement applies. */
  maxAge?: number;
  /** Every metric read (perfdata). */
  reads: readonly MetricName[];
  /** The metrics judged: a window of history is enough only when each of theirs is fresh in it. */
  needs: readonly MetricName[];
}

/** What a VM check asks: its profile's metrics (those its --metric judges) over its --window. */
export function askOf(profile: Pick<VmCheckProfile, 'reads' | 'needs'>, cfg: Pick<VmCheckConfig, 'window' | 'maxAge' | 'metric'>): MetricsAsk {
  return {
    which: cfg.window === undefined ? 'current' : 'historic',
    ...(cfg.window !== undefined ? { window: cfg.window } : {}),
    ...(cfg.maxAge !== undefined ? { maxAge: cfg.maxAge } : {}),
    reads: profile.reads,
    needs: profile.needs(cfg.metric),
  };
}

/** One ask for several judgements of the same document (the fleet's three checks): the union of what they read and judge. */
export function unionAsk(asks: readonly MetricsAsk[]): MetricsAsk {
  const [first] = asks;
  return {
    ...first,
    reads: [...new Set(asks.flatMap((a) => a.reads))],
    needs: [...new Set(asks.flatMap((a) => a.needs))],
  };
}

/** What vCD answers (HTTP 400, this minorErrorCode) to an operation beyond the simultaneous ones it allows. */
export const OPERATION_LIMITS_EXCEEDED = 'OPERATION_LIMITS_EXCEEDED';

/** True when the server refused a request for too many simultaneous operations. */
export function isOperationLimit(res: HttpResponse): boolean {
  if (res.status !== 400) return false;
  // The error document is small; a body that is not one is no such refusal.
  if (res.body.length > 65536) return false;
  return parseVcdError(res.body.toString('utf8'))?.minorErrorCode === OPERATION_LIMITS_EXCEEDED;
}

/** A refusal of the spec remembered in the session's cache is tried again after this long (the server may be upgraded). */
const REFUSAL_KEPT_MS = 24 * 3600_000;

/** Per connection (one run): why the server does not take specs, once it said so. */
const refusals = new WeakMap<VcdConnection, string>();
/** Per connection: the server took a spec. */
const accepted = new WeakSet<VcdConnection>();
/**
 * Per connection: the first spec under way while the server's answer to specs is not known. A
 * fleet's other requests wait for it, so that a server that refuses specs is sent one, not
 * --concurrency of them.
 */
const probes = new WeakMap<VcdConnection, Promise<unknown>>();

/** Why the server of this run does not take the spec (said in this run or remembered in the session's cache), or undefined. */
function specRefused(req: Pick<SessionRequest, 'conn' | 'fleet'>): string | undefined {
  const known = refusals.get(req.conn);
  if (known !== undefined) return known;
  const kept = req.fleet?.read().metricsSpec;
  if (!kept || Date.now() < kept.time || Date.now() - kept.time >= REFUSAL_KEPT_MS) return undefined;
  refusals.set(req.conn, kept.refused);
  return kept.refused;
}

function rememberRefusal(req: Pick<SessionRequest, 'conn' | 'fleet' | 'log'>, why: string): void {
  if (refusals.has(req.conn)) return;
  refusals.set(req.conn, why);
  req.log(`the server does not take the metrics spec (${why}): whole documents by GET for this run and the next 24 hours`);
  req.fleet?.update((r) => {
    r.metricsSpec = { refused: why.slice(0, 200), time: Date.now() };
  });
}

/** The reads a VM's metrics take: GET, and POST of a spec. */
export interface MetricsReads {
  get: SessionGet;
  post?: SessionPost;
}

/**
 * The answer to the VM's metrics request as the judgement needs it. With an ask and a POST it
 * posts the spec: the metrics read and, for a window, its span (historySpan). Where the server
 * refuses the spec (SPEC_REFUSALS), a GET asks again: a GET that succeeds says the spec was
 * refused, remembered for the run (and 24 h in the session's cache); a GET that fails is the
 * answer as it always was (the VM is off, gone, or not the user's). A window that cannot give
 * the day's verdict (windowShortfall) is asked again: wider where a judged series has fewer than
 * two samples in it (a window shorter than its interval), the whole day where one stopped (a VM
 * powered off, a collector stuck: the judgement reads the last window before it stopped).
 */
export async function requestMetrics(
  req: Pick<SessionRequest, 'conn' | 'fleet' | 'log'>,
  reads: MetricsReads,
  vm: string,
  which: MetricsKind,
  ask?: MetricsAsk,
  phase?: string,
): Promise<HttpResponse> {
  const path = `/api/vApp/${vm}/metrics/${which}`;
  const what = phase ?? `reading ${which} metrics of ${vm}`;
  const { post } = reads;
  if (!ask || !post) return reads.get(path, what);
  // Bounded: each turn waits for one probe to end (its request is bounded by -t) and drops it;
  // a probe that settled nothing (a 403, a 5xx) is replaced by one of its waiters.
  while (!accepted.has(req.conn) && specRefused(req) === undefined) {
    const probe = probes.get(req.conn);
    if (!probe) break;
    await probe.catch(() => undefined);
    if (probes.get(req.conn) === probe) probes.delete(req.conn);
  }
  if (specRefused(req) !== undefined) return reads.get(path, what);
  if (accepted.has(req.conn)) return askWithSpec(req, reads, post, path, which, ask, what);
  const probe = askWithSpec(req, reads, post, path, which, ask, what);
  probes.set(req.conn, probe);
  try {
    return await probe;
  } finally {
    if (probes.get(req.conn) === probe) probes.delete(req.conn);
  }
}

/** The spec posted (and the whole day when the window's judged series stopped), or the GET where the server refuses it. */
async function askWithSpec(
  req: Pick<SessionRequest, 'conn' | 'fleet' | 'log'>,
  reads: MetricsReads,
  post: SessionPost,
  path: string,
  which: MetricsKind,
  ask: MetricsAsk,
  what: string,
): Promise<HttpResponse> {
  const patterns = metricPatterns(ask.reads);
  const span = which === 'historic' ? historySpan(ask.window ?? HISTORY_SECONDS) : 0;
  const spec = (seconds: number) =>
    which === 'historic'
      ? post(path, historicUsageSpec(seconds, patterns), HISTORIC_SPEC_TYPE, what)
      : post(path, currentUsageSpec(patterns), CURRENT_SPEC_TYPE, what);
  let res = await spec(span);
  const ok = () => res.status >= 200 && res.status < 300;
  if (ok()) accepted.add(req.conn);
  // At most two more: a span that holds two samples of each judged series, then the day.
  let seconds = span;
  for (let turn = 0; which === 'historic' && seconds < HISTORY_SECONDS && ok() && turn < 2; turn++) {
    const short = shortfall(res, ask);
    if (short === undefined) break;
    const wider = turn === 0 ? Math.min(HISTORY_SECONDS, short + SPAN_MARGIN_SECONDS) : HISTORY_SECONDS;
    seconds = wider > seconds ? wider : HISTORY_SECONDS;
    res = await spec(seconds);
  }
  // Once the server took a spec in this run, its refusal of another is about the VM (current
  // metrics of a VM powered off, a VM gone), as a GET's would be: not asked again.
  if (isOperationLimit(res) || !SPEC_REFUSALS.has(res.status) || accepted.has(req.conn)) return res;
  const plain = await reads.get(path, what);
  if (plain.status >= 200 && plain.status < 300) rememberRefusal(req, `POST ${path} answered ${describeResponse(res)}`);
  return plain;
}

/** What the window's answer lacks for the verdict the whole day gives (see windowShortfall): undefined when nothing. */
function shortfall(res: HttpResponse, ask: MetricsAsk): number | undefined {
  const date = Date.parse(String(res.headers.date ?? ''));
  try {
    const history = parseHistoricUsage(res.body.toString('utf8'), undefined, new Set(ask.reads));
    return windowShortfall(history, ask.needs, Number.isNaN(date) ? Date.now() : date, ask.maxAge);
  } catch (error) {
    // A broken document: the judgement reports the day's first fault, as from the GET.
    if (error instanceof CheckError) return Infinity;
    throw error;
  }
}

/** The VM's metrics with its session (POST of `ask`'s spec where it can, see requestMetrics), as an answer (see metricsAnswer). */
export async function readMetrics(
  req: Pick<SessionRequest, 'conn' | 'creds' | 'fleet' | 'log'>,
  vm: VmIdentity,
  get: SessionGet,
  which: MetricsKind,
  phase?: string,
  ask?: { ask: MetricsAsk; post: SessionPost },
): Promise<MetricsResponse> {
  const res = await requestMetrics(req, { get, post: ask?.post }, vm.id, which, ask?.ask, phase);
  // A refused VM may be one whose creation failed: its record says so, where it can be read.
  if (res.status === 403 && vm.status === undefined) return metricsAnswer(req, { ...vm, status: await statusOf(get, vm.id) }, which, res);
  return metricsAnswer(req, vm, which, res);
}

/** The status the VM's record gives, or undefined when it cannot be read. */
async function statusOf(get: SessionGet, id: string): Promise<string | undefined> {
  try {
    return (await readVmRecord(get, id)).statusName;
  } catch (error) {
    if (error instanceof CheckError) return undefined;
    throw error;
  }
}

/**
 * The answer to `GET /api/vApp/<vm>/metrics/<which>`: the document, the refusal of current
 * metrics (HTTP 400, which the VM's record explains), or a CheckError naming the cause.
 */
export function metricsAnswer(req: Pick<SessionRequest, 'conn' | 'creds'>, vm: VmIdentity, which: MetricsKind, res: HttpResponse): MetricsResponse {
  const { conn, creds } = req;
  const path = `/api/vApp/${vm.id}/metrics/${which}`;
  const label = vm.name !== undefined ? `${vm.id} (${vm.name})` : vm.id;
  if (res.status >= 200 && res.status < 300) {
    const date = Date.parse(String(res.headers.date ?? ''));
    return { kind: 'document', body: res.body.toString('utf8'), serverTime: Number.isNaN(date) ? undefined : date };
  }
  const detail = describeResponse(res);
  // vCD refuses current metrics of a VM that is not running with 400, but also for other
  // reasons (operation limits, validation): the caller decides with the VM's record.
  if (res.status === 400 && which === 'current') return { kind: 'refused', detail };
  if ((res.status === 403 || res.status === 404) && vm.status !== undefined && FAILED_VM_STATES.has(vm.status))
    throw new CheckError(
      `${label}: the VM is ${vm.status} in vCD (${detail}): it has no metrics; repair or delete it in vCD, or leave it out of the discovery (--exclude)`,
    );
  switch (res.status) {
    case 401:
      throw new CheckError(`the session of ${principal(creds)} was rejected by ${conn.base.origin} (${detail}) right after login, check the account's rights`);
    case 403:
      // vCD answers 403, not 404, for ids it does not know, so as not to reveal them. The
      // likeliest cause of a host that worked before is a VM deleted since the discovery.
      throw new CheckError(
        `${label}: VM not found or not visible to this user ${principal(creds)} (${detail}): deleted? run discovery again (a discovered host outlives its VM); else check --vm, and that the account is an administrator, Catalog Author or vApp Author of its org`,
      );
    case 404:
      throw new CheckError(
        `${label}: VM not found at ${conn.base.origin}${path} (${detail}): deleted? run discovery again (a discovered host outlives its VM); else check that --url is the vCD API host of the VM's region`,
      );
    default:
      throw new CheckError(`${conn.base.origin}${path} answered ${detail}${res.status >= 500 ? ', the vCD cells may be overloaded or down, retry later' : ''}`);
  }
}

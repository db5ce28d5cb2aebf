// A VM's metrics read through the per-VM seam: GET /api/vApp/<vm>/metrics/current|historic, and
// what its answer means (the document, the refusal of current metrics, or a CheckError).
import type { HttpResponse } from '../../http/request';
import { CheckError } from '../../plugin/errors';
import { describeResponse } from '../api/connection';
import { principal } from '../api/login';
import type { SessionRequest } from '../api/session';
import { FAILED_VM_STATES, readVmRecord, type SessionGet } from './vm-record';
import type { VmIdentity } from './vm-session';

export type MetricsKind = 'current' | 'historic';

/** A metrics document as received, or the server's refusal (HTTP 400) of current metrics. */
export type MetricsResponse = { kind: 'document'; body: string; serverTime?: number } | { kind: 'refused'; detail: string };

/** GET /api/vApp/<vm>/metrics/<which> with the VM's session, as an answer (see metricsAnswer). */
export async function readMetrics(
  req: Pick<SessionRequest, 'conn' | 'creds'>,
  vm: VmIdentity,
  get: SessionGet,
  which: MetricsKind,
  phase?: string,
): Promise<MetricsResponse> {
  const res = await get(`/api/vApp/${vm.id}/metrics/${which}`, phase ?? `reading ${which} metrics of ${vm.id}`);
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

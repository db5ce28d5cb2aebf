// "This VM, in a session": the seam every VM check reads through. It opens the run's session,
// resolves --vm (an id, a URN, a console URL, or a name with --vapp) to the VM, and hands the
// check one object with the VM, a GET for any document of it, its record and the deadline.
import type { HttpResponse } from '../../http/request';
import { nameKey } from '../api/fleet-cache';
import { principal } from '../api/login';
import { vmScope } from '../api/scope';
import { withVcdSession, type OpenSession, type SessionRequest } from '../api/session';
import type { SessionGet, SessionPost } from '../api/session-reads';
import { listScopedVms, type VmFilter } from '../inventory/vm-listing';
import { pickVmByName, type ResolvedVm } from '../inventory/vm-name';
import type { VmRecord as ListedVm } from '../inventory/vm-query';
import type { VmTarget } from './vm-id';
import { readVmRecord, type VmRecord } from './vm-record';

/** The VM a check reads: its id, and its name and vApp when it was given by name. */
export interface VmIdentity {
  id: string;
  name?: string;
  vapp?: string;
  /** Its organisation, when a provider account resolved the name. */
  org?: string;
  /** Its status as a listing said it (POWERED_ON, FAILED_CREATION, …), when one did. */
  status?: string;
}

/** What a VM check is handed: the VM, reads within the run's session, and the run's deadline. */
export interface VmInSession {
  /** The VM as resolved (`vm.id` is `vm-<guid>`). */
  vm: VmIdentity;
  /** GET any document with the session (one new login on 401, one new negotiation on 406); `phase` names it if -t expires. */
  get: SessionGet;
  /** POST a document with the session (one new login on 401), where the session can; `phase` as for get. */
  post?: SessionPost;
  /** The VM's own record (GET /api/vApp/<id>: its power state), read once however often it is asked for. */
  record(): Promise<VmRecord>;
  /** When the run ends (ms since the epoch): what cannot be read by then is not read. */
  deadline: number;
  /** The session the VM is read in: connection, account, scope, log. */
  session: SessionRequest;
}

/** Which VM: --vm as parsed, --vapp for a name, and how long a resolved name is reused (--resolve-ttl, ms). */
export interface VmSelector {
  target: VmTarget;
  vapp?: string;
  resolveTtlMs?: number;
}

/**
 * Runs `read` for the VM `select` names, in the run's session (cached or a new login, closed
 * as the cache requires), and returns what `read` returns. Errors are `read`'s, or CheckErrors
 * of the login and the name's resolution.
 *
 * A name resolved from the cache whose id now answers 403/404 (the VM was deleted and
 * re-created) is resolved again at once, and `read` runs again with the new id: the first
 * GET of a run is the one that tells, so make it a read of the VM.
 *
 * @example A new VM check reads "this VM, in a session" and one more document of it:
 * ```ts
 * const sections = await withVm(session, { target: cfg.target, vapp: cfg.vapp }, async ({ vm, get, record }) => {
 *   const res = await get(`/api/vApp/${vm.id}/snapshotSection`, `reading the snapshots of ${vm.id}`);
 *   if (res.status !== 200) throw new CheckError(`GET /api/vApp/${vm.id}/snapshotSection answered ${describeResponse(res)}`);
 *   const power = notRunning(await record()); // only when the answer calls for it
 *   return judgeSnapshots(res.body.toString('utf8'), power);
 * });
 * ```
 */
export function withVm<T>(session: SessionRequest, select: VmSelector, read: (vm: VmInSession) => Promise<T>): Promise<T> {
  return withVcdSession(session, async (_get, open) => {
    const { target } = select;
    let vm: VmIdentity & { cached?: boolean } = target.kind === 'id' ? { id: target.id } : await resolveName(session, open, select, target.name, true);
    if (target.kind === 'name' && vm.cached) {
      try {
        return await read(vmInSession(session, open, identityOf(vm), staleCheck));
      } catch (error) {
        if (!(error instanceof StaleName)) throw error;
        session.log(`${vm.id} answered HTTP ${error.status}: resolving ${JSON.stringify(target.name)} again (deleted and re-created?)`);
        vm = await resolveName(session, open, select, target.name, false);
      }
    }
    return read(vmInSession(session, open, identityOf(vm)));
  });
}

/** A VM known by its id (from a list, say) inside a session that is already open: what `withVm` hands its check. */
export function vmInSession(
  session: SessionRequest,
  open: Pick<OpenSession, 'get'> & Partial<Pick<OpenSession, 'post'>>,
  vm: VmIdentity,
  check?: (res: HttpResponse) => void,
): VmInSession {
  let first = check;
  let record: Promise<VmRecord> | undefined;
  const seen = (res: HttpResponse) => {
    const once = first;
    first = undefined;
    once?.(res);
    return res;
  };
  const get: SessionGet = async (path, phase) => seen(await open.get(path, phase));
  const { post } = open;
  return {
    vm,
    get,
    ...(post ? { post: async (path: string, body: string, type: string, phase: string) => seen(await post(path, body, type, phase)) } : {}),
    record: () => (record ??= readVmRecord(get, vm.id)),
    deadline: session.deadline,
    session,
  };
}

/** The VM's id from a cached name answered 403/404: the name is resolved again. */
class StaleName extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

function staleCheck(res: HttpResponse): void {
  if (res.status === 403 || res.status === 404) throw new StaleName(res.status);
}

function identityOf(vm: VmIdentity): VmIdentity {
  return { id: vm.id, name: vm.name, vapp: vm.vapp, ...(vm.org !== undefined ? { org: vm.org } : {}) };
}

/** The VM records of the session's scope that `filter` asks for, in one listing of the query service: a name's, or many VMs' at once (a join's). */
export function listVmsInSession(req: SessionRequest, open: Pick<OpenSession, 'get'>, filter: VmFilter): Promise<ListedVm[]> {
  const scope = req.scope ?? vmScope(req.creds, undefined);
  return listScopedVms({ conn: req.conn, creds: req.creds, get: (p) => open.get(p), scope, maxVms: req.maxVms }, filter);
}

/** The one VM among listed `records` that `name` (in `vapp`) names, as --vm NAME is resolved; a CheckError when none or several. */
export function vmNamed(req: SessionRequest, records: readonly ListedVm[], name: string, vapp: string | undefined): ResolvedVm {
  const scope = req.scope ?? vmScope(req.creds, undefined);
  return pickVmByName(records, name, vapp, { account: principal(req.creds), origin: req.conn.base.origin, provider: scope.provider });
}

/** Resolves a VM name: the cached answer while younger than the TTL, else the query service. */
async function resolveName(
  req: SessionRequest,
  open: OpenSession,
  select: VmSelector,
  name: string,
  useCache: boolean,
): Promise<VmIdentity & { cached: boolean }> {
  const scope = req.scope ?? vmScope(req.creds, undefined);
  const key = nameKey(name, select.vapp, scope.tenantOrg);
  const now = Date.now();
  const hit = req.fleet?.read().names?.[key];
  const ttl = select.resolveTtlMs ?? 3600_000;
  if (useCache && hit && now >= hit.time && now - hit.time < ttl) {
    req.log(`${hit.name} is ${hit.id} (vApp ${hit.vapp}, resolved ${Math.round((now - hit.time) / 1000)}s ago, kept for --resolve-ttl)`);
    return { id: hit.id, name: hit.name, vapp: hit.vapp, ...(scope.provider && hit.org !== undefined ? { org: hit.org } : {}), cached: true };
  }
  const records = await listVmsInSession(req, open, { name, vapp: select.vapp });
  const vm = vmNamed(req, records, name, select.vapp);
  req.log(`${vm.name} is ${vm.id} (vApp ${vm.vapp}${scope.provider ? `, org ${vm.org}` : ''}, from the query service)`);
  req.fleet?.update((r) => {
    r.names = { ...r.names, [key]: { ...vm, time: Date.now() } };
  });
  const { org, ...identity } = vm;
  return { ...identity, ...(scope.provider && org !== undefined ? { org } : {}), cached: false };
}

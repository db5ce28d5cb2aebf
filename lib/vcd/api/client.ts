import type { HttpResponse } from '../../http/request';
import { CheckError } from '../../plugin/errors';
import { chooseApiVersion, describeOffer, fetchOfferedVersions, PREFERRED_VERSION, refusedForcedVersion, type OfferedVersion } from './api-version';
import { describeResponse, vcdRequest, xmlAccept, type VcdConnection } from './connection';
import { nameKey, type FleetCache } from '../fleet/fleet-cache';
import { login, logout, principal, sessionHeaders, VersionRefusedError, type Credentials, type VcdSession } from './login';
import type { SessionCache } from './session-cache';
import { pickVmByName } from '../inventory/vm-name';
import type { VmTarget } from '../vm/vm-id';
import { listScopedVms, vmScope, type VmScope } from '../inventory/vm-listing';
import type { VmRecord } from '../inventory/vm-query';

export type MetricsKind = 'current' | 'historic';

/** A metrics document as received, or the server's refusal (HTTP 400) of current metrics. */
export type MetricsResponse = { kind: 'document'; body: string; serverTime?: number } | { kind: 'refused'; detail: string };

/** The VM a check read: its id, and its name and vApp when it was given by name. */
export interface VmIdentity {
  id: string;
  name?: string;
  vapp?: string;
  /** Its organisation, when a provider account resolved the name. */
  org?: string;
}

/** What every request with a session needs. */
export interface SessionRequest {
  conn: VcdConnection;
  creds: Credentials;
  /** Undefined with --no-cache: log in, then log out at the end. */
  cache?: SessionCache;
  /** The negotiated version and resolved names, kept beside the session; undefined with --no-cache. */
  fleet?: FleetCache;
  /** --api-version: used as given, never negotiated. */
  forcedVersion?: string;
  /** --max-vms: more VMs in a query's answer are refused (memory stays bounded). */
  maxVms?: number;
  /** Whose VMs names and lists cover (vm-listing.ts); by default the account's as its org says. */
  scope?: VmScope;
  deadline: number;
  log(message: string): void;
  /** Facts for the first line at -v (the version and why, the VM's name and id). */
  facts?: string[];
}

export interface MetricsRequest extends SessionRequest {
  vm: VmTarget;
  /** --vapp: narrows a name to one vApp. */
  vapp?: string;
  /** How long a resolved name is reused (--resolve-ttl), in ms. */
  resolveTtlMs?: number;
  which: MetricsKind;
  /**
   * Called with the answer while the session is still open (a --no-cache logout waits for it),
   * for reads the answer calls for: the VM's record when metrics are refused or stop.
   */
  follow?(response: MetricsResponse & { vm: VmIdentity }, get: (path: string, phase: string) => Promise<HttpResponse>): Promise<void>;
}

/**
 * A version problem met while logging in. Not a CheckError on purpose: the session cache holds
 * failed logins for a while to spare the account a lockout, and a version is not a credential
 * (after fixing --api-version the next run must log in). Unwrapped outside the cache.
 */
class VersionProblem extends Error {
  constructor(readonly error: unknown) {
    super('API version refused at login');
  }
}

/**
 * One run's use of the vCD API: the API version (forced, remembered, or asked for at
 * /api/versions), a session from the cache or a new login, requests that log in again once
 * on 401 and negotiate again once on 406, and the logout when nothing keeps the session.
 */
class VcdSessionRunner {
  private session?: VcdSession;
  /** The version was read from /api/versions in this run: a 406 is not worth asking again. */
  private negotiatedNow = false;
  /** The login that replaces a session the server rejected, while it is under way. */
  private renewing?: Promise<void>;

  constructor(private readonly req: SessionRequest) {}

  /** A fact for -v (the caller prints the facts in long output too); logged when nobody collects them. */
  private fact(text: string): void {
    if (this.req.facts) this.req.facts.push(text);
    else this.req.log(text);
  }

  async start(): Promise<void> {
    const { req } = this;
    if (req.forcedVersion !== undefined) {
      req.conn.apiVersion = req.forcedVersion;
      this.fact(`API version ${req.forcedVersion} (forced by --api-version)`);
    } else {
      const remembered = req.fleet?.read().apiVersion;
      if (remembered) {
        req.conn.apiVersion = remembered.version;
        this.fact(`API version ${remembered.version} (${remembered.reason}, remembered)`);
        req.log(`API version ${remembered.version} remembered from /api/versions of ${new Date(remembered.time).toISOString()}`);
      } else {
        await this.negotiate();
      }
    }
    const cached = req.cache?.read();
    if (cached) {
      req.conn.addSecret(cached.token);
      req.log(`reusing the cached session in ${req.cache?.file}`);
      this.session = cached;
    } else {
      this.session = await this.obtain();
      req.conn.addSecret(this.session.token);
    }
  }

  /** A session from the cache's lock-protected login (or a plain login without a cache). */
  private async obtain(staleToken?: string): Promise<VcdSession> {
    const { req } = this;
    try {
      return req.cache ? await req.cache.obtain(() => this.login(), { deadline: req.deadline, staleToken }) : await this.login();
    } catch (error) {
      throw error instanceof VersionProblem ? error.error : error;
    }
  }

  /**
   * Asks /api/versions and remembers the choice with the session. A list that cannot be read
   * (a proxy that passes only /api/vApp and /cloudapi, a broken answer) is no reason to fail:
   * PREFERRED_VERSION is tried, and nothing is remembered.
   */
  private async negotiate(): Promise<void> {
    const { req } = this;
    let offered: OfferedVersion[];
    try {
      offered = await fetchOfferedVersions(req.conn);
    } catch (error) {
      if (!(error instanceof CheckError) || req.conn.signal?.aborted) throw error;
      req.conn.apiVersion = PREFERRED_VERSION;
      this.fact(`API version ${PREFERRED_VERSION} (the list of versions could not be read: ${error.message.replace(/, give the version.*$/, '')})`);
      return;
    }
    const chosen = chooseApiVersion(offered);
    if ('error' in chosen) throw new CheckError(`${req.conn.base.origin} ${chosen.error}: it offers ${describeOffer(offered)}, force one with --api-version`);
    this.negotiatedNow = true;
    req.conn.apiVersion = chosen.version;
    this.fact(`API version ${chosen.version} (${chosen.reason}, from /api/versions)`);
    req.fleet?.update((r) => {
      r.apiVersion = { ...chosen, time: Date.now() };
    });
  }

  /**
   * The server refused the version (406): with --api-version, one UNKNOWN listing what it
   * offers; else ask again once (the server was upgraded since the version was remembered).
   */
  private async versionRefused(detail: string): Promise<void> {
    const { req } = this;
    if (req.forcedVersion !== undefined) throw await refusedForcedVersion(req.conn, detail);
    const before = req.conn.apiVersion;
    if (this.negotiatedNow)
      throw new CheckError(
        `${req.conn.base.origin} refuses API version ${before}, which its /api/versions offers (${detail}), force another with --api-version`,
      );
    req.log(`API version ${before} refused (${detail}): asking the server again`);
    await this.negotiate();
    if (!this.negotiatedNow)
      throw new CheckError(
        `${req.conn.base.origin} refuses API version ${before} (${detail}) and its list of versions could not be read, give one it speaks with --api-version`,
      );
  }

  private async login(): Promise<VcdSession> {
    const { req } = this;
    const once = async () => {
      const session = await login(req.conn, req.creds);
      req.log(`logged in as ${principal(req.creds)} (${session.auth === 'bearer' ? 'bearer token' : 'x-vcloud-authorization'})`);
      return session;
    };
    try {
      return await once();
    } catch (error) {
      if (!(error instanceof VersionRefusedError)) throw error;
      try {
        await this.versionRefused(error.detail);
      } catch (problem) {
        throw new VersionProblem(problem);
      }
    }
    try {
      return await once();
    } catch (error) {
      if (!(error instanceof VersionRefusedError)) throw error;
      throw new VersionProblem(
        new CheckError(
          `${req.conn.base.origin} refuses API version ${req.conn.apiVersion} at login, which its /api/versions offers (${error.detail}), force another with --api-version`,
        ),
      );
    }
  }

  /** GET with the session at the current version: one new login on 401, one new negotiation on 406. */
  async get(path: string, accept: () => string = () => xmlAccept(this.req.conn)): Promise<HttpResponse> {
    const { req } = this;
    const send = () => vcdRequest(req.conn, 'GET', path, { ...sessionHeaders(this.session!), accept: accept() });
    const used = this.session!.token;
    let res = await send();
    if (res.status === 401 && req.cache) {
      await this.renew(used);
      res = await send();
    }
    if (res.status === 406) {
      await this.versionRefused(describeResponse(res));
      res = await send();
    }
    return res;
  }

  /** A new session in place of `rejected`: requests refused together (a fleet's) share one login. */
  private async renew(rejected: string): Promise<void> {
    const { req } = this;
    if (this.session!.token !== rejected) return;
    this.renewing ??= (async () => {
      req.log('session rejected (HTTP 401, expired?): logging in again');
      this.session = await this.obtain(rejected);
      req.conn.addSecret(this.session.token);
    })().finally(() => (this.renewing = undefined));
    await this.renewing;
  }

  /** Without a cache (--no-cache, or one that could not be written) the session is closed. */
  async close(): Promise<void> {
    const { req, session } = this;
    if (!session || (req.cache && req.cache.keepsSessions)) return;
    // A slow logout must not turn a result into a timeout: wait for it at most 2 s.
    const limit = Math.max(0, Math.min(2000, req.deadline - Date.now() - 500));
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`logout not confirmed within ${limit} ms`), limit)));
    const problem = await Promise.race([logout(req.conn, session), gaveUp]);
    clearTimeout(timer);
    req.log(problem ?? `logged out (${req.cache ? 'session cache unusable' : '--no-cache'})`);
  }
}

/**
 * Runs `work` with a session and always closes it as the cache requires. A session nobody
 * keeps must be closed even when the server stalls: its requests are stopped early enough
 * to leave the logout its time, and the run then ends at -t as any timeout does.
 */
async function withSession<T>(req: SessionRequest, work: (runner: VcdSessionRunner) => Promise<T>): Promise<T> {
  const runner = new VcdSessionRunner(req);
  let stoppedEarly = false;
  let phase = '';
  let stoppedWhile = '';
  const setPhase = req.conn.setPhase;
  req.conn.setPhase = (text) => setPhase((phase = text));
  try {
    await runner.start();
    const stop = req.cache && req.cache.keepsSessions ? undefined : stopBeforeLogout(req);
    try {
      return await work(runner);
    } catch (error) {
      stoppedEarly = stop?.fired() ?? false;
      stoppedWhile = phase;
      throw error;
    } finally {
      stop?.restore();
    }
  } finally {
    await runner.close();
    req.conn.setPhase = setPhase;
    if (stoppedEarly) {
      // What timed out is the request, not the logout: the runtime's timer says so.
      setPhase(`${stoppedWhile} (the session was closed)`);
      await new Promise<never>(() => undefined);
    }
  }
}

/** Aborts the requests of `req` a logout's time before the deadline; `restore` undoes it. */
function stopBeforeLogout(req: SessionRequest): { fired(): boolean; restore(): void } {
  const original = req.conn.signal;
  const controller = new AbortController();
  let fired = false;
  const onAbort = () => controller.abort();
  original?.addEventListener('abort', onAbort);
  const reserve = Math.min(2000, (req.deadline - Date.now()) / 3);
  const timer = setTimeout(
    () => {
      fired = true;
      controller.abort();
    },
    Math.max(0, req.deadline - reserve - Date.now()),
  );
  req.conn.signal = controller.signal;
  return {
    fired: () => fired,
    restore() {
      clearTimeout(timer);
      original?.removeEventListener('abort', onAbort);
      req.conn.signal = original;
    },
  };
}

/** Resolves a VM name: the cached answer while younger than the TTL, else the query service. */
async function resolveName(req: MetricsRequest, runner: VcdSessionRunner, name: string, useCache: boolean): Promise<VmIdentity & { cached: boolean }> {
  const scope = req.scope ?? vmScope(req.creds, undefined);
  const key = nameKey(name, req.vapp, scope.tenantOrg);
  const now = Date.now();
  const hit = req.fleet?.read().names?.[key];
  const ttl = req.resolveTtlMs ?? 3600_000;
  if (useCache && hit && now >= hit.time && now - hit.time < ttl) {
    req.log(`${hit.name} is ${hit.id} (vApp ${hit.vapp}, resolved ${Math.round((now - hit.time) / 1000)}s ago, kept for --resolve-ttl)`);
    return { id: hit.id, name: hit.name, vapp: hit.vapp, ...(scope.provider && hit.org !== undefined ? { org: hit.org } : {}), cached: true };
  }
  const records = await listScopedVms({ conn: req.conn, creds: req.creds, get: (p) => runner.get(p), scope, maxVms: req.maxVms }, { name, vapp: req.vapp });
  const vm = pickVmByName(records, name, req.vapp, { account: principal(req.creds), origin: req.conn.base.origin, provider: scope.provider });
  req.log(`${vm.name} is ${vm.id} (vApp ${vm.vapp}${scope.provider ? `, org ${vm.org}` : ''}, from the query service)`);
  req.fleet?.update((r) => {
    r.names = { ...r.names, [key]: { ...vm, time: Date.now() } };
  });
  const { org, ...identity } = vm;
  return { ...identity, ...(scope.provider && org !== undefined ? { org } : {}), cached: false };
}

/**
 * Gets `/api/vApp/<vm>/metrics/<which>` (resolving a VM name first), with a session from the
 * cache or a new login, and maps HTTP failures to CheckErrors. A name resolved from the cache
 * whose id now answers 403/404 (the VM was deleted and re-created) is resolved again at once.
 */
export async function fetchMetrics(req: MetricsRequest): Promise<MetricsResponse & { vm: VmIdentity }> {
  const { conn } = req;
  return withSession(req, async (runner) => {
    let vm: VmIdentity & { cached?: boolean } = req.vm.kind === 'id' ? { id: req.vm.id } : await resolveName(req, runner, req.vm.name, true);
    const get = () => {
      conn.setPhase(`reading ${req.which} metrics of ${vm.id}`);
      return runner.get(`/api/vApp/${vm.id}/metrics/${req.which}`);
    };
    let res = await get();
    if ((res.status === 403 || res.status === 404) && vm.cached && req.vm.kind === 'name') {
      req.log(`${vm.id} answered HTTP ${res.status}: resolving ${JSON.stringify(req.vm.name)} again (deleted and re-created?)`);
      vm = await resolveName(req, runner, req.vm.name, false);
      res = await get();
    }
    const identity: VmIdentity = { id: vm.id, name: vm.name, vapp: vm.vapp, ...(vm.org !== undefined ? { org: vm.org } : {}) };
    const response = { ...metricsAnswer(req, identity, req.which, res), vm: identity };
    await req.follow?.(response, (p, phase) => {
      conn.setPhase(phase);
      return runner.get(p);
    });
    return response;
  });
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

/** GET with an open session: one new login on 401 (shared by the requests it refused), one new negotiation on 406. */
export type SessionReader = (path: string) => Promise<HttpResponse>;

/**
 * Runs `work` with one session (cached or a new login) for as many reads as it makes, and
 * closes the session as the cache requires, as every single read does.
 */
export function withVcdSession<T>(req: SessionRequest, work: (get: SessionReader) => Promise<T>): Promise<T> {
  return withSession(req, (runner) => work((path) => runner.get(path)));
}

/**
 * Every VM the account sees (templates included: the caller selects), each with its
 * organisation, read with an open session: a tenant's own organisation, a provider's every one
 * (or --tenant-org's) through the admin queries (vm-listing.ts).
 */
export async function queryVmList(req: SessionRequest, get: SessionReader, filter: { vapp?: string }): Promise<{ records: VmRecord[]; pages: number }> {
  let pages = 0;
  const scope = req.scope ?? vmScope(req.creds, undefined);
  const records = await listScopedVms({ conn: req.conn, creds: req.creds, get, scope, maxVms: req.maxVms, onPage: (n) => (pages = n) }, { vapp: filter.vapp });
  return { records, pages };
}

/** Every VM the account sees (templates included: the caller selects), through the query service. */
export async function listVms(req: SessionRequest, filter: { vapp?: string }): Promise<{ records: VmRecord[]; pages: number }> {
  return withVcdSession(req, (get) => queryVmList(req, get, filter));
}

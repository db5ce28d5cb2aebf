// One run's vCD session: the API version (forced, remembered or negotiated), a session from the
// cache or a new login, reads that log in again once on 401 and negotiate again once on 406,
// and the logout when nothing keeps the session. Every other folder reads vCD through it.
import type { BodyStream, HttpResponse } from '../../http/request';
import { CheckError } from '../../plugin/errors';
import { chooseApiVersion, describeOffer, fetchOfferedVersions, PREFERRED_VERSION, refusedForcedVersion, type OfferedVersion } from './api-version';
import { describeResponse, vcdRequest, xmlAccept, type VcdConnection } from './connection';
import type { FleetCache } from './fleet-cache';
import { login, logout, principal, sessionHeaders, VersionRefusedError, type Credentials, type VcdSession } from './login';
import type { VmScope } from './scope';
import type { SessionCache } from './session-cache';
import type { SessionReader } from './session-reads';

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
  /** Whose objects names and lists cover; by default the account's as its org says. */
  scope?: VmScope;
  deadline: number;
  log(message: string): void;
  /** Facts for the first line at -v (the version and why, the VM's name and id). */
  facts?: string[];
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

  /** GET with the session at the current version: one new login on 401, one new negotiation on 406; `stream` takes the answer's body. */
  async get(path: string, accept: () => string = () => xmlAccept(this.req.conn), stream?: BodyStream): Promise<HttpResponse> {
    const { req } = this;
    return this.send(
      () => vcdRequest(req.conn, 'GET', path, { ...sessionHeaders(this.session!), accept: accept() }, undefined, stream),
      async (refused) => {
        await this.versionRefused(describeResponse(refused));
        return true;
      },
    );
  }

  /**
   * POST `body` with the session at the current version: one new login on 401. A 406 to a
   * version remembered from an earlier run is first taken for that version's refusal (the
   * server was upgraded): asked again, and posted again when the answer changes the version.
   * Otherwise the 406 is returned as it is: a server may refuse what is posted, and the caller
   * decides.
   */
  async post(path: string, body: string, contentType: string): Promise<HttpResponse> {
    const { req } = this;
    return this.send(
      () => vcdRequest(req.conn, 'POST', path, { ...sessionHeaders(this.session!), accept: xmlAccept(req.conn), 'content-type': contentType }, body),
      async (refused) => {
        if (this.negotiatedNow || req.forcedVersion !== undefined) return false;
        const before = req.conn.apiVersion;
        await this.versionRefused(describeResponse(refused));
        return req.conn.apiVersion !== before;
      },
    );
  }

  /**
   * Sends `request` (built anew each time, with the session and version of the moment): again
   * after one new login on 401 (shared by the requests it refused), and again on 406 when
   * `on406`, having dealt with the refusal, says so; else the answer is returned as it is.
   */
  private async send(request: () => Promise<HttpResponse>, on406: (refused: HttpResponse) => Promise<boolean>): Promise<HttpResponse> {
    const used = this.session!.token;
    let res = await request();
    if (res.status === 401 && this.req.cache) {
      await this.renew(used);
      res = await request();
    }
    if (res.status === 406 && (await on406(res))) res = await request();
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

/** Reads with an open session, for the work that needs more than plain GETs. */
export interface OpenSession {
  /** GET as SessionReader does; `phase` names the read if -t expires while it is under way. */
  get(path: string, phase?: string): Promise<HttpResponse>;
  /** POST a document (of `contentType`) with the session: one new login on 401; `phase` as for get. */
  post(path: string, body: string, contentType: string, phase?: string): Promise<HttpResponse>;
  /**
   * Runs `work` with the session's requests also stopped at `cutoff` (ms since the epoch),
   * e.g. to keep time for judging after many reads; `cut` says when that came.
   */
  until<T>(cutoff: number, work: (cut: AbortSignal) => Promise<T>): Promise<T>;
}

/**
 * Runs `work` with one session (cached or a new login) for as many reads as it makes, and
 * closes the session as the cache requires, as every single read does.
 */
export function withVcdSession<T>(req: SessionRequest, work: (get: SessionReader, session: OpenSession) => Promise<T>): Promise<T> {
  return withSession(req, (runner) => {
    const session: OpenSession = {
      get(path, phase) {
        if (phase !== undefined) req.conn.setPhase(phase);
        return runner.get(path);
      },
      post(path, body, contentType, phase) {
        if (phase !== undefined) req.conn.setPhase(phase);
        return runner.post(path, body, contentType);
      },
      until: (cutoff, inner) => until(req.conn, cutoff, inner),
    };
    return work((path, accept, stream) => runner.get(path, accept, stream), session);
  });
}

/** `work` with the connection's requests stopped at `cutoff` too; the connection's own signal is back after it. */
async function until<T>(conn: VcdConnection, cutoff: number, work: (cut: AbortSignal) => Promise<T>): Promise<T> {
  const outer = conn.signal;
  const cut = new AbortController();
  const stop = () => cut.abort();
  outer?.addEventListener('abort', stop);
  const timer = setTimeout(stop, Math.max(0, cutoff - Date.now()));
  conn.signal = cut.signal;
  try {
    return await work(cut.signal);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', stop);
    conn.signal = outer;
  }
}

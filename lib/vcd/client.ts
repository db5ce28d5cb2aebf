import type { HttpResponse } from '../http/request';
import { CheckError } from '../plugin/errors';
import { describeResponse, vcdRequest, xmlAccept, type VcdConnection } from './connection';
import { login, logout, principal, sessionHeaders, type Credentials, type VcdSession } from './login';
import type { SessionCache } from './session-cache';

export type MetricsKind = 'current' | 'historic';

/** A metrics document as received, or the server's refusal (HTTP 400) of current metrics. */
export type MetricsResponse =
  | { kind: 'document'; body: string; serverTime?: number }
  | { kind: 'refused'; detail: string };

export interface MetricsRequest {
  conn: VcdConnection;
  creds: Credentials;
  vm: string;
  which: MetricsKind;
  /** Undefined with --no-cache: log in, then log out at the end. */
  cache?: SessionCache;
  deadline: number;
  log(message: string): void;
  /**
   * Called with the answer while the session is still open (a --no-cache logout waits for it),
   * for reads the answer calls for: the VM's record when metrics are refused or stop.
   */
  follow?(response: MetricsResponse, get: (path: string, phase: string) => Promise<HttpResponse>): Promise<void>;
}

/**
 * Gets `/api/vApp/<vm>/metrics/<which>` with a session from the cache (or a new login), logs
 * in once more when a cached session has expired (401), and maps HTTP failures to CheckErrors.
 */
export async function fetchMetrics(req: MetricsRequest): Promise<MetricsResponse> {
  const { conn, creds, cache } = req;
  const doLogin = async () => {
    const session = await login(conn, creds);
    req.log(`logged in as ${principal(creds)} (${session.auth === 'bearer' ? 'bearer token' : 'x-vcloud-authorization'})`);
    return session;
  };
  let session: VcdSession | undefined = cache?.read();
  if (session) {
    conn.addSecret(session.token);
    req.log(`reusing the cached session in ${cache?.file}`);
  } else {
    session = cache ? await cache.obtain(doLogin, { deadline: req.deadline }) : await doLogin();
    conn.addSecret(session.token);
  }
  try {
    let res = await getMetrics(req, session);
    if (res.status === 401 && cache) {
      req.log(`session rejected (HTTP 401, expired?): logging in again`);
      session = await cache.obtain(doLogin, { deadline: req.deadline, staleToken: session.token });
      conn.addSecret(session.token);
      res = await getMetrics(req, session);
    }
    const path = `/api/vApp/${req.vm}/metrics/${req.which}`;
    const open = session;
    const answered = async (response: MetricsResponse): Promise<MetricsResponse> => {
      const get = (p: string, phase: string) => (conn.setPhase(phase), vcdRequest(conn, 'GET', p, { ...sessionHeaders(open), accept: xmlAccept(conn) }));
      await req.follow?.(response, get);
      return response;
    };
    if (res.status >= 200 && res.status < 300) {
      const date = Date.parse(String(res.headers.date ?? ''));
      return await answered({ kind: 'document', body: res.body.toString('utf8'), serverTime: Number.isNaN(date) ? undefined : date });
    }
    const detail = describeResponse(res);
    // vCD refuses current metrics of a VM that is not running with 400, but also for other
    // reasons (operation limits, validation): the caller decides with the VM's record.
    if (res.status === 400 && req.which === 'current') return await answered({ kind: 'refused', detail });
    switch (res.status) {
      case 401:
        throw new CheckError(`the session of ${principal(creds)} was rejected by ${conn.base.origin} (${detail}) right after login; check the account's rights`);
      case 403:
        // vCD answers 403, not 404, for ids it does not know, so as not to reveal them.
        throw new CheckError(`${req.vm}: VM not found or not visible to this user ${principal(creds)} (${detail}); check --vm, and that the account is an administrator, Catalog Author or vApp Author of its org`);
      case 404:
        throw new CheckError(`${conn.base.origin}${path} not found (${detail}); check that --url is the vCD API host of the VM's region`);
      case 406:
        throw new CheckError(`${conn.base.origin} does not accept API version ${conn.apiVersion} (${detail}); set --api-version to one it supports`);
      default:
        throw new CheckError(`${conn.base.origin}${path} answered ${detail}${res.status >= 500 ? '; the vCD cells may be overloaded or down, retry later' : ''}`);
    }
  } finally {
    // Without a cache (--no-cache, or a cache that could not be written) nothing will reuse
    // the session: close it, or every run leaves one more session open on vCD.
    if (!cache || !cache.keepsSessions) {
      // A slow logout must not turn a result into a timeout: wait for it at most 2 s.
      const limit = Math.max(0, Math.min(2000, req.deadline - Date.now() - 500));
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`logout not confirmed within ${limit} ms`), limit)));
      const problem = await Promise.race([logout(conn, session), gaveUp]);
      clearTimeout(timer);
      req.log(problem ?? `logged out (${cache ? 'session cache unusable' : '--no-cache'})`);
    }
  }
}

function getMetrics(req: MetricsRequest, session: VcdSession) {
  req.conn.setPhase(`reading ${req.which} metrics of ${req.vm}`);
  return vcdRequest(req.conn, 'GET', `/api/vApp/${req.vm}/metrics/${req.which}`, { ...sessionHeaders(session), accept: xmlAccept(req.conn) });
}

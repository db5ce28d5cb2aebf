// check_vcd's probe of the Cloud Director service itself: /api/versions answers, a fresh login
// works (never a cached session: this proves the password), one cheap authenticated request
// answers (the current session), and for a System account the cells; then the logout. Every
// step is timed. A step that fails is the service failing: CRITICAL, not UNKNOWN, because
// this is the check the other vCD checks depend on. Only what the options got wrong (a forced
// --api-version the server refuses) stays UNKNOWN. The connection failing at any step, the
// cells' read included (a cell going down mid-answer), is vCD not answering: CRITICAL in that
// run, so that the dependents are held at once and the outage is one state change.
import { TransportError } from '../../http/network-errors';
import { CheckError } from '../../plugin/errors';
import { State } from '../../plugin/state';
import { parseSupportedVersions, chooseApiVersion, refusedForcedVersion, type OfferedVersion } from '../api/api-version';
import { describeResponse, vcdRequest, xmlAccept, type VcdConnection } from '../api/connection';
import { login, logout, principal, sessionHeaders, VersionRefusedError, type Credentials, type VcdSession } from '../api/login';
import { parseCellRecords, parseCloudApiCells, type Cell } from './cells';

/** What check_vcd measured. Times in seconds. */
export interface ServiceReading {
  origin: string;
  /** The highest version /api/versions offers (alpha versions aside), and how many it offers. */
  highest: string;
  offered: number;
  /** The version the login used. */
  version: string;
  auth: VcdSession['auth'];
  times: { versions: number; login: number; query: number };
  /** System accounts only: the cells, or why they could not be read. */
  cells?: Cell[] | { error: string };
  /** Set when the logout failed (the result stands). */
  logoutProblem?: string;
}

/** What the probe needs besides the connection. */
export interface ServiceProbe {
  conn: VcdConnection;
  creds: Credentials;
  provider: boolean;
  /** --api-version: used as given; a refusal is the option's fault (UNKNOWN). */
  forcedVersion?: string;
  deadline: number;
}

/** A failure of the service: CRITICAL, with the message of the step that failed (a broken connection says vCD at `origin` is not answering). */
export function serviceDown(error: unknown, origin: string): unknown {
  if (!(error instanceof CheckError) || error instanceof ForcedVersionRefused || error.state !== State.UNKNOWN) return error;
  const message = error instanceof TransportError ? `vCD at ${origin} is not answering: ${error.message}` : error.message;
  return new CheckError(message, { state: State.CRITICAL, cause: error, notes: error.notes });
}

/** The server refused --api-version: a bad option, UNKNOWN. */
class ForcedVersionRefused extends CheckError {}

function numeric(v: string): [number, number] | undefined {
  const m = /^(\d{1,4})\.(\d{1,4})$/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** The highest plain version of an offer (`39.1`), or the last one listed when none is plain. */
export function highestVersion(offered: readonly OfferedVersion[]): string {
  let best: { v: string; n: [number, number] } | undefined;
  for (const o of offered) {
    const n = numeric(o.version);
    if (n && (!best || n[0] > best.n[0] || (n[0] === best.n[0] && n[1] > best.n[1]))) best = { v: o.version, n };
  }
  return best?.v ?? offered[offered.length - 1].version;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, (performance.now() - start) / 1000];
}

async function readVersions(conn: VcdConnection): Promise<OfferedVersion[]> {
  conn.setPhase(`asking ${conn.base.origin} for its API versions`);
  const res = await vcdRequest(conn, 'GET', '/api/versions', { accept: 'application/*+xml' });
  if (res.status < 200 || res.status >= 300)
    throw new CheckError(
      `vCD at ${conn.base.origin} is not answering: /api/versions answered ${describeResponse(res)}${res.status >= 500 ? ' (cells down or overloaded?)' : ', check --url'}`,
    );
  const offered = parseSupportedVersions(res.body.toString('utf8'));
  if ('error' in offered)
    throw new CheckError(
      `${conn.base.origin}/api/versions is not the vCD versions list (${offered.error}): a proxy or error page answers for vCD, or --url is wrong`,
    );
  return offered;
}

async function freshLogin(p: ServiceProbe): Promise<VcdSession> {
  try {
    return await login(p.conn, p.creds);
  } catch (error) {
    if (error instanceof VersionRefusedError && p.forcedVersion !== undefined)
      throw new ForcedVersionRefused((await refusedForcedVersion(p.conn, error.detail)).message);
    throw error;
  }
}

/** The cheap authenticated request: the current session, as the login's kind of session reads it. */
async function readCurrentSession(p: ServiceProbe, session: VcdSession): Promise<void> {
  const { conn } = p;
  conn.setPhase('reading the current session');
  const bearer = session.auth === 'bearer';
  const path = bearer ? '/cloudapi/1.0.0/sessions/current' : '/api/session';
  const accept = bearer ? `application/json;version=${conn.apiVersion}` : xmlAccept(conn);
  const res = await vcdRequest(conn, 'GET', path, { ...sessionHeaders(session), accept });
  if (res.status < 200 || res.status >= 300)
    throw new CheckError(`vCD at ${conn.base.origin} accepted the login of ${principal(p.creds)} but ${path} answered ${describeResponse(res)} right after it`);
}

/**
 * The cells: the CloudAPI list, or the `cell` query where there is none (legacy sessions, vCD
 * before 9.7). The list is asked for at the highest version offered: a cell's status (maintenance,
 * quiesced) is only sent from 38.1 on.
 */
async function readCells(p: ServiceProbe, session: VcdSession, highest: string): Promise<Cell[] | { error: string }> {
  const { conn } = p;
  const what = `cells answer from ${conn.base.origin}`;
  try {
    if (session.auth === 'bearer') {
      conn.setPhase('reading the cells');
      const res = await vcdRequest(conn, 'GET', '/cloudapi/1.0.0/cells?page=1&pageSize=128&sortAsc=name', {
        ...sessionHeaders(session),
        accept: `application/json;version=${highest}`,
      });
      if (res.status >= 200 && res.status < 300) return parseCloudApiCells(res.body, what).cells;
      if (res.status !== 404)
        return { error: `/cloudapi/1.0.0/cells answered ${describeResponse(res)}${res.status === 403 ? ': the account may not view cells' : ''}` };
    }
    conn.setPhase('reading the cells (cell query)');
    const res = await vcdRequest(conn, 'GET', '/api/query?type=cell&format=records&pageSize=128', { ...sessionHeaders(session), accept: xmlAccept(conn) });
    if (res.status < 200 || res.status >= 300) return { error: `the cell query answered ${describeResponse(res)}` };
    return parseCellRecords(res.body.toString('utf8'), what);
  } catch (error) {
    // An answer that says nothing of the cells is said beside the result; no answer at all (the
    // connection refused, reset or cut mid-answer) is vCD down, as for any other step.
    if (error instanceof CheckError && !(error instanceof TransportError) && !conn.signal?.aborted) return { error: error.message };
    throw error;
  }
}

/** Logs out within at most 2 s (never past the deadline's last half second): a slow logout must not turn a result into a timeout. */
async function closeSession(p: ServiceProbe, session: VcdSession): Promise<string | undefined> {
  const limit = Math.max(0, Math.min(2000, p.deadline - Date.now() - 500));
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`logout not confirmed within ${limit} ms`), limit)));
  const problem = await Promise.race([logout(p.conn, session), gaveUp]);
  clearTimeout(timer);
  return problem;
}

/** Runs the probe. Failures of the service are CRITICAL CheckErrors (serviceDown); an option's fault stays UNKNOWN. */
export async function probeService(p: ServiceProbe): Promise<ServiceReading> {
  const { conn } = p;
  try {
    const [offered, versionsTime] = await timed(() => readVersions(conn));
    const highest = highestVersion(offered);
    const chosen = chooseApiVersion(offered);
    conn.apiVersion = p.forcedVersion ?? ('version' in chosen ? chosen.version : highest);
    const [session, loginTime] = await timed(() => freshLogin(p));
    conn.addSecret(session.token);
    let reading: ServiceReading;
    let logoutProblem: string | undefined;
    try {
      const [, queryTime] = await timed(() => readCurrentSession(p, session));
      reading = {
        origin: conn.base.origin,
        highest,
        offered: offered.length,
        version: conn.apiVersion,
        auth: session.auth,
        times: { versions: versionsTime, login: loginTime, query: queryTime },
        ...(p.provider ? { cells: await readCells(p, session, highest) } : {}),
      };
    } finally {
      logoutProblem = await closeSession(p, session);
    }
    return logoutProblem === undefined ? reading : { ...reading, logoutProblem };
  } catch (error) {
    throw serviceDown(error, conn.base.origin);
  }
}

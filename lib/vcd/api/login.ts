import { tokenProblem } from '../../http/sendable';
import { CheckError } from '../../plugin/errors';
import { countJsonContainers } from '../../plugin/json-bounds';
import { describeResponse, vcdRequest, xmlAccept, type VcdConnection } from './connection';

/** How the check proves who it is. */
export type Credentials = (
  { kind: 'password'; user: string; org: string; password: string } | { kind: 'api-token'; user?: string; org: string; refreshToken: string }
) & {
  /** What the options that gave them begin with, for messages: `vcd-` for check_nodes' --vcd-user. */
  optionPrefix?: string;
};

/** The option of the running plugin that gave `name` (`--user`, or `--vcd-user` in check_nodes). */
function option(creds: Credentials, name: string): string {
  return `--${creds.optionPrefix ?? ''}${name}`;
}

/**
 * A logged-in session. `bearer`: CloudAPI or OAuth access token, sent as Authorization:
 * Bearer; `legacy`: the /api/sessions token, sent back as x-vcloud-authorization.
 */
export interface VcdSession {
  auth: 'bearer' | 'legacy';
  token: string;
}

/** The header that carries a session. */
export function sessionHeaders(session: VcdSession): Record<string, string> {
  return session.auth === 'bearer' ? { authorization: `Bearer ${session.token}` } : { 'x-vcloud-authorization': session.token };
}

/** A provider login: the System organisation (any case). */
export const isProvider = (org: string) => org.toLowerCase() === 'system';

/** `monitor@acme`, or `API token of org acme`: who is logging in, never with the secret. */
export function principal(creds: Credentials): string {
  return creds.kind === 'password' ? `${creds.user}@${creds.org}` : `the API token${creds.user ? ` of ${creds.user}` : ''} for org ${creds.org}`;
}

function header(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * A login the server refused for the credentials (HTTP 401 or 403): the one failure worth
 * sharing among checks, so that they do not trip the account's lockout by repeating it. A
 * cell that is down (5xx) says nothing of the credentials.
 */
export class CredentialsRefusedError extends CheckError {}

/** A 406 at login: the server does not speak the version asked for (the caller renegotiates). */
export class VersionRefusedError extends CheckError {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/** The `vcloud-token` cookie of a legacy login (servers that send the token only there). */
function cookieToken(value: string | string[] | undefined): string | undefined {
  for (const cookie of Array.isArray(value) ? value : value ? [value] : []) {
    const m = /^\s*vcloud-token\s*=\s*"?([^";]*)"?/i.exec(cookie);
    if (m && m[1].trim() !== '') return m[1].trim();
  }
  return undefined;
}

/**
 * Why the server refused a login, from its own words (CloudAPI JSON error or vCD Error
 * message): the wording and the fix follow the reason, not the status code alone.
 */
export function loginRefusalReason(message: string): 'locked' | 'expired' | 'disabled' | 'org' | 'rights' | undefined {
  if (/\blocked\b|\block(ed)?[ -]?out\b/i.test(message)) return 'locked';
  if (/password[^.]*expire|expired[^.]*password|credentials[^.]*expired/i.test(message)) return 'expired';
  if (/\bdisabled\b|\bnot enabled\b|\binactive\b/i.test(message)) return 'disabled';
  if (/\borg(ani[sz]ation)?\b[^.]*(not found|does ?n[o']t exist|unknown|invalid|no such)|no such org|unknown org/i.test(message)) return 'org';
  if (/\bno (access )?rights?\b|\bright[s]? to\b|not (authori[sz]ed|allowed|permitted)|permission|privilege/i.test(message)) return 'rights';
  return undefined;
}

function rejected(conn: VcdConnection, creds: Credentials, status: number, detail: string): CheckError {
  const error = refusal(conn, creds, status, detail);
  return status === 401 || status === 403 ? new CredentialsRefusedError(error.message) : error;
}

function refusal(conn: VcdConnection, creds: Credentials, status: number, detail: string): CheckError {
  const who = principal(creds);
  const [user, org] = [option(creds, 'user'), option(creds, 'org')];
  const secretFile = option(creds, creds.kind === 'password' ? 'password-file' : 'api-token-file');
  const fix = creds.kind === 'password' ? `check ${user}, ${org} and ${secretFile}` : `check ${secretFile} (revoked or expired token?) and ${org}`;
  const reason = status >= 400 && status < 500 ? loginRefusalReason(detail) : undefined;
  const head = `login to ${conn.base.origin} as ${who} refused (${detail})`;
  switch (reason) {
    case 'locked':
      return new CheckError(
        `${head}: the account is locked out (too many failed logins?), ask the vCD administrator to unlock it, and check the password in ${secretFile} before it is tried again`,
      );
    case 'expired':
      return new CheckError(`${head}: the password has expired, set a new one for ${who} (tenant portal or administrator) and put it in ${secretFile}`);
    case 'disabled':
      return new CheckError(`${head}: the account is disabled, ask the vCD administrator to enable ${who}`);
    case 'org':
      return new CheckError(
        `${head}: this vCD has no organisation ${JSON.stringify(creds.org)}, check ${org} (its name as in the tenant portal URL; System for a provider account)`,
      );
    case 'rights':
      return new CheckError(
        `${head}: the account has no right to log in to the API here, give ${who} a role that may (e.g. vApp Author), or ${isProvider(creds.org) ? `use the tenant org with ${org}` : `check ${org}`}`,
      );
    default:
      break;
  }
  if (status === 401 || status === 400) {
    const why = creds.kind === 'password' ? 'wrong user, org or password' : 'token not accepted';
    return new CheckError(`login to ${conn.base.origin} as ${who} rejected (${detail}): ${why}; ${fix}`);
  }
  if (status === 403) {
    return new CheckError(
      `login to ${conn.base.origin} as ${who} refused (${detail}): the account may not log in here (disabled, or a tenant user on the provider endpoint?); ${fix}`,
    );
  }
  return new CheckError(`login to ${conn.base.origin} as ${who} failed (${detail}); check --url and the vCD cells' health`);
}

/**
 * Logs in: OAuth exchange for an API token; otherwise the CloudAPI session
 * endpoint, falling back to POST /api/sessions when that is absent (404). Every token
 * received is registered as a secret before anything else happens.
 */
export async function login(conn: VcdConnection, creds: Credentials): Promise<VcdSession> {
  if (creds.kind === 'api-token') return exchangeApiToken(conn, creds);
  const basic = 'Basic ' + Buffer.from(`${creds.user}@${creds.org}:${creds.password}`).toString('base64');
  conn.addSecret(basic.slice('Basic '.length));

  conn.setPhase(`logging in to ${conn.base.origin} as ${creds.user}@${creds.org}`);
  const path = isProvider(creds.org) ? '/cloudapi/1.0.0/sessions/provider' : '/cloudapi/1.0.0/sessions';
  const res = await vcdRequest(conn, 'POST', path, { authorization: basic, accept: `application/json;version=${conn.apiVersion}` });
  if (res.status === 406)
    throw new VersionRefusedError(`login to ${conn.base.origin} refused API version ${conn.apiVersion} (${describeResponse(res)})`, describeResponse(res));
  if (res.status !== 404) {
    const token = header(res.headers['x-vmware-vcloud-access-token']);
    conn.addSecret(token);
    if (res.status >= 200 && res.status < 300) {
      if (!token)
        throw new CheckError(
          `login to ${conn.base.origin} answered HTTP ${res.status} without an X-VMWARE-VCLOUD-ACCESS-TOKEN header; is --url a vCD API host?`,
        );
      return sendable(conn, { auth: 'bearer', token }, 'an access token');
    }
    throw rejected(conn, creds, res.status, describeResponse(res));
  }

  // vCD before 9.7 (or a proxy that hides /cloudapi): the XML API's own session.
  conn.setPhase(`logging in to ${conn.base.origin} as ${creds.user}@${creds.org} (POST /api/sessions)`);
  const legacy = await vcdRequest(conn, 'POST', '/api/sessions', { authorization: basic, accept: xmlAccept(conn) });
  if (legacy.status === 406)
    throw new VersionRefusedError(
      `login to ${conn.base.origin} refused API version ${conn.apiVersion} (${describeResponse(legacy)})`,
      describeResponse(legacy),
    );
  // Servers send the token in x-vcloud-authorization, some only in the vcloud-token cookie;
  // either way it goes back verbatim (base64 tokens carry + / =) in x-vcloud-authorization.
  const token = header(legacy.headers['x-vcloud-authorization']) ?? cookieToken(legacy.headers['set-cookie']);
  conn.addSecret(token);
  if (legacy.status >= 200 && legacy.status < 300) {
    if (!token)
      throw new CheckError(
        `login to ${conn.base.origin} answered HTTP ${legacy.status} without an x-vcloud-authorization header or vcloud-token cookie; is --url a vCD API host?`,
      );
    return sendable(conn, { auth: 'legacy', token }, 'a session token');
  }
  if (legacy.status === 404)
    throw new CheckError(`no vCD login endpoint at ${conn.base.origin} (HTTP 404 for /cloudapi/1.0.0/sessions and /api/sessions); check --url`);
  throw rejected(conn, creds, legacy.status, describeResponse(legacy));
}

async function exchangeApiToken(conn: VcdConnection, creds: Extract<Credentials, { kind: 'api-token' }>): Promise<VcdSession> {
  conn.setPhase(`exchanging the API token at ${conn.base.origin}`);
  const path = isProvider(creds.org) ? '/oauth/provider/token' : `/oauth/tenant/${encodeURIComponent(creds.org)}/token`;
  const body = `grant_type=refresh_token&refresh_token=${encodeURIComponent(creds.refreshToken)}`;
  const res = await vcdRequest(conn, 'POST', path, { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body);
  let token: string | undefined;
  try {
    // A token answer is one flat object: more objects and arrays than that are not parsed.
    if (countJsonContainers(res.body, 100) > 100) throw new SyntaxError('not a token answer');
    const json = JSON.parse(res.body.toString('utf8')) as { access_token?: unknown };
    if (typeof json.access_token === 'string' && json.access_token !== '') token = json.access_token;
  } catch {
    token = undefined;
  }
  conn.addSecret(token);
  if (res.status >= 200 && res.status < 300) {
    if (!token)
      throw new CheckError(`API token exchange at ${conn.base.origin}${path} answered HTTP ${res.status} without an access_token; is --url a vCD API host?`);
    return sendable(conn, { auth: 'bearer', token }, 'an access_token');
  }
  if (res.status === 404)
    throw new CheckError(
      `no OAuth token endpoint at ${conn.base.origin}${path} (HTTP 404); check ${option(creds, 'org')}, or use ${option(creds, 'user')} with ${option(creds, 'password-file')} on vCD before 10.3`,
    );
  throw rejected(conn, creds, res.status, describeResponse(res));
}

/** A login that succeeded with a token that cannot be sent: not the credentials' fault, so no failure hold. */
export class UnsendableSessionError extends CheckError {}

/**
 * The session, if its token can be sent back. One that cannot (a line break in an
 * access_token) is refused before the cache could keep it: kept, it would fail every later
 * check, long after the server was mended.
 */
function sendable(conn: VcdConnection, session: VcdSession, what: string): VcdSession {
  const problem = tokenProblem(session.token);
  if (problem)
    throw new UnsendableSessionError(
      `login to ${conn.base.origin} answered with ${what} that ${problem}, which cannot be sent back: the server (or a proxy in between) is broken; nothing was kept, the next check logs in again`,
    );
  return session;
}

/** Ends a session (--no-cache). Failures are returned as text, not thrown: the check result stands. */
export async function logout(conn: VcdConnection, session: VcdSession): Promise<string | undefined> {
  conn.setPhase('logging out');
  const path = session.auth === 'bearer' ? '/cloudapi/1.0.0/sessions/current' : '/api/session';
  const accept = session.auth === 'bearer' ? `application/json;version=${conn.apiVersion}` : xmlAccept(conn);
  try {
    const res = await vcdRequest(conn, 'DELETE', path, { ...sessionHeaders(session), accept });
    return res.status >= 200 && res.status < 300 ? undefined : `logout answered ${describeResponse(res)}`;
  } catch (error) {
    return `logout failed: ${(error as Error).message}`;
  }
}

// How every vCD plugin opens its session from its options: credentials, connection, session
// cache, version; and how a cache that cannot keep sessions shows in the result.
import { maxBytesFrom, requireTlsUnlessAllowed, tlsSettingsFrom, type HttpOptions } from '../../http/options';
import type { RunContext } from '../../plugin/context';
import { UsageError } from '../../plugin/errors';
import type { Result } from '../../plugin/result';
import { parseState, State, worstState } from '../../plugin/state';
import type { SessionRequest } from './session';
import type { VcdConnection } from './connection';
import { credentialsFrom, type CredentialOptions } from './credentials';
import { forcedVersionFrom, maxVmsFrom } from '../fleet/fleet-options';
import { cacheKey, defaultCacheDir, SessionCache } from './session-cache';
import { vmScope, type VmScope } from './scope';

/** The options a vCD session is opened from (see VCD_LOGIN_OPTIONS, HTTP_OPTIONS). */
export type VcdSessionOptions = CredentialOptions &
  Pick<HttpOptions, 'allow-http' | 'ca-file' | 'insecure' | 'max-bytes'> & {
    'cache-dir'?: string;
    'no-cache': boolean;
    'api-version': string | undefined;
    'max-vms': number;
    /** --tenant-org, for the plugins that take it. */
    'tenant-org'?: string;
  };

/** A session request, its scope (the account's, narrowed by --tenant-org) and the facts it collects for -v. */
export type OpenedSession = SessionRequest & { scope: VmScope; facts: string[] };

/**
 * The session of one run against `base`: credentials read, connection set up, cache chosen.
 * `said` are the caller's notes about its options, said before those about the login.
 */
export function openVcdSession(base: URL, options: VcdSessionOptions, context: RunContext, said: readonly (string | undefined)[] = []): OpenedSession {
  const { notes } = context;
  requireTlsUnlessAllowed(base, options, '--url', notes);
  for (const note of said) if (note !== undefined) notes.add(note);
  const creds = credentialsFrom(options, context, notes);
  // How the server is reached is part of what -v reports: a skipped verification.
  if (options.insecure) notes.add(`TLS certificate of ${base.host} not verified (-k/--insecure)`);
  const conn: VcdConnection = {
    base,
    apiVersion: '34.0', // until negotiated (or forced by --api-version)
    tls: tlsSettingsFrom(options),
    maxBytes: maxBytesFrom(options),
    signal: context.signal,
    trace: (line) => context.log(3, line),
    addSecret: (v) => context.addSecret(v),
    setPhase: (t) => context.setPhase(t),
  };
  const cache = options['no-cache']
    ? undefined
    : new SessionCache(options['cache-dir'] ?? defaultCacheDir(), cacheKey(base, creds), context.timeoutSeconds * 1000);
  return {
    conn,
    creds,
    cache,
    fleet: cache?.fleet,
    forcedVersion: forcedVersionFrom(options),
    maxVms: maxVmsFrom(options),
    deadline: context.deadline,
    log: (m: string) => context.log(2, m),
    scope: vmScope(creds, options['tenant-org']),
    facts: [],
  };
}

/** --cache-unusable-state checked. */
export function cacheUnusableStateFrom(options: { 'cache-unusable-state': string }): State {
  const state = parseState(options['cache-unusable-state']);
  if (state === undefined)
    throw new UsageError(`invalid --cache-unusable-state ${JSON.stringify(options['cache-unusable-state'])}: expected OK, WARNING, CRITICAL or UNKNOWN`);
  return state;
}

/**
 * A cache that cannot be written makes every run log in and out, silently but for this
 * item: JSON consumers (Zabbix) and the long output see it without -v.
 * --cache-unusable-state makes it a state of its own, said in the status line.
 */
export function withCacheState(result: Result, cache: SessionCache | undefined, state: State): Result {
  if (!cache || cache.keepsSessions) return result;
  const said = cache.notes.join('; ');
  const items = [...(result.items ?? []), { name: 'session-cache', state, text: said }];
  if (state === State.OK) return { ...result, items };
  return { ...result, items, state: worstState([result.state, state]), summary: `${result.summary}; every run logs in: ${said}` };
}

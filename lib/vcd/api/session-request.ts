// How a vCD run opens its session from its typed config (connection, login, cache, scope: see
// lib/vcd/frame/session-options.ts for the options they come from); lib/vcd/frame/vcd-frame.ts
// is what the checks open around it.
import type { TlsSettings } from '../../http/request';
import type { RunContext } from '../../plugin/context';
import type { VcdConnection } from './connection';
import type { Credentials } from './login';
import type { VmScope } from './scope';
import type { SessionRequest } from './session';
import { cacheKey, defaultCacheDir, SessionCache } from './session-cache';

/** Where and how a run reaches vCD and logs in, every option read and checked. */
export interface VcdSessionConfig {
  /** The API host (--url's origin). */
  base: URL;
  creds: Credentials;
  tls: TlsSettings;
  maxBytes: number;
  /** Connections kept open at most (a fleet's --concurrency); the HTTP layer's default when unset. */
  sockets?: number;
  /** --api-version; undefined: negotiate. */
  forcedVersion?: string;
  /** --max-vms. */
  maxVms: number;
  /** Whose objects lists and names cover (the account's, narrowed by --tenant-org). */
  scope: VmScope;
  /** Where sessions are kept (--cache-dir), or false with --no-cache. */
  cache: { dir?: string } | false;
}

/** A session request, its scope (the account's, narrowed by --tenant-org) and the facts it collects for -v. */
export type OpenedSession = SessionRequest & { scope: VmScope; facts: string[] };

/** A run context that tells the phases waiting on vCD from the others (--last-state keeps a state on a timeout in those only). */
export interface VcdRunContext extends RunContext {
  /** Like setPhase, for a phase that waits on vCD's answer. */
  setVcdPhase?(text: string): void;
}

/** The session of one run: connection set up, cache chosen; nothing is sent yet. */
export function openVcdSession(config: VcdSessionConfig, context: VcdRunContext): OpenedSession {
  const { base, creds } = config;
  const conn: VcdConnection = {
    base,
    apiVersion: '34.0', // until negotiated (or forced by --api-version)
    tls: config.tls,
    maxBytes: config.maxBytes,
    ...(config.sockets !== undefined ? { sockets: config.sockets } : {}),
    signal: context.signal,
    trace: (line) => context.log(3, line),
    addSecret: (v) => context.addSecret(v),
    setPhase: (t) => (context.setVcdPhase ?? context.setPhase)(t),
  };
  const cache =
    config.cache === false ? undefined : new SessionCache(config.cache.dir ?? defaultCacheDir(), cacheKey(base, creds), context.timeoutSeconds * 1000);
  return {
    conn,
    creds,
    cache,
    fleet: cache?.fleet,
    forcedVersion: config.forcedVersion,
    maxVms: config.maxVms,
    deadline: context.deadline,
    log: (m: string) => context.log(2, m),
    scope: config.scope,
    facts: [],
  };
}

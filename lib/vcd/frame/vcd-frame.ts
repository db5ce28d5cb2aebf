// The vCD read frame: what every vCD check does around its reads, written once. It opens the
// run's session (cached or a new login; nothing is sent until the first read), says at -vv where
// the session is cached, hands the cache's notes and the session's facts to -v, and shows a cache
// that cannot keep sessions in the result (--cache-unusable-state). check_vcd's fresh login is the
// one vCD check without it: it must not use a cached session.
import type { RunContext } from '../../plugin/context';
import { UsageError } from '../../plugin/errors';
import { problemPart, withParts } from '../../plugin/part';
import type { Result } from '../../plugin/result';
import { parseState, State } from '../../plugin/state';
import type { SessionCache } from '../api/session-cache';
import { openVcdSession, type OpenedSession, type VcdSessionConfig } from '../api/session-request';
import { sessionConfigFrom, type VcdSessionOptions } from './session-options';

/** What a frame is opened from: the session's config and --cache-unusable-state. */
export interface VcdFrameConfig {
  session: VcdSessionConfig;
  /** The state of a cache that cannot keep sessions; undefined where the run makes no vCD result (the node → VM join): OK, said as an item. */
  cacheUnusableState?: State;
}

/** --cache-unusable-state checked. */
export function cacheUnusableStateFrom(options: { 'cache-unusable-state': string }): State {
  const state = parseState(options['cache-unusable-state']);
  if (state === undefined)
    throw new UsageError(`invalid --cache-unusable-state ${JSON.stringify(options['cache-unusable-state'])}: expected OK, WARNING, CRITICAL or UNKNOWN`);
  return state;
}

/**
 * A check's frame config against `base`: --cache-unusable-state, then the session's config
 * (see sessionConfigFrom: `said` and `sockets`), in the order their errors and notes have always come.
 */
export function vcdFrameConfigFrom(
  base: URL,
  options: VcdSessionOptions & { 'cache-unusable-state': string },
  context: RunContext,
  said: readonly (string | undefined)[] = [],
  sockets?: number,
): VcdFrameConfig {
  const cacheUnusableState = cacheUnusableStateFrom(options);
  return { cacheUnusableState, session: sessionConfigFrom(base, options, context, said, sockets) };
}

/**
 * A cache that cannot be written makes every run log in and out, silently but for this
 * item: JSON consumers (Zabbix) and the long output see it without -v.
 * --cache-unusable-state makes it a state of its own, said in the status line.
 */
export function withCacheState(result: Result, cache: SessionCache | undefined, state: State): Result {
  if (!cache || cache.keepsSessions) return result;
  const said = cache.notes.join('; ');
  return withParts(result, [problemPart(`every run logs in: ${said}`, state, { items: [{ name: 'session-cache', state, text: said }] })]);
}

/** One run's frame around its reads of vCD (see openVcdFrame). */
export interface VcdFrame {
  /** The run's session: what the reads take (connection, account, scope, cache, facts). */
  readonly session: OpenedSession;
  /** -vv: the run's own line (what it reads and how), when it has one, then where the session is cached. */
  start(line?: string): void;
  /** The cache's notes and the session's facts (the API version and why), into the run's notes for -v. */
  note(): void;
  /** The check's result as the cache leaves it: a cache that cannot keep sessions is an item, or a state of its own. */
  finish(result: Result): Result;
}

/** Opens the run's frame: its session is set up and its cache chosen; nothing is sent yet. */
export function openVcdFrame(config: VcdFrameConfig, context: RunContext): VcdFrame {
  const session = openVcdSession(config.session, context);
  const { cache } = session;
  return {
    session,
    start(line) {
      if (line !== undefined) context.log(2, line);
      context.log(2, cache ? `session cache: ${cache.file}` : 'session cache: off (--no-cache)');
    },
    note() {
      for (const n of [...(cache?.notes ?? []), ...session.facts]) context.notes.add(n);
    },
    finish: (result) => withCacheState(result, cache, config.cacheUnusableState ?? State.OK),
  };
}

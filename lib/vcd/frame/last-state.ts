// --last-state: a dependent of check_vcd that is already in a problem state keeps it while vCD
// does not answer at all. Between vCD's failure and check_vcd's next run (up to its interval),
// a VDC at WARNING that runs would turn UNKNOWN; both engines make a change between two problem
// states hard at once, so that pages (the parent is not failing yet), and so does the return to
// WARNING after the recovery: two pages for an unchanged problem. Only a transport failure (no
// connection, reset, DNS, no answer within -t) keeps the state: a refused certificate or login,
// a 5xx or a malformed answer is the server answering, and is said as ever.
import { TransportError } from '../../http/network-errors';
import type { RunContext } from '../../plugin/context';
import { CheckError, UsageError } from '../../plugin/errors';
import type { OptionSpec } from '../../plugin/options';
import type { Result } from '../../plugin/result';
import { parseState, State } from '../../plugin/state';
import type { VcdRunContext } from '../api/session-request';

/** The option every vCD dependent has (check_vcd, the parent, and check_vm_fleet, whose VM services wait on its failure, have not). */
export const LAST_STATE_OPTION = {
  long: 'last-state',
  type: 'string',
  arg: 'STATE',
  // Empty is no state: Icinga 2 gives an empty macro where there is no service (a host check).
  optionalValue: true,
  description:
    "The state the engine holds for this service before this run (Nagios '$SERVICESTATEID$', Icinga 2 $service.state_id$). When it is WARNING or CRITICAL (1 or 2) and vCD does not answer at all (connection refused or reset, DNS failure, no answer within -t), the run keeps that state, says so and prints no perfdata, instead of UNKNOWN: check_vcd reports the outage, and an unchanged problem does not page twice. A TLS, login, HTTP or parse failure is said as ever. Empty (a macro with no service): as if not given.",
} as const satisfies OptionSpec;

/** The options --last-state is read from: itself, and the --url whose vCD it speaks of. */
export interface LastStateOptions {
  'last-state'?: string;
  url?: string;
}

/** What a run keeps: the engine's problem state, and the vCD whose silence keeps it. */
export interface KeptState {
  state: State.WARNING | State.CRITICAL;
  /** The origin of --url, as the status line names it. */
  origin: string;
}

/** --last-state checked: the state to keep, or undefined when there is none to keep (absent, empty, OK, UNKNOWN). */
export function lastStateFrom(options: LastStateOptions): KeptState | undefined {
  const text = options['last-state'];
  if (text === undefined || text.trim() === '') return undefined;
  const state = parseState(text);
  if (state === undefined)
    throw new UsageError(`invalid --last-state ${JSON.stringify(text)}: expected 0-3 or OK, WARNING, CRITICAL, UNKNOWN (the engine's state id macro)`);
  return state === State.WARNING || state === State.CRITICAL ? { state, origin: originOf(options.url) } : undefined;
}

/** The origin of --url, or the text as given (a bad --url fails before any request). */
function originOf(url: string | undefined): string {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return String(url);
  }
}

/** What the run says when it keeps `state`: `cause` is how vCD failed to answer. */
function keptText(origin: string, cause: string): string {
  return `vCD at ${origin} is not answering: ${cause}; the last result's state is kept (check_vcd reports the outage)`;
}

/** The error as the run reports it: a transport failure keeps `state`; any other failure is itself. */
export function keepOnTransportFailure(error: unknown, state: State | undefined, origin: string): unknown {
  if (state === undefined || !(error instanceof TransportError) || error.state !== State.UNKNOWN) return error;
  return new CheckError(keptText(origin, error.message), { state, cause: error, notes: error.notes });
}

/** The held result of a run whose -t expires while it waits on vCD. */
export function keptOnTimeout(state: State, origin: string): Result {
  return { state, summary: keptText(origin, 'no answer within -t') };
}

/**
 * One run of a vCD dependent (`run`, given the context it is to use) keeping `kept`: a
 * transport failure keeps the state, and so does -t expiring while the run waits on vCD (not
 * while it hands results to an engine). Nothing to keep: the run as it is.
 */
export async function keepingLastState(kept: KeptState | undefined, context: RunContext, run: (context: RunContext) => Promise<Result>): Promise<Result> {
  if (kept === undefined) return run(context);
  const { state, origin } = kept;
  // Until a phase says otherwise the run is waiting on vCD (a cached session's first read, a login another check makes).
  let waitingOnVcd = true;
  const keeping: VcdRunContext = {
    ...context,
    setPhase(text) {
      waitingOnVcd = false;
      context.setPhase(text);
    },
    setVcdPhase(text) {
      waitingOnVcd = true;
      context.setPhase(text);
    },
  };
  context.holdResult?.(() => (waitingOnVcd ? keptOnTimeout(state, origin) : undefined));
  try {
    return await run(keeping);
  } catch (error) {
    throw keepOnTransportFailure(error, state, origin);
  }
}

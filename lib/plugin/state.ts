/** Plugin states and their exit codes, per the Monitoring Plugins Development Guidelines. */
export enum State {
  OK = 0,
  WARNING = 1,
  CRITICAL = 2,
  UNKNOWN = 3,
}

export type StateName = 'OK' | 'WARNING' | 'CRITICAL' | 'UNKNOWN';

const NAMES: readonly StateName[] = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'];

/** The word a state is printed as. */
export function stateName(state: State): StateName {
  return NAMES[state];
}

/** Parses a state given by name (any case) or exit code, or returns undefined. */
export function parseState(text: string): State | undefined {
  const upper = text.trim().toUpperCase();
  const byName = NAMES.indexOf(upper as StateName);
  if (byName >= 0) return byName as State;
  if (/^[0-3]$/.test(upper)) return Number(upper) as State;
  return undefined;
}

// A problem the operator can act on outranks "could not tell": CRITICAL > WARNING > UNKNOWN > OK.
const RANK: Record<State, number> = {
  [State.OK]: 0,
  [State.UNKNOWN]: 1,
  [State.WARNING]: 2,
  [State.CRITICAL]: 3,
};

/** The states that are problems, the worst first, as "worst wins" ranks them: CRITICAL, WARNING, UNKNOWN. */
export const PROBLEM_STATES: readonly State[] = [State.CRITICAL, State.WARNING, State.UNKNOWN];

/** How bad a state is, for ordering: CRITICAL 3, WARNING 2, UNKNOWN 1, OK 0. */
export function severity(state: State): number {
  return RANK[state];
}

/** The worst of the given states (CRITICAL > WARNING > UNKNOWN > OK); OK for none. */
export function worstState(states: Iterable<State>): State {
  let worst = State.OK;
  for (const s of states) if (RANK[s] > RANK[worst]) worst = s;
  return worst;
}

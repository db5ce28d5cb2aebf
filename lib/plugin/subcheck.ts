// A check's result is a tree of subchecks: an operator, a VDC's memory, a node count. Reports
// build subchecks and say what each found; how states combine (worst wins) and in which order
// output says them (problems first) is decided here, once, for every plugin.
import { severity, State, worstState } from './state';

/**
 * Something a check judged: its own state (absent: OK) and the subchecks it stands for, whose
 * states count as its own. Reports add their words (`text`, `name`, ...) to this shape.
 */
export interface Subcheck {
  readonly state?: State;
  readonly subchecks?: readonly Subcheck[];
}

/** The state of a subcheck: the worst of its own and its subchecks' (worst wins, to any depth). */
export function stateOf(subcheck: Subcheck): State {
  return worstState([subcheck.state ?? State.OK, ...(subcheck.subchecks ?? []).map(stateOf)]);
}

/** The state of several subchecks: the worst of theirs; OK for none. */
export function worstOf(subchecks: readonly Subcheck[]): State {
  return worstState(subchecks.map(stateOf));
}

/** The subchecks that are not OK (the problems), in the order given. */
export function problemsOf<T extends Subcheck>(subchecks: readonly T[]): T[] {
  return subchecks.filter((s) => stateOf(s) !== State.OK);
}

/** The subchecks that are OK, in the order given. */
export function healthyOf<T extends Subcheck>(subchecks: readonly T[]): T[] {
  return subchecks.filter((s) => stateOf(s) === State.OK);
}

/**
 * The order of output where the order the report gave means something (the operator before
 * its pods): every problem before every OK subcheck, each group as given. A monitoring engine
 * may cut the status line; what is wrong must come first.
 */
export function problemsFirst<T extends Subcheck>(subchecks: readonly T[]): T[] {
  return [...problemsOf(subchecks), ...healthyOf(subchecks)];
}

/**
 * The order of output where subchecks are peers (VDC quotas, VMs): the worst first, ranked as
 * "worst wins" ranks them (CRITICAL, WARNING, UNKNOWN, OK), equals as given.
 */
export function worstFirst<T extends Subcheck>(subchecks: readonly T[]): T[] {
  return subchecks
    .map((s, i) => ({ s, i, rank: severity(stateOf(s)) }))
    .sort((a, b) => b.rank - a.rank || a.i - b.i)
    .map((x) => x.s);
}

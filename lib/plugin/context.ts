import type { Notes } from './notes';

/** What a probe may use of the runtime: verbosity, logging, secrets, the deadline. */
export interface RunContext {
  readonly verbose: number;
  /** Aborted when the timeout expires: pass it to every request so sockets close. */
  readonly signal: AbortSignal;
  /** Milliseconds since the epoch at which the timeout expires. */
  readonly deadline: number;
  readonly timeoutSeconds: number;
  /** What the run noticed on the way, shown at -v after the summary. */
  readonly notes: Notes;
  /** Level 2: a configuration line in long output; level 3: a trace line on stderr. */
  log(level: 2 | 3, message: string): void;
  /** A value that must never be printed: it is redacted from everything written. */
  addSecret(value: string | undefined): void;
  /** What the check is doing now, named in the message if the timeout expires. */
  setPhase(text: string): void;
}

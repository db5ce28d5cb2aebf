import type { Notes } from './notes';
import type { Result } from './result';

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
  /**
   * For a check that delivers as it goes (a fleet's document, VM by VM): writes `head` on
   * stdout now and returns the writer of the parts that follow; from then on the runtime ends
   * the output with `end(result)` (also on -t or a failure) instead of printing the result.
   * Absent where nothing prints (a probe run in a test's own process).
   */
  openOutput?(head: string, end: (result: Result) => string): (text: string) => void;
  /**
   * The result read so far, made when asked: printed in place of the bare timeout if -t
   * expires from now on (a logout that outlasts the time must not cost what was read);
   * undefined when asked: none, the timeout is said as ever.
   */
  holdResult?(make: () => Result | undefined): void;
}

import { State } from './state';

/**
 * The check could not be made. The message is shown to the operator as the summary, so it
 * names the cause and, where known, the fix. The state is UNKNOWN unless an option such as
 * --powered-off-state asks for another.
 */
export class CheckError extends Error {
  readonly state: State;
  /** What was noticed on the way: it explains an UNKNOWN as much as a result (shown at -v). */
  readonly notes: readonly string[];
  constructor(message: string, options: { state?: State; cause?: unknown; notes?: readonly string[] } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CheckError';
    this.state = options.state ?? State.UNKNOWN;
    this.notes = options.notes ?? [];
  }
}

/** Bad command-line input: always UNKNOWN, and the message points at --help. */
export class UsageError extends CheckError {
  constructor(message: string) {
    super(`${message} (see --help)`);
    this.name = 'UsageError';
  }
}

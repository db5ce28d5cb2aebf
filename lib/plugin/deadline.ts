import { CheckError } from './errors';

// The run's deadline (ms since the epoch), set by the runtime once -t is known. The timeout
// timer cannot fire while synchronous work (parsing a large body) holds the thread: such
// work calls checkDeadline() now and then, so that -t wins over any input.
let runDeadline = Number.POSITIVE_INFINITY;

/** Sets the deadline that checkDeadline() enforces (the runtime does, from -t). */
export function setRunDeadline(ms: number): void {
  runDeadline = ms;
}

/** The deadline passed during synchronous work; the runtime reports it as the timeout. */
export class DeadlineError extends CheckError {
  constructor(what: string) {
    super(`timed out while ${what}`);
    this.name = 'DeadlineError';
  }
}

/**
 * Throws DeadlineError when the run's deadline has passed. Cheap (one clock read): call it
 * every few thousand iterations of a loop whose length the input decides.
 */
export function checkDeadline(what: string): void {
  if (Date.now() >= runDeadline) throw new DeadlineError(what);
}

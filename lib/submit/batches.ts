// Results handed to an engine in batches as a fleet reads them, not all at the end: one batch
// under way and one filling at most, so that memory holds two batches whatever the fleet.
import { CheckError } from '../plugin/errors';
import type { PassiveResult } from './passive-result';

/** What one batch did: results taken, and the `host!service` of those the engine has no object for. */
export interface BatchReport {
  submitted: number;
  missing: string[];
}

/** The `host!service` names of results the engine had no object for kept at most (the rest are counted). */
export const MAX_MISSING_NAMED = 100;

/** What the batches did in all. */
export interface BatchesOutcome {
  submitted: number;
  /** The first MAX_MISSING_NAMED of the results the engine had no object for. */
  missing: string[];
  /** All of them. */
  missingCount: number;
}

/**
 * Sends results in batches of `size` with `send`, one batch at a time while the next fills.
 * `add` waits while a full batch waits for the one under way (the caller's reads then wait
 * too); it never throws: the first failure stops the sending, and `finish` throws it once the
 * batches under way have ended.
 */
export class ResultBatches {
  private filling: PassiveResult[] = [];
  private sending: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private readonly outcome: BatchesOutcome = { submitted: 0, missing: [], missingCount: 0 };

  constructor(
    private readonly send: (batch: readonly PassiveResult[]) => Promise<BatchReport>,
    private readonly size: number,
  ) {}

  /** Adds results; resolves when they are in the filling batch (after the batch under way has ended, when that one was full). */
  async add(results: readonly PassiveResult[]): Promise<void> {
    if (this.failure) return;
    for (const r of results) this.filling.push(r);
    if (this.filling.length >= this.size) await this.flush(this.size);
  }

  /** Sends what is left and says what all the batches did; the first failure is thrown here. */
  async finish(): Promise<BatchesOutcome> {
    await this.flush(1);
    await this.sending;
    if (this.failure) throw this.failure.error;
    return this.outcome;
  }

  /** Waits for the batch under way (and any another caller started meanwhile), then starts the filling one if it holds `least` results. */
  private async flush(least: number): Promise<void> {
    for (let current = this.sending; ; current = this.sending) {
      await current;
      if (this.sending === current) break;
    }
    if (this.failure || this.filling.length < least) return;
    const batch = this.filling;
    this.filling = [];
    this.sending = this.send(batch).then(
      (report) => {
        this.outcome.submitted += report.submitted;
        this.outcome.missingCount += report.missing.length;
        for (const name of report.missing) if (this.outcome.missing.length < MAX_MISSING_NAMED) this.outcome.missing.push(name);
      },
      (error: unknown) => {
        this.failure = { error };
        this.filling = [];
      },
    );
  }

  /** Results taken so far (for a message that says how far the hand-over got). */
  get submitted(): number {
    return this.outcome.submitted;
  }
}

/** A failure of the hand-over as the check says it: how many VMs were read, how many results got through. */
export function submissionFailure(error: CheckError, read: number, submitted: number): CheckError {
  const vms = `${read} VM${read === 1 ? '' : 's'} read`;
  const head = submitted === 0 ? `${vms}, results not submitted` : `${vms}, ${submitted} results submitted, the rest not`;
  return new CheckError(`${head}: ${error.message}`, { cause: error });
}

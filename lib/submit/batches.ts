// Results handed to an engine in batches as a fleet reads them, not all at the end: one batch
// under way and one filling at most, so that memory holds two batches whatever the fleet.
import { CheckError } from '../plugin/errors';
import type { MissingService } from './icinga2';
import type { PassiveResult } from './passive-result';

/** What one batch did: results taken, and the host and service of those the engine has no object for. */
export interface BatchReport {
  submitted: number;
  missing: MissingService[];
}

/** The hosts (VMs) the engine had no objects for named at most (the rest are counted). */
export const MAX_MISSING_NAMED = 100;

/** A host (VM) the engine had no objects for, and the services whose results it did not take. */
export interface MissingHost {
  host: string;
  services: string[];
}

/** What the batches did in all. */
export interface BatchesOutcome {
  submitted: number;
  /** The first MAX_MISSING_NAMED hosts the engine had no objects for, each named once. */
  missing: MissingHost[];
  /** The results the engine had no object for. */
  missingCount: number;
  /** The hosts they belong to, named or not. */
  missingHosts: number;
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
  private readonly outcome: BatchesOutcome = { submitted: 0, missing: [], missingCount: 0, missingHosts: 0 };
  /** Every host with a result not taken (a VM's results may span two batches); only such hosts, so few. */
  private readonly missingHosts = new Map<string, MissingHost | undefined>();

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
        for (const missing of report.missing) this.countMissing(missing);
      },
      (error: unknown) => {
        this.failure = { error };
        this.filling = [];
      },
    );
  }

  /** Counts a result not taken under its host, naming the host once (the first MAX_MISSING_NAMED hosts). */
  private countMissing({ host, service }: MissingService): void {
    this.outcome.missingCount++;
    if (!this.missingHosts.has(host)) {
      const named = this.outcome.missing.length < MAX_MISSING_NAMED ? { host, services: [] } : undefined;
      if (named) this.outcome.missing.push(named);
      this.missingHosts.set(host, named);
      this.outcome.missingHosts++;
    }
    this.missingHosts.get(host)?.services.push(service);
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

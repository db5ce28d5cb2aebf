// ResultBatches: results sent a batch at a time, and the results an engine has no object for
// counted per result and named once per host (a VM's services may span two batches).
import { describe, expect, it } from 'vitest';
import { MAX_MISSING_NAMED, ResultBatches, type BatchReport } from '../../../lib/submit/batches';
import type { PassiveResult } from '../../../lib/submit/passive-result';
import { State } from '../../../lib/plugin/state';

const SERVICES = ['vm-cpu', 'vm-memory', 'vm-disk'];
const vm = (host: string): PassiveResult[] => SERVICES.map((service) => ({ host, service, state: State.OK, output: 'OK', perfdata: [], longOutput: [] }));

/** An engine without the hosts of `unknown`: their results come back missing, the others are taken. */
const engine =
  (unknown: (host: string) => boolean) =>
  (batch: readonly PassiveResult[]): Promise<BatchReport> =>
    Promise.resolve({
      submitted: batch.filter((r) => !unknown(r.host)).length,
      missing: batch.filter((r) => unknown(r.host)).map(({ host, service }) => ({ host, service })),
    });

describe('ResultBatches', () => {
  it('names a VM the engine lacks once with its services, even when they span two batches, and submits every other result', async () => {
    const batches = new ResultBatches(
      engine((h) => h === 'vm-new'),
      4,
    );
    for (const host of ['vm-a', 'vm-new', 'vm-b', 'vm-c']) await batches.add(vm(host));
    const outcome = await batches.finish();
    expect(outcome).toEqual({ submitted: 9, missing: [{ host: 'vm-new', services: SERVICES }], missingCount: 3, missingHosts: 1 });
  });

  it(`names the first ${MAX_MISSING_NAMED} such VMs and counts the rest`, async () => {
    const batches = new ResultBatches(
      engine(() => true),
      64,
    );
    for (let i = 0; i < MAX_MISSING_NAMED + 5; i++) await batches.add(vm(`vm-${i}`));
    const outcome = await batches.finish();
    expect(outcome.missing).toHaveLength(MAX_MISSING_NAMED);
    expect(outcome.missingHosts).toBe(MAX_MISSING_NAMED + 5);
    expect(outcome.missingCount).toBe(3 * (MAX_MISSING_NAMED + 5));
  });
});

// The fleet read and judged: what check_vm_fleet reports, and what a submission hands on.
import type { RunContext } from '../../lib/plugin/context';
import { collectFleet, type FleetCollection } from '../../lib/vcd/fleet/fleet-collect';
import { judgeFleetVm, unreadFleetVm, type FleetJudging } from '../../lib/vcd/fleet/fleet-judge';
import type { FleetVmResult } from '../../lib/vcd/fleet/fleet-result';
import { openVcdSession, withCacheState } from '../../lib/vcd/api/session-request';
import { sessionConfigFrom } from '../../lib/vcd/session-options';
import { configureFleet, type FleetCheckConfig } from './config';
import type { FleetCheckOptions } from './options';

/**
 * Time kept after the last metrics request for judging, printing and (without a cache) the
 * logout; when the results are handed to an engine (--submit), also for that: a third of the
 * time left.
 */
function cutoffOf(deadline: number, handOver: boolean): number {
  const left = deadline - Date.now();
  return deadline - (handOver ? Math.max(2500, left / 3) : Math.min(2500, left / 3 + 200));
}

/** Why a VM was not read, in its services' words (`what`: its metrics, or with no metrics service, the VM). */
function unreadWords(why: string | undefined, context: RunContext, what: string): string {
  if (why === undefined || why === 'not read within -t')
    return `${what} not read within -t ${context.timeoutSeconds}s by check_vm_fleet (raise -t or --concurrency, or split the fleet with --vapp)`;
  return `${what} not read by check_vm_fleet: ${why}`;
}

/** What one run read: the config, every selected VM with its services' results (in the list's order), and how the collection went. */
export interface FleetRead {
  cfg: FleetCheckConfig;
  vms: FleetVmResult[];
  collection: FleetCollection<FleetVmResult>;
}

/**
 * Lists, reads and judges the fleet the options select. Login, TLS and list failures are
 * CheckErrors as in the single checks; VMs not read before the cut-off (kept ahead of -t) are
 * in the answer with `read: false`.
 */
export async function readFleet(options: FleetCheckOptions, context: RunContext, handOver = false): Promise<FleetRead> {
  const cfg = configureFleet(options);
  // The session's notes say the first service's threshold slip, as a single check's would, and the hygiene services' slips.
  const { base, thresholds } = cfg.session;
  const session = openVcdSession(sessionConfigFrom(base, options, context, [thresholds.slip, ...cfg.slips], cfg.concurrency), context);
  const { origin } = base;
  const services = cfg.judges.map((j) => j.service).join(',');
  context.log(
    2,
    `url=${origin} concurrency=${cfg.concurrency} services=${services} metrics=${cfg.which ?? 'none'}${options.window ? ` window=${options.window}` : ''}`,
  );
  context.log(2, session.cache ? `session cache: ${session.cache.file}` : 'session cache: off (--no-cache)');
  const judging: FleetJudging = {
    judges: cfg.judges,
    origin,
    context,
    after: (r) => withCacheState(r, session.cache, cfg.cacheUnusableState),
  };
  const collection = await collectFleet({
    ...session,
    selection: cfg.selection,
    which: cfg.which,
    hygiene: cfg.hygiene,
    concurrency: cfg.concurrency,
    cutoff: cutoffOf(context.deadline, handOver),
    judge: (vm, answer, { get }) => judgeFleetVm(judging, vm, answer, get),
  });
  const vms = collection.vms.map(
    (vm) => collection.judged.get(vm.id) ?? unreadFleetVm(judging, vm, unreadWords(collection.unread.get(vm.id), context, cfg.which ? 'metrics' : 'VM')),
  );
  for (const n of [...(session.cache?.notes ?? []), ...session.facts]) context.notes.add(n);
  return { cfg, vms, collection };
}

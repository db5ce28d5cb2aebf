// The fleet read and judged: what check_vm_fleet reports, and what a submission hands on.
import type { RunContext } from '../../lib/plugin/context';
import { collectFleet, NOT_REACHED, type FleetCollection } from '../../lib/vcd/fleet/fleet-collect';
import { judgeFleetVm, unreadFleetVm, type FleetJudging } from '../../lib/vcd/fleet/fleet-judge';
import type { FleetVmResult } from '../../lib/vcd/fleet/fleet-result';
import { sessionConfigFrom } from '../../lib/vcd/frame/session-options';
import { openVcdFrame } from '../../lib/vcd/frame/vcd-frame';
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
function unreadWords(why: string, context: RunContext, what: string): string {
  if (why === NOT_REACHED)
    return `${what} not read within -t ${context.timeoutSeconds}s by check_vm_fleet (raise -t or --concurrency, or split the fleet with --vapp)`;
  return `${what} not read by check_vm_fleet: ${why}`;
}

/** What one run read: the config, and how the collection went. */
export interface FleetRead {
  cfg: FleetCheckConfig;
  collection: FleetCollection;
}

/** Where each VM's three results go as soon as they are made (`index`: the VM's place in the list), and the moment all are. */
export interface FleetDelivery {
  deliver(vm: FleetVmResult, index: number): Promise<void> | void;
  /** Every selected VM delivered, before the session is closed. */
  collected?(collection: FleetCollection): void;
}

/**
 * Lists, reads and judges the fleet the options select, handing each VM's results to
 * `delivery` as they come (none are kept here). Login, TLS and list failures are CheckErrors
 * as in the single checks; VMs not read before the cut-off (kept ahead of -t) are delivered
 * after the others with `read: false`.
 */
export async function readFleet(options: FleetCheckOptions, context: RunContext, delivery: FleetDelivery, handOver = false): Promise<FleetRead> {
  const cfg = configureFleet(options);
  // The session's notes say the first service's threshold slip, as a single check's would, and the hygiene services' slips.
  const { base, thresholds } = cfg.session;
  const frame = openVcdFrame(
    { cacheUnusableState: cfg.cacheUnusableState, session: sessionConfigFrom(base, options, context, [thresholds.slip, ...cfg.slips], cfg.concurrency) },
    context,
  );
  const { session } = frame;
  const { origin } = base;
  const services = cfg.judges.map((j) => j.service).join(',');
  frame.start(
    `url=${origin} concurrency=${cfg.concurrency} services=${services} metrics=${cfg.which ?? 'none'}${options.window ? ` window=${options.window}` : ''}`,
  );
  const judging: FleetJudging = {
    judges: cfg.judges,
    origin,
    context,
    after: (r) => frame.finish(r),
    poweredOff: cfg.poweredOff,
  };
  const collection = await collectFleet({
    ...session,
    selection: cfg.selection,
    which: cfg.which,
    ask: cfg.ask,
    hygiene: cfg.hygiene,
    concurrency: cfg.concurrency,
    cutoff: cutoffOf(context.deadline, handOver),
    inFlightBytes: cfg.inFlightBytes,
    judge: (vm, answer, { get }) => judgeFleetVm(judging, vm, answer, get),
    unread: (vm, why) => unreadFleetVm(judging, vm, unreadWords(why, context, cfg.which ? 'metrics' : 'VM')),
    deliver: (result, _vm, index) => delivery.deliver(result, index),
    collected: delivery.collected,
  });
  frame.note();
  return { cfg, collection };
}

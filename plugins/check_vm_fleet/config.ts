// check_vm_fleet's options as its typed config: each service's config exactly as its single
// check makes it from the same options without their prefix.
import { UsageError } from '../../lib/plugin/errors';
import { positiveInteger } from '../../lib/plugin/options';
import type { State } from '../../lib/plugin/state';
import type { DiscoverySelection } from '../../lib/vcd/inventory/discovery';
import { askOf, unionAsk, type MetricsAsk, type MetricsKind } from '../../lib/vcd/vm/vm-metrics';
import { readPoweredOffStates } from '../../lib/vcd/inventory/inventory-states';
import { selectionFrom } from '../../lib/vcd/fleet/fleet-options';
import type { FleetJudge } from '../../lib/vcd/fleet/fleet-judge';
import { cacheUnusableStateFrom } from '../../lib/vcd/api/session-request';
import { configureVmCheck, type ProfileChoice } from '../../lib/vcd/vm/vm-config';
import type { VmCheckProfile } from '../../lib/vcd/vm/profile';
import type { FleetService } from '../../lib/vcd/fleet/fleet-result';
import { CPU_PROFILE } from '../check_vm_cpu/profile';
import { DISK_PROFILE } from '../check_vm_disk/profile';
import { MEM_PROFILE } from '../check_vm_mem/profile';
import { MAX_CONCURRENCY, type FleetCheckOptions } from './options';

export interface FleetCheckConfig {
  /** cpu, mem and disk, in that order. */
  judges: FleetJudge[];
  selection: DiscoverySelection;
  which: MetricsKind;
  /** What the three judgements read of each VM, asked in one request. */
  ask: MetricsAsk;
  concurrency: number;
  /** --max-bytes-in-flight: what the metrics documents under way may hold together. */
  inFlightBytes: number;
  cacheUnusableState: State;
  /** Each VM's powered-off state from the --inventory files (VMs not there: their judges' --powered-off-state). */
  poweredOff: ReadonlyMap<string, State>;
}

/** One service judged with its single check's config, made from this plugin's options under the service's prefix. */
function judgeOf(service: FleetService, profile: VmCheckProfile, options: FleetCheckOptions, choice: ProfileChoice): FleetJudge {
  const thresholds = { warning: options[`${service}-warning`], critical: options[`${service}-critical`] };
  const names = { warning: `--${service}-warning`, critical: `--${service}-critical` };
  return { service, profile, cfg: configureVmCheck(profile, { ...options, discovery: true, ...thresholds }, { ...choice, thresholdNames: names }) };
}

/** Validates the options once, before any request is made. */
export function configureFleet(options: FleetCheckOptions): FleetCheckConfig {
  const judges = [
    judgeOf('cpu', CPU_PROFILE, options, { metric: options['cpu-metric'], perDisk: false }),
    judgeOf('mem', MEM_PROFILE, options, { metric: '', perDisk: false }),
    judgeOf('disk', DISK_PROFILE, options, {
      metric: options['disk-metric'],
      perDisk: options['disk-per-disk'],
      alarmFullyAllocated: options['disk-alarm-fully-allocated'],
    }),
  ];
  const cacheUnusableState = cacheUnusableStateFrom(options);
  const concurrency = positiveInteger(options.concurrency, '--concurrency');
  if (concurrency > MAX_CONCURRENCY)
    throw new UsageError(`invalid --concurrency ${concurrency}: at most ${MAX_CONCURRENCY} (vCD limits simultaneous operations per user)`);
  return {
    judges,
    selection: selectionFrom(options),
    which: options.window === undefined ? 'current' : 'historic',
    ask: unionAsk(judges.map((j) => askOf(j.profile, j.cfg))),
    concurrency,
    inFlightBytes: positiveInteger(options['max-bytes-in-flight'], '--max-bytes-in-flight'),
    cacheUnusableState,
    poweredOff: readPoweredOffStates(options.inventory),
  };
}

// check_vm_fleet's options as its typed config: each service's config exactly as its single
// check makes it from the same options without their prefix, and which services --services selects.
import { UsageError } from '../../lib/plugin/errors';
import { positiveInteger } from '../../lib/plugin/options';
import type { State } from '../../lib/plugin/state';
import type { DiscoverySelection } from '../../lib/vcd/inventory/discovery';
import { askOf, unionAsk, type MetricsAsk, type MetricsKind } from '../../lib/vcd/vm/vm-metrics';
import { readPoweredOffStates } from '../../lib/vcd/inventory/inventory-states';
import { selectionFrom } from '../../lib/vcd/inventory/inventory-options';
import type { FleetJudge, MetricJudge } from '../../lib/vcd/fleet/fleet-judge';
import { cacheUnusableStateFrom } from '../../lib/vcd/frame/vcd-frame';
import { configureVmCheck, type ProfileChoice, type VmCheckConfig } from '../../lib/vcd/vm/vm-config';
import type { VmCheckProfile } from '../../lib/vcd/vm/profile';
import { FLEET_SERVICES, METRIC_SERVICES, type FleetService, type MetricService } from '../../lib/vcd/fleet/fleet-result';
import { configureLeases, configureSnapshots, configureTools } from '../../lib/vcd/hygiene/hygiene-options';
import { leaseService, snapshotService, toolsService } from '../../lib/vcd/hygiene/hygiene-service';
import { CPU_PROFILE } from '../check_vm_cpu/profile';
import { DISK_PROFILE } from '../check_vm_disk/profile';
import { MEM_PROFILE } from '../check_vm_mem/profile';
import { MAX_CONCURRENCY, type FleetCheckOptions } from './options';

export interface FleetCheckConfig {
  /** The services --services selects, in the order of FLEET_SERVICES. */
  judges: FleetJudge[];
  /** The session's and VM checks' config (check_vm_cpu's, made whatever --services says). */
  session: VmCheckConfig;
  selection: DiscoverySelection;
  /** The metrics read per VM; undefined when no metrics service is selected. */
  which?: MetricsKind;
  /** What the metrics services judge of each VM, asked in one request; undefined with which. */
  ask?: MetricsAsk;
  /** Whether the query records' hygiene attributes are kept (a hygiene service is selected). */
  hygiene: boolean;
  /** Notes on thresholds that can never show (a -w beyond its -c), said at -v. */
  slips: string[];
  concurrency: number;
  /** --max-bytes-in-flight: what the metrics documents under way may hold together. */
  inFlightBytes: number;
  cacheUnusableState: State;
  /** Each VM's powered-off state from the --inventory files (VMs not there: their judges' --powered-off-state). */
  poweredOff: ReadonlyMap<string, State>;
}

/** --services: names from FLEET_SERVICES, comma-separated, each once, in any order. */
export function parseServices(text: string): Set<FleetService> {
  const services = new Set<FleetService>();
  for (const word of text.split(',').map((w) => w.trim())) {
    const service = FLEET_SERVICES.find((s) => s === word);
    if (service === undefined)
      throw new UsageError(
        `invalid --services ${JSON.stringify(text.slice(0, 200))}: ${JSON.stringify(word.slice(0, 64))} is none of ${FLEET_SERVICES.join(', ')}`,
      );
    services.add(service);
  }
  return services;
}

/** One service judged with its single check's config, made from this plugin's options under the service's prefix. */
function judgeOf(service: MetricService, profile: VmCheckProfile, options: FleetCheckOptions, choice: ProfileChoice): MetricJudge {
  const thresholds = { warning: options[`${service}-warning`], critical: options[`${service}-critical`] };
  const names = { warning: `--${service}-warning`, critical: `--${service}-critical` };
  return { service, profile, cfg: configureVmCheck(profile, { ...options, discovery: true, ...thresholds }, { ...choice, thresholdNames: names }) };
}

/** Validates the options once, before any request is made. */
export function configureFleet(options: FleetCheckOptions): FleetCheckConfig {
  const selected = parseServices(options.services);
  // Every service's options are checked, selected or not: a typo fails now, not when the service is added.
  const metrics: MetricJudge[] = [
    judgeOf('cpu', CPU_PROFILE, options, { metric: options['cpu-metric'], perDisk: false }),
    judgeOf('mem', MEM_PROFILE, options, { metric: '', perDisk: false }),
    judgeOf('disk', DISK_PROFILE, options, {
      metric: options['disk-metric'],
      perDisk: options['disk-per-disk'],
      alarmFullyAllocated: options['disk-alarm-fully-allocated'],
    }),
  ];
  const { hygiene, slips } = hygieneJudges(options);
  const judges = [...metrics, ...hygiene].filter((j) => selected.has(j.service));
  const cacheUnusableState = cacheUnusableStateFrom(options);
  const concurrency = positiveInteger(options.concurrency, '--concurrency');
  if (concurrency > MAX_CONCURRENCY)
    throw new UsageError(`invalid --concurrency ${concurrency}: at most ${MAX_CONCURRENCY} (vCD limits simultaneous operations per user)`);
  const readsMetrics = METRIC_SERVICES.some((s) => selected.has(s));
  return {
    judges,
    session: metrics[0].cfg,
    selection: selectionFrom(options),
    ...(readsMetrics
      ? {
          which: options.window === undefined ? ('current' as const) : ('historic' as const),
          ask: unionAsk(metrics.filter((j) => selected.has(j.service)).map((j) => askOf(j.profile, j.cfg))),
        }
      : {}),
    hygiene: hygiene.some((j) => selected.has(j.service)),
    slips: slips.filter(({ service }) => selected.has(service)).map(({ text }) => text),
    concurrency,
    inFlightBytes: positiveInteger(options['max-bytes-in-flight'], '--max-bytes-in-flight'),
    cacheUnusableState,
    poweredOff: readPoweredOffStates(options.inventory),
  };
}

/**
 * The hygiene services as their single checks make them, from this plugin's options under each
 * service's prefix (--snapshot-age-warning is check_vm_snapshot's --age-warning); Tools follow
 * the VM checks' --powered-off-state, as check_vm_tools does. The lease sections are read once
 * per vApp in a run.
 */
function hygieneJudges(options: FleetCheckOptions): { hygiene: FleetJudge[]; slips: Array<{ service: FleetService; text: string }> } {
  const snapshots = configureSnapshots(
    {
      'age-warning': options['snapshot-age-warning'],
      'age-critical': options['snapshot-age-critical'],
      'size-warning': options['snapshot-size-warning'],
      'size-critical': options['snapshot-size-critical'],
      'count-warning': options['snapshot-count-warning'],
      'count-critical': options['snapshot-count-critical'],
    },
    (long) => `--snapshot-${long}`,
  );
  const tools = configureTools(
    {
      'outdated-state': options['tools-outdated-state'],
      'not-running-state': options['tools-not-running-state'],
      'powered-off-state': options['powered-off-state'],
    },
    (long) => `--tools-${long}`,
  );
  const leases = configureLeases({ warning: options['lease-warning'], critical: options['lease-critical'] }, (long) => `--lease-${long}`);
  return {
    hygiene: [
      { service: 'snapshot', hygiene: snapshotService(snapshots.thresholds) },
      { service: 'tools', hygiene: toolsService(tools) },
      { service: 'lease', hygiene: leaseService(leases.thresholds, new Map()) },
    ],
    slips: [
      ...snapshots.slips.map((text) => ({ service: 'snapshot' as const, text: `snapshot ${text}` })),
      ...leases.slips.map((text) => ({ service: 'lease' as const, text })),
    ],
  };
}

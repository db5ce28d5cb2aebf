// What one VM check reads and how it words its result (its profile), and what it is given to
// word it: the shape every VM check's folder fills in, and the rest of lib/vcd/vm reads.
import type { ValueParser } from '../../plugin/range';
import type { Result } from '../../plugin/result';
import type { Thresholds } from '../../plugin/threshold';
import type { MetricName } from './metrics';

/** What a profile is given to word its result. */
export interface Measurements {
  /** Values by metric name; a metric the server did not send is absent. */
  values: ReadonlyMap<MetricName, number>;
  /** The --metric chosen (the profile's first choice by default). */
  metric: string;
  /** -w/-c on the chosen metric: a `ScalarContext` gives its state and perfdata. */
  thresholds: Thresholds;
  /** `vm-<guid>`. */
  vm: string;
  /** `current`, or e.g. `avg 15m`. */
  mode: string;
  /** Per-disk values by disk number (as the server numbers them), for the profiles that read disks. */
  disks: ReadonlyMap<string, ReadonlyMap<MetricName, number>>;
  /** Whole-VM names the server did not send, summed from its per-disk values. */
  summed: readonly MetricName[];
  /** --per-disk: thresholds apply to each disk, the worst decides. */
  perDisk: boolean;
  /** --alarm-fully-allocated: fully allocated (thick) disks are judged by -w/-c too. */
  alarmFullyAllocated?: boolean;
}

/** What one VM check reads and how it words its result; the rest is shared. */
export interface VmCheckProfile {
  name: string;
  command: string;
  description: string;
  /** --metric choices, the default first (its folder declares the option); none: the check has one metric. */
  metrics?: readonly string[];
  /** Metric names the chosen --metric cannot do without (missing → UNKNOWN naming it). */
  needs(metric: string): MetricName[];
  /** Every metric name shown in perfdata (absent ones print as U). */
  reads: readonly MetricName[];
  /** Metrics that are zero while the VM is powered off (what it consumes): its perfdata then. */
  zeroWhenOff?: readonly MetricName[];
  /** Thresholds when -w/-c are not given: percentages default to 80/90. */
  defaultThresholds(metric: string): { warning?: string; critical?: string };
  /** Parses threshold numbers of the chosen metric (e.g. sizes such as 500G). */
  thresholdParser?(metric: string): ValueParser | undefined;
  thresholdHelp?: string;
  /** Turns the measurements into state, summary and perfdata. */
  evaluate(m: Measurements): Result;
  /** What to tell the admin when a needed metric is missing (e.g. memory needs VMware Tools). */
  missingHint?(name: MetricName): string | undefined;
  examples: readonly string[];
}

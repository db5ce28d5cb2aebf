import { HTTP_OPTIONS } from '../../http/options';
import { defineOptions, type OptionSpec, type OptionsOf, type PluginOptions } from '../../plugin/options';
import { thresholdOptions } from '../../plugin/scalar-context';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../api/connection-options';
import { FLEET_OPTIONS, type FleetOptions } from '../inventory/inventory-options';
import type { VmCheckProfile } from './profile';
import { AGGREGATES } from './window';

/** --vm: the one VM a check reads. */
export const VM_OPTION = {
  long: 'vm',
  type: 'string',
  arg: 'ID|NAME',
  description:
    "The VM: vm-<guid>, the bare GUID, urn:vcloud:vm:<guid>, the URL of the VM's page in the vCD web console, or the VM's name (resolved through the query service; see --vapp).",
} as const;

/** --powered-off-state: what a check that needs a running VM says of one that is not. */
export const POWERED_OFF_STATE_OPTION = {
  long: 'powered-off-state',
  type: 'string',
  arg: 'STATE',
  description: "State when the VM's record says it is powered off or suspended (OK, WARNING, CRITICAL, UNKNOWN; default UNKNOWN).",
} as const;

/** The vCD options of every VM check; the disk sizes' interval is named only where disks are read. */
export function vcdOptions(readsDisks: boolean) {
  return defineOptions([
    VCD_URL_OPTION,
    VM_OPTION,
    ...VCD_LOGIN_OPTIONS,
    {
      long: 'window',
      type: 'string',
      arg: 'DURATION',
      description:
        "Use the historic series over the last DURATION (with a unit: 900s, 15m, 1h; at least the series' interval, at most 24h) instead of current values.",
    },
    {
      long: 'aggregate',
      type: 'string',
      arg: 'FUNC',
      choices: AGGREGATES,
      description: 'With --window: how the samples are reduced to one value: avg (default), max, min or last.',
    },
    {
      long: 'max-age',
      type: 'string',
      arg: 'DURATION',
      description: `With --window: UNKNOWN when a needed series' newest sample is older (default 3 × the series' interval: 15m${readsDisks ? ', or 90m for disk sizes' : ''}).`,
    },
    POWERED_OFF_STATE_OPTION,
  ]);
}

/** `--metric`: which measurement -w/-c judge, among the profile's choices (the first by default). */
export function metricOption<const Choices extends readonly [string, ...string[]]>(choices: Choices, description: string) {
  return { long: 'metric', short: 'm', type: 'string', arg: 'NAME', default: choices[0], choices, description } as const;
}

/** `--per-disk`, for the profiles that read disks. */
export const PER_DISK_OPTION = {
  long: 'per-disk',
  type: 'boolean',
  description: 'Apply -w/-c to each disk (as vCD numbers them) instead of the whole VM; the worst disk decides. Per-disk perfdata is added.',
} as const;

/** `default 90` or `default 90 for percent; none for used, read, write`: the profile's own defaults. */
function defaultRangeHelp(profile: VmCheckProfile, which: 'warning' | 'critical'): string {
  const byDefault = new Map<string, string[]>();
  for (const m of profile.metrics ?? ['']) {
    const d = profile.defaultThresholds(m)[which] ?? 'none';
    byDefault.set(d, [...(byDefault.get(d) ?? []), m]);
  }
  if (byDefault.size === 1) return `default ${[...byDefault.keys()][0]}`;
  return `default ${[...byDefault].map(([d, ms]) => `${d} for ${ms.join(', ')}`).join('; ')}`;
}

/** What a profile's result depends on beside the shared options: its own (`--metric`, `--per-disk`) and -w/-c. */
export function profileOptions<const Own extends readonly OptionSpec[]>(profile: VmCheckProfile, own: Own) {
  return defineOptions([
    ...own,
    ...thresholdOptions({
      warning: profile.thresholdHelp ?? 'Warning range (default 80).',
      critical: `Critical range (${defaultRangeHelp(profile, 'critical')}).`,
    }),
  ]);
}

/** The options of one VM check: the shared ones around the profile's own (`--metric`, `--per-disk`), in --help order. */
export function vmCheckOptions<const Own extends readonly OptionSpec[]>(profile: VmCheckProfile, own: Own) {
  return defineOptions([...vcdOptions(profile.reads.some((r) => r.startsWith('disk.'))), ...FLEET_OPTIONS, ...profileOptions(profile, own), ...HTTP_OPTIONS]);
}

/** The options every VM check has, as parsed (the profile's own come beside them). */
export type VmCheckOptions = PluginOptions<ReturnType<typeof vmCheckOptions<readonly []>>>;

/** The options of the VM session (where, who, cache, TLS) and of judging (window, powered-off state), as parsed. */
export type VmSessionOptions = Omit<OptionsOf<ReturnType<typeof vcdOptions>>, 'vm'> &
  OptionsOf<typeof HTTP_OPTIONS> &
  Pick<FleetOptions, 'max-vms' | 'api-version' | 'tenant-org'>;

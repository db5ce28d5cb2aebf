// What check_vdc and check_pvdc share, the two checks of capacity: CPU, memory and storage, each
// with a -w/-c pair of its own in percent of a whole (the plugin-wide -w/-c when not given, else
// 80/90), and --discovery of the objects they judge into an inventory.
import { defineOptions, type OptionsOf } from '../../plugin/options';
import { ScalarContext, thresholdOptions } from '../../plugin/scalar-context';
import { parseDiscoveryFormat, type DiscoveryFormat } from '../inventory/discovery';
import {
  discoveryFilesFrom,
  discoveryOutputOptions,
  inventoryOutputFrom,
  type DiscoveryFiles,
  type FleetOptions,
  type InventoryOutput,
} from '../inventory/inventory-options';

/** The resources a capacity check judges, in the order they are said. */
export const CAPACITY_RESOURCES = ['cpu', 'memory', 'storage'] as const;
export type CapacityResource = (typeof CAPACITY_RESOURCES)[number];

/** How a capacity check's --help words its whole: `the VDC's limit` for a warning, `the limit` for a critical, and a note after the warning's. */
export interface CapacityWords {
  warning: string;
  critical: string;
  note?: string;
}

/** A resource's -w/-c pair in percent of the whole `of` words. */
function resourceThresholds<const R extends CapacityResource>(resource: R, what: string, of: CapacityWords) {
  return [
    {
      long: `${resource}-warning`,
      type: 'string',
      arg: 'RANGE',
      description: `Warning range of ${what} in percent of ${of.warning} (default -w, else 80).${of.note ?? ''}`,
    },
    {
      long: `${resource}-critical`,
      type: 'string',
      arg: 'RANGE',
      description: `Critical range of ${what} in percent of ${of.critical} (default -c, else 90).`,
    },
  ] as const;
}

/** -w/-c for the three resources alike (their --help words), then each resource's own pair, `what` naming each. */
export function capacityThresholdOptions(all: { warning: string; critical: string }, what: Record<CapacityResource, string>, of: CapacityWords) {
  return defineOptions([
    ...thresholdOptions(all),
    ...resourceThresholds('cpu', what.cpu, of),
    ...resourceThresholds('memory', what.memory, of),
    ...resourceThresholds('storage', what.storage, of),
  ]);
}

/** --discovery, described by `lists`, then where and how the inventory is written (`formats` describes --discovery-format). */
export function capacityDiscoveryOptions(lists: string, formats: string) {
  return defineOptions([{ long: 'discovery', type: 'boolean', description: lists }, ...discoveryOutputOptions(formats)]);
}

/** A capacity check's thresholds as parsed. */
export type CapacityThresholdOptions = OptionsOf<ReturnType<typeof capacityThresholdOptions>>;

/** Each resource's thresholds, and the notes for -v about them (a -w that alerts later than its -c). */
export interface CapacityThresholds {
  thresholds: Record<CapacityResource, ScalarContext>;
  slips: string[];
}

/**
 * Each resource's thresholds: its own options, else -w/-c, else 80/90. `namedInErrors`: a bad
 * range is named by its own option (--cpu-warning) rather than as -w/-c.
 */
export function capacityThresholdsFrom(options: CapacityThresholdOptions, namedInErrors: boolean): CapacityThresholds {
  const of = (resource: CapacityResource) =>
    ScalarContext.fromOptions(
      { warning: options[`${resource}-warning`] ?? options.warning ?? '80', critical: options[`${resource}-critical`] ?? options.critical ?? '90' },
      undefined,
      namedInErrors ? { warning: `--${resource}-warning`, critical: `--${resource}-critical` } : undefined,
    );
  const thresholds = { cpu: of('cpu'), memory: of('memory'), storage: of('storage') };
  const slips = CAPACITY_RESOURCES.flatMap((r) => {
    const slip = thresholds[r].slip;
    return slip === undefined ? [] : [`${r}: ${slip}`];
  });
  return { thresholds, slips };
}

/** What --discovery of a capacity check writes: its format (none without --discovery), the files the inventory names and where it goes. */
export interface CapacityDiscovery {
  discovery?: DiscoveryFormat;
  inventory: { files: DiscoveryFiles; output: InventoryOutput };
}

/** --discovery, --discovery-format, --discovery-file, --allow-shrink and the files the inventory names, as read. */
export function capacityDiscoveryFrom(
  options: Pick<FleetOptions, 'discovery' | 'discovery-format' | 'discovery-file' | 'allow-shrink'> & Parameters<typeof discoveryFilesFrom>[0],
): CapacityDiscovery {
  return {
    discovery: options.discovery ? parseDiscoveryFormat(options['discovery-format']) : undefined,
    inventory: { files: discoveryFilesFrom(options), output: inventoryOutputFrom(options) },
  };
}

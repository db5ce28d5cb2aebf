import { ScalarContext } from '../../lib/plugin/scalar-context';
import { parseObjectTarget, type ObjectTarget } from '../../lib/vcd/api/ids';
import { parseDiscoveryFormat, type DiscoveryFormat } from '../../lib/vcd/inventory/discovery';
import { discoveryFilesFrom, inventoryOutputFrom, type DiscoveryFiles, type InventoryOutput } from '../../lib/vcd/inventory/inventory-options';
import type { VdcThresholds } from '../../lib/vcd/vdc/vdc-report';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { VdcOptions } from './options';

/** Everything check_vdc's options say, validated before the first request. */
export interface VdcConfig {
  base: URL;
  /** Undefined: every VDC the account sees. */
  vdc?: ObjectTarget;
  thresholds: VdcThresholds;
  /** Notes for -v about the thresholds (a -w that alerts later than its -c). */
  slips: string[];
  discovery?: DiscoveryFormat;
  /** What --discovery's output names and where it goes (--discovery-file, --allow-shrink). */
  inventory: { files: DiscoveryFiles; output: InventoryOutput };
}

/** One resource's thresholds: its own options, else -w/-c, else 80/90. */
function thresholdsOf(options: VdcOptions, resource: 'cpu' | 'memory' | 'storage'): ScalarContext {
  return ScalarContext.fromOptions({
    warning: options[`${resource}-warning`] ?? options.warning ?? '80',
    critical: options[`${resource}-critical`] ?? options.critical ?? '90',
  });
}

/** The options of check_vdc as its config. */
export function configureVdc(options: VdcOptions): VdcConfig {
  const thresholds: VdcThresholds = { cpu: thresholdsOf(options, 'cpu'), memory: thresholdsOf(options, 'memory'), storage: thresholdsOf(options, 'storage') };
  const slips = (['cpu', 'memory', 'storage'] as const).flatMap((r) => {
    const slip = thresholds[r].slip;
    return slip === undefined ? [] : [`${r}: ${slip}`];
  });
  return {
    base: baseUrl(options.url),
    // --vdc: a UUID, its URN, an API href or the URL of the VDC's page in the tenant portal (`…/vdcs/<uuid>/…`); else a name.
    vdc: options.vdc === undefined ? undefined : parseObjectTarget(options.vdc, { option: '--vdc', urn: 'vdc', segment: 'vdc', noun: 'VDC' }),
    thresholds,
    slips,
    discovery: options.discovery ? parseDiscoveryFormat(options['discovery-format']) : undefined,
    inventory: { files: discoveryFilesFrom(options), output: inventoryOutputFrom(options) },
  };
}

import { UsageError } from '../../lib/plugin/errors';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import { parseDiscoveryFormat, type DiscoveryFormat } from '../../lib/vcd/inventory/discovery';
import { discoveryFilesFrom, inventoryOutputFrom, type DiscoveryFiles, type InventoryOutput } from '../../lib/vcd/inventory/inventory-options';
import type { VdcThresholds } from '../../lib/vcd/vdc/vdc-report';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { VdcOptions } from './options';

/** The VDC of --vdc: by its UUID, or by name. */
export type VdcTarget = { kind: 'id'; id: string } | { kind: 'name'; name: string };

/** Everything check_vdc's options say, validated before the first request. */
export interface VdcConfig {
  base: URL;
  /** Undefined: every VDC the account sees. */
  vdc?: VdcTarget;
  thresholds: VdcThresholds;
  /** Notes for -v about the thresholds (a -w that alerts later than its -c). */
  slips: string[];
  discovery?: DiscoveryFormat;
  /** What --discovery's output names and where it goes (--discovery-file, --allow-shrink). */
  inventory: { files: DiscoveryFiles; output: InventoryOutput };
}

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/**
 * --vdc: a UUID, `urn:vcloud:vdc:<uuid>`, an API href (`…/api/vdc/<uuid>`) or the URL of the
 * VDC's page in the tenant portal (`…/vdcs/<uuid>/…`); anything else is a name.
 */
export function parseVdcTarget(text: string): VdcTarget {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError('--vdc is empty: give the VDC name or its UUID');
  const bare = new RegExp(`^(?:urn:vcloud:vdc:)?${UUID.source}$`, 'i').exec(trimmed);
  if (bare) return { kind: 'id', id: bare[1].toLowerCase() };
  const inUrl = new RegExp(`^https?://[^\\s]*/vdcs?/${UUID.source}(?:[/?#].*)?$`, 'i').exec(trimmed);
  if (inUrl) return { kind: 'id', id: inUrl[1].toLowerCase() };
  return { kind: 'name', name: text };
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
    vdc: options.vdc === undefined ? undefined : parseVdcTarget(options.vdc),
    thresholds,
    slips,
    discovery: options.discovery ? parseDiscoveryFormat(options['discovery-format']) : undefined,
    inventory: { files: discoveryFilesFrom(options), output: inventoryOutputFrom(options) },
  };
}

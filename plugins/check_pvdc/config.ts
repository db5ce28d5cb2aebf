import { UsageError } from '../../lib/plugin/errors';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import { parseDiscoveryFormat, type DiscoveryFormat } from '../../lib/vcd/inventory/discovery';
import { discoveryFilesFrom, inventoryOutputFrom, type DiscoveryFiles, type InventoryOutput } from '../../lib/vcd/inventory/inventory-options';
import type { Basis, PvdcTarget } from '../../lib/vcd/pvdc/pvdc-probe';
import type { PvdcThresholds } from '../../lib/vcd/pvdc/pvdc-report';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { PvdcOptions } from './options';

/** Everything check_pvdc's options say, validated before the first request. */
export interface PvdcConfig {
  base: URL;
  /** Undefined: every provider VDC. */
  pvdc?: PvdcTarget;
  basis: Basis;
  thresholds: PvdcThresholds;
  /** Notes for -v about the thresholds (a -w that alerts later than its -c). */
  slips: string[];
  discovery?: DiscoveryFormat;
  /** What --discovery's output names and where it goes (--discovery-file, --allow-shrink). */
  inventory: { files: DiscoveryFiles; output: InventoryOutput };
}

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/** --pvdc: a UUID, `urn:vcloud:providervdc:<uuid>`, an API href (`…/providervdc/<uuid>`); anything else is a name. */
export function parsePvdcTarget(text: string): PvdcTarget {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError('--pvdc is empty: give the provider VDC name or its UUID');
  const bare = new RegExp(`^(?:urn:vcloud:providervdc:)?${UUID.source}$`, 'i').exec(trimmed);
  if (bare) return { kind: 'id', id: bare[1].toLowerCase() };
  const inUrl = new RegExp(`^https?://[^\\s]*/providervdcs?/${UUID.source}(?:[/?#].*)?$`, 'i').exec(trimmed);
  if (inUrl) return { kind: 'id', id: inUrl[1].toLowerCase() };
  return { kind: 'name', name: text };
}

function parseBasis(text: string): Basis {
  if (text === 'used' || text === 'allocated' || text === 'reserved') return text;
  throw new UsageError(`invalid --basis ${JSON.stringify(text)}: expected used, allocated or reserved`);
}

/** One resource's thresholds: its own options, else -w/-c, else 80/90. */
function thresholdsOf(options: PvdcOptions, resource: 'cpu' | 'memory' | 'storage'): ScalarContext {
  return ScalarContext.fromOptions(
    { warning: options[`${resource}-warning`] ?? options.warning ?? '80', critical: options[`${resource}-critical`] ?? options.critical ?? '90' },
    undefined,
    { warning: `--${resource}-warning`, critical: `--${resource}-critical` },
  );
}

/** The options of check_pvdc as its config. */
export function configurePvdc(options: PvdcOptions): PvdcConfig {
  const thresholds: PvdcThresholds = { cpu: thresholdsOf(options, 'cpu'), memory: thresholdsOf(options, 'memory'), storage: thresholdsOf(options, 'storage') };
  const slips = (['cpu', 'memory', 'storage'] as const).flatMap((r) => {
    const slip = thresholds[r].slip;
    return slip === undefined ? [] : [`${r}: ${slip}`];
  });
  return {
    base: baseUrl(options.url),
    pvdc: options.pvdc === undefined ? undefined : parsePvdcTarget(options.pvdc),
    basis: parseBasis(options.basis),
    thresholds,
    slips,
    discovery: options.discovery ? parseDiscoveryFormat(options['discovery-format']) : undefined,
    inventory: { files: discoveryFilesFrom(options), output: inventoryOutputFrom(options) },
  };
}

import { UsageError } from '../../lib/plugin/errors';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import { parseObjectTarget } from '../../lib/vcd/api/ids';
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
    // --pvdc: a UUID, `urn:vcloud:providervdc:<uuid>` or an API href (`…/providervdc/<uuid>`); else a name.
    pvdc:
      options.pvdc === undefined
        ? undefined
        : parseObjectTarget(options.pvdc, { option: '--pvdc', urn: 'providervdc', segment: 'providervdc', noun: 'provider VDC' }),
    basis: parseBasis(options.basis),
    thresholds,
    slips,
    discovery: options.discovery ? parseDiscoveryFormat(options['discovery-format']) : undefined,
    inventory: { files: discoveryFilesFrom(options), output: inventoryOutputFrom(options) },
  };
}

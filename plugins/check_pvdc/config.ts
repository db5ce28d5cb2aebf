import { UsageError } from '../../lib/plugin/errors';
import { parseObjectTarget } from '../../lib/vcd/api/ids';
import type { Basis, PvdcTarget } from '../../lib/vcd/pvdc/pvdc-probe';
import type { PvdcThresholds } from '../../lib/vcd/pvdc/pvdc-report';
import { capacityDiscoveryFrom, capacityThresholdsFrom, type CapacityDiscovery } from '../../lib/vcd/vdc/capacity-check';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { PvdcOptions } from './options';

/** Everything check_pvdc's options say, validated before the first request. */
export interface PvdcConfig extends CapacityDiscovery {
  base: URL;
  /** Undefined: every provider VDC. */
  pvdc?: PvdcTarget;
  basis: Basis;
  thresholds: PvdcThresholds;
  /** Notes for -v about the thresholds (a -w that alerts later than its -c). */
  slips: string[];
}

function parseBasis(text: string): Basis {
  if (text === 'used' || text === 'allocated' || text === 'reserved') return text;
  throw new UsageError(`invalid --basis ${JSON.stringify(text)}: expected used, allocated or reserved`);
}

/** The options of check_pvdc as its config. */
export function configurePvdc(options: PvdcOptions): PvdcConfig {
  const { thresholds, slips } = capacityThresholdsFrom(options, true);
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
    ...capacityDiscoveryFrom(options),
  };
}

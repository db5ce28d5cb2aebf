import { parseObjectTarget, type ObjectTarget } from '../../lib/vcd/api/ids';
import { capacityDiscoveryFrom, capacityThresholdsFrom, type CapacityDiscovery } from '../../lib/vcd/vdc/capacity-check';
import type { VdcThresholds } from '../../lib/vcd/vdc/vdc-report';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { VdcOptions } from './options';

/** Everything check_vdc's options say, validated before the first request. */
export interface VdcConfig extends CapacityDiscovery {
  base: URL;
  /** Undefined: every VDC the account sees. */
  vdc?: ObjectTarget;
  thresholds: VdcThresholds;
  /** Notes for -v about the thresholds (a -w that alerts later than its -c). */
  slips: string[];
}

/** The options of check_vdc as its config. */
export function configureVdc(options: VdcOptions): VdcConfig {
  const { thresholds, slips } = capacityThresholdsFrom(options, false);
  return {
    base: baseUrl(options.url),
    // --vdc: a UUID, its URN, an API href or the URL of the VDC's page in the tenant portal (`…/vdcs/<uuid>/…`); else a name.
    vdc: options.vdc === undefined ? undefined : parseObjectTarget(options.vdc, { option: '--vdc', urn: 'vdc', segment: 'vdc', noun: 'VDC' }),
    thresholds,
    slips,
    ...capacityDiscoveryFrom(options),
  };
}

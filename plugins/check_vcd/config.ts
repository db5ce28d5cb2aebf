import { ScalarContext } from '../../lib/plugin/scalar-context';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { ServiceOptions } from './options';

/** Everything check_vcd's options say, validated before the first request. */
export interface ServiceConfig {
  base: URL;
  /** -w/-c on the slowest answer, in seconds. */
  times: ScalarContext;
  /** A note for -v when -w alerts later than -c. */
  slip?: string;
}

/** The options of check_vcd as its config. */
export function configureService(options: ServiceOptions): ServiceConfig {
  const times = ScalarContext.fromOptions({ warning: options.warning ?? '5', critical: options.critical ?? '10' });
  return { base: baseUrl(options.url), times, slip: times.slip === undefined ? undefined : `times: ${times.slip}` };
}

import { CLUSTER_OPTIONS } from '../../lib/cluster/target';
import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { thresholdOptions } from '../../lib/plugin/scalar-context';

/** The options of check_apiserver, in --help order. */
export const APISERVER_OPTIONS = defineOptions([
  ...CLUSTER_OPTIONS,
  ...HTTP_OPTIONS,
  ...thresholdOptions({
    warning: 'Range of seconds /readyz and /livez may each take (e.g. 0.8); WARNING outside it.',
    critical: 'Range of seconds /readyz and /livez may each take (e.g. 2); CRITICAL outside it.',
  }),
]);

/** check_apiserver's options as parsed. */
export type ApiServerOptions = PluginOptions<typeof APISERVER_OPTIONS>;

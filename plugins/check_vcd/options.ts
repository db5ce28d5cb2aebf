import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { thresholdOptions } from '../../lib/plugin/scalar-context';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../lib/vcd/api/connection-options';

/**
 * The options of check_vcd, in --help order. The session cache options are accepted, so that one
 * --extra-opts section serves every vCD check, and ignored: every run proves a fresh login.
 */
export const SERVICE_OPTIONS = defineOptions([
  VCD_URL_OPTION,
  ...VCD_LOGIN_OPTIONS,
  ...thresholdOptions({
    warning: 'Warning range of the slowest answer (versions, login, session), in seconds (default 5).',
    critical: 'Critical range of the slowest answer, in seconds (default 10).',
  }),
  ...HTTP_OPTIONS,
]);

/** check_vcd's options as parsed. */
export type ServiceOptions = PluginOptions<typeof SERVICE_OPTIONS>;

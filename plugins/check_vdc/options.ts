import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { thresholdOptions } from '../../lib/plugin/scalar-context';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../lib/vcd/api/connection-options';
import { discoveryOutputOptions, MAX_VMS_OPTION } from '../../lib/vcd/inventory/inventory-options';

/** A resource's -w/-c pair in percent of its limit (the plugin-wide -w/-c when not given, else 80/90). */
function resourceThresholds<const R extends string>(resource: R, what: string) {
  return [
    {
      long: `${resource}-warning`,
      type: 'string',
      arg: 'RANGE',
      description: `Warning range of ${what} in percent of the VDC's limit (default -w, else 80). No limit (0, pay-as-you-go): not judged.`,
    },
    { long: `${resource}-critical`, type: 'string', arg: 'RANGE', description: `Critical range of ${what} in percent of the limit (default -c, else 90).` },
  ] as const;
}

/** The options of check_vdc, in --help order. */
export const VDC_OPTIONS = defineOptions([
  VCD_URL_OPTION,
  {
    long: 'vdc',
    type: 'string',
    arg: 'NAME|ID',
    description:
      "The one VDC to check: its name, its UUID, urn:vcloud:vdc:<uuid>, or the URL of its page in the tenant portal. Default: every VDC the account sees (with --tenant-org, that organisation's).",
  },
  {
    long: 'tenant-org',
    type: 'string',
    arg: 'NAME',
    description: 'With a provider account (--org System): only the VDCs of this organisation. A tenant account sees only its own.',
  },
  ...VCD_LOGIN_OPTIONS,
  ...thresholdOptions({
    warning: 'Warning range for CPU, memory and storage alike, in percent of each limit (default 80); the options below override it per resource.',
    critical: 'Critical range for CPU, memory and storage alike (default 90).',
  }),
  ...resourceThresholds('cpu', 'the CPU used (MHz)'),
  ...resourceThresholds('memory', 'the memory used'),
  ...resourceThresholds('storage', "each storage policy's use"),
  {
    long: 'discovery',
    type: 'boolean',
    description: 'List the VDCs the account sees (with --tenant-org, of that organisation) and exit 0, in --discovery-format.',
  },
  ...discoveryOutputOptions(
    'zabbix: low-level discovery JSON [{"{#VDC.ID}":…,"{#VDC.NAME}":…,"{#VDC.ORG}":…}]; icinga2: an object Host per VDC (template cloudchecks-vcd-vdc of contrib/icinga2/vdc-discovery.conf); nagios: a define host per VDC (contrib/nagios/vdc-discovery.cfg).',
  ),
  MAX_VMS_OPTION,
  ...HTTP_OPTIONS,
]);

/** check_vdc's options as parsed. */
export type VdcOptions = PluginOptions<typeof VDC_OPTIONS>;

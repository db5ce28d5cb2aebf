import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../lib/vcd/api/connection-options';
import { MAX_VMS_OPTION } from '../../lib/vcd/inventory/inventory-options';
import { capacityDiscoveryOptions, capacityThresholdOptions } from '../../lib/vcd/vdc/capacity-check';

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
  ...capacityThresholdOptions(
    {
      warning: 'Warning range for CPU, memory and storage alike, in percent of each limit (default 80); the options below override it per resource.',
      critical: 'Critical range for CPU, memory and storage alike (default 90).',
    },
    { cpu: 'the CPU used (MHz)', memory: 'the memory used', storage: "each storage policy's use" },
    { warning: "the VDC's limit", critical: 'the limit', note: ' No limit (0, pay-as-you-go): not judged.' },
  ),
  ...capacityDiscoveryOptions(
    'List the VDCs the account sees (with --tenant-org, of that organisation) and exit 0, in --discovery-format.',
    'zabbix: low-level discovery JSON [{"{#VDC.ID}":…,"{#VDC.NAME}":…,"{#VDC.ORG}":…}]; icinga2: an object Host per VDC (template cloudchecks-vcd-vdc of contrib/icinga2/vdc-discovery.conf); nagios: a define host per VDC (contrib/nagios/vdc-discovery.cfg).',
  ),
  MAX_VMS_OPTION,
  ...HTTP_OPTIONS,
]);

/** check_vdc's options as parsed. */
export type VdcOptions = PluginOptions<typeof VDC_OPTIONS>;

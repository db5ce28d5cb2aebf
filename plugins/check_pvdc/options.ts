import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { thresholdOptions } from '../../lib/plugin/scalar-context';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../lib/vcd/api/connection-options';
import { discoveryOutputOptions } from '../../lib/vcd/inventory/inventory-options';

/** A resource's -w/-c pair in percent of capacity (the plugin-wide -w/-c when not given, else 80/90). */
function resourceThresholds<const R extends string>(resource: R, what: string) {
  return [
    {
      long: `${resource}-warning`,
      type: 'string',
      arg: 'RANGE',
      description: `Warning range of ${what} in percent of the provider VDC's capacity (default -w, else 80).`,
    },
    { long: `${resource}-critical`, type: 'string', arg: 'RANGE', description: `Critical range of ${what} in percent of capacity (default -c, else 90).` },
  ] as const;
}

/** The options of check_pvdc, in --help order. */
export const PVDC_OPTIONS = defineOptions([
  VCD_URL_OPTION,
  {
    long: 'pvdc',
    type: 'string',
    arg: 'NAME|ID',
    description: 'The one provider VDC to check: its name, its UUID, urn:vcloud:providervdc:<uuid> or its API href. Default: every provider VDC.',
  },
  ...VCD_LOGIN_OPTIONS,
  {
    long: 'basis',
    type: 'string',
    arg: 'WORD',
    default: 'used',
    choices: ['used', 'allocated', 'reserved'],
    description:
      'What is judged against capacity: used (what the VMs use: cpuUsedMhz, memoryUsedMB, storageUsedMB), allocated (what the org VDCs were given: cpuAllocationMhz, memoryAllocationMB, storageAllocatedMB or storageRequestedMB) or reserved (ComputeCapacity Reserved of each provider VDC document: one more request per provider VDC; storage has no reservation and stays on used).',
  },
  ...thresholdOptions({
    warning: 'Warning range for CPU, memory and storage alike, in percent of capacity (default 80); the options below override it per resource.',
    critical: 'Critical range for CPU, memory and storage alike (default 90).',
  }),
  ...resourceThresholds('cpu', 'the CPU (MHz)'),
  ...resourceThresholds('memory', 'the memory'),
  ...resourceThresholds('storage', "each provider storage policy's storage"),
  { long: 'discovery', type: 'boolean', description: 'List the provider VDCs and exit 0, in --discovery-format.' },
  ...discoveryOutputOptions(
    'zabbix: low-level discovery JSON [{"{#PVDC.ID}":…,"{#PVDC.NAME}":…}]; icinga2: an object Host per provider VDC (template cloudchecks-vcd-pvdc of contrib/icinga2/vcd-service.conf); nagios: a define host per provider VDC (contrib/nagios/vcd-service.cfg).',
  ),
  ...HTTP_OPTIONS,
]);

/** check_pvdc's options as parsed. */
export type PvdcOptions = PluginOptions<typeof PVDC_OPTIONS>;

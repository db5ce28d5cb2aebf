import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../lib/vcd/api/connection-options';
import { capacityDiscoveryOptions, capacityThresholdOptions } from '../../lib/vcd/vdc/capacity-check';

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
  ...capacityThresholdOptions(
    {
      warning: 'Warning range for CPU, memory and storage alike, in percent of capacity (default 80); the options below override it per resource.',
      critical: 'Critical range for CPU, memory and storage alike (default 90).',
    },
    { cpu: 'the CPU (MHz)', memory: 'the memory', storage: "each provider storage policy's storage" },
    { warning: "the provider VDC's capacity", critical: 'capacity' },
  ),
  ...capacityDiscoveryOptions(
    'List the provider VDCs and exit 0, in --discovery-format.',
    'zabbix: low-level discovery JSON [{"{#PVDC.ID}":…,"{#PVDC.NAME}":…}]; icinga2: an object Host per provider VDC (template cloudchecks-vcd-pvdc of contrib/icinga2/vcd-service.conf); nagios: a define host per provider VDC (contrib/nagios/vcd-service.cfg).',
  ),
  ...HTTP_OPTIONS,
]);

/** check_pvdc's options as parsed. */
export type PvdcOptions = PluginOptions<typeof PVDC_OPTIONS>;

// check_vm_fleet's options: the VM checks' session and judging options as they are, the
// discovery's selection, and each single check's own options (-w/-c, --metric, --per-disk …)
// under its prefix, taken from the check's own specs.
import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, optionNamed, prefixOptions, type OptionSpec, type PluginOptions } from '../../lib/plugin/options';
import { FLEET_OPTIONS } from '../../lib/vcd/inventory/inventory-options';
import { profileOptions, vcdOptions } from '../../lib/vcd/vm/vm-options';
import { SUBMIT_OPTIONS } from '../../lib/submit/options';
import type { VmCheckProfile } from '../../lib/vcd/vm/profile';
import { CPU_OPTIONS, CPU_PROFILE } from '../check_vm_cpu/profile';
import { DISK_OPTIONS, DISK_PROFILE } from '../check_vm_disk/profile';
import { MEM_PROFILE } from '../check_vm_mem/profile';
import { LEASE_OPTIONS, SNAPSHOT_OPTIONS, TOOLS_OPTIONS } from '../../lib/vcd/hygiene/hygiene-options';
import { FLEET_SERVICES, METRIC_SERVICES } from '../../lib/vcd/fleet/fleet-result';

/** Requests under way at once by default: see docs/scaling.md for the measurement behind it. */
export const DEFAULT_CONCURRENCY = 16;
/** More at once than any vCD cell allows one user: a typo, not a choice. */
export const MAX_CONCURRENCY = 256;
/** What the metrics documents under way may hold together by default: see docs/scaling.md. */
export const DEFAULT_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/**
 * A single check's option as this plugin takes it: `--cpu-warning` says it is check_vm_cpu's
 * --warning, and the check's own options named in its text are named as this plugin takes them.
 */
const describedAs = (profile: VmCheckProfile, prefix: string) => (spec: OptionSpec) =>
  `${profile.command}'s --${spec.long}: ${spec.description
    .replace(/--(metric|per-disk|alarm-fully-allocated)\b/g, `--${prefix}-$1`)
    .replace(/-w\/-c\b/g, `--${prefix}-warning/--${prefix}-critical`)}`;

/** A hygiene check's option as this plugin takes it: `--lease-warning` says it is check_vm_lease's -w/--warning. */
const hygieneDescribedAs = (command: string, prefix: string) => (spec: OptionSpec) =>
  `With --services ${prefix}: ${command}'s ${spec.short ? `-${spec.short}/` : ''}--${spec.long}: ${spec.description}`;

/** The shared vCD options but --vm: the fleet is every VM of the selection. */
const SESSION_OPTIONS = vcdOptions(true).filter((o): o is Exclude<typeof o, { long: 'vm' }> => o.long !== 'vm');

/** The selection: the same options, with the same meaning, as the VM checks' --discovery. */
const SELECTION_OPTIONS = defineOptions([
  { ...optionNamed(FLEET_OPTIONS, 'vapp'), description: 'Only the VMs of this vApp (as --discovery --vapp).' },
  { ...optionNamed(FLEET_OPTIONS, 'include'), description: 'Only VMs whose name matches (as --discovery --include).' },
  { ...optionNamed(FLEET_OPTIONS, 'exclude'), description: 'Skip VMs whose name matches (as --discovery --exclude).' },
  {
    ...optionNamed(FLEET_OPTIONS, 'tenant-org'),
    description:
      'With a provider account (--org System), which reads the VMs of every organisation: only this organisation (as --discovery --tenant-org). Refused with a tenant account.',
  },
  {
    ...optionNamed(FLEET_OPTIONS, 'max-vms'),
    description: 'UNKNOWN when the query service lists more VMs than this (a broken or hostile server cannot exhaust memory).',
  },
]);

/** The options of check_vm_fleet, in --help order. */
export const FLEET_CHECK_OPTIONS = defineOptions([
  ...SESSION_OPTIONS,
  ...SELECTION_OPTIONS,
  {
    long: 'concurrency',
    type: 'number',
    arg: 'N',
    default: DEFAULT_CONCURRENCY,
    description: `Metrics requests under way at once, over as many kept-alive connections (default ${DEFAULT_CONCURRENCY}). When vCD answers OPERATION_LIMITS_EXCEEDED, fewer are sent and the refused VMs are asked again within -t.`,
  },
  {
    long: 'max-bytes-in-flight',
    type: 'number',
    arg: 'BYTES',
    default: DEFAULT_IN_FLIGHT_BYTES,
    description: `What the metrics documents under way may hold together (default ${DEFAULT_IN_FLIGHT_BYTES}, 64 MiB): each may be at most this divided by --concurrency (and --max-bytes), e.g. 4 MiB at the default 16; a VM whose document is larger is not read, and named in the long output. Memory stays bounded whatever the server sends.`,
  },
  {
    long: 'inventory',
    type: 'list',
    arg: 'PATH',
    description:
      "An inventory the VM checks' --discovery wrote (icinga2 or nagios format; repeat for several): a VM whose host there carries a powered-off state (the discovery's --powered-off-state) is judged in that state when it is powered off or suspended, as the engine's own VM checks would judge it; the other VMs in --powered-off-state.",
  },
  {
    long: 'compact',
    type: 'boolean',
    description:
      "With --output json (and --submit zabbix): each VM's three results as their code, the metrics they judge (label and value) and, when not OK, their summary, at about a sixth of the size (docs/zabbix.md: Zabbix's output limit). The fields kept are where the full form has them.",
  },
  {
    long: 'services',
    type: 'string',
    arg: 'LIST',
    default: METRIC_SERVICES.join(','),
    description: `The services judged for each VM, comma-separated, from ${FLEET_SERVICES.join(', ')} (default ${METRIC_SERVICES.join(',')}). Each is what its single check (check_vm_cpu … check_vm_lease) prints for the VM. snapshot, tools and lease read the VM list's records: tools costs no request per VM, snapshot one for a VM listed with a snapshot, lease one per vApp whose records lack the dates; a run with none of cpu, mem and disk reads no metrics.`,
  },
  ...prefixOptions('cpu', profileOptions(CPU_PROFILE, CPU_OPTIONS), describedAs(CPU_PROFILE, 'cpu')),
  ...prefixOptions('mem', profileOptions(MEM_PROFILE, []), describedAs(MEM_PROFILE, 'mem')),
  ...prefixOptions('disk', profileOptions(DISK_PROFILE, DISK_OPTIONS), describedAs(DISK_PROFILE, 'disk')),
  ...prefixOptions('snapshot', SNAPSHOT_OPTIONS, hygieneDescribedAs('check_vm_snapshot', 'snapshot')),
  ...prefixOptions('tools', TOOLS_OPTIONS, hygieneDescribedAs('check_vm_tools', 'tools')),
  ...prefixOptions('lease', LEASE_OPTIONS, hygieneDescribedAs('check_vm_lease', 'lease')),
  ...HTTP_OPTIONS,
  ...SUBMIT_OPTIONS,
]);

export type FleetCheckOptions = PluginOptions<typeof FLEET_CHECK_OPTIONS>;

// The options of VM selection and --discovery that every VM check, the fleet and the VDC checks
// share (names, --vapp, --include/--exclude, --max-vms, the inventory's format and file), each
// read once by its own parser.
import { UsageError } from '../../plugin/errors';
import { compileNamePattern } from '../../plugin/linear-regexp';
import { defineOptions, type OptionsOf } from '../../plugin/options';
import { parseState, stateName, type StateName } from '../../plugin/state';
import { parseDuration } from '../../plugin/duration';
import type { API_VERSION_OPTION } from '../api/connection-options';
import { DISCOVERY_FORMATS, parseDiscoveryFormat, type DiscoveryFormat, type DiscoverySelection, type DiscoverySource } from './discovery';
import { DEFAULT_MAX_VMS } from './vm-query';

/** --discovery-format (described by `formats`), --discovery-file and --allow-shrink: where and how an inventory is written. */
export function discoveryOutputOptions(formats: string) {
  return defineOptions([
    { long: 'discovery-format', type: 'string', arg: 'FORMAT', default: 'zabbix', choices: DISCOVERY_FORMATS, description: formats },
    {
      long: 'discovery-file',
      type: 'string',
      arg: 'PATH',
      description:
        'With --discovery: write the inventory to PATH (through a temporary file in its directory, renamed when complete; mode kept; left untouched, mtime too, when unchanged) instead of stdout. Errors go to stderr with a non-zero exit, as they do for the icinga2 and nagios formats on stdout.',
    },
    {
      long: 'allow-shrink',
      type: 'boolean',
      description: 'With --discovery-file: accept an empty inventory, or one with fewer than half the hosts of the existing file (refused by default).',
    },
  ]);
}

/** --max-vms: the bound on what the VM query may list. */
export const MAX_VMS_OPTION = {
  long: 'max-vms',
  type: 'number',
  arg: 'N',
  default: DEFAULT_MAX_VMS,
  description: 'UNKNOWN when the query service lists more VMs than this for a name or --discovery (a broken or hostile server cannot exhaust memory).',
} as const;

/** Options of the VM checks for fleets: names, discovery, version negotiation. */
export const FLEET_OPTIONS = defineOptions([
  {
    long: 'vapp',
    type: 'string',
    arg: 'NAME',
    description: 'With --vm NAME: the vApp the VM is in (when several VMs share the name). With --discovery: list only this vApp.',
  },
  {
    long: 'resolve-ttl',
    type: 'string',
    arg: 'DURATION',
    default: '1h',
    description: 'How long a VM name resolved to its id is reused from the cache (resolved again at once when the id answers 403/404).',
  },
  {
    long: 'tenant-org',
    type: 'string',
    arg: 'ORG',
    description:
      'With a provider account (--org System): only the VMs of this organisation, for --vm NAME and --discovery (which otherwise cover every organisation). Refused with a tenant account, which sees only its own.',
  },
  { long: 'discovery', type: 'boolean', description: 'List the VMs the account sees (no templates) and exit 0, in --discovery-format.' },
  ...discoveryOutputOptions(
    'zabbix: low-level discovery JSON, per VM {#VM.ID}, {#VM.NAME}, {#VM.VAPP}, {#VM.STATUS} and {#VM.ORG}; icinga2: an object Host per VM for contrib/icinga2/vm-discovery.conf; nagios: a define host per VM for contrib/nagios/vm-discovery.cfg.',
  ),
  { long: 'include', type: 'string', arg: 'REGEX', description: 'With --discovery: only VMs whose name matches.' },
  { long: 'exclude', type: 'string', arg: 'REGEX', description: 'With --discovery: skip VMs whose name matches.' },
  MAX_VMS_OPTION,
]);

/** --max-vms checked: a positive whole number (the query's default for a plugin without the option). */
export function maxVmsFrom(options: Partial<Pick<FleetOptions, 'max-vms'>>): number {
  const n = options['max-vms'] ?? DEFAULT_MAX_VMS;
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`invalid --max-vms ${n}: expected a positive whole number`);
  return n;
}

/** The fleet options and --api-version as parsed. */
export type FleetOptions = OptionsOf<typeof FLEET_OPTIONS> & OptionsOf<readonly [typeof API_VERSION_OPTION]>;

/** --resolve-ttl in milliseconds. */
export function resolveTtlFrom(options: Pick<FleetOptions, 'resolve-ttl'>): number {
  return parseDuration(options['resolve-ttl'], '--resolve-ttl') * 1000;
}

/** --vapp, --include and --exclude: which of the listed VMs --discovery (and a fleet check) takes. */
export function selectionFrom(options: Pick<FleetOptions, 'vapp' | 'include' | 'exclude'>): DiscoverySelection {
  return { vapp: options.vapp, include: compileNamePattern(options.include, '--include'), exclude: compileNamePattern(options.exclude, '--exclude') };
}

/** Where --discovery writes its inventory: stdout, or --discovery-file (--allow-shrink lets it shrink). */
export interface InventoryOutput {
  file?: string;
  allowShrink: boolean;
}

/** The files --discovery writes into the generated host definitions besides the session's own. */
export type DiscoveryFiles = Pick<DiscoverySource, 'passwordFile' | 'apiTokenFile' | 'caFile' | 'insecure'>;

/** --discovery's options, read and checked: the format, the selection, the files named in the output, and where it goes. */
export interface DiscoveryConfig {
  format: DiscoveryFormat;
  selection: DiscoverySelection;
  files: DiscoveryFiles;
  output: InventoryOutput;
  /** --powered-off-state, when given: written on every generated host. */
  poweredOffState?: StateName;
}

/** --discovery-file and --allow-shrink as read. */
export function inventoryOutputFrom(options: Pick<FleetOptions, 'discovery-file' | 'allow-shrink'>): InventoryOutput {
  return { file: options['discovery-file'], allowShrink: options['allow-shrink'] };
}

/** The credential and CA files the discovery was given, as the generated definitions name them. */
export function discoveryFilesFrom(options: { 'password-file'?: string; 'api-token-file'?: string; 'ca-file'?: string; insecure: boolean }): DiscoveryFiles {
  return { passwordFile: options['password-file'], apiTokenFile: options['api-token-file'], caFile: options['ca-file'], insecure: options.insecure };
}

/** --powered-off-state as the generated hosts carry it (a state's name), or undefined when not given. */
function poweredOffStateFrom(text: string | undefined): StateName | undefined {
  if (text === undefined) return undefined;
  const state = parseState(text);
  if (state === undefined) throw new UsageError(`invalid --powered-off-state ${JSON.stringify(text)}: expected OK, WARNING, CRITICAL or UNKNOWN`);
  return stateName(state);
}

/** --discovery's options as its config (the format first, then the selection, as they were always checked). */
export function discoveryConfigFrom(options: FleetOptions & Parameters<typeof discoveryFilesFrom>[0] & { 'powered-off-state'?: string }): DiscoveryConfig {
  const format = parseDiscoveryFormat(options['discovery-format']);
  const poweredOffState = poweredOffStateFrom(options['powered-off-state']);
  return {
    format,
    selection: selectionFrom(options),
    files: discoveryFilesFrom(options),
    output: inventoryOutputFrom(options),
    ...(poweredOffState === undefined ? {} : { poweredOffState }),
  };
}

/**
 * Whether a command line asks for an inventory file (--discovery-file, or the icinga2/nagios
 * discovery formats that are redirected into one): then a failure must go to stderr, never
 * into the file. Read from the raw arguments, so that even a usage error goes there.
 */
export function writesInventory(argv: readonly string[]): boolean {
  if (!argv.includes('--discovery')) return false;
  return argv.some(
    (a, i) =>
      a === '--discovery-file' ||
      a.startsWith('--discovery-file=') ||
      /^--discovery-format=(icinga2|nagios)$/.test(a) ||
      (a === '--discovery-format' && /^(icinga2|nagios)$/.test(argv[i + 1] ?? '')),
  );
}

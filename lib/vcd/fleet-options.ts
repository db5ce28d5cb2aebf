import { compileNamePattern } from '../cluster/node-tally';
import { UsageError } from '../plugin/errors';
import type { OptionSpec, ParsedOptions } from '../plugin/options';
import type { Result } from '../plugin/result';
import { State } from '../plugin/state';
import { listVms, type SessionRequest } from './client';
import { parseDuration } from './duration';
import { FleetCache } from './fleet-cache';
import type { VcdCacheKey } from './session-cache';
import { DISCOVERY_FORMATS, parseDiscoveryFormat, renderDiscovery, selectVms } from './discovery';

/** Options of the VM checks for fleets: names, discovery, version negotiation. */
export const FLEET_OPTIONS: readonly OptionSpec[] = [
  { long: 'vapp', type: 'string', arg: 'NAME', description: 'With --vm NAME: the vApp the VM is in (when several VMs share the name). With --discovery: list only this vApp.' },
  { long: 'resolve-ttl', type: 'string', arg: 'DURATION', default: '1h', description: 'How long a VM name resolved to its id is reused from the cache (resolved again at once when the id answers 403/404).' },
  { long: 'discovery', type: 'boolean', description: 'List the VMs the account sees (no templates) and exit 0, in --discovery-format.' },
  {
    long: 'discovery-format',
    type: 'string',
    arg: 'FORMAT',
    default: 'zabbix',
    choices: DISCOVERY_FORMATS,
    description: 'zabbix: low-level discovery JSON [{"{#VM.ID}":…,"{#VM.NAME}":…,"{#VM.VAPP}":…,"{#VM.STATUS}":…}]; icinga2: an object Host per VM for contrib/icinga2/vm-discovery.conf; nagios: a define host per VM for contrib/nagios/vm-discovery.cfg.',
  },
  { long: 'include', type: 'string', arg: 'REGEX', description: 'With --discovery: only VMs whose name matches.' },
  { long: 'exclude', type: 'string', arg: 'REGEX', description: 'With --discovery: skip VMs whose name matches.' },
];

/** The --api-version option: no default, so that "not given" means "negotiate". */
export const API_VERSION_OPTION: OptionSpec = {
  long: 'api-version',
  type: 'string',
  arg: 'VERSION',
  description: 'Force this vCD API version. Default: 34.0 when the server offers it, else the highest it offers of 33.0-39.x (asked at GET /api/versions once, then remembered with the session).',
};

/** --api-version checked; undefined means negotiate. */
export function forcedVersionFrom(options: ParsedOptions): string | undefined {
  const v = options['api-version'] as string | undefined;
  if (v === undefined) return undefined;
  if (!/^\d{1,4}\.\d{1,4}$/.test(v.trim())) throw new UsageError(`invalid --api-version ${JSON.stringify(v)}: expected a version such as 34.0 or 38.1`);
  return v.trim();
}

/** --resolve-ttl in milliseconds. */
export function resolveTtlFrom(options: ParsedOptions): number {
  return parseDuration(options['resolve-ttl'] as string, '--resolve-ttl') * 1000;
}

/** The cache entry of versions and names beside the session; none with --no-cache. */
export function fleetCacheFor(dir: string | undefined, key: VcdCacheKey): FleetCache | undefined {
  return dir === undefined ? undefined : new FleetCache(dir, key);
}

/** --discovery: lists the VMs and prints them in the chosen format (exit 0). */
export async function runDiscovery(command: string, options: ParsedOptions, req: SessionRequest): Promise<Result> {
  const format = parseDiscoveryFormat(options['discovery-format'] as string);
  const include = compileNamePattern(options.include as string | undefined, '--include');
  const exclude = compileNamePattern(options.exclude as string | undefined, '--exclude');
  const vapp = options.vapp as string | undefined;
  const { records, pages } = await listVms(req, { vapp });
  const vms = selectVms(records, { vapp, include, exclude });
  req.log(`discovery: ${records.length} records in ${pages} page${pages === 1 ? '' : 's'}, ${vms.length} VMs after selection`);
  const creds = req.creds;
  const raw = renderDiscovery(format, vms, {
    command,
    url: req.conn.base.origin,
    org: creds.org,
    user: creds.user,
    passwordFile: options['password-file'] as string | undefined,
    apiTokenFile: options['api-token-file'] as string | undefined,
    caFile: options['ca-file'] as string | undefined,
    insecure: options.insecure as boolean | undefined,
    apiVersion: req.forcedVersion,
  });
  return { state: State.OK, summary: '', raw };
}

// How a VM check reaches its VM, as typed config: the session (connection, login, TLS, cache,
// scope), then either the one VM (--vm, --vapp, --resolve-ttl) or --discovery. Parsed once at
// the plugin's edge by the groups' own parsers; the checks' bodies take the config, never the
// options.
import type { RunContext } from '../../plugin/context';
import type { VcdSessionConfig } from '../api/session-request';
import { discoveryConfigFrom, resolveTtlFrom, type DiscoveryConfig, type FleetOptions } from '../inventory/inventory-options';
import { sessionConfigFrom, type VcdSessionOptions } from '../frame/session-options';
import type { VmTarget } from './vm-id';
import type { VmSelector } from './vm-session';

/** One VM (its selector), or --discovery (its config). */
export type VmSelection = { kind: 'vm'; select: VmSelector } | { kind: 'discovery'; discovery: DiscoveryConfig };

/** Where a VM check's run goes: the session it opens and what it selects. */
export interface VmAccessConfig {
  session: VcdSessionConfig;
  selection: VmSelection;
}

/** The options a VM check's access is read from: the session's and the fleet's (names, discovery). */
export type VmAccessOptions = VcdSessionOptions & FleetOptions & Parameters<typeof discoveryConfigFrom>[0];

/**
 * The session config against `base` (see sessionConfigFrom: `said` and `sockets`), then the
 * selection: --discovery's config, or `target` with --vapp and --resolve-ttl (a --vapp that
 * --vm's id makes moot is said, after the login's notes as it always was).
 */
export function vmAccessFrom(
  base: URL,
  target: VmTarget | undefined,
  options: VmAccessOptions,
  context: RunContext,
  said: readonly (string | undefined)[] = [],
  sockets?: number,
): VmAccessConfig {
  const session = sessionConfigFrom(base, options, context, said, sockets);
  if (options.discovery || target === undefined) return { session, selection: { kind: 'discovery', discovery: discoveryConfigFrom(options) } };
  if (options.vapp !== undefined && target.kind === 'id') context.notes.add('--vapp is ignored: --vm gives the id');
  return { session, selection: { kind: 'vm', select: { target, vapp: options.vapp, resolveTtlMs: resolveTtlFrom(options) } } };
}

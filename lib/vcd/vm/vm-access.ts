// How a VM check reaches its VM, as typed config: the session (connection, login, TLS, cache,
// scope), then either the one VM (--vm, --vapp, --resolve-ttl) or --discovery. Parsed once at
// the plugin's edge by the groups' own parsers; the checks' bodies take the config, never the
// options.
import type { RunContext } from '../../plugin/context';
import { discoveryConfigFrom, resolveTtlFrom, type DiscoveryConfig, type FleetOptions } from '../inventory/inventory-options';
import { sessionConfigFrom, type VcdSessionOptions } from '../frame/session-options';
import type { VcdFrameConfig } from '../frame/vcd-frame';
import type { State } from '../../plugin/state';
import type { VmTarget } from './vm-id';
import type { VmSelector } from './vm-session';

/** One VM (its selector), or --discovery (its config). */
export type VmSelection = { kind: 'vm'; select: VmSelector } | { kind: 'discovery'; discovery: DiscoveryConfig };

/** Where a VM check's run goes: the frame it opens (the session, the cache's state) and what it selects. */
export interface VmAccessConfig {
  frame: VcdFrameConfig;
  selection: VmSelection;
}

/** The options a VM check's access is read from: the session's and the fleet's (names, discovery). */
export type VmAccessOptions = VcdSessionOptions & FleetOptions & Parameters<typeof discoveryConfigFrom>[0];

/**
 * The frame against `base` (the session's config, see sessionConfigFrom: `said`; the cache's
 * state as the caller read it), then the selection: --discovery's config, or `target` with --vapp
 * and --resolve-ttl (a --vapp that --vm's id makes moot is said, after the login's notes as it
 * always was).
 */
export function vmAccessFrom(
  base: URL,
  target: VmTarget | undefined,
  options: VmAccessOptions,
  context: RunContext,
  said: readonly (string | undefined)[],
  cacheUnusableState: State,
): VmAccessConfig {
  const frame = { cacheUnusableState, session: sessionConfigFrom(base, options, context, said) };
  if (options.discovery || target === undefined) return { frame, selection: { kind: 'discovery', discovery: discoveryConfigFrom(options) } };
  if (options.vapp !== undefined && target.kind === 'id') context.notes.add('--vapp is ignored: --vm gives the id');
  return { frame, selection: { kind: 'vm', select: { target, vapp: options.vapp, resolveTtlMs: resolveTtlFrom(options) } } };
}

// The body of check_vm_snapshot, check_vm_tools and check_vm_lease: the VM checks' session, names
// and discovery, the VM's query record through the per-VM seam, then the plugin's service.
import { HTTP_ENVIRONMENT_NOTE, HTTP_OPTIONS } from '../../http/options';
import type { RunContext } from '../../plugin/context';
import { UsageError } from '../../plugin/errors';
import { defineOptions, type OptionSpec, type PluginOptions } from '../../plugin/options';
import type { Result } from '../../plugin/result';
import type { PluginDefinition } from '../../plugin/run';
import { State } from '../../plugin/state';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../api/connection-options';
import { cacheUnusableStateFrom, openVcdSession, withCacheState, type OpenedSession } from '../api/session-request';
import { FLEET_OPTIONS, writesInventory } from '../inventory/inventory-options';
import { runDiscovery } from '../inventory/inventory-delivery';
import { baseUrl } from '../vm/vm-config';
import { parseVmTarget } from '../vm/vm-id';
import { vmAccessFrom, type VmAccessConfig } from '../vm/vm-access';
import { VM_OPTION } from '../vm/vm-options';
import { withVm } from '../vm/vm-session';
import { readHygieneRecord } from './hygiene-probe';
import type { HygieneService } from './hygiene-service';

/** What a hygiene plugin says of itself; the rest of its definition is shared. */
export interface HygieneCheckText {
  name: HygieneService['label'];
  command: string;
  description: string;
  /** The usage's options after the shared ones, e.g. `[--age-warning RANGE]`. */
  usage: string;
  examples: readonly string[];
  notes: readonly string[];
}

/** Everything of a hygiene plugin's definition but its options and run. */
export function hygieneCheckDefinition(text: HygieneCheckText): Omit<PluginDefinition, 'options' | 'run'> {
  return {
    name: text.name,
    command: text.command,
    description: text.description,
    usage: `${text.command} -u URL (--vm ID|NAME [--vapp NAME] | --discovery) -U USER -o ORG --password-file PATH ${text.usage} [options]`,
    examples: text.examples,
    notes: [
      ...text.notes,
      "The VM's query record (type=vm, or adminVM for a System account) is read by the VM's id: it says what the check needs where the API version lists it; what it lacks is read from the VM's or vApp's own section, never taken as \"none\".",
      'Sessions are cached (one file per url+user+org, mode 0600), shared with the other VM checks; --vm NAME [--vapp NAME] and --discovery work as for check_vm_cpu.',
      HTTP_ENVIRONMENT_NOTE,
    ],
    secretEnv: ['VCD_PASSWORD'],
    failuresToStderr: writesInventory,
  };
}

/** The options of a hygiene check: the VM checks' session and names around the plugin's own, in --help order. */
export function hygieneCheckOptions<const Own extends readonly OptionSpec[]>(own: Own) {
  return defineOptions([VCD_URL_OPTION, VM_OPTION, ...VCD_LOGIN_OPTIONS, ...FLEET_OPTIONS, ...own, ...HTTP_OPTIONS]);
}

/** The options every hygiene check has, as parsed. */
export type HygieneCheckOptions = PluginOptions<ReturnType<typeof hygieneCheckOptions<readonly []>>>;

/** Everything a hygiene check's run needs beside its service, parsed at its plugin's edge (see hygieneCheckRunFrom). */
export interface HygieneCheckRun {
  access: VmAccessConfig;
  cacheUnusableState: State;
}

/**
 * A hygiene check's options as its run's config, each group by its own parser in the order
 * their errors and notes have always come: the VM, the cache's state, the session (`slips`
 * are the service's notes on its own options), then the VM's selection or --discovery.
 */
export function hygieneCheckRunFrom(options: HygieneCheckOptions, context: RunContext, slips: readonly string[]): HygieneCheckRun {
  if (!options.vm && !options.discovery)
    throw new UsageError('missing --vm (vm-<guid>, the bare GUID, the URL of the VM page, or the VM name), or --discovery');
  const target = options.discovery || options.vm === undefined ? undefined : parseVmTarget(options.vm);
  const cacheUnusableState = cacheUnusableStateFrom(options);
  return { cacheUnusableState, access: vmAccessFrom(baseUrl(options.url), target, options, context, slips) };
}

/** One hygiene check: session, the VM (by id or name) and its record, the service's result. */
export async function runHygieneCheck(command: string, service: HygieneService, run: HygieneCheckRun, context: RunContext): Promise<Result> {
  const { selection } = run.access;
  const session = openVcdSession(run.access.session, context);
  if (selection.kind === 'discovery') return runDiscovery(command, selection.discovery, session);
  context.log(2, session.cache ? `session cache: ${session.cache.file}` : 'session cache: off (--no-cache)');
  const result = await withVm(session, selection.select, async ({ vm, get }) => {
    const record = await readHygieneRecord(get, vm.id, session.scope.provider ? 'adminVM' : 'vm');
    noteSession(session, context);
    const label = vm.name === undefined ? vm.id : `${vm.name} (${vm.id})`;
    const judged = await service.judge({ id: vm.id, hygiene: record.hygiene, status: record.status, label }, get, Date.now());
    if (vm.name === undefined) return judged;
    const item = { name: 'vm', state: State.OK, text: `VM ${vm.name} = ${vm.id} in vApp ${vm.vapp ?? '?'}${vm.org !== undefined ? ` of org ${vm.org}` : ''}` };
    return { ...judged, items: [item, ...(judged.items ?? [])] };
  });
  return withCacheState(result, session.cache, run.cacheUnusableState);
}

function noteSession(session: OpenedSession, context: RunContext): void {
  for (const n of [...(session.cache?.notes ?? []), ...session.facts]) context.notes.add(n);
}

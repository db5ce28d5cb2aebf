// The body of check_vm_snapshot, check_vm_tools and check_vm_lease: the VM checks' session, names
// and discovery, the VM's query record through the per-VM seam, then the plugin's service.
import { HTTP_OPTIONS } from '../../http/options';
import type { RunContext } from '../../plugin/context';
import { UsageError } from '../../plugin/errors';
import { defineOptions, type OptionSpec, type PluginOptions } from '../../plugin/options';
import type { Result } from '../../plugin/result';
import type { PluginDefinition } from '../../plugin/run';
import { State } from '../../plugin/state';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../api/connection-options';
import { cacheUnusableStateFrom, openVcdFrame } from '../frame/vcd-frame';
import { vcdPlugin, type VcdPluginHead } from '../frame/vcd-plugin';
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

/** A hygiene plugin's options: the VM checks' session and names around its own (`own`). */
type HygienePluginOptions<Own extends readonly OptionSpec[]> = ReturnType<typeof hygieneCheckOptions<Own>>;

/** The service a hygiene plugin judges with, made from its options, and its notes on them (a -w beyond its -c). */
export interface HygieneChoice {
  service: HygieneService;
  slips: readonly string[];
}

/**
 * A hygiene plugin's definition: the shared body (session, the VM and its record, the
 * service's result) with the plugin's words, its own options and the service they make.
 */
export function hygieneCheckPlugin<const Own extends readonly OptionSpec[]>(
  text: HygieneCheckText,
  own: Own,
  serviceOf: (options: PluginOptions<HygienePluginOptions<Own>>) => HygieneChoice,
): PluginDefinition<HygienePluginOptions<Own>> {
  return vcdPlugin({
    ...hygieneCheckDefinition(text),
    options: hygieneCheckOptions(own),
    run: (options, context) => {
      const { service, slips } = serviceOf(options);
      // Every hygiene check's options are among them; TypeScript cannot see it through the generic `Own`.
      return runHygieneCheck(text.command, service, hygieneCheckRunFrom(options as HygieneCheckOptions, context, slips), context);
    },
  });
}

/** Everything of a hygiene plugin's definition but its options and run. */
function hygieneCheckDefinition(text: HygieneCheckText): Omit<VcdPluginHead<readonly OptionSpec[]>, 'options' | 'run'> {
  return {
    name: text.name,
    command: text.command,
    description: text.description,
    usage: `${text.command} -u URL (--vm ID|NAME [--vapp NAME] | --discovery) -U USER -o ORG --password-file PATH ${text.usage} [options]`,
    examples: text.examples,
    notes: [
      ...text.notes,
      "The VM's query record (type=vm, or adminVM for a System account) is read by the VM's id: it says what the check needs where the API version lists it; what it lacks is read from the VM's or vApp's own section, never taken as \"none\".",
      '--vm NAME [--vapp NAME] and --discovery work as for check_vm_cpu.',
    ],
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
  return { access: vmAccessFrom(baseUrl(options.url), target, options, context, slips, cacheUnusableState) };
}

/** One hygiene check: session, the VM (by id or name) and its record, the service's result. */
async function runHygieneCheck(command: string, service: HygieneService, run: HygieneCheckRun, context: RunContext): Promise<Result> {
  const { selection } = run.access;
  const frame = openVcdFrame(run.access.frame, context);
  const { session } = frame;
  if (selection.kind === 'discovery') return runDiscovery(command, selection.discovery, session);
  frame.start();
  const result = await withVm(session, selection.select, async ({ vm, get }) => {
    const record = await readHygieneRecord(get, vm.id, session.scope.provider ? 'adminVM' : 'vm');
    frame.note();
    const label = vm.name === undefined ? vm.id : `${vm.name} (${vm.id})`;
    const judged = await service.judge({ id: vm.id, hygiene: record.hygiene, status: record.status, label }, get, Date.now());
    if (vm.name === undefined) return judged;
    const item = { name: 'vm', state: State.OK, text: `VM ${vm.name} = ${vm.id} in vApp ${vm.vapp ?? '?'}${vm.org !== undefined ? ` of org ${vm.org}` : ''}` };
    return { ...judged, items: [item, ...(judged.items ?? [])] };
  });
  return frame.finish(result);
}

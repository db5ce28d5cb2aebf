import type { RunContext } from '../../plugin/context';
import type { Result } from '../../plugin/result';
import type { OptionSpec, PluginOptions } from '../../plugin/options';
import type { PluginDefinition } from '../../plugin/run';
import { State } from '../../plugin/state';
import { formatDuration } from '../../plugin/duration';
import { writesInventory } from '../inventory/inventory-options';
import { runDiscovery } from '../inventory/inventory-delivery';
import { openVcdFrame, type VcdFrame } from '../frame/vcd-frame';
import { vcdPlugin, type VcdPluginHead } from '../frame/vcd-plugin';
import { vmCheckRunFrom, type ProfileChoice, type VmCheckConfig, type VmCheckRun } from './vm-config';
import { vmCheckOptions, type VmCheckOptions } from './vm-options';
import { judge } from './vm-judge';
import type { VmCheckProfile } from './profile';
import { askOf, readMetrics } from './vm-metrics';
import { withVm, type VmSelector } from './vm-session';

/** A VM check's options: the VM checks' own around the profile's (`own`). */
type VmPluginOptions<Own extends readonly OptionSpec[]> = ReturnType<typeof vmCheckOptions<Own>>;

/**
 * A VM metric check's plugin definition: the shared VM check with the profile of its folder,
 * the profile's own options (`own`), and what they choose (the metric, --per-disk).
 */
export function vmCheckPlugin<const Own extends readonly OptionSpec[]>(
  profile: VmCheckProfile,
  own: Own,
  choose: (options: PluginOptions<VmPluginOptions<Own>>) => ProfileChoice,
): PluginDefinition<VmPluginOptions<Own>> {
  return vcdPlugin({
    ...vmCheckDefinition(profile),
    options: vmCheckOptions(profile, own),
    // Every VM check's options are among them; TypeScript cannot see it through the generic `Own`.
    run: (options, context) => runVmCheck(profile, vmCheckRunFrom(profile, options as VmCheckOptions, choose(options), context), context),
  });
}

/** Everything of a VM check's plugin definition but its options and run. */
function vmCheckDefinition(profile: VmCheckProfile): Omit<VcdPluginHead<readonly OptionSpec[]>, 'options' | 'run'> {
  return {
    name: profile.name,
    command: profile.command,
    description: profile.description,
    usage: `${profile.command} -u URL (--vm ID|NAME [--vapp NAME] | --discovery) -U USER -o ORG --password-file PATH [-w RANGE] [-c RANGE] [--window DURATION] [options]`,
    examples: profile.examples,
    notes: [
      "vCD answers 403 for VM ids it does not know. When current metrics are refused, or the samples of --window stop, the VM's own record tells whether it is powered off: then --powered-off-state applies; any other refusal is UNKNOWN with the server's message.",
      'Fleets: --vm web-01 --vapp shop checks a VM by name (resolved once, then cached); --discovery [--discovery-format icinga2|nagios] lists every VM the account sees, e.g. check_vm_cpu --discovery --discovery-format icinga2 -u URL -U USER -o ORG --password-file PATH --discovery-file /etc/icinga2/conf.d/vms.conf (replaced only by a complete, not much smaller inventory; errors on stderr, exit non-zero)',
      'A provider account (-o System) lists and names the VMs of every organisation through the admin queries, each with its organisation in the discovery output; --tenant-org ORG narrows to one (and tells apart a VM name two organisations use). A tenant account lists its own organisation.',
    ],
    failuresToStderr: writesInventory,
  };
}

/** One VM check: login, metrics, measurements, the profile's result. */
async function runVmCheck(profile: VmCheckProfile, run: VmCheckRun, context: RunContext): Promise<Result> {
  const { check: cfg, access } = run;
  const frame = openVcdFrame(access.frame, context);
  if (access.selection.kind === 'discovery') return runDiscovery(profile.command, access.selection.discovery, frame.session);
  const { creds } = frame.session;
  const mode = cfg.window === undefined ? 'current' : `${cfg.aggregate} ${formatDuration(cfg.window)}`;
  frame.start(
    `url=${cfg.base.origin} vm=${cfg.target.kind === 'id' ? cfg.target.id : JSON.stringify(cfg.target.name)} login=${creds.kind === 'password' ? `${creds.user}@${creds.org}` : `api-token org ${creds.org}`} mode=${mode}${profile.metrics ? ` metric=${cfg.metric}` : ''}`,
  );
  const result = frame.finish(await fetchAndJudge(profile, cfg, access.selection.select, context, frame));
  for (const n of context.notes.all) context.log(2, n);
  return result;
}

/** Reads the VM's metrics in the session (the per-VM seam) and judges them; the run's notes get what was noticed on the way. */
async function fetchAndJudge(profile: VmCheckProfile, cfg: VmCheckConfig, select: VmSelector, context: RunContext, frame: VcdFrame): Promise<Result> {
  const { session } = frame;
  const ask = askOf(profile, cfg);
  return withVm(session, select, async ({ vm, get, post }) => {
    const response = await readMetrics(session, vm, get, ask.which, undefined, post ? { ask, post } : undefined);
    frame.note();
    // A VM checked by name is named in the result, with its id beside it.
    const { id, name, vapp, org } = vm;
    const named = { ...cfg, vm: id, vmLabel: name === undefined ? id : `${name} (${id})` };
    const result = await judge(profile, named, context, response, get, `${cfg.base.origin}/api/vApp/${id}/metrics/current`);
    if (name === undefined) return result;
    const item = { name: 'vm', state: State.OK, text: `VM ${name} = ${id} in vApp ${vapp ?? '?'}${org !== undefined ? ` of org ${org}` : ''}` };
    return { ...result, items: [item, ...(result.items ?? [])] };
  });
}

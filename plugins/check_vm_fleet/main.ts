// check_vm_fleet: every VM of a selection read in one process and judged as check_vm_cpu,
// check_vm_mem and check_vm_disk judge it; the plugin's own state says whether every VM was read.
import { HTTP_ENVIRONMENT_NOTE } from '../../lib/http/options';
import { blankControlCharacters } from '../../lib/plugin/control-characters';
import type { RunContext } from '../../lib/plugin/context';
import { formatDecimal } from '../../lib/plugin/number-format';
import type { Metric } from '../../lib/plugin/perfdata';
import { oneLine, type Item, type Result } from '../../lib/plugin/result';
import { runPlugin } from '../../lib/plugin/run';
import { State, stateName } from '../../lib/plugin/state';
import { problemsOf, worstFirst, worstOf } from '../../lib/plugin/subcheck';
import type { FleetCollection } from '../../lib/vcd/fleet/fleet-collect';
import { vmState } from '../../lib/vcd/fleet/fleet-judge';
import { FLEET_SERVICES, type FleetVmResult } from '../../lib/vcd/fleet/fleet-result';
import { CheckError } from '../../lib/plugin/errors';
import { passiveResultsOf } from './passive';
import { submitConfigFrom, type SubmitConfig } from '../../lib/submit/options';
import { submitResults, type SubmitOutcome } from '../../lib/submit/submit';
import type { FleetCheckConfig } from './config';
import { readFleet } from './read';
import { FLEET_CHECK_OPTIONS, type FleetCheckOptions } from './options';

void runPlugin({
  name: 'VM_FLEET',
  command: 'check_vm_fleet',
  description:
    'Reads the metrics of every VM of a VMware Cloud Director organisation (or vApp) in one process and judges each VM as check_vm_cpu, check_vm_mem and check_vm_disk do; its own state says whether every VM was read.',
  usage:
    'check_vm_fleet -u URL -U USER -o ORG --password-file PATH [--vapp NAME] [--include REGEX] [--exclude REGEX] [--window DURATION] [--concurrency N] [--cpu-warning RANGE] [--mem-critical RANGE] [--disk-metric NAME] [options]',
  options: FLEET_CHECK_OPTIONS,
  examples: [
    'check_vm_fleet -u https://vcd.example.com -U monitor -o acme --password-file /etc/nagios/vcd.pw',
    'check_vm_fleet -u https://vcd.example.com -U monitor -o acme --password-file PW --vapp shop --output json -t 30',
    'check_vm_fleet --extra-opts vcd@/etc/nagios/cloudchecks.ini --window 15m --cpu-warning 85 --cpu-critical 95 --disk-per-disk',
    'check_vm_fleet --extra-opts vcd@/etc/icinga2/cloudchecks.ini --submit icinga2 --icinga2-user cloudchecks-fleet --icinga2-password-file /etc/icinga2/secrets/api-fleet.pw -t 60',
  ],
  notes: [
    'One session (cached as the VM checks cache theirs), the VM list from the query service, then one metrics request per VM, --concurrency at a time over kept-alive connections.',
    "Each VM's cpu, mem and disk results are what check_vm_cpu, check_vm_mem and check_vm_disk print for it (--output json: one object with each VM's three results as those checks print them with --output json).",
    'The state is about the collection: OK when every selected VM was read, WARNING when some were not (named in the long output), UNKNOWN when none was. The long output lists the VMs that are not OK, worst first.',
    HTTP_ENVIRONMENT_NOTE,
  ],
  secretEnv: ['VCD_PASSWORD'],
  run: (options, context) => runFleet(options, context),
});

async function runFleet(options: FleetCheckOptions, context: RunContext): Promise<Result> {
  const started = Date.now();
  const submit = submitConfigFrom(options, context);
  const { cfg, vms, collection } = await readFleet(options, context, submit !== undefined);
  const collected = fleetResult(vms, collection, (Date.now() - started) / 1000, cfg);
  const result = submit ? withSubmission(collected, await submitFleet(submit, vms, collected, context)) : collected;
  if (options.output !== 'json') return result;
  return { ...result, raw: fleetJson(result, vms) };
}

/** Hands the results of the VMs read to the engine; a failure says how far the collection got. */
async function submitFleet(submit: NonNullable<SubmitConfig>, vms: FleetVmResult[], collected: Result, context: RunContext): Promise<SubmitOutcome> {
  const services = passiveResultsOf(vms);
  try {
    return await submitResults(submit, { services, json: () => fleetJson(collected, vms) }, context);
  } catch (error) {
    if (!(error instanceof CheckError) || context.signal.aborted) throw error;
    throw new CheckError(`${plural(services.length / 3, 'VM')} read, results not submitted: ${error.message}`, { cause: error });
  }
}

/**
 * The collection's result with what reached the engine: the count on the status line and in
 * perfdata; results the engine has no service for (VMs created since the last discovery) make
 * it WARNING, named in the long output.
 */
function withSubmission(result: Result, outcome: SubmitOutcome): Result {
  const metrics = [...(result.metrics ?? []), { label: 'submitted', value: outcome.submitted, min: 0 }];
  let summary = `${result.summary}; ${plural(outcome.submitted, 'result')} submitted to ${outcome.engine}`;
  if (outcome.missing.length === 0) return { ...result, summary, metrics };
  summary += `, ${outcome.missing.length} not: ${outcome.engine} has no such service (rerun the discovery)`;
  const items: Item[] = outcome.missing.map((name) => ({
    name,
    state: State.WARNING,
    text: `${name}: no such service in ${outcome.engine}; rerun the discovery to add the VM`,
  }));
  return { ...result, state: worstOf([result, ...items]), summary, metrics, items: [...items, ...(result.items ?? [])] };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The collection's state, summary, perfdata and the non-OK VMs, worst first. */
function fleetResult(vms: FleetVmResult[], collection: FleetCollection<FleetVmResult>, seconds: number, cfg: FleetCheckConfig): Result {
  const counts = [0, 0, 0, 0];
  for (const vm of vms) counts[vmState(vm)]++;
  const unread = vms.filter((vm) => !vm.read);
  const total = vms.length;
  const tally = `${counts[State.OK]} OK, ${counts[State.WARNING]} WARNING, ${counts[State.CRITICAL]} CRITICAL, ${counts[State.UNKNOWN]} UNKNOWN`;
  const took = `${formatDecimal(seconds, 1)}s`;
  let state: State;
  let summary: string;
  if (total === 0) {
    state = State.UNKNOWN;
    summary = `no VM to check: the query service lists ${plural(collection.records, 'VM record')}, none of them a VM selected by --vapp/--include/--exclude`;
  } else if (unread.length === total) {
    state = State.UNKNOWN;
    summary = `none of ${plural(total, 'VM')} read in ${took}: ${unread[0].services.cpu.json.summary.replace(/^vm-[0-9a-f-]+: /, '')}`;
  } else if (unread.length > 0) {
    state = State.WARNING;
    summary = `${total - unread.length} of ${plural(total, 'VM')} read in ${took}, ${unread.length} not (listed below): ${tally}`;
  } else {
    state = State.OK;
    summary = `${plural(total, 'VM')} read in ${took}: ${tally}`;
  }
  const metrics: Metric[] = [
    { label: 'vms', value: total, min: 0 },
    { label: 'ok', value: counts[State.OK], min: 0, max: total },
    { label: 'warning', value: counts[State.WARNING], min: 0, max: total },
    { label: 'critical', value: counts[State.CRITICAL], min: 0, max: total },
    { label: 'unknown', value: counts[State.UNKNOWN], min: 0, max: total },
    { label: 'seconds', value: Math.round(seconds * 1000) / 1000, uom: 's', min: 0 },
  ];
  const notes = [`${plural(collection.records, 'VM record')} in ${plural(collection.pages, 'page')}`, `concurrency ${cfg.concurrency}`];
  if (collection.limited > 0)
    notes.push(
      `${plural(collection.limited, 'OPERATION_LIMITS_EXCEEDED answer')}: down to ${collection.lowestConcurrency} request${collection.lowestConcurrency === 1 ? '' : 's'} at a time`,
    );
  return { state, summary, metrics, items: problemItems(vms), notes };
}

/** One long-output line per VM that is not OK, worst first: its name (inert), id, vApp and the summaries of its services that are not OK. */
function problemItems(vms: FleetVmResult[]): Item[] {
  const problems = worstFirst(problemsOf(vms.map((vm) => ({ vm, state: vmState(vm) }))));
  return problems.map(({ vm, state }) => {
    // The states of the services that are not OK, and the words of the worst (the first of equals).
    const bad = FLEET_SERVICES.filter((s) => vm.services[s].code !== State.OK);
    const worst = bad.find((s) => vm.services[s].code === state) ?? bad[0];
    const text = vm.read
      ? `${bad.map((s) => `${s} ${stateName(vm.services[s].code)}`).join(', ')}: ${vm.services[worst].json.summary}`
      : vm.services.cpu.json.summary.replace(/^vm-[0-9a-f-]+: /, '');
    return { name: vm.id, state, text: `${oneLine(vm.name, 128)} (${vm.id}, vApp ${oneLine(vm.vapp, 128)}): ${text}` };
  });
}

/** `--output json`: the collection's state and summary, and each VM with its three single-check objects. */
function fleetJson(result: Result, vms: FleetVmResult[]): string {
  const doc = {
    state: stateName(result.state),
    code: result.state,
    summary: oneLine(result.summary),
    vms: Object.fromEntries(
      vms.map((vm) => [
        vm.id,
        {
          name: blankControlCharacters(vm.name),
          vapp: blankControlCharacters(vm.vapp),
          status: blankControlCharacters(vm.status),
          read: vm.read,
          state: stateName(vmState(vm)),
          cpu: vm.services.cpu.json,
          mem: vm.services.mem.json,
          disk: vm.services.disk.json,
        },
      ]),
    ),
  };
  return JSON.stringify(doc) + '\n';
}

// check_vm_fleet: every VM of a selection read in one process and judged as check_vm_cpu,
// check_vm_mem and check_vm_disk judge it (and, with --services, check_vm_snapshot, check_vm_tools
// and check_vm_lease); the plugin's own state says whether every VM was read.
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
import { FLEET_SERVICES, type FleetVmResult, type JsonResult, type ServiceResult } from '../../lib/vcd/fleet/fleet-result';
import { CheckError } from '../../lib/plugin/errors';
import { passiveResultsOf } from './passive';
import { submitConfigFrom, type SubmitConfig } from '../../lib/submit/options';
import { submitResults, type SubmitOutcome } from '../../lib/submit/submit';
import { sendToZabbix } from '../../lib/submit/zabbix';
import type { FleetCheckConfig } from './config';
import { readFleet } from './read';
import { FLEET_CHECK_OPTIONS, type FleetCheckOptions } from './options';

void runPlugin({
  name: 'VM_FLEET',
  command: 'check_vm_fleet',
  description:
    'Reads the metrics of every VM of a VMware Cloud Director organisation (or vApp) in one process and judges each VM as check_vm_cpu, check_vm_mem and check_vm_disk do (with --services, as check_vm_snapshot, check_vm_tools and check_vm_lease do too); its own state says whether every VM was read.',
  usage:
    'check_vm_fleet -u URL -U USER -o ORG --password-file PATH [--vapp NAME] [--include REGEX] [--exclude REGEX] [--window DURATION] [--concurrency N] [--services LIST] [--cpu-warning RANGE] [--mem-critical RANGE] [--disk-metric NAME] [options]',
  options: FLEET_CHECK_OPTIONS,
  examples: [
    'check_vm_fleet -u https://vcd.example.com -U monitor -o acme --password-file /etc/nagios/vcd.pw',
    'check_vm_fleet -u https://vcd.example.com -U monitor -o acme --password-file PW --vapp shop --output json -t 30',
    'check_vm_fleet --extra-opts vcd@/etc/nagios/cloudchecks.ini --window 15m --cpu-warning 85 --cpu-critical 95 --disk-per-disk',
    'check_vm_fleet --extra-opts vcd@/etc/nagios/cloudchecks.ini --services cpu,mem,disk,snapshot,tools,lease --snapshot-age-warning 1d --lease-warning 14d',
    'check_vm_fleet --extra-opts vcd@/etc/icinga2/cloudchecks.ini --submit icinga2 --icinga2-user cloudchecks-fleet --icinga2-password-file /etc/icinga2/secrets/api-fleet.pw -t 60',
  ],
  notes: [
    'One session (cached as the VM checks cache theirs), the VM list from the query service, then one metrics request per VM, --concurrency at a time over kept-alive connections.',
    "Each VM's cpu, mem and disk results are what check_vm_cpu, check_vm_mem and check_vm_disk print for it (--output json: one object with each VM's results as those checks print them with --output json, under vms[id].cpu, .mem, .disk).",
    "--services adds snapshot, tools and lease: what check_vm_snapshot, check_vm_tools and check_vm_lease print for the VM (vms[id].snapshot, .tools, .lease; submitted as services vm-snapshot, vm-tools, vm-lease), with their options under the service's prefix (--snapshot-age-warning is check_vm_snapshot's --age-warning, --lease-warning check_vm_lease's -w). They are read from the VM list's records: tools costs no request per VM, snapshot one for a VM listed with a snapshot, lease at most one per vApp whose records lack the dates.",
    'The state is about the collection: OK when every selected VM was read, WARNING when some were not (named in the long output), UNKNOWN when none was. The long output lists the VMs that are not OK, worst first.',
    HTTP_ENVIRONMENT_NOTE,
  ],
  secretEnv: ['VCD_PASSWORD'],
  run: (options, context) => runFleet(options, context),
});

async function runFleet(options: FleetCheckOptions, context: RunContext): Promise<Result> {
  const started = Date.now();
  const submit = submitConfigFrom(options, context);
  const { cfg, vms, collection } = await readFleet(options, context, submit !== undefined).catch((error: unknown) => reportFailure(submit, error, context));
  const collected = fleetResult(vms, collection, (Date.now() - started) / 1000, cfg);
  const result = submit ? withSubmission(collected, await submitFleet(submit, vms, collected, context, options.compact === true)) : collected;
  if (options.output !== 'json') return result;
  return { ...result, raw: fleetJson(result, vms, options.compact === true) };
}

/**
 * --submit zabbix: a run that could read no VM (login, TLS, the VM list) still reaches Zabbix,
 * as a document with its state and cause and no VMs (the template's state and summary items
 * take it, its VMs keep their last values), then fails as it would have.
 */
async function reportFailure(submit: SubmitConfig, error: unknown, context: RunContext): Promise<never> {
  if (submit?.mode !== 'zabbix' || !(error instanceof CheckError) || context.signal.aborted) throw error;
  const value = JSON.stringify({ state: stateName(State.UNKNOWN), code: State.UNKNOWN, summary: oneLine(error.message) }) + '\n';
  try {
    await sendToZabbix([{ host: submit.host, key: submit.key, value, clock: Math.floor(Date.now() / 1000) }], submit.zabbix, { signal: context.signal });
  } catch (sent) {
    if (!(sent instanceof CheckError)) throw sent;
    throw new CheckError(`${error.message}; not reported to Zabbix either: ${sent.message}`, { cause: error });
  }
  throw error;
}

/** Hands the results of the VMs read to the engine; a failure says how far the collection got. */
async function submitFleet(
  submit: NonNullable<SubmitConfig>,
  vms: FleetVmResult[],
  collected: Result,
  context: RunContext,
  compact: boolean,
): Promise<SubmitOutcome> {
  const services = passiveResultsOf(vms);
  try {
    return await submitResults(submit, { services, json: () => fleetJson(collected, vms, compact) }, context);
  } catch (error) {
    if (!(error instanceof CheckError) || context.signal.aborted) throw error;
    throw new CheckError(`${plural(vms.filter((vm) => vm.read).length, 'VM')} read, results not submitted: ${error.message}`, { cause: error });
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
    summary = `none of ${plural(total, 'VM')} read in ${took}: ${whyUnread(unread[0])}`;
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

/** A VM's selected services' results, in the order of FLEET_SERVICES. */
function servicesOf(vm: FleetVmResult): Array<[(typeof FLEET_SERVICES)[number], ServiceResult]> {
  return FLEET_SERVICES.flatMap((s) => {
    const result = vm.services[s];
    return result ? [[s, result] as [(typeof FLEET_SERVICES)[number], ServiceResult]] : [];
  });
}

/** Why a VM was not read: its first service's words without the id they begin with. */
function whyUnread(vm: FleetVmResult): string {
  return (servicesOf(vm)[0]?.[1].json.summary ?? '').replace(/^vm-[0-9a-f-]+: /, '');
}

/** One long-output line per VM that is not OK, worst first: its name (inert), id, vApp, organisation (when listed) and the summaries of its services that are not OK. */
function problemItems(vms: FleetVmResult[]): Item[] {
  const problems = worstFirst(problemsOf(vms.map((vm) => ({ vm, state: vmState(vm) }))));
  return problems.map(({ vm, state }) => {
    // The states of the services that are not OK, and the words of the worst (the first of equals).
    const bad = servicesOf(vm).filter(([, r]) => r.code !== State.OK);
    const worst = bad.find(([, r]) => r.code === state) ?? bad[0];
    const text = vm.read ? `${bad.map(([s, r]) => `${s} ${stateName(r.code)}`).join(', ')}: ${worst[1].json.summary}` : whyUnread(vm);
    const org = vm.org === undefined ? '' : `, org ${oneLine(vm.org, 128)}`;
    return { name: vm.id, state, text: `${oneLine(vm.name, 128)} (${vm.id}, vApp ${oneLine(vm.vapp, 128)}${org}): ${text}` };
  });
}

/** One service as --compact gives it. */
interface CompactService {
  code: number;
  summary?: string;
  metrics: Array<{ label: string; value: number | null }>;
}

/**
 * --compact: what the Zabbix templates read of one service, where the full object has it (the
 * code, the judged metrics' label and value), and its summary when it is not OK.
 */
function compactService(json: JsonResult): CompactService {
  const metrics = json.metrics.filter((m) => m.warning !== null || m.critical !== null).map(({ label, value }) => ({ label, value }));
  return json.code === State.OK ? { code: json.code, metrics } : { code: json.code, summary: json.summary, metrics };
}

/** `--output json`: the collection's state and summary, and each VM with its services' single-check objects (--compact: their judged parts). */
function fleetJson(result: Result, vms: FleetVmResult[], compact = false): string {
  const service = (json: JsonResult) => (compact ? compactService(json) : json);
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
          ...(vm.org === undefined ? {} : { org: blankControlCharacters(vm.org) }),
          status: blankControlCharacters(vm.status),
          read: vm.read,
          state: stateName(vmState(vm)),
          ...Object.fromEntries(servicesOf(vm).map(([s, r]) => [s, service(r.json)])),
        },
      ]),
    ),
  };
  return JSON.stringify(doc) + '\n';
}

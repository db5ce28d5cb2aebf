// check_vm_fleet: every VM of a selection read in one process and judged as check_vm_cpu,
// check_vm_mem and check_vm_disk judge it (and, with --services, check_vm_snapshot, check_vm_tools
// and check_vm_lease); the plugin's own state says whether every VM was read.
import { vcdPlugin } from '../../lib/vcd/frame/vcd-plugin';
import type { RunContext } from '../../lib/plugin/context';
import { CheckError } from '../../lib/plugin/errors';
import { itemsPart, part, withParts } from '../../lib/plugin/part';
import { oneLine, type Item, type Result } from '../../lib/plugin/result';
import type { PluginDefinition } from '../../lib/plugin/run';
import { State, stateName } from '../../lib/plugin/state';
import { unjudgedMetric } from '../../lib/plugin/scalar-context';
import { submissionFailure } from '../../lib/submit/batches';
import { submitConfigFrom, type SubmitConfig } from '../../lib/submit/options';
import { openSubmission, type Submission, type SubmitOutcome } from '../../lib/submit/submit';
import { sendToZabbix } from '../../lib/submit/zabbix';
import { DOCUMENT_HEAD, DocumentWriter, documentEnd } from './document';
import { FLEET_CHECK_OPTIONS, type FleetCheckOptions } from './options';
import { passiveResultsOf } from './passive';
import { readFleet, type FleetDelivery } from './read';
import { FleetSummary } from './summary';

export const plugin: PluginDefinition<typeof FLEET_CHECK_OPTIONS> = vcdPlugin({
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
    'One session, the VM list from the query service, then one metrics request per VM, --concurrency at a time over kept-alive connections.',
    "Each VM's cpu, mem and disk results are what check_vm_cpu, check_vm_mem and check_vm_disk print for it (--output json: one object with each VM's results as those checks print them with --output json, under vms[id].cpu, .mem, .disk).",
    "--services adds snapshot, tools and lease: what check_vm_snapshot, check_vm_tools and check_vm_lease print for the VM (vms[id].snapshot, .tools, .lease; submitted as services vm-snapshot, vm-tools, vm-lease), with their options under the service's prefix (--snapshot-age-warning is check_vm_snapshot's --age-warning, --lease-warning check_vm_lease's -w). They are read from the VM list's records: tools costs no request per VM, snapshot one for a VM listed with a snapshot, lease at most one per vApp whose records lack the dates.",
    'The state is about the collection: OK when every selected VM was read, WARNING when some were not (named in the long output), UNKNOWN when none was. The long output lists the VMs that are not OK, worst first.',
    "Memory is bounded by the options, not by the fleet: each VM's results are handed on as they come (--output json is written VM by VM, the collection's state after the last; --submit icinga2 and nagios send batches while the fleet is read; --submit zabbix spools its document to a private temporary file), and the metrics documents under way hold at most --max-bytes-in-flight together.",
  ],
  // Its VM services are held back only while it fails: with vCD down it must fail, not keep a WARNING.
  failsWithVcd: true,
  run: (options, context) => runFleet(options, context),
});

async function runFleet(options: FleetCheckOptions, context: RunContext): Promise<Result> {
  const submit = submitConfigFrom(options, context);
  const submission = submit ? openSubmission(submit, context) : undefined;
  try {
    return await collectAndDeliver(options, context, submit, submission);
  } finally {
    submission?.close();
  }
}

/**
 * Reads the fleet and hands each VM's results on as they come: to stdout (--output json), to
 * the engine (--submit) and to the summary, which alone is kept. The status line and the end
 * of the document follow the last VM.
 */
async function collectAndDeliver(options: FleetCheckOptions, context: RunContext, submit: SubmitConfig, submission: Submission | undefined): Promise<Result> {
  const started = Date.now();
  const compact = options.compact === true;
  const summary = new FleetSummary();
  const toStdout = options.output === 'json' ? context.openOutput : undefined;
  let stdout: DocumentWriter | undefined;
  const toEngine = submission?.document;
  toEngine?.write(DOCUMENT_HEAD);
  const engineDocument = toEngine && new DocumentWriter((text) => toEngine.write(text), compact);
  const seconds = () => (Date.now() - started) / 1000;
  const delivery: FleetDelivery = {
    async deliver(vm, index) {
      summary.add(vm, index);
      // Opened with the first VM: a failure before (login, the list) prints as any failure does.
      if (toStdout && !stdout) {
        const writer = (stdout = new DocumentWriter((text) => write(text), compact));
        const write = toStdout(DOCUMENT_HEAD, (result) => writer.take() + documentEnd(result));
      }
      stdout?.add(vm);
      engineDocument?.add(vm);
      if (submission && vm.read) await submission.add(passiveResultsOf([vm]));
    },
    // What was read stands even if -t comes while the VMs not read are handed on or the session
    // is closed (a hand-over to an engine still to come does not: it is said as a timeout).
    collected: (collection) => {
      if (!submission) context.holdResult?.(() => summary.result(collection, seconds(), options.concurrency));
    },
  };
  const { cfg, collection } = await readFleet(options, context, delivery, submit !== undefined).catch((error: unknown) =>
    reportFailure(submit, error, context),
  );
  const collected = summary.result(collection, seconds(), cfg.concurrency);
  if (toStdout && !stdout) toStdout(DOCUMENT_HEAD, documentEnd);
  if (!submission) return collected;
  toEngine?.write((engineDocument?.take() ?? '') + documentEnd(collected));
  return withSubmission(collected, await submitFleet(submission, collection.judged, context));
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

/** Sends what is left to the engine; a failure says how far the collection and the hand-over got. */
async function submitFleet(submission: Submission, read: number, context: RunContext): Promise<SubmitOutcome> {
  try {
    return await submission.finish();
  } catch (error) {
    if (!(error instanceof CheckError) || context.signal.aborted) throw error;
    throw submissionFailure(error, read, submission.submitted);
  }
}

/**
 * The collection's result with what reached the engine: the count on the status line and in
 * perfdata; results the engine has no service for (VMs created since the last discovery) make
 * it WARNING, named in the long output.
 */
function withSubmission(result: Result, outcome: SubmitOutcome): Result {
  const metrics = [unjudgedMetric('submitted', outcome.submitted, { min: 0 })];
  const submitted = `${plural(outcome.submitted, 'result')} submitted to ${outcome.engine}`;
  if (outcome.missingCount === 0) return withParts(result, [{ ...part(submitted), metrics }]);
  const text = `${submitted}, ${outcome.missingCount} not: ${outcome.engine} has no services for ${plural(outcome.missingHosts, 'VM')} (rerun the discovery)`;
  const items: Item[] = outcome.missing.map(({ host, services }) => ({
    name: host,
    state: State.WARNING,
    text: `${host}: no ${services.join(', ')} in ${outcome.engine}; rerun the discovery to add the VM`,
  }));
  // The VMs not named (beyond MAX_MISSING_NAMED) are counted with the items left out.
  const leftOut = (result.itemsLeftOut ?? 0) + outcome.missingHosts - items.length;
  // The VMs the engine lacks come first in the long output.
  return { ...withParts(result, [itemsPart(text, items, { metrics })]), items: [...items, ...(result.items ?? [])], itemsLeftOut: leftOut };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

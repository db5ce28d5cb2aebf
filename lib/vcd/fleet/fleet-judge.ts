// Each VM of a fleet judged from its one metrics document by the three VM checks' own
// profiles and judge, and from its query record (and the one section it may need) by the
// hygiene checks' own services, and said in the very words each single check prints for it.
import type { RunContext } from '../../plugin/context';
import { Notes } from '../../plugin/notes';
import { partOf } from '../../plugin/part';
import { redactResult, runRedactor } from '../../plugin/redact';
import { jsonDocument, renderNagios, renderNagiosParts, type Result } from '../../plugin/result';
import { failureResult } from '../../plugin/run';
import { State } from '../../plugin/state';
import type { FleetAnswer } from './fleet-collect';
import type { FleetService, FleetVmResult, JsonResult, MetricService, ServiceResult } from './fleet-result';
import type { HygieneService } from '../hygiene/hygiene-service';
import type { VmCheckProfile } from '../vm/profile';
import type { VmCheckConfig } from '../vm/vm-config';
import { judge } from '../vm/vm-judge';
import type { VmRecord } from '../inventory/vm-query';
import type { SessionGet } from '../api/session-reads';

/** A metrics service of the fleet: the single check's profile and its config as that check would make it. */
export interface MetricJudge {
  service: MetricService;
  profile: VmCheckProfile;
  cfg: VmCheckConfig;
}

/** A hygiene service of the fleet: the single check's service, its options already made into thresholds. */
export interface HygieneJudge {
  service: HygieneService['name'];
  hygiene: HygieneService;
}

/** One service of the fleet, judged as its single check judges it. */
export type FleetJudge = MetricJudge | HygieneJudge;

/** The name on the status line of a judge's single check (VM_CPU, VM_SNAPSHOT, ...). */
export function judgeLabel(judge: FleetJudge): string {
  return 'hygiene' in judge ? judge.hygiene.label : judge.profile.name;
}

/** What judging a fleet's VMs shares. */
export interface FleetJudging {
  /** One per service, in the order of FLEET_SERVICES. */
  judges: readonly FleetJudge[];
  /** The vCD origin, for the messages that name a VM's metrics URL. */
  origin: string;
  context: Pick<RunContext, 'signal' | 'deadline' | 'timeoutSeconds' | 'setPhase' | 'addSecret'>;
  /** What a single check adds after judging (the session-cache item when sessions cannot be kept). */
  after(result: Result): Result;
  /** A VM's own powered-off state (its inventory host's), where it has one; the judges' otherwise. */
  poweredOff?: ReadonlyMap<string, State>;
}

/** A result in the words of the single check named `label` (VM_CPU): its plugin text and its --output json object, secrets redacted. */
export function serviceResult(label: string, result: Result): ServiceResult {
  const clean = redactResult(result, runRedactor);
  // Kept for the whole run, so copied out of the answer: a metric's name read from the document
  // is a view of it, and a text built from that name would keep every document in memory.
  const json = JSON.parse(JSON.stringify(jsonDocument(label, clean))) as JsonResult;
  const parts = renderNagiosParts(label, clean);
  const sweep = (lines: string[]) => lines.map((line) => runRedactor.sweep(line));
  return {
    code: clean.state,
    text: runRedactor.sweep(renderNagios(label, clean)),
    parts: { output: runRedactor.sweep(parts.output), perfdata: sweep(parts.perfdata), longOutput: sweep(parts.longOutput) },
    json,
  };
}

/** The worst state of a VM's services. */
export function vmState(vm: FleetVmResult): State {
  return partOf(
    undefined,
    Object.values(vm.services).map((s) => ({ state: s.code })),
  ).state;
}

/**
 * One service's result for one VM. A metrics service judges the VM's metrics answer (absent
 * only when no metrics service is selected); a hygiene service the VM's query record, reading
 * the one section the record does not answer for through `get`.
 */
async function judgeService(j: FleetJudging, judged: FleetJudge, vm: VmRecord, answer: FleetAnswer | undefined, get: SessionGet): Promise<Result> {
  // The VM's own powered-off state from the inventory, as its host in the engine has it (Tools and the metrics services take it).
  const off = j.poweredOff?.get(vm.id);
  if ('hygiene' in judged) return judged.hygiene.judge({ id: vm.id, hygiene: vm.hygiene, status: vm.status, label: vm.id, poweredOff: off }, get, Date.now());
  if (answer === undefined) throw new Error(`no metrics read for the ${judged.service} service`);
  if (answer instanceof Error) throw answer;
  // The single check's own context, quiet: its notes show only at -v, which its text here does not have.
  const context: RunContext = { ...j.context, verbose: 0, notes: new Notes(), log: () => undefined };
  const { profile } = judged;
  const cfg = off === undefined ? judged.cfg : { ...judged.cfg, poweredOff: off, poweredOffGiven: true };
  return judge(profile, { ...cfg, vm: vm.id, vmLabel: vm.id }, context, answer, get, `${j.origin}/api/vApp/${vm.id}/metrics/current`);
}

/** Judges one VM for each service, as the single check run with `--vm <id>` would. */
export async function judgeFleetVm(j: FleetJudging, vm: VmRecord, answer: FleetAnswer | undefined, get: SessionGet): Promise<FleetVmResult> {
  const services: Partial<Record<FleetService, ServiceResult>> = {};
  for (const judged of j.judges) {
    let result: Result;
    try {
      result = j.after(await judgeService(j, judged, vm, answer, get));
    } catch (error) {
      result = failureResult(error, 0);
    }
    services[judged.service] = serviceResult(judgeLabel(judged), result);
  }
  return { ...recordPart(vm), read: true, services };
}

/** Stands for a VM's id in the results of VMs not read: as long as an id (`vm-<guid>`), never one (x is no hex digit). */
const ID_PLACEHOLDER = 'vm-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';

type Services = Partial<Record<FleetService, ServiceResult>>;

/** The results of a VM not read, made once per cause: a run cut by -t may leave most of 100,000 VMs unread, each said alike. */
const unreadTemplates = new WeakMap<FleetJudging, Map<string, Services>>();

/** A template's texts with the VM's id in place of the placeholder. */
function withId(template: ServiceResult, id: string): ServiceResult {
  const put = (text: string) => text.split(ID_PLACEHOLDER).join(id);
  const { code, text, parts, json } = template;
  return {
    code,
    text: put(text),
    parts: { output: put(parts.output), perfdata: parts.perfdata.map(put), longOutput: parts.longOutput.map(put) },
    // A result without metrics: the id is in its summary, at most in its items.
    json: { ...json, summary: put(json.summary), items: json.items.map((i) => ({ ...i, name: put(i.name), text: put(i.text) })) },
  };
}

/** A VM that was not read: each service UNKNOWN, saying why. */
export function unreadFleetVm(j: FleetJudging, vm: VmRecord, why: string): FleetVmResult {
  let byWhy = unreadTemplates.get(j);
  if (!byWhy) unreadTemplates.set(j, (byWhy = new Map()));
  // Ids are `vm-<guid>` (vm-query.ts), as long as the placeholder: a summary cut to its length is cut alike.
  const templated = vm.id.length === ID_PLACEHOLDER.length && !why.includes(ID_PLACEHOLDER);
  let template = templated ? byWhy.get(why) : undefined;
  if (!template) {
    template = {};
    const id = templated ? ID_PLACEHOLDER : vm.id;
    for (const judged of j.judges) template[judged.service] = serviceResult(judgeLabel(judged), { state: State.UNKNOWN, summary: `${id}: ${why}` });
    if (!templated) return { ...recordPart(vm), read: false, services: template };
    // Causes are few (the cut-off, a handful of refusals); a hostile server's many distinct ones are not all kept.
    if (byWhy.size < 64) byWhy.set(why, template);
  }
  const services: Services = {};
  for (const [service, result] of Object.entries(template) as [FleetService, ServiceResult][]) services[service] = withId(result, vm.id);
  return { ...recordPart(vm), read: false, services };
}

/** What the result of a VM says of its record. */
function recordPart(vm: VmRecord): Omit<FleetVmResult, 'read' | 'services'> {
  return { id: vm.id, name: vm.name, vapp: vm.vapp, ...(vm.org ? { org: vm.org } : {}), status: vm.status };
}

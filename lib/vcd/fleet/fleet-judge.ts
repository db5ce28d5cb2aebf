// Each VM of a fleet judged from its one metrics document by the three VM checks' own
// profiles and judge, and said in the very words each single check prints for it.
import type { RunContext } from '../../plugin/context';
import { Notes } from '../../plugin/notes';
import { redactResult, runRedactor } from '../../plugin/redact';
import { jsonDocument, renderNagios, renderNagiosParts, type Result } from '../../plugin/result';
import { failureResult } from '../../plugin/run';
import { State } from '../../plugin/state';
import { worstOf } from '../../plugin/subcheck';
import type { FleetAnswer } from './fleet-collect';
import type { FleetService, FleetVmResult, JsonResult, ServiceResult } from './fleet-result';
import type { VmCheckProfile } from '../vm/profile';
import type { VmCheckConfig } from '../vm/vm-config';
import { judge } from '../vm/vm-judge';
import type { VmRecord } from '../inventory/vm-query';
import type { SessionGet } from '../vm/vm-record';

/** One service of the fleet: the single check's profile and its config as that check would make it. */
export interface FleetJudge {
  service: FleetService;
  profile: VmCheckProfile;
  cfg: VmCheckConfig;
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

/** A result in the single check's words: its plugin text and its --output json object, secrets redacted. */
export function serviceResult(profile: VmCheckProfile, result: Result): ServiceResult {
  const clean = redactResult(result, runRedactor);
  // Kept for the whole run, so copied out of the answer: a metric's name read from the document
  // is a view of it, and a text built from that name would keep every document in memory.
  const json = JSON.parse(JSON.stringify(jsonDocument(profile.name, clean))) as JsonResult;
  const parts = renderNagiosParts(profile.name, clean);
  const sweep = (lines: string[]) => lines.map((line) => runRedactor.sweep(line));
  return {
    code: clean.state,
    text: runRedactor.sweep(renderNagios(profile.name, clean)),
    parts: { output: runRedactor.sweep(parts.output), perfdata: sweep(parts.perfdata), longOutput: sweep(parts.longOutput) },
    json,
  };
}

/** The worst state of a VM's services. */
export function vmState(vm: FleetVmResult): State {
  return worstOf(Object.values(vm.services).map((s) => ({ state: s.code })));
}

/** Judges one VM's answer for each service, as the single check run with `--vm <id>` would. */
export async function judgeFleetVm(j: FleetJudging, vm: VmRecord, answer: FleetAnswer, get: SessionGet): Promise<FleetVmResult> {
  const services = {} as Record<FleetService, ServiceResult>;
  const off = j.poweredOff?.get(vm.id);
  for (const judged of j.judges) {
    const { service, profile } = judged;
    const cfg = off === undefined ? judged.cfg : { ...judged.cfg, poweredOff: off, poweredOffGiven: true };
    let result: Result;
    try {
      if (answer instanceof Error) throw answer;
      // The single check's own context, quiet: its notes show only at -v, which its text here does not have.
      const context: RunContext = { ...j.context, verbose: 0, notes: new Notes(), log: () => undefined };
      const judged = await judge(profile, { ...cfg, vm: vm.id, vmLabel: vm.id }, context, answer, get, `${j.origin}/api/vApp/${vm.id}/metrics/current`);
      result = j.after(judged);
    } catch (error) {
      result = failureResult(error, 0);
    }
    services[service] = serviceResult(profile, result);
  }
  return { id: vm.id, name: vm.name, vapp: vm.vapp, ...(vm.org ? { org: vm.org } : {}), status: vm.status, read: true, services };
}

/** A VM whose metrics were not read: each service UNKNOWN, saying why. */
export function unreadFleetVm(j: FleetJudging, vm: VmRecord, why: string): FleetVmResult {
  const services = {} as Record<FleetService, ServiceResult>;
  for (const { service, profile } of j.judges) services[service] = serviceResult(profile, { state: State.UNKNOWN, summary: `${vm.id}: ${why}` });
  return { id: vm.id, name: vm.name, vapp: vm.vapp, ...(vm.org ? { org: vm.org } : {}), status: vm.status, read: false, services };
}

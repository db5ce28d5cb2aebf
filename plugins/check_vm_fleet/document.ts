// check_vm_fleet's `--output json` document (and the value --submit zabbix sends), written VM by
// VM as the results come: `{"vms":{"<id>":{…},…},"state":…,"code":…,"summary":…,"metrics":[…]}`.
// The collection's state and figures (VMs read, seconds: what the templates' graphs draw) come
// last, as they are known last; readers take the fields by name.
import { blankControlCharacters } from '../../lib/plugin/control-characters';
import { oneLine, type Result } from '../../lib/plugin/result';
import { State, stateName } from '../../lib/plugin/state';
import { vmState } from '../../lib/vcd/fleet/fleet-judge';
import { servicesOf, type FleetVmResult, type JsonResult } from '../../lib/vcd/fleet/fleet-result';

/** The document's opening, before the first VM. */
export const DOCUMENT_HEAD = '{"vms":{';

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

/** One VM's member of `vms`: its record's names (inert), whether it was read, its state and its selected services' single-check objects (--compact: their judged parts). */
export function vmMember(vm: FleetVmResult, compact: boolean): string {
  const service = (json: JsonResult) => (compact ? compactService(json) : json);
  const entry = {
    name: blankControlCharacters(vm.name),
    vapp: blankControlCharacters(vm.vapp),
    ...(vm.org === undefined ? {} : { org: blankControlCharacters(vm.org) }),
    status: blankControlCharacters(vm.status),
    read: vm.read,
    state: stateName(vmState(vm)),
    ...Object.fromEntries(servicesOf(vm).map(([s, r]) => [s, service(r.json)])),
  };
  return `${JSON.stringify(vm.id)}:${JSON.stringify(entry)}`;
}

/** The document's end: the collection's state, summary and perfdata figures (label and value) after the last VM. */
export function documentEnd(result: Pick<Result, 'state' | 'summary' | 'metrics'>): string {
  const metrics = (result.metrics ?? []).map(({ label, value }) => ({ label, value: value === null || !Number.isFinite(value) ? null : value }));
  return `},"state":${JSON.stringify(stateName(result.state))},"code":${result.state},"summary":${JSON.stringify(oneLine(result.summary))},"metrics":${JSON.stringify(metrics)}}\n`;
}

/** Text gathered before a write: one write per this many characters, not one per VM. */
const WRITE_CHARS = 64 * 1024;

/** Writes the members of `vms` one by one, commas between, to `write` (after DOCUMENT_HEAD), a few dozen kilobytes at a time. */
export class DocumentWriter {
  private first = true;
  private pending = '';

  constructor(
    private readonly write: (text: string) => void,
    private readonly compact: boolean,
  ) {}

  add(vm: FleetVmResult): void {
    this.pending += `${this.first ? '' : ','}${vmMember(vm, this.compact)}`;
    this.first = false;
    if (this.pending.length >= WRITE_CHARS) this.write(this.take());
  }

  /** What was added and not written yet: the caller writes it before the end. */
  take(): string {
    const text = this.pending;
    this.pending = '';
    return text;
  }
}

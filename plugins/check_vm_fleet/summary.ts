// What check_vm_fleet keeps of its VMs while it hands their results on: the counts per state,
// why the first VM not read was not, and the VMs that are not OK (at most as many as the long
// output shows, worst first, equals in the list's order). Memory holds these whatever the fleet.
import { formatDecimal } from '../../lib/plugin/number-format';
import type { Metric } from '../../lib/plugin/perfdata';
import { MAX_ITEMS, oneLine, type Item, type Result } from '../../lib/plugin/result';
import { unjudgedMetric } from '../../lib/plugin/scalar-context';
import { PROBLEM_STATES, State, stateName } from '../../lib/plugin/state';
import type { FleetCollection } from '../../lib/vcd/fleet/fleet-collect';
import { vmState } from '../../lib/vcd/fleet/fleet-judge';
import { servicesOf, type FleetVmResult } from '../../lib/vcd/fleet/fleet-result';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A VM that is not OK, as its long-output line, with its place in the list. */
interface Problem {
  index: number;
  item: Item;
}

/** Problems a state's list may hold beyond MAX_ITEMS before it is cut back (a sort every so many). */
const TRIM_EVERY = 1000;

/** The counts and the bounded list of problems of the VMs seen so far. */
export class FleetSummary {
  readonly counts = [0, 0, 0, 0];
  total = 0;
  unread = 0;
  /** The words of the first VM (in the list) that was not read. */
  private firstUnread: { index: number; why: string } | undefined;
  private readonly problems = new Map<State, Problem[]>(PROBLEM_STATES.map((s) => [s, []]));
  /** Per state, the place in the list beyond which no problem can be shown any more (MAX_ITEMS before it are kept). */
  private readonly shownUpTo = new Map<State, number>();

  /** Counts one VM (its place in the list: `index`) and keeps its line if it is among the first problems of its state. */
  add(vm: FleetVmResult, index: number): void {
    const state = vmState(vm);
    this.total++;
    this.counts[state]++;
    if (!vm.read) {
      this.unread++;
      if (this.firstUnread === undefined || index < this.firstUnread.index) this.firstUnread = { index, why: unreadWhy(vm) };
    }
    if (state === State.OK) return;
    // Only the first MAX_ITEMS of a state (in the list's order) can be shown: the rest is counted, its line never made.
    if (index > (this.shownUpTo.get(state) ?? Infinity)) return;
    const list = this.problems.get(state)!;
    list.push({ index, item: problemItem(vm, state) });
    if (list.length >= MAX_ITEMS + TRIM_EVERY) {
      const kept = firstInList(list);
      this.problems.set(state, kept);
      this.shownUpTo.set(state, kept[kept.length - 1].index);
    }
  }

  /** The VMs that are not OK, worst first, equals in the list's order: at most MAX_ITEMS, and how many more there are. */
  problemItems(undelivered = 0): { items: Item[]; leftOut: number } {
    const all = PROBLEM_STATES.flatMap((s) => firstInList(this.problems.get(s)!));
    const problems = this.counts[State.WARNING] + this.counts[State.CRITICAL] + this.counts[State.UNKNOWN];
    const items = all.slice(0, MAX_ITEMS).map((p) => p.item);
    return { items, leftOut: problems + undelivered - items.length };
  }

  /** The collection's state, summary, perfdata and the non-OK VMs, worst first. */
  result(collection: Pick<FleetCollection, 'records' | 'pages' | 'selected' | 'limited' | 'lowestConcurrency'>, seconds: number, concurrency: number): Result {
    // VMs selected and not delivered yet (-t came while the unread ones were handed on) count as not read.
    const pending = Math.max(0, collection.selected - this.total);
    const counts = this.counts.map((n, state) => (state === State.UNKNOWN ? n + pending : n));
    const total = this.total + pending;
    const unread = this.unread + pending;
    const tally = `${counts[State.OK]} OK, ${counts[State.WARNING]} WARNING, ${counts[State.CRITICAL]} CRITICAL, ${counts[State.UNKNOWN]} UNKNOWN`;
    const took = `${formatDecimal(seconds, 1)}s`;
    let state: State;
    let summary: string;
    if (total === 0) {
      state = State.UNKNOWN;
      summary = `no VM to check: the query service lists ${plural(collection.records, 'VM record')}, none of them a VM selected by --vapp/--include/--exclude`;
    } else if (unread === total) {
      state = State.UNKNOWN;
      summary = `none of ${plural(total, 'VM')} read in ${took}: ${this.firstUnread?.why ?? 'metrics not read within -t by check_vm_fleet'}`;
    } else if (unread > 0) {
      state = State.WARNING;
      summary = `${total - unread} of ${plural(total, 'VM')} read in ${took}, ${unread} not (listed below): ${tally}`;
    } else {
      state = State.OK;
      summary = `${plural(total, 'VM')} read in ${took}: ${tally}`;
    }
    const metrics: Metric[] = [
      unjudgedMetric('vms', total, { min: 0 }),
      unjudgedMetric('ok', counts[State.OK], { min: 0, max: total }),
      unjudgedMetric('warning', counts[State.WARNING], { min: 0, max: total }),
      unjudgedMetric('critical', counts[State.CRITICAL], { min: 0, max: total }),
      unjudgedMetric('unknown', counts[State.UNKNOWN], { min: 0, max: total }),
      unjudgedMetric('seconds', Math.round(seconds * 1000) / 1000, { uom: 's', min: 0 }),
    ];
    const notes = [`${plural(collection.records, 'VM record')} in ${plural(collection.pages, 'page')}`, `concurrency ${concurrency}`];
    if (collection.limited > 0)
      notes.push(
        `${plural(collection.limited, 'OPERATION_LIMITS_EXCEEDED answer')}: down to ${collection.lowestConcurrency} request${collection.lowestConcurrency === 1 ? '' : 's'} at a time`,
      );
    const { items, leftOut } = this.problemItems(pending);
    return { state, summary, metrics, items, ...(leftOut > 0 ? { itemsLeftOut: leftOut } : {}), notes };
  }
}

/** The first MAX_ITEMS problems in the list's order. */
function firstInList(list: Problem[]): Problem[] {
  return list.sort((a, b) => a.index - b.index).slice(0, MAX_ITEMS);
}

/** Why a VM was not read, in its services' words without its id. */
function unreadWhy(vm: FleetVmResult): string {
  return (servicesOf(vm)[0]?.[1].json.summary ?? '').replace(/^vm-[0-9a-f-]+: /, '');
}

/** One long-output line for a VM that is not OK: its name (inert), id, vApp, organisation (when listed) and the summaries of its services that are not OK. */
function problemItem(vm: FleetVmResult, state: State): Item {
  // The states of the services that are not OK, and the words of the worst (the first of equals).
  const bad = servicesOf(vm).filter(([, r]) => r.code !== State.OK);
  const worst = bad.find(([, r]) => r.code === state) ?? bad[0];
  const text = vm.read ? `${bad.map(([s, r]) => `${s} ${stateName(r.code)}`).join(', ')}: ${worst[1].json.summary}` : unreadWhy(vm);
  const org = vm.org === undefined ? '' : `, org ${oneLine(vm.org, 128)}`;
  return { name: vm.id, state, text: `${oneLine(vm.name, 128)} (${vm.id}, vApp ${oneLine(vm.vapp, 128)}${org}): ${text}` };
}

// check_vm_fleet's summary: the counts, the collection's state and words, and the bounded list of
// the VMs that are not OK (worst first, equals in the list's order) that the fleet keeps while it
// hands each VM's results on.
import { describe, expect, it } from 'vitest';
import { MAX_ITEMS } from '../../../lib/plugin/result';
import { State } from '../../../lib/plugin/state';
import type { FleetVmResult, ServiceResult } from '../../../lib/vcd/fleet/fleet-result';
import { FleetSummary } from '../../../plugins/check_vm_fleet/summary';

const NAMES = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'];

/** One service's result as the single check would give it (what the summary reads of it: the code and the JSON summary). */
function service(code: State, summary: string): ServiceResult {
  return {
    code,
    text: `${NAMES[code]} - ${summary}\n`,
    parts: { status: `${NAMES[code]} - ${summary}`, perfdata: [], long: [] } as unknown as ServiceResult['parts'],
    json: { name: 'VM_CPU', state: NAMES[code], code, summary, items: [], metrics: [] },
  };
}

const id = (n: number) => `vm-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function vm(n: number, cpu: State, mem: State = State.OK, read = true): FleetVmResult {
  return {
    id: id(n),
    name: `web-${n}`,
    vapp: 'shop',
    status: 'POWERED_ON',
    read,
    services: {
      cpu: service(cpu, read ? `cpu usage ${cpu * 30}% (current) on ${id(n)}` : `${id(n)}: metrics not read within -t 10s by check_vm_fleet`),
      mem: service(read ? mem : State.UNKNOWN, read ? 'memory ok' : `${id(n)}: metrics not read within -t 10s by check_vm_fleet`),
    },
  };
}

const collection = (selected: number, more: Partial<{ records: number; pages: number; limited: number; lowestConcurrency: number }> = {}) => ({
  records: selected,
  pages: 1,
  selected,
  limited: 0,
  lowestConcurrency: 8,
  ...more,
});

describe('FleetSummary', () => {
  it('every VM read: OK, the tally in the status line, the counts in perfdata', () => {
    const summary = new FleetSummary();
    [vm(1, State.OK), vm(2, State.OK), vm(3, State.WARNING)].forEach((v, i) => summary.add(v, i));
    const result = summary.result(collection(3, { pages: 2 }), 1.234, 8);
    expect(result.state).toBe(State.OK);
    expect(result.summary).toBe('3 VMs read in 1.2s: 2 OK, 1 WARNING, 0 CRITICAL, 0 UNKNOWN');
    expect(result.metrics?.map((m) => [m.label, m.value, m.max])).toEqual([
      ['vms', 3, undefined],
      ['ok', 2, 3],
      ['warning', 1, 3],
      ['critical', 0, 3],
      ['unknown', 0, 3],
      ['seconds', 1.234, undefined],
    ]);
    expect(result.notes).toEqual(['3 VM records in 2 pages', 'concurrency 8']);
    expect(result.items).toEqual([
      {
        name: id(3),
        state: State.WARNING,
        text: `web-3 (${id(3)}, vApp shop): cpu WARNING: cpu usage 30% (current) on ${id(3)}`,
      },
    ]);
  });

  it('lists the problems worst first, equals in the list order whatever order they came in', () => {
    const summary = new FleetSummary();
    summary.add(vm(4, State.WARNING), 4);
    summary.add(vm(2, State.CRITICAL, State.WARNING), 2);
    summary.add(vm(1, State.WARNING), 1);
    summary.add(vm(3, State.OK), 3);
    summary.add(vm(0, State.CRITICAL), 0);
    const { items } = summary.result(collection(5), 2, 4);
    expect(items?.map((i) => [i.name, i.state])).toEqual([
      [id(0), State.CRITICAL],
      [id(2), State.CRITICAL],
      [id(1), State.WARNING],
      [id(4), State.WARNING],
    ]);
    // A VM with several problems names each service's state and the worst one's words.
    expect(items?.[1].text).toBe(`web-2 (${id(2)}, vApp shop): cpu CRITICAL, mem WARNING: cpu usage 60% (current) on ${id(2)}`);
  });

  it('some VMs not read: WARNING naming how many; none read: UNKNOWN saying why the first was not', () => {
    const some = new FleetSummary();
    [vm(1, State.OK), vm(2, State.UNKNOWN, State.OK, false), vm(3, State.OK)].forEach((v, i) => some.add(v, i));
    const partly = some.result(collection(3), 10, 8);
    expect(partly.state).toBe(State.WARNING);
    expect(partly.summary).toBe('2 of 3 VMs read in 10s, 1 not (listed below): 2 OK, 0 WARNING, 0 CRITICAL, 1 UNKNOWN');
    expect(partly.items?.[0].text).toBe(`web-2 (${id(2)}, vApp shop): metrics not read within -t 10s by check_vm_fleet`);

    const none = new FleetSummary();
    none.add(vm(7, State.UNKNOWN, State.OK, false), 1);
    none.add(vm(6, State.UNKNOWN, State.OK, false), 0);
    const nothing = none.result(collection(2), 10, 8);
    expect(nothing.state).toBe(State.UNKNOWN);
    expect(nothing.summary).toBe('none of 2 VMs read in 10s: metrics not read within -t 10s by check_vm_fleet');
  });

  it('VMs selected but not delivered when -t came count as not read', () => {
    const summary = new FleetSummary();
    summary.add(vm(1, State.OK), 0);
    const result = summary.result(collection(3), 9.5, 8);
    expect(result.state).toBe(State.WARNING);
    expect(result.summary).toBe('1 of 3 VMs read in 9.5s, 2 not (listed below): 1 OK, 0 WARNING, 0 CRITICAL, 2 UNKNOWN');
    expect(result.metrics?.find((m) => m.label === 'unknown')?.value).toBe(2);
    expect(result.itemsLeftOut).toBe(2);
  });

  it('no VM selected: UNKNOWN naming the records and the selection options', () => {
    const result = new FleetSummary().result(collection(0, { records: 5 }), 0.5, 8);
    expect(result.state).toBe(State.UNKNOWN);
    expect(result.summary).toBe('no VM to check: the query service lists 5 VM records, none of them a VM selected by --vapp/--include/--exclude');
  });

  it('keeps at most MAX_ITEMS problem lines, counting the rest, and says the concurrency it came down to', () => {
    const summary = new FleetSummary();
    const n = MAX_ITEMS + 1500;
    for (let i = n - 1; i >= 0; i--) summary.add(vm(i, State.CRITICAL), i);
    const result = summary.result(collection(n, { limited: 3, lowestConcurrency: 1 }), 30, 8);
    expect(result.state).toBe(State.OK);
    expect(result.items).toHaveLength(MAX_ITEMS);
    expect(result.items?.[0].name).toBe(id(0));
    expect(result.items?.at(-1)?.name).toBe(id(MAX_ITEMS - 1));
    expect(result.itemsLeftOut).toBe(1500);
    expect(result.notes).toContain('3 OPERATION_LIMITS_EXCEEDED answers: down to 1 request at a time');
  });
});

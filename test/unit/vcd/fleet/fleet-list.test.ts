import { describe, expect, it } from 'vitest';
import { FleetList } from '../../../../lib/vcd/fleet/fleet-list';
import { selectVms, type DiscoverySelection } from '../../../../lib/vcd/inventory/discovery';
import type { VmRecord } from '../../../../lib/vcd/inventory/vm-query';

/** A small deterministic generator: the same records on every run. */
function generator(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const hex = (random: () => number, n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');

/** Listed records as a paging server may send them: duplicate ids (the later one changed), templates, names alike across vApps and organisations. */
function listing(size: number, seed: number): VmRecord[] {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const records: VmRecord[] = [];
  for (let i = 0; i < size; i++) {
    const again = records.length > 0 && random() < 0.1 ? pick(records) : undefined;
    const id = again?.id ?? `vm-${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`;
    records.push({
      id,
      name: pick(['web-01', 'web-02', 'db', 'Web & DB 01', 'twin', 'é-ünïcode', 'a'.repeat(128), `node-${i}`]),
      vapp: pick(['vapp-01', 'vapp-02', 'Sales & Marketing', '']),
      status: pick(['POWERED_ON', 'POWERED_OFF', 'SUSPENDED']),
      template: random() < 0.05,
      org: pick(['acme', 'globex', '']),
    });
  }
  return records;
}

const selections: DiscoverySelection[] = [
  {},
  { vapp: 'vapp-02' },
  { include: /^web/ },
  { exclude: /db/i },
  { vapp: 'Sales & Marketing', include: /./, exclude: /twin/ },
];

describe('FleetList', () => {
  it.each(selections.map((s, n) => [n, s] as const))('selects and orders as selectVms does (selection %i)', (_, selection) => {
    for (const seed of [1, 2, 3]) {
      const records = listing(2000, seed);
      const list = new FleetList(selection);
      for (const r of records) list.add({ ...r });
      const expected = selectVms(records, selection);
      expect(list.records).toBe(records.length);
      expect(list.length).toBe(expected.length);
      expect(Array.from({ length: list.length }, (_, i) => list.vm(i))).toEqual(expected.map((r) => ({ ...r })));
    }
  });

  it('keeps an id not of the vm-<guid> form whole, and a listing without organisations says none', () => {
    const list = new FleetList({});
    list.add({ id: 'vm-not-a-guid', name: 'b', vapp: 'x', status: 'POWERED_ON', template: false });
    list.add({ id: 'vm-00000000-0000-4000-8000-000000000001', name: 'a', vapp: 'x', status: 'POWERED_ON', template: false });
    list.add({ id: 'vm-not-a-guid', name: 'c', vapp: 'x', status: 'POWERED_OFF', template: false });
    expect([list.vm(0), list.vm(1)]).toEqual([
      { id: 'vm-00000000-0000-4000-8000-000000000001', name: 'a', vapp: 'x', status: 'POWERED_ON', template: false },
      { id: 'vm-not-a-guid', name: 'c', vapp: 'x', status: 'POWERED_OFF', template: false },
    ]);
    expect(list.length).toBe(2);
  });

  it('is empty when nothing is listed', () => {
    const list = new FleetList({});
    expect(list.length).toBe(0);
    expect(list.records).toBe(0);
  });
});

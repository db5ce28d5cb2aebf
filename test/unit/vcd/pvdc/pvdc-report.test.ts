// check_pvdc's judgement: each basis against capacity, disabled and not-ready provider VDCs,
// the org VDC count, figures unknown (said, U) never 0, and labels unique across the output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPerfdata } from '../../../../lib/plugin/perfdata';
import { MAX_ITEMS, renderNagios } from '../../../../lib/plugin/result';
import { ScalarContext } from '../../../../lib/plugin/scalar-context';
import { State } from '../../../../lib/plugin/state';
import { parseProviderVdcReservations } from '../../../../lib/vcd/pvdc/pvdc-capacity';
import { selectProviderVdcs, type PvdcReading } from '../../../../lib/vcd/pvdc/pvdc-probe';
import { parseProviderStoragePolicyRecords, parseProviderVdcRecords } from '../../../../lib/vcd/pvdc/pvdc-query';
import { judgeProviderVdcs, MAX_PERFDATA_VALUES, type PvdcThresholds } from '../../../../lib/vcd/pvdc/pvdc-report';
import { namePart } from '../../../../lib/plugin/perfdata-labels';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd/provider', name), 'utf8');
const ctx = () => ScalarContext.fromOptions({ warning: '80', critical: '90' });
const T: PvdcThresholds = { cpu: ctx(), memory: ctx(), storage: ctx() };

/** The fixtures' provider VDCs, each with its storage policies (grouped as the probe does). */
function readings(records: string, policies: string): PvdcReading[] {
  const pols = parseProviderStoragePolicyRecords(fixture(policies)).records;
  return parseProviderVdcRecords(fixture(records)).records.map((pvdc) => ({ pvdc, policies: pols.filter((p) => p.pvdcId === pvdc.id) }));
}
const labels = (metrics: { label: string }[] = []) => metrics.map((m) => m.label);

describe('judgeProviderVdcs', () => {
  it('used (default): CPU 89.2% WARNING, FAILED_CREATION CRITICAL, the org VDCs counted', () => {
    const r = judgeProviderVdcs(readings('providerVdc-records-schema-api39.1.xml', 'providerVdcStorageProfile-records-schema-api39.1.xml'), T, 'used');
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(
      /^2 provider VDCs: pvdc-compute-a cpu 89\.2% used \(410880 MHz of 460800 MHz\), memory 87\.5% used \(5\.3 TiB of 6 TiB\); pvdc compute\/a status FAILED_CREATION; /,
    );
    expect(r.items![0].text).toMatch(/memory 87\.5% used \(5\.3 TiB of 6 TiB\).*storage tier1-nvme 48% used.*41 org VDCs/);
    // cpuLimitMhz 0 is no capacity, memoryUsedMB "n/a" unknown: said, never 0.
    expect(r.items![1].text).toMatch(
      /cpu 1200 MHz used, no capacity \(cpuLimitMhz 0\), memory used unknown \(no memoryUsedMB\), 0 org VDCs, not numbers, taken as unknown: memoryUsedMB "n\/a"/,
    );
    expect(r.summary).toMatch(/figures unknown for pvdc compute\/a/);
    const perf = formatPerfdata(r.metrics!);
    expect(perf).toMatch(/pvdc-compute-a__cpu_pct=89\.166667%;80;90;0;100 pvdc-compute-a__cpu_mhz=410880;;;0;460800 /);
    expect(perf).toMatch(/pvdc-compute-a__vdcs=41;;;0/);
    // The second name sanitises alike: its hash keeps it apart.
    const other = namePart('pvdc compute/a');
    expect(other).toMatch(/^pvdc_compute_a_h[0-9a-f]{8}$/);
    expect(perf).toContain(`${other}__memory_pct=U;80;90;0;100 ${other}__memory=U;;;0;1099511627776 `);
  });

  it('allocated: over-commitment shows above 100%, storage on storageAllocatedMB from 39.1', () => {
    const r = judgeProviderVdcs(
      readings('providerVdc-records-schema-api39.1.xml', 'providerVdcStorageProfile-records-schema-api39.1.xml').slice(0, 1),
      T,
      'allocated',
    );
    expect(r.summary).toMatch(/^provider VDC pvdc-compute-a: cpu 160% allocated .*memory 133\.3% allocated .*storage tier1-nvme 86\.7% allocated/);
    expect(r.state).toBe(State.CRITICAL);
  });

  it('allocated before 39.1: storageRequestedMB, and the one without storageTotalMB unknown', () => {
    const r = judgeProviderVdcs(readings('providerVdc-records-schema-api34.xml', 'providerVdcStorageProfile-records-schema-api34.xml'), T, 'allocated');
    expect(r.items![0].text).toMatch(/storage Gold \(vSAN\) 60% allocated/);
    expect(r.items!.find((i) => i.name === 'PVDC-Legacy')!.text).toMatch(/storage Any allocated unknown \(no storageAllocatedMB or storageRequestedMB\)/);
  });

  it('a disabled provider VDC is CRITICAL, NOT_READY WARNING; a record without figures is said, not 0', () => {
    const r = judgeProviderVdcs(readings('providerVdc-records-schema-api34.xml', 'providerVdcStorageProfile-records-schema-api34.xml'), T, 'used');
    const by = new Map(r.items!.map((i) => [i.name, i]));
    expect(by.get('PVDC-Legacy')).toMatchObject({ state: State.CRITICAL });
    expect(by.get('PVDC-Legacy')!.text).toMatch(/^PVDC-Legacy: disabled, status NOT_READY, /);
    expect(by.get('PVDC-Edge')!.text).toBe(
      'PVDC-Edge: cpu used unknown (no cpuUsedMhz), memory used unknown (no memoryUsedMB), org VDCs unknown (no numberOfVdcs)',
    );
    expect(by.get('PVDC-Edge')!.state).toBe(State.OK);
    // Gold vSAN at 95%: CRITICAL; its label and Gold (vSAN)'s are distinct.
    expect(by.get('PVDC-Gold (AMS-01)')!.text).toMatch(/^PVDC-Gold \(AMS-01\): storage Gold vSAN 95% used/);
    const all = labels(r.metrics);
    expect(new Set(all).size).toBe(all.length);
    const gold = namePart('PVDC-Gold (AMS-01)');
    expect(all).toContain(`${gold}__${namePart('Gold vSAN')}__storage_pct`);
    expect(all).toContain(`${gold}__${namePart('Gold (vSAN)')}__storage_pct`);
    const edge = namePart('PVDC-Edge');
    expect(formatPerfdata(r.metrics!)).toContain(`${edge}__cpu_pct=U;80;90;0;100 ${edge}__cpu_mhz=U;;;0;48000 `);
    expect(formatPerfdata(r.metrics!)).toContain(`${edge}__vdcs=U;;;0`);
  });

  it('reserved: from the document; a document that could not be read leaves the figures unknown', () => {
    const [gold] = readings('providerVdc-records-schema-api34.xml', 'providerVdcStorageProfile-records-schema-api34.xml');
    const reservations = parseProviderVdcReservations(fixture('VMWProviderVdc-schema-api34.xml'), 'doc');
    const r = judgeProviderVdcs([{ ...gold, reservations }], T, 'reserved');
    // Problems first: the memory reservation (CRITICAL) and the storage policy at 95%.
    expect(r.items![0].text).toMatch(/^PVDC-Gold \(AMS-01\): memory 92\.9% reserved \(3\.3 TiB of 3\.5 TiB\), storage Gold vSAN 95% used/);
    expect(r.items![0].text).toMatch(/cpu 48\.3% reserved \(296960 MHz of 614400 MHz\), storage Gold \(vSAN\) 40% used \(40 TiB of 100 TiB\), 27 org VDCs$/);
    const failed = judgeProviderVdcs([{ ...gold, reservations: { error: 'its document answered HTTP 403' } }], T, 'reserved');
    expect(failed.items![0].text).toMatch(/cpu reserved unknown \(its document answered HTTP 403\), memory reserved unknown/);
  });

  it('no provider VDC listed is UNKNOWN naming the rights', () => {
    expect(judgeProviderVdcs([], T, 'used')).toMatchObject({ state: State.UNKNOWN, summary: expect.stringMatching(/Provider VDC: View/) });
  });

  it("labels stay unique whatever the names: a provider VDC name against another one's policy", () => {
    const pvdc = (name: string, id: string, policies: string[]): Parameters<typeof judgeProviderVdcs>[0][number] => {
      const [base] = readings('providerVdc-records-schema-api34.xml', 'providerVdcStorageProfile-records-schema-api34.xml');
      return { ...base, pvdc: { ...base.pvdc, name, id }, policies: policies.map((p) => ({ ...base.policies[0], name: p, pvdcId: id })) };
    };
    const r = judgeProviderVdcs(
      [pvdc('x', 'aaaaaaaa-1', ['cpu', 'y']), pvdc('x storage', 'bbbbbbbb-2', ['cpu']), pvdc('x_storage', 'cccccccc-3', [])],
      T,
      'used',
    );
    const all = labels(r.metrics);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('a page of 100,000 provider VDC records', () => {
  // One query per record type whatever the count: the page is read and judged in one pass, with
  // no work per pair of records. The time is printed (figures belong to the bench), not asserted.
  it('is read and judged: every record, what is kept bounded, every label unique', { timeout: 120_000 }, () => {
    const records = Array.from(
      { length: 100_000 },
      (_, i) =>
        `<VMWProviderVdcRecord href="https://x/api/admin/providervdc/00000000-0000-4000-8000-${String(i).padStart(12, '0')}" name="pvdc-${i % 50_000}" isEnabled="true" status="READY" cpuUsedMhz="${i % 1000}" cpuLimitMhz="1000" cpuAllocationMhz="500" memoryUsedMB="100" memoryLimitMB="1000" memoryAllocationMB="100" numberOfVdcs="1"/>`,
    ).join('');
    const start = performance.now();
    const page = parseProviderVdcRecords(`<QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" total="100000">${records}</QueryResultRecords>`);
    const r = judgeProviderVdcs(
      page.records.map((pvdc) => ({ pvdc, policies: [] })),
      T,
      'used',
    );
    console.log(`100,000 provider VDC records parsed and judged in ${Math.round(performance.now() - start)} ms`);
    expect(r.summary).toMatch(/^100000 provider VDCs: pvdc-801 cpu 80\.1% used .* … \d+ more/);
    // What is kept is what the output prints: 20,000 problems (cpu 80% and more) take the
    // places of the OK lines, the rest is counted; perfdata of the first 200 (5 values each).
    expect(r.items).toHaveLength(MAX_ITEMS - 1);
    expect(r.itemsLeftOut).toBe(100_000 - (MAX_ITEMS - 2));
    expect(r.items![0]).toMatchObject({ name: 'perfdata', state: State.OK });
    expect(r.items![0].text).toMatch(/^perfdata for the first 200 of 100000 provider VDCs \(1000 values, at most 1000\): the others with --pvdc/);
    expect(r.items!.slice(1).every((i) => i.state === State.WARNING || i.state === State.CRITICAL)).toBe(true);
    expect(r.items![1].text).toMatch(/^pvdc-801: cpu 80\.1% used/);
    const all = labels(r.metrics);
    expect(all).toHaveLength(MAX_PERFDATA_VALUES);
    expect(new Set(all).size).toBe(all.length);
    const out = renderNagios('PVDC', r).split('\n');
    expect(out.at(-2)).toBe(`… ${100_000 - (MAX_ITEMS - 2)} more lines`);
  });

  it('the OK lines stay in the order listed while there is room, and a problem never gives way', () => {
    const n = MAX_ITEMS + 10;
    const [base] = parseProviderVdcRecords(fixture('providerVdc-records-schema-api34.xml')).records;
    const calm = { ...base, memory: { ...base.memory, used: 1 } };
    const pvdcs = Array.from({ length: n }, (_, i) => ({ pvdc: { ...calm, id: `id-${i}`, name: `p${i}`, enabled: i !== n - 1 }, policies: [] }));
    const r = judgeProviderVdcs(pvdcs, T, 'used');
    const names = r.items!.filter((i) => i.name !== 'perfdata').map((i) => i.name);
    expect(names).toHaveLength(MAX_ITEMS - 2);
    expect(names.at(-1)).toBe(`p${n - 1}`);
    expect(names.slice(0, 3)).toEqual(['p0', 'p1', 'p2']);
    expect(r.state).toBe(State.CRITICAL);
  });
});

describe('selectProviderVdcs', () => {
  const { records } = parseProviderVdcRecords(fixture('providerVdc-records-schema-api34.xml'));
  const where = { account: 'p@System', origin: 'https://vcd' };
  it('by name (exact, then ignoring case) or id', () => {
    expect(selectProviderVdcs(records, { kind: 'name', name: 'pvdc-legacy' }, where).map((r) => r.name)).toEqual(['PVDC-Legacy']);
    expect(selectProviderVdcs(records, { kind: 'id', id: '6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d62' }, where).map((r) => r.name)).toEqual(['PVDC-Edge']);
    expect(selectProviderVdcs(records, undefined, where)).toHaveLength(3);
  });
  it('an unknown one names those that exist', () => {
    expect(() => selectProviderVdcs(records, { kind: 'name', name: 'nope' }, where)).toThrow(
      /no provider VDC named "nope" is visible to p@System at https:\/\/vcd: it lists "PVDC-Gold \(AMS-01\)" \(6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d60\), "PVDC-Legacy" .*check --pvdc/,
    );
  });
});

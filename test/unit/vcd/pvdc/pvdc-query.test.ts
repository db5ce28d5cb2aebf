// The provider VDC and provider storage-policy records, read from documents built from the API
// reference of each version (test/fixtures/vcd/provider/README.md): figures a record lacks, or
// sends as no number, are unknown (undefined), never 0.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProviderVdcMetrics, parseProviderVdcReservations, providerVdcMetricsPath } from '../../../../lib/vcd/pvdc/pvdc-capacity';
import { parseProviderStoragePolicyRecords, parseProviderVdcRecords, pvdcIdOf } from '../../../../lib/vcd/pvdc/pvdc-query';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd/provider', name), 'utf8');

describe('parseProviderVdcRecords', () => {
  it('reads the older record (API 34.0): numeric status named, missing figures unknown', () => {
    const { records, total } = parseProviderVdcRecords(fixture('providerVdc-records-schema-api34.xml'));
    expect(total).toBe(3);
    expect(records.map((r) => [r.name, r.enabled, r.status])).toEqual([
      ['PVDC-Gold (AMS-01)', true, 'READY'],
      ['PVDC-Legacy', false, 'NOT_READY'],
      ['PVDC-Edge', true, 'READY'],
    ]);
    expect(records[0]).toMatchObject({
      id: '6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d60',
      cpu: { capacity: 614400, used: 185320, allocated: 512000 },
      memory: { capacity: 3670016, used: 3014656, allocated: 4194304 },
      vdcs: 27,
      odd: [],
    });
    // No cpuUsedMhz, memoryUsedMB or numberOfVdcs: unknown, not 0.
    expect(records[2].cpu).toEqual({ capacity: 48000, used: undefined, allocated: 12000 });
    expect(records[2].memory.used).toBeUndefined();
    expect(records[2].vdcs).toBeUndefined();
    expect(records[2].busy).toBe(true);
  });

  it('reads the 39.1 record: a figure that is no number is unknown and said', () => {
    const { records } = parseProviderVdcRecords(fixture('providerVdc-records-schema-api39.1.xml'));
    expect(records[0]).toMatchObject({ name: 'pvdc-compute-a', status: 'READY', cpu: { capacity: 460800, used: 410880, allocated: 737280 }, vdcs: 41 });
    expect(records[1]).toMatchObject({ status: 'FAILED_CREATION', cpu: { capacity: 0 }, memory: { used: undefined, capacity: 1048576 }, vdcs: 0 });
    expect(records[1].odd).toEqual(['memoryUsedMB "n/a"']);
  });

  it('refuses a record without a provider VDC href, and another root', () => {
    expect(() =>
      parseProviderVdcRecords('<QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5"><VMWProviderVdcRecord name="x"/></QueryResultRecords>'),
    ).toThrow(/without a provider VDC href/);
    expect(() => parseProviderVdcRecords('<Vm xmlns="http://www.vmware.com/vcloud/v1.5"/>')).toThrow(/root element <Vm>/);
  });

  it('finds the id in the admin and the extension hrefs', () => {
    expect(pvdcIdOf('https://x/api/admin/providervdc/6F2D6C2A-3B1E-4A8C-9D4F-1E2A3B4C5D60')).toBe('6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d60');
    expect(pvdcIdOf('https://x/api/admin/extension/providervdc/6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d60/')).toBe('6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d60');
    expect(pvdcIdOf('https://x/api/vdc/6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d60')).toBeUndefined();
  });
});

describe('parseProviderStoragePolicyRecords', () => {
  it('before 39.1: allocated is storageRequestedMB, and a missing total is unknown', () => {
    const { records } = parseProviderStoragePolicyRecords(fixture('providerVdcStorageProfile-records-schema-api34.xml'));
    expect(records[0]).toMatchObject({ name: 'Gold (vSAN)', total: 104857600, used: 41943040, allocated: 62914560, allocatedFrom: 'storageRequestedMB' });
    expect(records[2]).toMatchObject({ name: 'Any', enabled: false, total: undefined, used: 1048576, allocated: undefined });
    expect(records[2].allocatedFrom).toBeUndefined();
  });

  it('from 39.1: allocated is storageAllocatedMB', () => {
    const { records } = parseProviderStoragePolicyRecords(fixture('providerVdcStorageProfile-records-schema-api39.1.xml'));
    expect(records[0]).toMatchObject({ total: 157286400, allocated: 136314880, allocatedFrom: 'storageAllocatedMB' });
  });
});

describe('parseProviderVdcReservations', () => {
  it('reads ComputeCapacity Reserved and Total of the VMWProviderVdc document', () => {
    const r = parseProviderVdcReservations(fixture('VMWProviderVdc-schema-api34.xml'), 'doc');
    expect(r).toEqual({ cpu: { total: 614400, reserved: 296960 }, memory: { total: 3670016, reserved: 3407872 }, odd: [] });
  });

  it('scales GHz and GB, and calls what it cannot read unknown', () => {
    const doc = (cpu: string, mem: string) =>
      `<VMWProviderVdc xmlns="http://www.vmware.com/vcloud/extension/v1.5"><ComputeCapacity xmlns="http://www.vmware.com/vcloud/v1.5"><Cpu>${cpu}</Cpu><Memory>${mem}</Memory></ComputeCapacity></VMWProviderVdc>`;
    expect(parseProviderVdcReservations(doc('<Units>GHz</Units><Reserved>12</Reserved><Total>100</Total>', '<Units>GB</Units><Total>64</Total>'), 'd')).toEqual(
      {
        cpu: { total: 100000, reserved: 12000 },
        memory: { total: 65536, reserved: undefined },
        odd: [],
      },
    );
    const odd = parseProviderVdcReservations(doc('<Units>furlongs</Units><Total>1</Total>', '<Units>MB</Units><Reserved>1.5</Reserved>'), 'd');
    expect(odd.cpu).toEqual({ total: undefined, reserved: undefined });
    expect(odd.odd).toEqual(['Cpu in units "furlongs"', 'Memory Reserved "1.5"']);
    expect(() => parseProviderVdcReservations('<Vm/>', 'd')).toThrow(/root element <Vm>, expected <VMWProviderVdc>/);
  });
});

describe('parseProviderVdcMetrics (the CloudAPI fallback of --basis reserved)', () => {
  const metrics = (name: string) => parseProviderVdcMetrics(Buffer.from(fixture(name)), 'metrics');

  it('up to 38.1: memoryReservedMB and cpuReservedMHz against the totals', () => {
    expect(metrics('providerVdcMetrics-cloudapi-schema-api38.1.json')).toEqual({
      cpu: { total: 614400, reserved: 296960 },
      memory: { total: 3670016, reserved: 3407872 },
      odd: [],
    });
  });

  it('from 39.1: the reservations committed against the reservation capacity, the total where that is null', () => {
    expect(metrics('providerVdcMetrics-cloudapi-schema-api39.1.json')).toEqual({
      cpu: { total: 614400, reserved: 296960 },
      memory: { total: 3145728, reserved: 2883584 },
      odd: [],
    });
  });

  it('a figure that is no whole number is unknown and said; what is no metrics object is refused', () => {
    const r = parseProviderVdcMetrics(Buffer.from('{"totalMemoryMB":"lots","memoryReservedMB":-1,"totalCpuMHz":1000,"cpuReservedMHz":2.5}'), 'm');
    expect(r.memory).toEqual({ total: undefined, reserved: undefined });
    expect(r.cpu).toEqual({ total: 1000, reserved: undefined });
    expect(r.odd).toEqual(['cpuReservedMHz "2.5"', 'memoryReservedMB "-1"', 'totalMemoryMB "lots"']);
    expect(() => parseProviderVdcMetrics(Buffer.from('<html/>'), 'm')).toThrow(/m: not JSON/);
    expect(() => parseProviderVdcMetrics(Buffer.from('[1,2]'), 'm')).toThrow(/not a JSON object of metrics/);
    expect(() => parseProviderVdcMetrics(Buffer.from(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`), 'm')).toThrow(/far larger than provider VDC metrics/);
    expect(() => parseProviderVdcMetrics(Buffer.alloc(100_000, 32), 'm')).toThrow(/far larger/);
  });

  it('the path names the provider VDC by its URN', () => {
    expect(providerVdcMetricsPath('6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d60')).toBe(
      '/cloudapi/1.0.0/providerVdcs/urn:vcloud:providervdc:6f2d6c2a-3b1e-4a8c-9d4f-1e2a3b4c5d60/metrics',
    );
  });

  it('the document without Reserved (as a server may send it) gives no reservation: the reason to ask the metrics', () => {
    const r = parseProviderVdcReservations(fixture('VMWProviderVdc-no-reserved-schema-api34.xml'), 'doc');
    expect(r.cpu).toEqual({ total: 614400, reserved: undefined });
    expect(r.memory).toEqual({ total: 3670016, reserved: undefined });
  });
});

// The provider's own estate in the simulated cloud director, for check_pvdc and check_vcd:
// provider VDCs (type=providerVdc: VMWProviderVdcRecord), their storage policies
// (type=providerVdcStorageProfile: ProviderVdcStorageProfileRecord), each provider VDC's
// VMWProviderVdc document (ComputeCapacity with Reserved), and the cells (CloudAPI Cell, and
// the `cell` query's CellRecord). Attributes follow the API reference's record types: the
// storage-policy record sends storageAllocatedMB (and the IOPS figures) only from API 39.1,
// the CloudAPI Cell its status only from 38.1, as the reference lists them.
import { row } from './vdcs';
import type { QueryRow } from './query';
import { HOSTILE_NAMES } from './fleet';

export interface SimProviderPolicy {
  id: string;
  name: string;
  totalMb: number;
  usedMb: number;
  requestedMb: number;
  allocatedMb: number;
}

export interface SimProviderVdc {
  id: string;
  name: string;
  enabled: boolean;
  status: string;
  cpu: { total: number; used: number; allocated: number; reserved: number };
  memory: { total: number; used: number; allocated: number; reserved: number };
  vdcs: number;
  policies: SimProviderPolicy[];
}

export interface SimCell {
  id: string;
  name: string;
  ip: string;
  active: boolean;
  /** ACTIVE, MAINTENANCE, QUIESCED, INACTIVE. */
  status: string;
}

/** The provider VDCs and cells of a scenario. */
export interface Estate {
  pvdcs: SimProviderVdc[];
  cells: SimCell[];
}

const GIB = 1024;
const TIB = 1024 * GIB;

const gold = (): SimProviderVdc => ({
  id: '8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d',
  name: 'pvdc-gold-01',
  enabled: true,
  status: 'READY',
  cpu: { total: 960_000, used: 312_000, allocated: 640_000, reserved: 280_000 },
  memory: { total: 6 * TIB, used: 2.5 * TIB, allocated: 5 * TIB, reserved: 2 * TIB },
  vdcs: 6,
  policies: [
    { id: '9b0c1d2e-3f4a-4b5c-9d6e-7f8a9b0c1d01', name: 'Gold', totalMb: 100 * TIB, usedMb: 38 * TIB, requestedMb: 60 * TIB, allocatedMb: 62 * TIB },
    { id: '9b0c1d2e-3f4a-4b5c-9d6e-7f8a9b0c1d02', name: 'Silver', totalMb: 200 * TIB, usedMb: 90 * TIB, requestedMb: 120 * TIB, allocatedMb: 124 * TIB },
  ],
});

/** pvdc-silver-02: memory at 87% of capacity (WARNING at 80/90). */
const nearMemory = (): SimProviderVdc => ({
  id: '8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c3e',
  name: 'pvdc-silver-02',
  enabled: true,
  status: 'READY',
  cpu: { total: 480_000, used: 260_000, allocated: 420_000, reserved: 200_000 },
  memory: { total: 3 * TIB, used: 2740 * GIB, allocated: 3.5 * TIB, reserved: 2662 * GIB },
  vdcs: 4,
  policies: [{ id: '9b0c1d2e-3f4a-4b5c-9d6e-7f8a9b0c1d03', name: 'Silver', totalMb: 80 * TIB, usedMb: 41 * TIB, requestedMb: 50 * TIB, allocatedMb: 52 * TIB }],
});

/** pvdc-legacy-03: disabled (CRITICAL), being drained. */
const disabled = (): SimProviderVdc => ({
  id: '8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c4f',
  name: 'pvdc-legacy-03',
  enabled: false,
  status: 'READY',
  cpu: { total: 240_000, used: 12_000, allocated: 40_000, reserved: 10_000 },
  memory: { total: 1 * TIB, used: 60 * GIB, allocated: 200 * GIB, reserved: 40 * GIB },
  vdcs: 1,
  policies: [{ id: '9b0c1d2e-3f4a-4b5c-9d6e-7f8a9b0c1d04', name: 'Bronze', totalMb: 40 * TIB, usedMb: 6 * TIB, requestedMb: 8 * TIB, allocatedMb: 8 * TIB }],
});

const cell = (n: number, status = 'ACTIVE'): SimCell => ({
  id: `urn:vcloud:cell:0c1d2e3f-4a5b-4c6d-8e7f-8a9b0c1d2e0${n}`,
  name: `vcd-cell-0${n}`,
  ip: `10.20.0.1${n}`,
  active: status === 'ACTIVE',
  status,
});

/**
 * `--vcd-pvdcs N`: N more provider VDCs, `pvdc-bulk-000001` on, each with one storage policy,
 * every 100th at 85% of its memory (WARNING at 80/90): the listing of a very large estate.
 */
export function bulkProviderVdcs(n: number): SimProviderVdc[] {
  return Array.from({ length: n }, (_, i) => {
    const hex = (i + 1).toString(16).padStart(12, '0');
    const memoryUsed = i % 100 === 99 ? 870 * GIB : 400 * GIB;
    return {
      id: `5e6f7a8b-0000-4000-8000-${hex}`,
      name: `pvdc-bulk-${String(i + 1).padStart(6, '0')}`,
      enabled: true,
      status: 'READY',
      cpu: { total: 96_000, used: 30_000, allocated: 60_000, reserved: 20_000 },
      memory: { total: 1 * TIB, used: memoryUsed, allocated: 800 * GIB, reserved: 300 * GIB },
      vdcs: 1 + (i % 5),
      policies: [{ id: `6f7a8b9c-0000-4000-8000-${hex}`, name: 'Standard', totalMb: 20 * TIB, usedMb: 8 * TIB, requestedMb: 10 * TIB, allocatedMb: 10 * TIB }],
    };
  });
}

/** default: a healthy provider VDC, one near its memory, a disabled one; three cells, one down. `bulk` more provider VDCs beside them. */
export function scenarioEstate(scenario: string, bulk = 0): Estate {
  const estate = scenarioEstateOnly(scenario);
  if (bulk > 0) estate.pvdcs.push(...bulkProviderVdcs(bulk));
  return estate;
}

function scenarioEstateOnly(scenario: string): Estate {
  if (scenario === 'default') return { pvdcs: [gold(), nearMemory(), disabled()], cells: [cell(1), cell(2), cell(3, 'INACTIVE')] };
  if (scenario === 'hostile') {
    const pvdcs = HOSTILE_NAMES.slice(0, 3).map(([name, other], i) => {
      const p = gold();
      return { ...p, id: `${p.id.slice(0, -1)}${i}`, name, policies: [{ ...p.policies[0], id: `${p.policies[0].id.slice(0, -1)}${i}`, name: other }] };
    });
    return { pvdcs, cells: [cell(1), cell(2)] };
  }
  return { pvdcs: [gold()], cells: [cell(1), cell(2)] };
}

const atLeast = (version: string, n: number) => Number(version) >= n;

/** The provider VDC records (VMWProviderVdcRecord). */
export function providerVdcRows(estate: Estate, base: string, version: string): QueryRow[] {
  return estate.pvdcs.map((p) => {
    const storageUsed = p.policies.reduce((n, s) => n + s.usedMb, 0);
    const storageTotal = p.policies.reduce((n, s) => n + s.totalMb, 0);
    const values: Record<string, string> = {
      name: p.name,
      isEnabled: String(p.enabled),
      isDeleted: 'false',
      cpuUsedMhz: String(p.cpu.used),
      cpuLimitMhz: String(p.cpu.total),
      cpuAllocationMhz: String(p.cpu.allocated),
      memoryUsedMB: String(p.memory.used),
      memoryLimitMB: String(p.memory.total),
      memoryAllocationMB: String(p.memory.allocated),
      storageUsedMB: String(storageUsed),
      storageLimitMB: String(storageTotal),
      storageAllocationMB: String(p.policies.reduce((n, s) => n + s.requestedMb, 0)),
      numberOfDatastores: String(p.policies.length * 4),
      numberOfVdcs: String(p.vdcs),
      isBusy: 'false',
      status: p.status,
      numberOfStorageProfiles: String(p.policies.length),
      ...(atLeast(version, 39.1)
        ? {
            vcName: 'vc-01',
            numberOfResourcePools: '1',
            computeProviderScope: 'dc-01',
            isKubernetesEnabled: 'false',
            networkProviderType: 'NSX_T',
            isGpuEnabled: 'false',
          }
        : { vcpuRatingMhz: '2400' }),
      href: `${base}/api/admin/providervdc/${p.id}`,
    };
    return row(p.name, p.id, 'VMWProviderVdcRecord', values);
  });
}

/** The provider storage-policy records (ProviderVdcStorageProfileRecord). */
export function providerPolicyRows(estate: Estate, base: string, version: string): QueryRow[] {
  return estate.pvdcs.flatMap((p) =>
    p.policies.map((s) => {
      const values: Record<string, string> = {
        isEnabled: 'true',
        name: s.name,
        storageTotalMB: String(s.totalMb),
        storageUsedMB: String(s.usedMb),
        storageRequestedMB: String(s.requestedMb),
        storageProvisionedMB: String(s.requestedMb + s.usedMb / 4),
        numberOfConditions: '0',
        providerVdc: `${base}/api/admin/providervdc/${p.id}`,
        vc: `${base}/api/admin/extension/vimServer/3f4a5b6c-7d8e-4f90-a1b2-c3d4e5f60718`,
        storageProfileMoref: `vm-storage-profile-${s.name.length}`,
        ...(atLeast(version, 39.1)
          ? { iopsCapacity: '0', iopsAllocated: '0', numberOfCapabilities: '0', iopsLimitingEnabled: 'false', storageAllocatedMB: String(s.allocatedMb) }
          : {}),
        href: `${base}/api/admin/pvdcStorageProfile/${s.id}`,
      };
      return row(s.name, s.id, 'ProviderVdcStorageProfileRecord', values);
    }),
  );
}

const xmlEsc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A provider VDC's VMWProviderVdc document, with its ComputeCapacity (ProviderVdcCapacityType). */
export function providerVdcDocument(p: SimProviderVdc, base: string, omit: ReadonlySet<string> = new Set()): string {
  const reserved = (c: SimProviderVdc['cpu']) => (omit.has('Reserved') ? '' : `            <vcloud:Reserved>${c.reserved}</vcloud:Reserved>\n`);
  const capacity = (element: string, units: string, c: SimProviderVdc['cpu']) =>
    `        <vcloud:${element}>\n            <vcloud:Units>${units}</vcloud:Units>\n            <vcloud:Allocation>${c.allocated}</vcloud:Allocation>\n${reserved(c)}            <vcloud:Total>${c.total}</vcloud:Total>\n            <vcloud:Used>${c.used}</vcloud:Used>\n            <vcloud:Overhead>0</vcloud:Overhead>\n        </vcloud:${element}>\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<vmext:VMWProviderVdc xmlns:vmext="http://www.vmware.com/vcloud/extension/v1.5" xmlns:vcloud="http://www.vmware.com/vcloud/v1.5" status="1" name="${xmlEsc(p.name)}" id="urn:vcloud:providervdc:${p.id}" href="${xmlEsc(base)}/api/admin/extension/providervdc/${p.id}" type="application/vnd.vmware.admin.vmwprovidervdc+xml">\n` +
    `    <vcloud:Description>Provider VDC ${xmlEsc(p.name)}</vcloud:Description>\n    <vcloud:ComputeCapacity>\n` +
    capacity('Cpu', 'MHz', p.cpu) +
    capacity('Memory', 'MB', p.memory) +
    `        <vcloud:IsElastic>false</vcloud:IsElastic>\n        <vcloud:IsHA>false</vcloud:IsHA>\n    </vcloud:ComputeCapacity>\n    <vcloud:IsEnabled>${p.enabled}</vcloud:IsEnabled>\n</vmext:VMWProviderVdc>\n`
  );
}

/**
 * A provider VDC's CloudAPI metrics (ProviderVdcMetrics), named as the version asked for: up to
 * 38.1 `memoryReservedMB`/`cpuReservedMHz`, from 39.1 the reservation capacity and what was
 * committed and used of it. The reservation capacity is the total here.
 */
export function providerVdcMetrics(p: SimProviderVdc, version: string): string {
  const { cpu, memory } = p;
  if (!atLeast(version, 39.1))
    return JSON.stringify({
      totalMemoryMB: memory.total,
      memoryUsedMB: memory.used,
      memoryAllocatedMB: memory.allocated,
      memoryReservedMB: memory.reserved,
      memoryOverheadMB: 0,
      totalCpuMHz: cpu.total,
      cpuUsedMHz: cpu.used,
      cpuAllocatedMHz: cpu.allocated,
      cpuReservedMHz: cpu.reserved,
      cpuOverheadMHz: 0,
    });
  return JSON.stringify({
    totalMemoryMB: memory.total,
    totalMemoryReservationMB: memory.total,
    memoryCommittedMB: memory.allocated,
    memoryReservationCommittedMB: memory.reserved,
    memoryReservationUsedMB: Math.min(memory.reserved, memory.used),
    memoryUsedMB: memory.used,
    memoryOverheadMB: 0,
    totalCpuMHz: cpu.total,
    totalCpuReservationMHz: cpu.total,
    cpuCommittedMHz: cpu.allocated,
    cpuReservationCommittedMHz: cpu.reserved,
    cpuReservationUsedMHz: Math.min(cpu.reserved, cpu.used),
    cpuUsedMHz: cpu.used,
    cpuOverheadMHz: 0,
  });
}

/** The CloudAPI cells page (Cell: `status` from API 38.1). */
export function cellsPage(estate: Estate, version: string): string {
  const values = estate.cells.map((c) => ({
    id: c.id,
    productBuildDate: '2025-06-12T09:41:00.000Z',
    isActive: c.active,
    name: c.name,
    primaryIP: c.ip,
    productVersion: '10.6.1.24263101',
    ...(atLeast(version, 38.1) ? { status: c.status } : {}),
  }));
  return JSON.stringify({ resultTotal: values.length, pageCount: 1, page: 1, pageSize: 128, associations: null, values });
}

/** The `cell` query's CellRecords (isActive as 1/0). */
export function cellRows(estate: Estate, base: string): QueryRow[] {
  return estate.cells.map((c) =>
    row(c.name, c.id, 'CellRecord', {
      primaryIp: c.ip,
      name: c.name,
      isActive: c.active ? '1' : '0',
      buildDate: '2025-06-12T09:41:00.000Z',
      version: '10.6.1.24263101',
      href: `${base}/api/admin/extension/cell/${c.id.slice('urn:vcloud:cell:'.length)}`,
    }),
  );
}

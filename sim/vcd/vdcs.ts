// The organisation VDCs of the simulated cloud director and their storage policies, answered
// as the query service does (type=orgVdc / adminOrgVdc, orgVdcStorageProfile /
// adminOrgVdcStorageProfile) with the record attributes of the vendor's API schema
// (QueryResultOrgVdcRecordType, QueryResultAdminVdcRecordType and the storage-profile record
// types): limits and use in MHz and MB, a limit of 0 for unlimited (pay-as-you-go);
// numberOfVMs and numberOfRunningVMs only from API 37.0, where the schema lists them.
import type { VmRecord } from '../../lib/vcd/inventory/vm-query';
import { HOSTILE_NAMES, simOrg } from './fleet';
import type { QueryRow } from './query';

export interface SimStoragePolicy {
  id: string;
  name: string;
  usedMb: number;
  /** 0: unlimited. */
  limitMb: number;
  isDefault: boolean;
}

export interface SimVdc {
  id: string;
  name: string;
  org: string;
  enabled: boolean;
  /** READY, NOT_READY, ... as the record's `status` says it. */
  status: string;
  allocationModel: 'AllocationPool' | 'AllocationVApp' | 'ReservationPool' | 'Flex';
  cpuUsedMhz: number;
  /** 0: unlimited. */
  cpuLimitMhz: number;
  memoryUsedMb: number;
  memoryLimitMb: number;
  policies: SimStoragePolicy[];
}

/** The VDCs of a scenario, which VDC each listed VM is in, and VM records that only the VDCs add. */
export interface VdcSet {
  vdcs: SimVdc[];
  /** The VDC id of a VM record of organisation `org`. */
  vdcOf(record: VmRecord, org: string): string;
  /** VMs without metrics that belong to a VDC (a VM whose creation failed). */
  records: VmRecord[];
}

/** The VDC every VM of the VM scenarios is in unless placed elsewhere (the id their records always named). */
export const PROD_VDC_ID = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

const GIB_MB = 1024;
const policy = (id: string, name: string, usedMb: number, limitMb: number, isDefault = false): SimStoragePolicy => ({ id, name, usedMb, limitMb, isDefault });

/** acme-prod: well inside every limit. */
function prodVdc(org: string): SimVdc {
  return {
    id: PROD_VDC_ID,
    name: `${org === 'acme' ? 'acme' : org.toLowerCase()}-prod`,
    org,
    enabled: true,
    status: 'READY',
    allocationModel: 'AllocationPool',
    cpuUsedMhz: 8400,
    cpuLimitMhz: 20000,
    memoryUsedMb: 30 * GIB_MB,
    memoryLimitMb: 64 * GIB_MB,
    policies: [
      policy('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e01', 'Gold', 200 * GIB_MB, 1024 * GIB_MB, true),
      policy('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e02', 'Silver', 400 * GIB_MB, 2048 * GIB_MB),
    ],
  };
}

/** A pay-as-you-go VDC: limits 0 (unlimited), use above them. */
function paygVdc(org: string): SimVdc {
  return {
    id: '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182',
    name: `${org.toLowerCase()}-payg`,
    org,
    enabled: true,
    status: 'READY',
    allocationModel: 'AllocationVApp',
    cpuUsedMhz: 2000,
    cpuLimitMhz: 0,
    memoryUsedMb: 2048,
    memoryLimitMb: 0,
    policies: [policy('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e03', 'Any', 80 * GIB_MB, 0, true)],
  };
}

/** The VDCs of the default scenario's other organisations (a System login sees them). */
const GLOBEX_VDC_ID = '6f708192-a3b4-4ec5-9f60-718293a4b5c6';
const INITECH_VDC_ID = '708192a3-b4c5-4fd6-8071-8293a4b5c6d7';

/** The failed VM of the default scenario's development VDC. */
const FAILED_VM: VmRecord = { id: 'vm-6e7f8091-a2b3-4c4d-9e5f-60718293a4b5', name: 'staging-15', vapp: 'staging', status: 'FAILED_CREATION', template: false };

/** Which default-scenario VMs live outside acme-prod, by name. */
const DEFAULT_PLACES: Record<string, string> = {
  'batch-05': 'analytics',
  'queue-10': 'analytics',
  'files-08': 'payg',
  'old-04': 'archive',
  'staging-15': 'dev',
};

/**
 * The default scenario's organisation: acme-prod (healthy), acme-analytics (memory at 88% of
 * its limit: WARNING), acme-payg (pay-as-you-go, no limits), acme-archive (disabled) and
 * acme-dev (a VM whose creation failed). With a System login the other organisations too,
 * globex and initech, each with its own VDC that holds its VMs.
 */
function defaultVdcs(org: string, provider: boolean): VdcSet {
  const tenant = tenantOf(org);
  const t = tenant.toLowerCase();
  const base = { org: tenant, enabled: true, status: 'READY', allocationModel: 'AllocationPool' as const };
  const byPlace: Record<string, SimVdc> = {
    prod: prodVdc(tenant),
    analytics: {
      ...base,
      id: '3c4d5e6f-7081-4b92-8c3d-4e5f60718293',
      name: `${t}-analytics`,
      cpuUsedMhz: 6000,
      cpuLimitMhz: 16000,
      memoryUsedMb: 57672,
      memoryLimitMb: 64 * GIB_MB,
      policies: [policy('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e04', 'Gold', 300 * GIB_MB, 500 * GIB_MB, true)],
    },
    payg: paygVdc(tenant),
    archive: {
      ...base,
      id: '4d5e6f70-8192-4ca3-9d4e-5f60718293a4',
      name: `${t}-archive`,
      enabled: false,
      cpuUsedMhz: 0,
      cpuLimitMhz: 4000,
      memoryUsedMb: 0,
      memoryLimitMb: 8 * GIB_MB,
      policies: [policy('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e05', 'Archive', 900 * GIB_MB, 4096 * GIB_MB, true)],
    },
    dev: {
      ...base,
      id: '5e6f7081-92a3-4db4-8e5f-60718293a4b5',
      name: `${t}-dev`,
      cpuUsedMhz: 1200,
      cpuLimitMhz: 8000,
      memoryUsedMb: 4096,
      memoryLimitMb: 16 * GIB_MB,
      policies: [policy('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e06', 'Silver', 50 * GIB_MB, 500 * GIB_MB, true)],
    },
  };
  const vdcs = Object.values(byPlace);
  if (provider)
    vdcs.push(
      {
        ...prodVdc('globex'),
        id: GLOBEX_VDC_ID,
        policies: [policy('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e07', 'Gold', 10 * GIB_MB, 100 * GIB_MB, true)],
      },
      {
        ...prodVdc('initech'),
        id: INITECH_VDC_ID,
        cpuUsedMhz: 500,
        cpuLimitMhz: 4000,
        memoryUsedMb: 2048,
        memoryLimitMb: 8 * GIB_MB,
        policies: [policy('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e08', 'Bronze', 40 * GIB_MB, 200 * GIB_MB, true)],
      },
    );
  // Each organisation's VMs in its own VDC: globex's and initech's in theirs, not in acme-prod.
  const otherOrgs: Record<string, string> = { globex: GLOBEX_VDC_ID, initech: INITECH_VDC_ID };
  return {
    vdcs,
    vdcOf: (r, org) => otherOrgs[org.toLowerCase()] ?? byPlace[DEFAULT_PLACES[r.name] ?? 'prod'].id,
    records: [FAILED_VM],
  };
}

/** The organisation of the scenario's own VDCs: the configured one, acme for a System login. */
const tenantOf = (org: string) => (org.toLowerCase() === 'system' ? 'acme' : org);

/**
 * The VDCs of a scenario for the configured organisation (`provider`: with the default
 * scenario's other organisations too; the server shows each login its own).
 */
export function scenarioVdcs(scenario: string, org: string, provider: boolean): VdcSet {
  const tenant = tenantOf(org);
  if (scenario === 'default') return defaultVdcs(org, provider);
  const prod = prodVdc(tenant);
  if (scenario === 'healthy') return { vdcs: [prod, paygVdc(tenant)], vdcOf: () => PROD_VDC_ID, records: [] };
  if (scenario === 'hostile') {
    // Tenants name their VDCs and storage policies too: the first VDC holds the VMs.
    const vdcs = HOSTILE_NAMES.slice(0, 3).map(([name, other], i): SimVdc => ({
      ...prod,
      id: i === 0 ? PROD_VDC_ID : `7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e1${i}`,
      name,
      policies: [policy(`1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4f1${i}`, other, 100 * GIB_MB, 1024 * GIB_MB, true)],
    }));
    return { vdcs, vdcOf: () => PROD_VDC_ID, records: [] };
  }
  return {
    vdcs: [
      { ...prod, name: `${tenant.toLowerCase()}-fleet`, cpuUsedMhz: 180000, cpuLimitMhz: 400000, memoryUsedMb: 3000 * GIB_MB, memoryLimitMb: 8192 * GIB_MB },
    ],
    vdcOf: () => PROD_VDC_ID,
    records: [],
  };
}

/** What a VDC's record counts of its VMs. */
export interface VmCounts {
  total: number;
  running: number;
}

const orgHref = (base: string, org: string) => `${base}/api/org/${simOrg(org).id}`;

/**
 * A record as a query row: XML attributes as given, but those in `omit`; in JSON
 * (`QueryResult<element>Type`) booleans and figures typed.
 */
export function row(name: string, id: string, element: string, given: Record<string, string>, omit: ReadonlySet<string> = new Set()): QueryRow {
  const values = Object.fromEntries(Object.entries(given).filter(([k]) => !omit.has(k)));
  const json: Record<string, unknown> = { _type: `QueryResult${element}Type` };
  for (const [k, v] of Object.entries(values)) json[k] = v === 'true' || v === 'false' ? v === 'true' : /Mhz$|MB$|^numberOf/.test(k) ? Number(v) : v;
  return { name, id, attr: (a) => values[a], element, xml: Object.entries(values), json };
}

/** The VDC records as query rows (`admin`: AdminVdcRecord, with the org's href and the provider side). */
export function vdcRows(
  vdcs: readonly SimVdc[],
  base: string,
  admin: boolean,
  version: string,
  counts: (vdc: SimVdc) => VmCounts,
  omit?: ReadonlySet<string>,
): QueryRow[] {
  return vdcs.map((v) => {
    const c = counts(v);
    const storageUsed = v.policies.reduce((n, p) => n + p.usedMb, 0);
    const storageLimit = v.policies.some((p) => p.limitMb === 0) ? 0 : v.policies.reduce((n, p) => n + p.limitMb, 0);
    const values: Record<string, string> = {
      name: v.name,
      orgName: v.org,
      ...(admin ? { org: orgHref(base, v.org), providerVdcName: 'pvdc-gold-01', allocationModel: v.allocationModel } : {}),
      isEnabled: String(v.enabled),
      isBusy: 'false',
      status: v.status,
      cpuAllocationMhz: String(v.cpuLimitMhz),
      cpuLimitMhz: String(v.cpuLimitMhz),
      cpuUsedMhz: String(v.cpuUsedMhz),
      memoryAllocationMB: String(v.memoryLimitMb),
      memoryLimitMB: String(v.memoryLimitMb),
      memoryUsedMB: String(v.memoryUsedMb),
      storageLimitMB: String(storageLimit),
      storageUsedMB: String(storageUsed),
      numberOfVApps: String(Math.ceil(c.total / 2)),
      numberOfStorageProfiles: String(v.policies.length),
      ...(Number(version) >= 37 ? { numberOfVMs: String(c.total), numberOfRunningVMs: String(c.running) } : {}),
      href: `${base}/api/${admin ? 'admin/' : ''}vdc/${v.id}`,
    };
    return row(v.name, v.id, admin ? 'AdminVdcRecord' : 'OrgVdcRecord', values, omit);
  });
}

/** The storage policies of the VDCs as query rows. */
export function storagePolicyRows(vdcs: readonly SimVdc[], base: string, admin: boolean, omit?: ReadonlySet<string>): QueryRow[] {
  return vdcs.flatMap((v) =>
    v.policies.map((p) => {
      const values: Record<string, string> = {
        name: p.name,
        vdc: `${base}/api/vdc/${v.id}`,
        vdcName: v.name,
        ...(admin ? { org: orgHref(base, v.org) } : { isVdcBusy: 'false' }),
        isEnabled: 'true',
        isDefaultStorageProfile: String(p.isDefault),
        storageLimitMB: String(p.limitMb),
        storageUsedMB: String(p.usedMb),
        numberOfConditions: '0',
        href: `${base}/api/vdcStorageProfile/${p.id}`,
      };
      return row(p.name, p.id, admin ? 'AdminOrgVdcStorageProfileRecord' : 'OrgVdcStorageProfileRecord', values, omit);
    }),
  );
}

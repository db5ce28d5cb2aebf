// What the simulated cloud director's query service lists: every VM of a scenario with its
// vApp, power status and organisation, plus the VMs of vApp templates (which are never
// checked). The `fleet` scenario is a provider-sized organisation: 2,000 VMs in 40 vApps; the
// default scenario has a second and a third organisation beside the tenant's own, one of them
// with a VM named as one of the tenant's.
import type { VmRecord } from '../../lib/vcd/inventory/vm-query';
import { NODE_VAPP } from '../node-vms';
import { scenarioVms, type SimVm } from './vms';

// One row of `GET /api/query?type=vm` is the very record the plugins read (vm-query.ts):
// the simulator serves what the reader expects, field for field.
export type { VmRecord };

/** An organisation of the simulated cloud director. */
export interface SimOrg {
  name: string;
  /** The GUID of its href (`/api/org/<id>`). */
  id: string;
  displayName: string;
}

export interface Fleet {
  /** VMs with metrics. */
  vms: SimVm[];
  /** What the query service lists: the VMs above and template VMs, each with its org's name. */
  records: Array<VmRecord & { org: string }>;
  /** Every organisation, System first: a provider's `organization` query lists them all. */
  orgs: SimOrg[];
}

/** The organisation of the scenarios' own VMs when the simulator's account is a provider one. */
export const TENANT_ORG = 'acme';

/** The organisations of the default scenario besides the tenant's own (VM name, role, power, vApp). */
const OTHER_ORGS: ReadonlyArray<{ name: string; displayName: string; vms: ReadonlyArray<[string, string, 'on' | 'off', string]> }> = [
  {
    name: 'globex',
    displayName: 'Globex Corporation',
    vms: [
      ['web-01', 'globex-web', 'on', 'portal'],
      ['erp-02', 'globex-erp', 'on', 'portal'],
    ],
  },
  { name: 'initech', displayName: 'Initech', vms: [['tps-report', 'initech-tps', 'off', 'reports']] },
];

// vApps of the default and healthy scenarios' VMs, by VM name.
const DEFAULT_VAPPS: Record<string, string> = {
  'web-01': 'shop',
  'db-03': 'shop',
  'build-02': 'ci',
  'batch-05': 'ci',
  'old-04': 'infra',
  'appliance-06': 'infra',
  'legacy-07': 'infra',
};

const GIB_KB = 1024 * 1024;

/** A GUID fixed by its seed, shaped like the ids vCD gives (version 4, variant 10). */
function guid(seed: number): string {
  let h = (seed + 1) * 0x9e3779b1;
  let hex = '';
  while (hex.length < 32) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
    h ^= h >>> 15;
    hex += (h >>> 0).toString(16).padStart(8, '0');
  }
  const v = hex.slice(0, 12) + '4' + hex.slice(13, 16) + ((parseInt(hex[16], 16) & 3) | 8).toString(16) + hex.slice(17, 32);
  return `${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20, 32)}`;
}

/** Name of the vApp number `a` (1-40) of the fleet scenario; vApp 3 has a space and an `&`. */
export function fleetVappName(a: number): string {
  return a === 3 ? 'Sales & Marketing' : `vapp-${String(a).padStart(2, '0')}`;
}

/**
 * The fleet scenario: 40 vApps of 50 VMs each. Special names: `twin` in vapp-01 and in vapp-02
 * (the same name in two vApps), `Web & DB 01` in `Sales & Marketing`; every 25th VM is
 * powered off. A vApp template `golden-images` holds a template VM also named `twin`.
 */
function fleetScenario(): { vms: SimVm[]; records: VmRecord[] } {
  const vms: SimVm[] = [];
  const records: VmRecord[] = [];
  for (let a = 1; a <= 40; a++) {
    for (let v = 1; v <= 50; v++) {
      const n = (a - 1) * 50 + v;
      let name = `node-${String(a).padStart(2, '0')}${String(v).padStart(2, '0')}`;
      if (v === 1 && (a === 1 || a === 2)) name = 'twin';
      if (v === 1 && a === 3) name = 'Web & DB 01';
      const off = n % 25 === 0;
      const vm: SimVm = {
        id: `vm-${guid(n)}`,
        name,
        role: `fleet-${n}`,
        power: off ? 'off' : 'on',
        cpuPct: 10 + (n % 50),
        cpuCapacityMhz: 2 * 2600,
        memPct: 20 + (n % 40),
        memKb: 4 * GIB_KB,
        disksKb: [40 * GIB_KB],
        diskUsedPct: 30 + (n % 40),
        readKBps: 50,
        writeKBps: 80,
        historyStopsAgo: off ? 2 * 3600 : 0,
      };
      vms.push(vm);
      records.push({ id: vm.id, name, vapp: fleetVappName(a), status: off ? 'POWERED_OFF' : 'POWERED_ON', template: false });
    }
  }
  records.push({ id: `vm-${guid(9001)}`, name: 'twin', vapp: 'golden-images', status: 'POWERED_OFF', template: true });
  return { vms, records };
}

/** The file every injection that a hostile name attempts would create. */
export const INJECTION_MARKER = '/tmp/cloudchecks-injected';

/**
 * The names of the hostile scenario, [VM, vApp]: what tenants may choose to reach the
 * provider's macros, secrets, shell and config syntax (Icinga 2 and Nagios macros, quotes,
 * shell operators, a trailing backslash, line breaks of every kind). NUL is not among them:
 * XML cannot carry it, so no server can send it.
 */
export const HOSTILE_NAMES: ReadonlyArray<readonly [string, string]> = [
  [`web'&touch ${INJECTION_MARKER}&'`, 'shop $cloudchecks_vcd_password$'],
  [`$(touch ${INJECTION_MARKER})`, `Sales & touch ${INJECTION_MARKER} &`],
  [`\`touch ${INJECTION_MARKER}\``, '$host.vars.cloudchecks_vm_vapp$'],
  ['trailing \\', '$host.vars.cloudchecks_vapp$'],
  [`price $5 $$ "quoted" 'single' ;|<>()`, 'back\\'],
  ['$USER3$ $HOSTNAME$ $ARG1$ $cloudchecks_vcd_url$ $host.name$', `$(touch ${INJECTION_MARKER})`],
  ['line\nbreak\r\nnext', 'sep\u2028line\u2029para\u0085nel'],
  ['tab\there \u001b[31mred', '$$'],
];

/** The hostile scenario: one running VM per name pair of HOSTILE_NAMES. */
function hostileScenario(): { vms: SimVm[]; records: VmRecord[] } {
  const vms: SimVm[] = [];
  const records: VmRecord[] = [];
  HOSTILE_NAMES.forEach(([name, vapp], i) => {
    const n = 5001 + i;
    const vm: SimVm = {
      id: `vm-${guid(n)}`,
      name,
      role: `hostile-${i + 1}`,
      power: 'on',
      cpuPct: 20,
      cpuCapacityMhz: 2 * 2600,
      memPct: 30,
      memKb: 4 * GIB_KB,
      disksKb: [40 * GIB_KB],
      diskUsedPct: 40,
      readKBps: 50,
      writeKBps: 80,
      historyStopsAgo: 0,
    };
    vms.push(vm);
    records.push({ id: vm.id, name, vapp, status: 'POWERED_ON', template: false });
  });
  return { vms, records };
}

/** The org of an organisation name, with a GUID fixed by the name. */
export function simOrg(name: string, displayName = name): SimOrg {
  // The ids the VDC records give these organisations (vdcs.ts), so that both agree.
  const fixed: Record<string, string> = { acme: 'a0b1c2d3-e4f5-4a6b-9c7d-8e9f0a1b2c3d', globex: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e' };
  if (fixed[name.toLowerCase()]) return { name, id: fixed[name.toLowerCase()], displayName };
  let seed = 7000;
  for (const c of name.toLowerCase()) seed = (seed * 31 + c.charCodeAt(0)) % 1_000_000;
  return { name, id: guid(seed), displayName };
}

/**
 * The VMs, query records and organisations of a scenario. The scenario's own VMs belong to
 * `tenantOrg` (the simulator's tenant account, or acme when that account is a provider one).
 */
export function scenarioFleet(scenario: string, tenantOrg = TENANT_ORG): Fleet {
  const own = scenario === 'fleet' ? fleetScenario() : scenario === 'hostile' ? hostileScenario() : defaultScenario(scenario);
  const fleet: Fleet = {
    vms: [...own.vms],
    records: own.records.map((r) => ({ ...r, org: tenantOrg })),
    orgs: [simOrg('System', 'System'), simOrg(tenantOrg)],
  };
  if (scenario !== 'default') return fleet;
  OTHER_ORGS.forEach((org, o) => {
    fleet.orgs.push(simOrg(org.name, org.displayName));
    org.vms.forEach(([name, role, power, vapp], v) => {
      const vm: SimVm = {
        ...own.vms[0],
        id: `vm-${guid(8000 + o * 100 + v)}`,
        name,
        role,
        power,
        cpuPct: 20 + 10 * v,
        historyStopsAgo: power === 'off' ? 2 * 3600 : 0,
        quirks: undefined,
        omit: undefined,
      };
      fleet.vms.push(vm);
      fleet.records.push({ id: vm.id, name, vapp, status: power === 'on' ? 'POWERED_ON' : 'POWERED_OFF', template: false, org: org.name });
    });
  });
  return fleet;
}

function defaultScenario(scenario: string): { vms: SimVm[]; records: VmRecord[] } {
  const vms = scenarioVms(scenario);
  const records: VmRecord[] = vms.map((vm) => ({
    id: vm.id,
    name: vm.name,
    vapp: scenario === 'nodes' ? NODE_VAPP : (DEFAULT_VAPPS[vm.name] ?? 'misc'),
    status: vm.power === 'on' ? 'POWERED_ON' : 'POWERED_OFF',
    template: false,
  }));
  records.push({ id: `vm-${guid(9002)}`, name: 'ubuntu-22.04', vapp: 'base-templates', status: 'POWERED_OFF', template: true });
  return { vms, records };
}

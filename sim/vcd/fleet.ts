// What the simulated cloud director's query service lists: every VM of a scenario with its
// vApp and power status, plus the VMs of vApp templates (which are never checked). The
// `fleet` scenario is a provider-sized organisation: 2,000 VMs in 40 vApps.
import { scenarioVms, type SimVm } from './vms';

/** One row of `GET /api/query?type=vm` (a VMRecord). */
export interface VmRecord {
  id: string;
  name: string;
  /** The vApp (or vApp template) the VM belongs to: VMRecord's containerName. */
  vapp: string;
  status: string;
  template: boolean;
}

export interface Fleet {
  /** VMs with metrics. */
  vms: SimVm[];
  /** What the query service lists: the VMs above and template VMs. */
  records: VmRecord[];
}

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
function fleetScenario(): Fleet {
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

/** The VMs and query records of a scenario. */
export function scenarioFleet(scenario: string): Fleet {
  if (scenario === 'fleet') return fleetScenario();
  const vms = scenarioVms(scenario);
  const records: VmRecord[] = vms.map((vm) => ({ id: vm.id, name: vm.name, vapp: DEFAULT_VAPPS[vm.name] ?? 'misc', status: vm.power === 'on' ? 'POWERED_ON' : 'POWERED_OFF', template: false }));
  records.push({ id: `vm-${guid(9002)}`, name: 'ubuntu-22.04', vapp: 'base-templates', status: 'POWERED_OFF', template: true });
  return { vms, records };
}

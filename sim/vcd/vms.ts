// The VMs of the simulated cloud director and their metric values: deterministic (seeded by
// VM, metric and time bucket) so that tests can rely on states, yet shaped like real data.
export type Power = 'on' | 'off';

/** One simulated VM. Percentages and rates are the centre its values wander around. */
export interface SimVm {
  id: string;
  name: string;
  role: string;
  power: Power;
  cpuPct: number;
  /** CPU capacity: vCPUs × MHz, so that cpu.usagemhz.average = pct × capacity / 100. */
  cpuCapacityMhz: number;
  memPct: number;
  memKb: number;
  /** Per disk, provisioned KB (bus unit numbers 2000, 2001, ...). */
  disksKb: number[];
  diskUsedPct: number;
  readKBps: number;
  writeKBps: number;
  /** Seconds before now at which the historic series stop (powered off, collector stuck). */
  historyStopsAgo: number;
  /** Metric names this VM's documents leave out (VMware Tools not running). */
  omit?: readonly string[];
}

const GIB_KB = 1024 * 1024;

const DEFAULT_VMS: SimVm[] = [
  { id: 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70', name: 'web-01', role: 'healthy', power: 'on', cpuPct: 30, cpuCapacityMhz: 2 * 2600, memPct: 44, memKb: 8 * GIB_KB, disksKb: [40 * GIB_KB, 60 * GIB_KB], diskUsedPct: 41, readKBps: 120, writeKBps: 340, historyStopsAgo: 0 },
  { id: 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d', name: 'build-02', role: 'busy', power: 'on', cpuPct: 85, cpuCapacityMhz: 8 * 2600, memPct: 62, memKb: 32 * GIB_KB, disksKb: [100 * GIB_KB], diskUsedPct: 55, readKBps: 2400, writeKBps: 5100, historyStopsAgo: 0 },
  { id: 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f', name: 'db-03', role: 'full-disk', power: 'on', cpuPct: 22, cpuCapacityMhz: 4 * 2600, memPct: 71, memKb: 16 * GIB_KB, disksKb: [50 * GIB_KB, 450 * GIB_KB], diskUsedPct: 95.2, readKBps: 8200, writeKBps: 3900, historyStopsAgo: 0 },
  { id: 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e', name: 'old-04', role: 'powered-off', power: 'off', cpuPct: 12, cpuCapacityMhz: 2 * 2600, memPct: 30, memKb: 4 * GIB_KB, disksKb: [20 * GIB_KB], diskUsedPct: 35, readKBps: 15, writeKBps: 22, historyStopsAgo: 3 * 3600 },
  { id: 'vm-5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9', name: 'batch-05', role: 'stale', power: 'on', cpuPct: 40, cpuCapacityMhz: 4 * 2600, memPct: 50, memKb: 8 * GIB_KB, disksKb: [80 * GIB_KB], diskUsedPct: 60, readKBps: 300, writeKBps: 450, historyStopsAgo: 3600 },
  { id: 'vm-9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', name: 'appliance-06', role: 'no-disk', power: 'on', cpuPct: 5, cpuCapacityMhz: 1 * 2600, memPct: 20, memKb: 2 * GIB_KB, disksKb: [], diskUsedPct: 0, readKBps: 0, writeKBps: 0, historyStopsAgo: 0 },
  { id: 'vm-2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a', name: 'legacy-07', role: 'no-tools', power: 'on', cpuPct: 18, cpuCapacityMhz: 2 * 2600, memPct: 0, memKb: 4 * GIB_KB, disksKb: [30 * GIB_KB], diskUsedPct: 48, readKBps: 40, writeKBps: 60, historyStopsAgo: 0, omit: ['mem.usage.average', 'mem.consumed.average'] },
];

/** The VMs of a scenario: `default` has one of each kind; `healthy` only calm, running VMs. */
export function scenarioVms(scenario: string): SimVm[] {
  if (scenario === 'healthy') {
    return DEFAULT_VMS.filter((vm) => vm.power === 'on' && vm.historyStopsAgo === 0 && !vm.omit && vm.disksKb.length > 0).map((vm) => ({
      ...vm,
      cpuPct: Math.min(vm.cpuPct, 35),
      diskUsedPct: Math.min(vm.diskUsedPct, 60),
    }));
  }
  return DEFAULT_VMS;
}

/**
 * A number in [0, 1) fixed by its inputs (FNV-1a, then a murmur finaliser): cheap enough
 * that a 24 h history of thousands of samples costs the simulator almost nothing.
 */
function unit(...parts: Array<string | number>): number {
  const text = parts.join('|');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/** Noise in [-amp, amp], fixed for one VM, metric and time bucket. */
function noise(vm: SimVm, metric: string, bucket: number, amp: number): number {
  return (unit(vm.id, metric, bucket) * 2 - 1) * amp;
}

/** Seconds between samples of a series (seed 2.7). */
export function intervalOf(metric: string): number {
  return metric.startsWith('disk.used') || metric.startsWith('disk.provisioned') ? 1800 : 300;
}

/** Whole-VM metrics (seed 2.7) followed by the extra and per-device ones real servers send. */
export function metricNames(vm: SimVm): Array<{ name: string; unit: string }> {
  const names = [
    { name: 'cpu.usage.average', unit: 'PERCENT' },
    { name: 'cpu.usage.maximum', unit: 'PERCENT' },
    { name: 'cpu.usagemhz.average', unit: 'MEGAHERTZ' },
    { name: 'cpu.ready.summation', unit: 'MILLISECOND' },
    { name: 'mem.usage.average', unit: 'PERCENT' },
    { name: 'mem.consumed.average', unit: 'KILOBYTE' },
    { name: 'disk.write.average', unit: 'KILOBYTES_PER_SECOND' },
    { name: 'disk.read.average', unit: 'KILOBYTES_PER_SECOND' },
    { name: 'disk.provisioned.latest', unit: 'KILOBYTE' },
    { name: 'disk.used.latest', unit: 'KILOBYTE' },
  ];
  vm.disksKb.forEach((_, i) => {
    names.push(
      { name: `disk.read.average.${i}`, unit: 'KILOBYTES_PER_SECOND' },
      { name: `disk.write.average.${i}`, unit: 'KILOBYTES_PER_SECOND' },
      { name: `disk.provisioned.latest.${2000 + i}`, unit: 'KILOBYTE' },
      { name: `disk.used.latest.${2000 + i}`, unit: 'KILOBYTE' },
    );
  });
  return names.filter((n) => !vm.omit?.includes(n.name));
}

const clampPct = (v: number) => Math.min(100, Math.max(0, v));

/** The value of a metric of a VM in the time bucket `bucket` (time / interval), as a decimal string. */
export function metricValue(vm: SimVm, metric: string, bucket: number): string {
  const t = bucket * intervalOf(metric);
  const daily = Math.sin((2 * Math.PI * t) / 86400); // busier in the afternoon, quieter at night
  // Bounded so that a VM's state never flips: busy (85%) stays within 80.4-89.6.
  const cpu = clampPct(vm.cpuPct + daily * vm.cpuPct * 0.03 + noise(vm, 'cpu', Math.floor(t / 300), Math.min(2, vm.cpuPct / 5)));
  const totalKb = vm.disksKb.reduce((a, b) => a + b, 0);
  const usedShare = (vm.diskUsedPct / 100) * (1 + 0.002 * (t / 86400 - Math.floor(t / 86400) - 0.5)); // slow growth over the day
  const perDisk = /^disk\.(read|write|used|provisioned)\.(average|latest)\.(\d+)$/.exec(metric);
  if (perDisk) {
    const i = Number(perDisk[3]) >= 2000 ? Number(perDisk[3]) - 2000 : Number(perDisk[3]);
    const share = totalKb > 0 ? (vm.disksKb[i] ?? 0) / totalKb : 0;
    const whole = metricValue(vm, `disk.${perDisk[1]}.${perDisk[2]}`, bucket);
    return perDisk[1] === 'provisioned' ? String(vm.disksKb[i] ?? 0) : (Number(whole) * share).toFixed(perDisk[2] === 'latest' ? 0 : 2);
  }
  switch (metric) {
    case 'cpu.usage.average':
      return cpu.toFixed(2);
    case 'cpu.usage.maximum':
      return clampPct(cpu + 4 + unit(vm.id, 'cpumax', bucket) * 8).toFixed(2);
    case 'cpu.usagemhz.average':
      return ((cpu * vm.cpuCapacityMhz) / 100).toFixed(0);
    case 'cpu.ready.summation':
      return (40 + unit(vm.id, 'ready', bucket) * 400).toFixed(0);
    case 'mem.usage.average':
      return clampPct(vm.memPct + noise(vm, 'mem', bucket, 1.5)).toFixed(2);
    case 'mem.consumed.average':
      return ((clampPct(vm.memPct + 12) / 100) * vm.memKb).toFixed(0);
    case 'disk.read.average':
      return Math.max(0, vm.readKBps * (1 + 0.3 * daily) + noise(vm, 'read', bucket, vm.readKBps * 0.2)).toFixed(2);
    case 'disk.write.average':
      return Math.max(0, vm.writeKBps * (1 + 0.3 * daily) + noise(vm, 'write', bucket, vm.writeKBps * 0.2)).toFixed(2);
    case 'disk.provisioned.latest':
      return String(totalKb);
    case 'disk.used.latest':
      return Math.round(totalKb * usedShare).toString();
    default:
      return '0';
  }
}

/** Jitter of a sample time: a few seconds and milliseconds after the interval boundary. */
export function sampleOffsetMs(vm: SimVm, metric: string, bucket: number): number {
  return Math.floor(unit(vm.id, metric, bucket, 'jitter') * 6000) + 1000;
}

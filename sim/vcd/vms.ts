// The VMs of the simulated cloud director and their metric values: deterministic (seeded by
// VM, metric and time bucket) so that tests can rely on states, yet shaped like real data.
import { NODE_VMS } from '../node-vms';

export type Power = 'on' | 'off' | 'suspended';

/** Shapes real servers send that a plain VM does not show (each one on its own VM). */
export interface SimQuirks {
  /** Disk metrics only per disk (`disk.used.latest.0..n`), no whole-VM disk names (a real tenant). */
  perDiskOnly?: boolean;
  /** Current metrics refused with HTTP 400 and this minorErrorCode/message although the VM runs. */
  refuseCurrent?: { minor: string; message: string };
  /** expectedInterval written in milliseconds (the programming guide's unit), not seconds. */
  intervalInMs?: boolean;
  /** One more sample of each series, dated this far ahead (ms): a server clock gone wrong. */
  futureSampleMs?: number;
  /** This metric sent twice, the second time with another value. */
  duplicate?: string;
  /** This metric's value, whatever its unit says (e.g. a percentage of 153.2). */
  override?: { metric: string; value: string };
}

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
  /** Per disk, used % (else every disk is diskUsedPct full). */
  diskUsedPcts?: number[];
  readKBps: number;
  writeKBps: number;
  /** Seconds before now at which the historic series stop (powered off, collector stuck). */
  historyStopsAgo: number;
  /** Metric names this VM's documents leave out (VMware Tools not running). */
  omit?: readonly string[];
  quirks?: SimQuirks;
  /** Snapshots set at run time (ages in seconds before the hour), in place of the scenario's. */
  snapshots?: ReadonlyArray<{ age: number; size: number }>;
}

const GIB_KB = 1024 * 1024;

const DEFAULT_VMS: SimVm[] = [
  {
    id: 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70',
    name: 'web-01',
    role: 'healthy',
    power: 'on',
    cpuPct: 30,
    cpuCapacityMhz: 2 * 2600,
    memPct: 44,
    memKb: 8 * GIB_KB,
    disksKb: [40 * GIB_KB, 60 * GIB_KB],
    diskUsedPct: 41,
    readKBps: 120,
    writeKBps: 340,
    historyStopsAgo: 0,
  },
  {
    id: 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    name: 'build-02',
    role: 'busy',
    power: 'on',
    cpuPct: 85,
    cpuCapacityMhz: 8 * 2600,
    memPct: 62,
    memKb: 32 * GIB_KB,
    disksKb: [100 * GIB_KB],
    diskUsedPct: 55,
    readKBps: 2400,
    writeKBps: 5100,
    historyStopsAgo: 0,
  },
  {
    id: 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
    name: 'db-03',
    role: 'full-disk',
    power: 'on',
    cpuPct: 22,
    cpuCapacityMhz: 4 * 2600,
    memPct: 71,
    memKb: 16 * GIB_KB,
    disksKb: [50 * GIB_KB, 450 * GIB_KB],
    diskUsedPct: 95.2,
    readKBps: 8200,
    writeKBps: 3900,
    historyStopsAgo: 0,
  },
  {
    id: 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e',
    name: 'old-04',
    role: 'powered-off',
    power: 'off',
    cpuPct: 12,
    cpuCapacityMhz: 2 * 2600,
    memPct: 30,
    memKb: 4 * GIB_KB,
    disksKb: [20 * GIB_KB],
    diskUsedPct: 35,
    readKBps: 15,
    writeKBps: 22,
    historyStopsAgo: 3 * 3600,
  },
  {
    id: 'vm-5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
    name: 'batch-05',
    role: 'stale',
    power: 'on',
    cpuPct: 40,
    cpuCapacityMhz: 4 * 2600,
    memPct: 50,
    memKb: 8 * GIB_KB,
    disksKb: [80 * GIB_KB],
    diskUsedPct: 60,
    readKBps: 300,
    writeKBps: 450,
    historyStopsAgo: 3600,
  },
  {
    id: 'vm-9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
    name: 'appliance-06',
    role: 'no-disk',
    power: 'on',
    cpuPct: 5,
    cpuCapacityMhz: 1 * 2600,
    memPct: 20,
    memKb: 2 * GIB_KB,
    disksKb: [],
    diskUsedPct: 0,
    readKBps: 0,
    writeKBps: 0,
    historyStopsAgo: 0,
  },
  {
    id: 'vm-2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
    name: 'legacy-07',
    role: 'no-tools',
    power: 'on',
    cpuPct: 18,
    cpuCapacityMhz: 2 * 2600,
    memPct: 0,
    memKb: 4 * GIB_KB,
    disksKb: [30 * GIB_KB],
    diskUsedPct: 48,
    readKBps: 40,
    writeKBps: 60,
    historyStopsAgo: 0,
    omit: ['mem.usage.average', 'mem.consumed.average'],
  },
  // Shapes seen on real servers (see SimQuirks); the default scenario has one VM of each.
  {
    id: 'vm-7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    name: 'files-08',
    role: 'per-disk-only',
    power: 'on',
    cpuPct: 12,
    cpuCapacityMhz: 4 * 2600,
    memPct: 38,
    memKb: 16 * GIB_KB,
    disksKb: [50 * GIB_KB, 100 * GIB_KB, 20 * GIB_KB],
    diskUsedPct: 75,
    diskUsedPcts: [60, 95, 10],
    readKBps: 250,
    writeKBps: 360,
    historyStopsAgo: 0,
    quirks: { perDiskOnly: true },
  },
  {
    id: 'vm-3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d',
    name: 'api-09',
    role: 'operation-limits',
    power: 'on',
    cpuPct: 25,
    cpuCapacityMhz: 2 * 2600,
    memPct: 40,
    memKb: 8 * GIB_KB,
    disksKb: [40 * GIB_KB],
    diskUsedPct: 30,
    readKBps: 50,
    writeKBps: 80,
    historyStopsAgo: 0,
    quirks: {
      refuseCurrent: {
        minor: 'OPERATION_LIMITS_EXCEEDED',
        message: 'The maximum number of simultaneous operations for user "monitor" on organization "acme" has been reached.',
      },
    },
  },
  {
    id: 'vm-6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e',
    name: 'queue-10',
    role: 'interval-ms',
    power: 'on',
    cpuPct: 35,
    cpuCapacityMhz: 2 * 2600,
    memPct: 50,
    memKb: 8 * GIB_KB,
    disksKb: [40 * GIB_KB],
    diskUsedPct: 45,
    readKBps: 90,
    writeKBps: 120,
    historyStopsAgo: 2 * 3600,
    quirks: { intervalInMs: true },
  },
  {
    id: 'vm-9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a',
    name: 'clock-11',
    role: 'future-sample',
    power: 'on',
    cpuPct: 20,
    cpuCapacityMhz: 2 * 2600,
    memPct: 30,
    memKb: 4 * GIB_KB,
    disksKb: [20 * GIB_KB],
    diskUsedPct: 40,
    readKBps: 30,
    writeKBps: 40,
    historyStopsAgo: 2 * 3600,
    quirks: { futureSampleMs: Date.parse('2099-01-01T00:00:00Z') - Date.parse('2026-01-01T00:00:00Z') },
  },
  {
    id: 'vm-1f2a3b4c-5d6e-4f7a-8b9c-0d1e2f3a4b5c',
    name: 'twice-12',
    role: 'duplicate-metric',
    power: 'on',
    cpuPct: 20,
    cpuCapacityMhz: 2 * 2600,
    memPct: 45,
    memKb: 4 * GIB_KB,
    disksKb: [20 * GIB_KB],
    diskUsedPct: 40,
    readKBps: 30,
    writeKBps: 40,
    historyStopsAgo: 0,
    quirks: { duplicate: 'mem.usage.average' },
  },
  {
    id: 'vm-4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f',
    name: 'odd-13',
    role: 'bad-percent',
    power: 'on',
    cpuPct: 20,
    cpuCapacityMhz: 2 * 2600,
    memPct: 45,
    memKb: 4 * GIB_KB,
    disksKb: [20 * GIB_KB],
    diskUsedPct: 40,
    readKBps: 30,
    writeKBps: 40,
    historyStopsAgo: 0,
    quirks: { override: { metric: 'cpu.usage.average', value: '153.2' } },
  },
  {
    id: 'vm-8e9f0a1b-2c3d-4e4f-8a5b-6c7d8e9f0a1b',
    name: 'paused-14',
    role: 'suspended',
    power: 'suspended',
    cpuPct: 10,
    cpuCapacityMhz: 2 * 2600,
    memPct: 20,
    memKb: 4 * GIB_KB,
    disksKb: [20 * GIB_KB],
    diskUsedPct: 40,
    readKBps: 10,
    writeKBps: 10,
    historyStopsAgo: 30 * 3600,
  },
];

/** The VMs of the nodes of the cluster scenario `vcd` (sim/node-vms.ts): one off, one at 100 % CPU, the others running. */
function nodeVms(): SimVm[] {
  return NODE_VMS.flatMap((n): SimVm[] => {
    if (n.id === undefined) return [];
    const vm: SimVm = { ...DEFAULT_VMS[0], id: n.id, name: n.name, role: `node-${n.vm ?? 'calm'}`, cpuPct: 25, memPct: 40 };
    if (n.vm === 'off') return [{ ...vm, power: 'off', historyStopsAgo: 3 * 3600 }];
    if (n.vm === 'cpu-100') return [{ ...vm, cpuPct: 100 }];
    if (n.vm === 'busy-memory') return [{ ...vm, memPct: 93 }];
    return [vm];
  });
}

/** The VMs of a scenario: `default` has one of each kind; `healthy` only calm, running VMs; `nodes` the VMs of the cluster scenario `vcd`. */
export function scenarioVms(scenario: string): SimVm[] {
  if (scenario === 'nodes') return nodeVms();
  if (scenario === 'healthy') {
    return DEFAULT_VMS.filter((vm) => vm.power === 'on' && vm.historyStopsAgo === 0 && !vm.omit && !vm.quirks && vm.disksKb.length > 0).map((vm) => ({
      ...vm,
      cpuPct: Math.min(vm.cpuPct, 35),
      diskUsedPct: Math.min(vm.diskUsedPct, 60),
    }));
  }
  // A copy: a simulator that adds VMs of its own (other organisations) must not add them to
  // every later simulator of the process.
  return [...DEFAULT_VMS];
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

/** Seconds between samples of a series, as vCD announces them (expectedInterval). */
export function intervalOf(metric: string): number {
  return metric.startsWith('disk.used') || metric.startsWith('disk.provisioned') ? 1800 : 300;
}

/** Whole-VM metrics followed by the extra and per-device ones real servers send. */
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
  // Per-disk sizes are numbered by the disk's unit number (2000, ...) on most servers, by its
  // index on the tenant that sends nothing else.
  const sizeId = (i: number) => (vm.quirks?.perDiskOnly ? i : 2000 + i);
  vm.disksKb.forEach((_, i) => {
    names.push(
      { name: `disk.read.average.${i}`, unit: 'KILOBYTES_PER_SECOND' },
      { name: `disk.write.average.${i}`, unit: 'KILOBYTES_PER_SECOND' },
      { name: `disk.provisioned.latest.${sizeId(i)}`, unit: 'KILOBYTE' },
      { name: `disk.used.latest.${sizeId(i)}`, unit: 'KILOBYTE' },
    );
  });
  const wholeDisk = /^disk\.(read|write|used|provisioned)\.(average|latest)$/;
  const kept = names.filter((n) => !vm.omit?.includes(n.name) && !(vm.quirks?.perDiskOnly && wholeDisk.test(n.name)));
  const twice = vm.quirks?.duplicate && kept.find((n) => n.name === vm.quirks?.duplicate);
  return twice ? [...kept, twice] : kept;
}

const clampPct = (v: number) => Math.min(100, Math.max(0, v));

/** The value of a metric of a VM in the time bucket `bucket` (time / interval), as a decimal string. */
export function metricValue(vm: SimVm, metric: string, bucket: number): string {
  if (vm.quirks?.override?.metric === metric) return vm.quirks.override.value;
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
    if (perDisk[1] === 'used' && vm.diskUsedPcts) return usedOfDisk(vm, i, t).toFixed(0);
    const whole = metricValue(vm, `disk.${perDisk[1]}.${perDisk[2]}`, bucket);
    return perDisk[1] === 'provisioned' ? String(vm.disksKb[i] ?? 0) : (Number(whole) * share).toFixed(perDisk[2] === 'latest' ? 0 : 2);
  }
  switch (metric) {
    case 'cpu.usage.average':
      // A VM pinned at its limit reads 100 every sample, as vCD reports a saturated VM.
      return (vm.cpuPct >= 100 ? 100 : cpu).toFixed(2);
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
      if (vm.diskUsedPcts) return vm.disksKb.reduce((a, _, i) => a + usedOfDisk(vm, i, t), 0).toFixed(0);
      return Math.round(totalKb * usedShare).toString();
    default:
      return '0';
  }
}

/** KB used on disk i of a VM with per-disk fill levels, at time t (s), growing slowly over the day. */
function usedOfDisk(vm: SimVm, i: number, t: number): number {
  const growth = 1 + 0.002 * (t / 86400 - Math.floor(t / 86400) - 0.5);
  return Math.round((vm.disksKb[i] ?? 0) * ((vm.diskUsedPcts?.[i] ?? vm.diskUsedPct) / 100) * growth);
}

/** The expectedInterval attribute of a series: seconds (schema reference), or ms for a VM that says so. */
export function expectedIntervalAttribute(vm: SimVm, metric: string): string {
  return String(intervalOf(metric) * (vm.quirks?.intervalInMs ? 1000 : 1));
}

/** Samples a broken server clock adds after the real ones: (time, bucket) pairs. */
export function futureSamples(vm: SimVm, now: number): Array<{ time: number }> {
  return vm.quirks?.futureSampleMs ? [{ time: Math.floor(now / 1000) * 1000 + vm.quirks.futureSampleMs }] : [];
}

/** Jitter of a sample time: a few seconds and milliseconds after the interval boundary. */
export function sampleOffsetMs(vm: SimVm, metric: string, bucket: number): number {
  return Math.floor(unit(vm.id, metric, bucket, 'jitter') * 6000) + 1000;
}

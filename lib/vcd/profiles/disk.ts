import { CheckError } from '../../plugin/errors';
import { formatDecimal } from '../../plugin/number-format';
import type { ValueParser } from '../../plugin/range';
import type { Metric as PerfMetric } from '../../plugin/perfdata';
import type { Item } from '../../plugin/result';
import { worstState } from '../../plugin/state';
import { evaluateThresholds, type Thresholds } from '../../plugin/threshold';
import type { MetricName } from '../metrics';
import { percentMetric, type VmCheckProfile } from '../vm-check';

/** vCD reports sizes in KILOBYTE, which is 1024 bytes. */
const KIB = 1024;
const UNITS = ['', 'K', 'M', 'G', 'T', 'P'];

/** Parses a size in bytes with an optional binary suffix: `500G`, `1.5T`, `750MiB`, `1024`. */
export const parseSize: ValueParser = (text) => {
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([kmgtp]?)(?:i?b)?$/i.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * KIB ** UNITS.indexOf(m[2].toUpperCase());
};

/** Bytes in the largest binary unit that keeps the number at or above 1: `95.3 GiB`. */
export function formatBytes(bytes: number): string {
  let i = 0;
  let v = bytes;
  while (Math.abs(v) >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${formatDecimal(v, 0)} B` : `${formatDecimal(v, 1)} ${UNITS[i]}iB`;
}

const NEEDS: Record<string, MetricName[]> = {
  percent: ['disk.used.latest', 'disk.provisioned.latest'],
  used: ['disk.used.latest'],
  read: ['disk.read.average'],
  write: ['disk.write.average'],
};

/** One disk as vCD numbers it; a value it did not send for this disk is undefined. */
interface DiskValues {
  id: string;
  used?: number;
  prov?: number;
  pct?: number;
  read?: number;
  write?: number;
}

function diskValues(id: string, m: ReadonlyMap<MetricName, number>): DiskValues {
  const usedKb = m.get('disk.used.latest');
  const provKb = m.get('disk.provisioned.latest');
  const used = usedKb === undefined ? undefined : usedKb * KIB;
  const prov = provKb === undefined ? undefined : provKb * KIB;
  const pct = used !== undefined && prov !== undefined && prov > 0 ? (used / prov) * 100 : undefined;
  return { id, used, prov, pct, read: m.get('disk.read.average'), write: m.get('disk.write.average') };
}

/** The value of the chosen --metric of one disk, and its words. */
function judgedValue(d: DiskValues, metric: string): { value?: number; words: string } {
  switch (metric) {
    case 'used':
      return { value: d.used, words: d.used === undefined ? '' : `used ${formatBytes(d.used)}${d.prov ? ` of ${formatBytes(d.prov)}` : ''}` };
    case 'read':
    case 'write': {
      const v = metric === 'read' ? d.read : d.write;
      return { value: v, words: v === undefined ? '' : `${metric} ${formatDecimal(v, 1)} KB/s` };
    }
    default:
      return { value: d.pct, words: d.pct === undefined ? '' : `used ${formatDecimal(d.pct, 1)}% (${formatBytes(d.used as number)} of ${formatBytes(d.prov as number)})` };
  }
}

/** Perfdata of each disk: `disk_used_pct_0`, `disk_used_0`, `disk_read_kBps_0`, ...; thresholds on the judged one. */
function diskPerfdata(disks: DiskValues[], metric: string, thresholds: Thresholds | undefined): PerfMetric[] {
  const on = (m: string) => (m === metric ? thresholds : undefined);
  const out: PerfMetric[] = [];
  for (const d of disks) {
    if (d.used !== undefined) out.push({ label: `disk_used_${d.id}`, value: d.used, uom: 'B', ...on('used'), min: 0, max: d.prov && d.prov > 0 ? d.prov : undefined });
    if (d.pct !== undefined) out.push(percentMetric(`disk_used_pct_${d.id}`, d.pct, on('percent')));
    if (d.read !== undefined) out.push({ label: `disk_read_kBps_${d.id}`, value: d.read, ...on('read'), min: 0 });
    if (d.write !== undefined) out.push({ label: `disk_write_kBps_${d.id}`, value: d.write, ...on('write'), min: 0 });
  }
  return out;
}

/** check_vm_disk: disk used / provisioned % by default (SPEC 4.5). */
export const DISK_PROFILE: VmCheckProfile = {
  name: 'VM_DISK',
  command: 'check_vm_disk',
  description: 'Checks the disk usage of a VMware Cloud Director VM: used / provisioned %, used bytes, or read/write rates.',
  metrics: ['percent', 'used', 'read', 'write'],
  metricHelp: 'Threshold metric: percent (used / provisioned %), used (bytes; ranges take sizes such as 500G), read or write (KB/s).',
  needs: (metric) => NEEDS[metric],
  reads: ['disk.used.latest', 'disk.provisioned.latest', 'disk.read.average', 'disk.write.average'],
  defaultThresholds: (metric) => (metric === 'percent' ? { warning: '80', critical: '90' } : {}),
  thresholdParser: (metric) => (metric === 'used' ? parseSize : undefined),
  thresholdHelp: 'Warning range (default 80 for percent; none for the others). With --metric used, sizes such as 500G (binary units).',
  perDisk: true,
  evaluate({ values, metric, thresholds, vm, mode, disks: perDisk, summed, perDisk: judgeEachDisk }) {
    const disks = [...perDisk].map(([id, m]) => diskValues(id, m)).sort((a, b) => Number(a.id) - Number(b.id));
    if (judgeEachDisk) return evaluatePerDisk(disks, values, metric, thresholds, vm, mode);
    const usedKb = values.get('disk.used.latest');
    const provKb = values.get('disk.provisioned.latest');
    const used = usedKb === undefined ? undefined : usedKb * KIB;
    const prov = provKb === undefined ? undefined : provKb * KIB;
    let pct: number | undefined;
    if (used !== undefined && prov !== undefined && prov > 0) pct = (used / prov) * 100;
    if (metric === 'percent' && pct === undefined) {
      throw new CheckError(`${vm} has no provisioned disk space (disk.provisioned.latest = 0), so used % is undefined; use --metric used, or check the VM's disks`);
    }
    const read = values.get('disk.read.average');
    const write = values.get('disk.write.average');
    let value: number;
    let summary: string;
    const of = prov !== undefined && prov > 0 ? ` of ${formatBytes(prov)}` : '';
    switch (metric) {
      case 'used':
        value = used as number;
        summary = `disk used ${formatBytes(value)}${of}${pct === undefined ? '' : ` (${formatDecimal(pct, 1)}%)`}`;
        break;
      case 'read':
      case 'write':
        value = (metric === 'read' ? read : write) as number;
        summary = `disk ${metric} ${formatDecimal(value, 1)} KB/s`;
        break;
      default:
        value = pct as number;
        summary = `disk used ${formatDecimal(value, 1)}% (${formatBytes(used as number)}${of})`;
    }
    return {
      state: evaluateThresholds(value, thresholds),
      summary: `${summary} (${mode}) on ${vm}`,
      metrics: [
        ...wholeVmPerfdata(values, metric, thresholds),
        // Per disk when the whole was summed from the disks: the sum alone would hide which one fills.
        ...(summed.length > 0 ? diskPerfdata(disks, metric, undefined) : []),
      ],
    };
  },
  examples: [
    'check_vm_disk -u https://vcd.example.com --vm vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --password-file /etc/nagios/vcd.pw',
    'check_vm_disk ... --metric used -w 400G -c 450G',
    'check_vm_disk ... --metric write --window 1h -w 20000 -c 50000',
    'check_vm_disk ... --per-disk -w 85 -c 95',
  ],
};

/** The whole-VM perfdata of SPEC 4.5, thresholds on the judged metric unless given none. */
function wholeVmPerfdata(values: ReadonlyMap<MetricName, number>, metric: string, thresholds: Thresholds | undefined): PerfMetric[] {
  const whole = diskValues('', values);
  const on = (m: string) => (m === metric ? thresholds : undefined);
  return [
    { label: 'disk_used', value: whole.used ?? null, uom: 'B', ...on('used'), min: 0, max: whole.prov !== undefined && whole.prov > 0 ? whole.prov : undefined },
    { label: 'disk_provisioned', value: whole.prov ?? null, uom: 'B', min: 0 },
    percentMetric('disk_used_pct', whole.pct, on('percent')),
    { label: 'disk_read_kBps', value: whole.read ?? null, ...on('read'), min: 0 },
    { label: 'disk_write_kBps', value: whole.write ?? null, ...on('write'), min: 0 },
  ];
}

/** --per-disk: each disk that reports the chosen metric is judged; the worst decides. */
function evaluatePerDisk(disks: DiskValues[], values: ReadonlyMap<MetricName, number>, metric: string, thresholds: Thresholds, vm: string, mode: string) {
  const judged = disks.map((d) => ({ d, ...judgedValue(d, metric) })).filter((j) => j.value !== undefined);
  if (judged.length === 0) {
    throw new CheckError(`${vm}: the server sends no per-disk ${metric === 'percent' ? 'used and provisioned sizes' : `${metric} values`}, so --per-disk has nothing to judge: drop --per-disk to judge the whole VM`);
  }
  const items: Item[] = judged.map((j) => ({ name: `disk ${j.d.id}`, state: evaluateThresholds(j.value as number, thresholds), text: `disk ${j.d.id}: ${j.words}` }));
  const state = worstState(items.map((i) => i.state));
  // The worst disk, and among equals the fullest: that is the one to name.
  let worst = 0;
  for (let i = 1; i < judged.length; i++) {
    if (items[i].state > items[worst].state || (items[i].state === items[worst].state && (judged[i].value as number) > (judged[worst].value as number))) worst = i;
  }
  const of = judged.length > 1 ? ` (worst of ${judged.length})` : '';
  return {
    state,
    summary: `disk ${judged[worst].d.id}${of} ${judged[worst].words} (${mode}) on ${vm}`,
    items,
    metrics: [...wholeVmPerfdata(values, metric, undefined), ...diskPerfdata(disks, metric, thresholds)],
  };
}

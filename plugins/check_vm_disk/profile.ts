import { CheckError } from '../../lib/plugin/errors';
import { formatBytes, formatDecimal } from '../../lib/plugin/number-format';

export { formatBytes };
import type { ValueParser } from '../../lib/plugin/range';
import { defineOptions } from '../../lib/plugin/options';
import type { Metric as PerfMetric } from '../../lib/plugin/perfdata';
import { ordered } from '../../lib/plugin/part';
import { resultFromItems, type Item } from '../../lib/plugin/result';
import { PERCENT, ScalarContext, type ChoosableValue } from '../../lib/plugin/scalar-context';
import { State } from '../../lib/plugin/state';
import type { MetricName } from '../../lib/vcd/vm/metrics';
import type { VmCheckProfile } from '../../lib/vcd/vm/profile';
import { metricOption, PER_DISK_OPTION } from '../../lib/vcd/vm/vm-options';

/** vCD reports sizes in KILOBYTE, which is 1024 bytes. */
const KIB = 1024;
const UNITS = ['', 'K', 'M', 'G', 'T', 'P'];

/** Parses a size in bytes with an optional binary suffix: `500G`, `1.5T`, `750MiB`, `1024`. */
export const parseSize: ValueParser = (text) => {
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([kmgtp]?)(?:i?b)?$/i.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * KIB ** UNITS.indexOf(m[2].toUpperCase());
};

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
      return {
        value: d.pct,
        words: d.pct === undefined ? '' : `used ${formatDecimal(d.pct, 1)}% (${formatBytes(d.used as number)} of ${formatBytes(d.prov as number)})`,
      };
  }
}

/**
 * The perfdata values of the whole VM (every one, unknown ones as U) or of one disk (`_0`: the
 * ones it reports), each keyed by the --metric that judges it.
 */
function perfValues(d: DiskValues, perDisk: boolean): ChoosableValue[] {
  const suffix = perDisk ? `_${d.id}` : '';
  const values: ChoosableValue[] = [
    { key: 'used', label: `disk_used${suffix}`, value: d.used, shape: { uom: 'B', min: 0, max: d.prov && d.prov > 0 ? d.prov : undefined } },
    ...(perDisk ? [] : [{ key: 'provisioned', label: 'disk_provisioned', value: d.prov, shape: { uom: 'B' as const, min: 0 } }]),
    { key: 'percent', label: `disk_used_pct${suffix}`, value: d.pct, shape: PERCENT },
    { key: 'read', label: `disk_read_kBps${suffix}`, value: d.read, shape: { min: 0 } },
    { key: 'write', label: `disk_write_kBps${suffix}`, value: d.write, shape: { min: 0 } },
  ];
  return perDisk ? values.filter((v) => v.value !== undefined) : values;
}

/** Perfdata of each disk: `disk_used_pct_0`, `disk_used_0`, `disk_read_kBps_0`, ...; thresholds on the judged one. */
function diskPerfdata(disks: DiskValues[], metric: string, judged: ScalarContext): PerfMetric[] {
  return disks.flatMap((d) => judged.measureChosen(metric, perfValues(d, true)).metrics);
}

const METRICS = ['percent', 'used', 'read', 'write'] as const;
const METRIC_HELP =
  "Threshold metric: percent (used / provisioned %), used (bytes; ranges take sizes such as 500G), read or write (KB/s). vCD's used is the space the VM's disks take on the datastore, not the guest's file-system use: a thick-provisioned disk is always fully used.";

/** check_vm_disk's own options: the metric -w/-c judge, whether each disk is judged, and fully allocated disks. */
export const DISK_OPTIONS = defineOptions([
  metricOption(METRICS, METRIC_HELP),
  PER_DISK_OPTION,
  {
    long: 'alarm-fully-allocated',
    type: 'boolean',
    description:
      'Judge fully allocated disks (used = provisioned - 1 KB or less: thick provisioned) by -w/-c like the others. By default they are OK and said to be fully allocated, with --metric percent or used.',
  },
]);

/** vCD reports a thick disk's used size as its provisioned size less 1 KB: no more than this many KB free. */
const FULLY_ALLOCATED_SLACK_KB = 1;

/** True when the disk takes all its provisioned space on the datastore (thick provisioned). */
function fullyAllocated(d: DiskValues): boolean {
  return d.used !== undefined && d.prov !== undefined && d.prov > 0 && d.prov - d.used <= FULLY_ALLOCATED_SLACK_KB * KIB;
}

/** True when every disk of the VM (or the whole, without per-disk values) is fully allocated. */
function allFullyAllocated(disks: DiskValues[], whole: DiskValues): boolean {
  const sized = disks.filter((d) => d.used !== undefined && d.prov !== undefined);
  if (sized.length > 0) return sized.every(fullyAllocated);
  return fullyAllocated(whole);
}

// Commas, not semicolons: the status line has none (the renderer would rewrite them).
const ALLOCATION_NOTE = "thick provisioned, vCD's disk used is datastore allocation, not the guest's file systems";

/** check_vm_disk: disk used / provisioned % by default. */
export const DISK_PROFILE: VmCheckProfile = {
  name: 'VM_DISK',
  command: 'check_vm_disk',
  description: 'Checks the disk usage of a VMware Cloud Director VM: used / provisioned %, used bytes, or read/write rates.',
  metrics: METRICS,
  needs: (metric) => NEEDS[metric],
  reads: ['disk.used.latest', 'disk.provisioned.latest', 'disk.read.average', 'disk.write.average'],
  zeroWhenOff: ['disk.read.average', 'disk.write.average'],
  defaultThresholds: (metric) => (metric === 'percent' ? { warning: '80', critical: '90' } : {}),
  thresholdParser: (metric) => (metric === 'used' ? parseSize : undefined),
  thresholdHelp: 'Warning range (default 80 for percent; none for the others). With --metric used, sizes such as 500G (binary units).',
  evaluate({ values, metric, thresholds, vm, mode, disks: perDisk, summed, perDisk: judgeEachDisk, alarmFullyAllocated }) {
    const disks = [...perDisk].map(([id, m]) => diskValues(id, m)).sort((a, b) => Number(a.id) - Number(b.id));
    const judged = ScalarContext.of(thresholds);
    const judgesSize = metric === 'percent' || metric === 'used';
    if (judgeEachDisk) return evaluatePerDisk(disks, values, metric, judged, vm, mode, judgesSize && !alarmFullyAllocated);
    const whole = diskValues('', values);
    if (judgesSize && !alarmFullyAllocated && allFullyAllocated(disks, whole)) {
      const n = disks.length > 1 ? `${disks.length} disks` : 'disk';
      return {
        state: State.OK,
        summary: `${n} fully allocated on the datastore, ${formatBytes(whole.used as number)} of ${formatBytes(whole.prov as number)} (${ALLOCATION_NOTE}, --alarm-fully-allocated to judge them) (${mode}) on ${vm}`,
        metrics: [...wholeVm(values, metric, judged).metrics, ...(summed.length > 0 ? diskPerfdata(disks, metric, ScalarContext.NONE) : [])],
      };
    }
    const usedKb = values.get('disk.used.latest');
    const provKb = values.get('disk.provisioned.latest');
    const used = usedKb === undefined ? undefined : usedKb * KIB;
    const prov = provKb === undefined ? undefined : provKb * KIB;
    let pct: number | undefined;
    if (used !== undefined && prov !== undefined && prov > 0) pct = (used / prov) * 100;
    if (metric === 'percent' && pct === undefined) {
      throw new CheckError(
        `${vm} has no provisioned disk space (disk.provisioned.latest = 0), so used % is undefined; use --metric used, or check the VM's disks`,
      );
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
    const measured = wholeVm(values, metric, judged);
    return {
      state: measured.judged!.state,
      summary: `${summary} (${mode}) on ${vm}`,
      metrics: [
        ...measured.metrics,
        // Per disk when the whole was summed from the disks: the sum alone would hide which one fills.
        ...(summed.length > 0 ? diskPerfdata(disks, metric, ScalarContext.NONE) : []),
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

/** The whole VM measured: the chosen metric judged, and the perfdata, thresholds on the judged metric unless given none. */
function wholeVm(values: ReadonlyMap<MetricName, number>, metric: string, judged: ScalarContext) {
  return judged.measureChosen(metric, perfValues(diskValues('', values), false));
}

/** --per-disk: each disk that reports the chosen metric is judged; the worst decides. */
function evaluatePerDisk(
  disks: DiskValues[],
  values: ReadonlyMap<MetricName, number>,
  metric: string,
  each: ScalarContext,
  vm: string,
  mode: string,
  thickOk: boolean,
) {
  // Each disk measured once: the state of its item and its perfdata come from the same values.
  const measured = disks.map((d) => ({ d, ...judgedValue(d, metric), ...each.measureChosen(metric, perfValues(d, true)) }));
  const judged = measured.filter((j) => j.value !== undefined);
  if (judged.length === 0) {
    throw new CheckError(
      `${vm}: the server sends no per-disk ${metric === 'percent' ? 'used and provisioned sizes' : `${metric} values`}, so --per-disk has nothing to judge: drop --per-disk to judge the whole VM`,
    );
  }
  const items: Item[] = judged.map((j) =>
    thickOk && fullyAllocated(j.d)
      ? { name: `disk ${j.d.id}`, state: State.OK, text: `disk ${j.d.id}: fully allocated, ${j.words} (thick provisioned)` }
      : { name: `disk ${j.d.id}`, state: j.judged!.state, text: `disk ${j.d.id}: ${j.words}` },
  );
  // The worst disk, and among equals the fullest (a fully allocated one, when not alarmed on, last): that is the one to name.
  const fill = (i: number) => (thickOk && fullyAllocated(judged[i].d) ? -Infinity : (judged[i].value as number));
  const fullestFirst = items.map((item, i) => ({ ...item, i, fill: fill(i) })).sort((a, b) => (a.fill > b.fill ? -1 : a.fill < b.fill ? 1 : 0));
  const worst = ordered(fullestFirst, 'worst first')[0].i;
  const of = judged.length > 1 ? ` (worst of ${judged.length})` : '';
  const words = items[worst].text.slice(`disk ${judged[worst].d.id}: `.length);
  return resultFromItems(`disk ${judged[worst].d.id}${of} ${words} (${mode}) on ${vm}`, items, [
    ...wholeVm(values, metric, ScalarContext.NONE).metrics,
    ...measured.flatMap((m) => m.metrics),
  ]);
}

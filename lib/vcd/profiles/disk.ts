import { CheckError } from '../../plugin/errors';
import { formatDecimal } from '../../plugin/number-format';
import type { ValueParser } from '../../plugin/range';
import { evaluateThresholds } from '../../plugin/threshold';
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
  evaluate({ values, metric, thresholds, vm, mode }) {
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
    const on = (m: string) => (m === metric ? thresholds : undefined);
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
        { label: 'disk_used', value: used ?? null, uom: 'B', ...on('used'), min: 0, max: prov !== undefined && prov > 0 ? prov : undefined },
        { label: 'disk_provisioned', value: prov ?? null, uom: 'B', min: 0 },
        percentMetric('disk_used_pct', pct, on('percent')),
        { label: 'disk_read_kBps', value: read ?? null, ...on('read'), min: 0 },
        { label: 'disk_write_kBps', value: write ?? null, ...on('write'), min: 0 },
      ],
    };
  },
  examples: [
    'check_vm_disk -u https://vcd.example.com --vm vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --password-file /etc/nagios/vcd.pw',
    'check_vm_disk ... --metric used -w 400G -c 450G',
    'check_vm_disk ... --metric write --window 1h -w 20000 -c 50000',
  ],
};

import { describe, expect, it } from 'vitest';
import { formatPerfdata } from '../../../../lib/plugin/perfdata';
import { parseRange } from '../../../../lib/plugin/range';
import { State } from '../../../../lib/plugin/state';
import type { MetricName } from '../../../../lib/vcd/vm/metrics';
import { CPU_PROFILE } from '../../../../plugins/check_vm_cpu/profile';
import { DISK_PROFILE, formatBytes, parseSize } from '../../../../plugins/check_vm_disk/profile';
import { MEM_PROFILE } from '../../../../plugins/check_vm_mem/profile';
import type { VmCheckProfile } from '../../../../lib/vcd/vm/profile';
import { parsePerfdataStrict } from '../../../support/perfdata-parse';

const VM = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
const CURRENT = new Map<MetricName, number>([
  ['cpu.usage.average', 33.7],
  ['cpu.usage.maximum', 89],
  ['cpu.usagemhz.average', 262],
  ['mem.usage.average', 44],
  ['disk.read.average', 12.5],
  ['disk.write.average', 340.25],
  ['disk.provisioned.latest', 104857600],
  ['disk.used.latest', 94371840],
]);

type Disks = Map<string, Map<MetricName, number>>;
function evaluate(
  profile: VmCheckProfile,
  metric: string,
  w?: string,
  c?: string,
  values = CURRENT,
  mode = 'current',
  disks: Disks = new Map(),
  summed: MetricName[] = [],
  perDisk = false,
) {
  const d = profile.defaultThresholds(metric);
  const parser = profile.thresholdParser?.(metric);
  const ww = w ?? d.warning;
  const cc = c ?? d.critical;
  const r = profile.evaluate({
    values,
    metric,
    vm: VM,
    mode,
    disks,
    summed,
    perDisk,
    thresholds: { warning: ww === undefined ? undefined : parseRange(ww, '-w', parser), critical: cc === undefined ? undefined : parseRange(cc, '-c', parser) },
  });
  const perf = formatPerfdata(r.metrics ?? []);
  parsePerfdataStrict(perf);
  return { state: r.state, summary: r.summary, perf, items: r.items };
}

describe('cpu profile', () => {
  it('thresholds on cpu.usage.average by default, perfdata as documented', () => {
    expect(evaluate(CPU_PROFILE, 'average')).toEqual({
      state: State.OK,
      summary: `cpu usage 33.7% (current) on ${VM}`,
      perf: 'cpu_usage=33.7%;80;90;0;100 cpu_usage_max=89%;;;0;100 cpu_mhz=262;;;0',
    });
  });
  it('moves the thresholds to the metric chosen', () => {
    expect(evaluate(CPU_PROFILE, 'maximum', undefined, undefined, CURRENT, 'avg 15m')).toEqual({
      state: State.WARNING,
      summary: `cpu usage maximum 89% (avg 15m) on ${VM}`,
      perf: 'cpu_usage=33.7%;;;0;100 cpu_usage_max=89%;80;90;0;100 cpu_mhz=262;;;0',
    });
    expect(evaluate(CPU_PROFILE, 'mhz', '200', '250')).toMatchObject({
      state: State.CRITICAL,
      summary: `cpu usage 262 MHz (current) on ${VM}`,
      perf: 'cpu_usage=33.7%;;;0;100 cpu_usage_max=89%;;;0;100 cpu_mhz=262;200;250;0',
    });
    expect(evaluate(CPU_PROFILE, 'mhz').state).toBe(State.OK); // no default thresholds for MHz
  });
  it('prints U for a metric the server left out', () => {
    const values = new Map(CURRENT);
    values.delete('cpu.usage.maximum');
    expect(evaluate(CPU_PROFILE, 'average', undefined, undefined, values).perf).toBe('cpu_usage=33.7%;80;90;0;100 cpu_usage_max=U;;;0;100 cpu_mhz=262;;;0');
  });
  it('needs only the selected metric', () => {
    expect(CPU_PROFILE.needs('average')).toEqual(['cpu.usage.average']);
    expect(CPU_PROFILE.needs('mhz')).toEqual(['cpu.usagemhz.average']);
  });
});

describe('disk profile', () => {
  it('used / provisioned % by default, sizes in bytes (KILOBYTE = 1024 B)', () => {
    expect(evaluate(DISK_PROFILE, 'percent')).toEqual({
      state: State.WARNING, // 90 is inside 0:90: only above it is critical
      summary: `disk used 90% (90 GiB of 100 GiB) (current) on ${VM}`,
      perf: 'disk_used=96636764160B;;;0;107374182400 disk_provisioned=107374182400B;;;0 disk_used_pct=90%;80;90;0;100 disk_read_kBps=12.5;;;0 disk_write_kBps=340.25;;;0',
    });
  });
  it('takes size suffixes with --metric used', () => {
    expect(evaluate(DISK_PROFILE, 'used', '80G', '95G')).toEqual({
      state: State.WARNING,
      summary: `disk used 90 GiB of 100 GiB (90%) (current) on ${VM}`,
      perf: 'disk_used=96636764160B;85899345920;102005473280;0;107374182400 disk_provisioned=107374182400B;;;0 disk_used_pct=90%;;;0;100 disk_read_kBps=12.5;;;0 disk_write_kBps=340.25;;;0',
    });
  });
  it('thresholds read or write rates in KB/s', () => {
    expect(evaluate(DISK_PROFILE, 'write', '300', '1000')).toMatchObject({ state: State.WARNING, summary: `disk write 340.3 KB/s (current) on ${VM}` });
    expect(evaluate(DISK_PROFILE, 'write', '300', '1000').perf).toContain('disk_write_kBps=340.25;300;1000;0');
    expect(evaluate(DISK_PROFILE, 'read').state).toBe(State.OK);
  });
  it('is UNKNOWN, not a division by zero, when nothing is provisioned', () => {
    const values = new Map(CURRENT);
    values.set('disk.provisioned.latest', 0);
    values.set('disk.used.latest', 0);
    expect(() => evaluate(DISK_PROFILE, 'percent', undefined, undefined, values)).toThrow(
      /has no provisioned disk space \(disk.provisioned.latest = 0\), so used % is undefined/,
    );
    expect(evaluate(DISK_PROFILE, 'used', '1G', '2G', values).perf).toBe(
      'disk_used=0B;1073741824;2147483648;0 disk_provisioned=0B;;;0 disk_used_pct=U;;;0;100 disk_read_kBps=12.5;;;0 disk_write_kBps=340.25;;;0',
    );
  });
  it.each([
    ['1024', 1024],
    ['500G', 500 * 1024 ** 3],
    ['500GB', 500 * 1024 ** 3],
    ['1.5T', 1.5 * 1024 ** 4],
    ['750MiB', 750 * 1024 ** 2],
    ['10k', 10240],
  ])('parseSize(%j)', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });
  it('refuses other units', () => {
    expect(parseSize('5X')).toBeUndefined();
    expect(() => parseRange('5X', '-w/--warning', parseSize)).toThrow(/invalid range "5X" for -w\/--warning/);
  });
  it('formats bytes in binary units', () => {
    expect([0, 1023, 1536, 107374182400, 5.5 * 1024 ** 4].map(formatBytes)).toEqual(['0 B', '1023 B', '1.5 KiB', '100 GiB', '5.5 TiB']);
  });
});

describe('disk profile, per disk', () => {
  // Shape of current-usage-per-disk.xml: three disks, only per-disk names, sums by the check.
  const disks: Disks = new Map([
    [
      '0',
      new Map<MetricName, number>([
        ['disk.used.latest', 31457280],
        ['disk.provisioned.latest', 52428800],
        ['disk.read.average', 12],
        ['disk.write.average', 48.25],
      ]),
    ],
    [
      '1',
      new Map<MetricName, number>([
        ['disk.used.latest', 99614720],
        ['disk.provisioned.latest', 104857600],
        ['disk.read.average', 240.5],
        ['disk.write.average', 310],
      ]),
    ],
    [
      '2',
      new Map<MetricName, number>([
        ['disk.used.latest', 2097152],
        ['disk.provisioned.latest', 20971520],
        ['disk.read.average', 0],
        ['disk.write.average', 1.75],
      ]),
    ],
  ]);
  const sums = new Map<MetricName, number>([
    ['disk.used.latest', 133169152],
    ['disk.provisioned.latest', 178257920],
    ['disk.read.average', 252.5],
    ['disk.write.average', 360],
  ]);
  const SUMMED: MetricName[] = ['disk.used.latest', 'disk.provisioned.latest', 'disk.read.average', 'disk.write.average'];

  it('summed disks: the whole-VM result, plus per-disk perfdata without thresholds', () => {
    const r = evaluate(DISK_PROFILE, 'percent', undefined, undefined, sums, 'current', disks, SUMMED);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe(`disk used 74.7% (127 GiB of 170 GiB) (current) on ${VM}`);
    expect(r.perf).toContain('disk_used_pct=74.705882%;80;90;0;100');
    expect(r.perf).toContain('disk_used_pct_1=95%;;;0;100');
    expect(r.perf).toContain('disk_used_0=32212254720B;;;0;53687091200 disk_used_pct_0=60%;;;0;100 disk_read_kBps_0=12;;;0 disk_write_kBps_0=48.25;;;0');
  });
  it('whole-VM names present, nothing summed: no per-disk perfdata', () => {
    expect(evaluate(DISK_PROFILE, 'percent', undefined, undefined, sums, 'current', disks, []).perf).not.toContain('_0=');
  });
  it('--per-disk: each disk judged, the worst named and deciding; thresholds move to the disks', () => {
    const r = evaluate(DISK_PROFILE, 'percent', undefined, undefined, sums, 'current', disks, SUMMED, true);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe(`disk 1 (worst of 3) used 95% (95 GiB of 100 GiB) (current) on ${VM}`);
    expect(r.items?.map((i) => [i.name, i.state, i.text])).toEqual([
      ['disk 0', State.OK, 'disk 0: used 60% (30 GiB of 50 GiB)'],
      ['disk 1', State.CRITICAL, 'disk 1: used 95% (95 GiB of 100 GiB)'],
      ['disk 2', State.OK, 'disk 2: used 10% (2 GiB of 20 GiB)'],
    ]);
    expect(r.perf).toContain('disk_used_pct=74.705882%;;;0;100');
    expect(r.perf).toContain('disk_used_pct_1=95%;80;90;0;100');
  });
  it('--per-disk on rates, and on sizes', () => {
    expect(evaluate(DISK_PROFILE, 'read', '100', '300', sums, 'avg 15m', disks, [], true)).toMatchObject({
      state: State.WARNING,
      summary: `disk 1 (worst of 3) read 240.5 KB/s (avg 15m) on ${VM}`,
    });
    expect(evaluate(DISK_PROFILE, 'used', '90G', '99G', sums, 'current', disks, [], true)).toMatchObject({
      state: State.WARNING,
      summary: `disk 1 (worst of 3) used 95 GiB of 100 GiB (current) on ${VM}`,
    });
  });
  it('--per-disk without per-disk values is UNKNOWN saying so', () => {
    expect(() => evaluate(DISK_PROFILE, 'percent', undefined, undefined, CURRENT, 'current', new Map(), [], true)).toThrow(
      `${VM}: the server sends no per-disk used and provisioned sizes, so --per-disk has nothing to judge: drop --per-disk to judge the whole VM`,
    );
  });
});

describe('mem profile', () => {
  it('mem.usage.average %', () => {
    expect(evaluate(MEM_PROFILE, '')).toEqual({ state: State.OK, summary: `memory usage 44% (current) on ${VM}`, perf: 'mem_usage=44%;80;90;0;100' });
    expect(evaluate(MEM_PROFILE, '', '40', '@43:45').state).toBe(State.CRITICAL);
  });
});

describe('disk profile: fully allocated (thick) disks', () => {
  // A tenant VM of three thick disks: vCD reports each used as its provisioned size less 1 KB.
  const GIB_KB = 1024 * 1024;
  const provs = [40 * GIB_KB, 100 * GIB_KB, 60 * GIB_KB];
  const thick = new Map(
    provs.map((p, i) => [
      String(i),
      new Map<MetricName, number>([
        ['disk.provisioned.latest', p],
        ['disk.used.latest', p - 1],
      ]),
    ]),
  );
  const whole = new Map<MetricName, number>([
    ['disk.provisioned.latest', 200 * GIB_KB],
    ['disk.used.latest', 200 * GIB_KB - 3],
  ]);
  const SUMMED: MetricName[] = ['disk.used.latest', 'disk.provisioned.latest'];
  const run = (disks: Disks, values: Map<MetricName, number>, opts: { metric?: string; perDisk?: boolean; alarm?: boolean } = {}) =>
    DISK_PROFILE.evaluate({
      values,
      metric: opts.metric ?? 'percent',
      vm: VM,
      mode: 'current',
      disks,
      summed: SUMMED,
      perDisk: opts.perDisk ?? false,
      alarmFullyAllocated: opts.alarm,
      thresholds: {
        warning: parseRange(opts.metric === 'used' ? '150G' : '80', '-w', opts.metric === 'used' ? parseSize : undefined),
        critical: parseRange(opts.metric === 'used' ? '190G' : '90', '-c', opts.metric === 'used' ? parseSize : undefined),
      },
    });

  it('OK by default, saying the disks are fully allocated and what the number is; perfdata kept', () => {
    const r = run(thick, whole);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe(
      `3 disks fully allocated on the datastore, 200 GiB of 200 GiB (thick provisioned, vCD's disk used is datastore allocation, not the guest's file systems, --alarm-fully-allocated to judge them) (current) on ${VM}`,
    );
    expect(formatPerfdata(r.metrics ?? [])).toMatch(/disk_used_pct=99\.99\d*%;80;90;0;100/);
    expect(run(thick, whole, { metric: 'used' }).state).toBe(State.OK);
    // Without per-disk values, the whole VM decides.
    expect(
      run(
        new Map(),
        new Map([
          ['disk.provisioned.latest', 50 * GIB_KB],
          ['disk.used.latest', 50 * GIB_KB - 1],
        ]),
      ).state,
    ).toBe(State.OK);
  });
  it('--alarm-fully-allocated judges them by -w/-c as before', () => {
    const r = run(thick, whole, { alarm: true });
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(/^disk used 100% \(200 GiB of 200 GiB\)/);
  });
  it('a thin disk 2 KB short of full, or one thin among thick ones, is judged', () => {
    const mixed = new Map(thick);
    mixed.set(
      '1',
      new Map<MetricName, number>([
        ['disk.provisioned.latest', 100 * GIB_KB],
        ['disk.used.latest', 100 * GIB_KB - 2],
      ]),
    );
    expect(run(mixed, whole).state).toBe(State.CRITICAL);
  });
  it('--per-disk: fully allocated disks OK and named so; a thin full one decides', () => {
    const mixed = new Map(thick);
    mixed.set(
      '1',
      new Map<MetricName, number>([
        ['disk.provisioned.latest', 100 * GIB_KB],
        ['disk.used.latest', 95 * GIB_KB],
      ]),
    );
    const r = run(mixed, whole, { perDisk: true });
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe(`disk 1 (worst of 3) used 95% (95 GiB of 100 GiB) (current) on ${VM}`);
    expect(r.items?.[0]).toEqual({ name: 'disk 0', state: State.OK, text: 'disk 0: fully allocated, used 100% (40 GiB of 40 GiB) (thick provisioned)' });
    const all = run(thick, whole, { perDisk: true });
    expect(all.state).toBe(State.OK);
    expect(all.summary).toMatch(/^disk \d \(worst of 3\) fully allocated, used 100% /);
    expect(run(thick, whole, { perDisk: true, alarm: true }).state).toBe(State.CRITICAL);
  });
});

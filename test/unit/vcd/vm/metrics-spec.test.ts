import { describe, expect, it } from 'vitest';
import { configureVmCheck } from '../../../../lib/vcd/vm/vm-config';
import { currentUsageSpec, historicUsageSpec, historySpan, metricPatterns } from '../../../../lib/vcd/vm/metrics-spec';
import { askOf, unionAsk } from '../../../../lib/vcd/vm/vm-metrics';
import { parseXml, VCLOUD_NS } from '../../../../lib/vcd/api/xml';
import { CPU_PROFILE } from '../../../../plugins/check_vm_cpu/profile';
import { DISK_PROFILE } from '../../../../plugins/check_vm_disk/profile';
import { MEM_PROFILE } from '../../../../plugins/check_vm_mem/profile';

const VM = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
const options = (window?: string) => ({ url: 'https://vcd.example.com', vm: VM, window, 'powered-off-state': undefined }) as never;

/** The spec's elements in order: local name, attributes, and text when there is some. */
function elements(xml: string): unknown[][] {
  const root = parseXml(xml, { maxTextChars: 100 });
  if ('error' in root) throw new Error(root.error);
  expect(root.uri).toBe(VCLOUD_NS);
  const text = (t?: string) => (t?.trim() ? [t.trim()] : []);
  return [[root.local, {}], ...root.children.map((c) => [c.local, c.attributes, ...text(c.text)])];
}

describe('the HistoricUsageSpec a check posts', () => {
  it.each([
    ['15m', { interval: '35', unit: 'minute' }],
    ['1h', { interval: '125', unit: 'minute' }],
    ['5m', { interval: '15', unit: 'minute' }],
    ['27m30s', { interval: '1', unit: 'hour' }],
    ['90s', { interval: '8', unit: 'minute' }],
    ['12h', { interval: '24', unit: 'hour' }],
    ['24h', { interval: '24', unit: 'hour' }],
  ])('--window %s asks for twice the window and 5 minutes more, up to now: RelativeStartTime %o', (window, start) => {
    const ask = askOf(CPU_PROFILE, configureVmCheck(CPU_PROFILE, options(window), { metric: 'average', perDisk: false }));
    expect(ask.which).toBe('historic');
    const spec = elements(historicUsageSpec(historySpan(ask.window!), metricPatterns(ask.reads)));
    expect(spec).toEqual([
      ['HistoricUsageSpec', {}],
      ['RelativeStartTime', start],
      ['MetricPattern', {}, 'cpu.usage.average'],
      ['MetricPattern', {}, 'cpu.usage.maximum'],
      ['MetricPattern', {}, 'cpu.usagemhz.average'],
    ]);
  });

  it('each check asks for the metrics it reads; the disk metrics also per disk (name*), which it sums when the whole is missing', () => {
    const patterns = (profile: typeof CPU_PROFILE, metric: string) =>
      metricPatterns(askOf(profile, configureVmCheck(profile, options('1h'), { metric, perDisk: false })).reads);
    expect(patterns(MEM_PROFILE, '')).toEqual(['mem.usage.average']);
    expect(patterns(DISK_PROFILE, 'used')).toEqual(['disk.provisioned.latest*', 'disk.read.average*', 'disk.used.latest*', 'disk.write.average*']);
  });

  it('judges only what --metric chooses: the series that must be fresh in the window', () => {
    const cfg = configureVmCheck(CPU_PROFILE, options('15m'), { metric: 'mhz', perDisk: false });
    expect(askOf(CPU_PROFILE, cfg).needs).toEqual(['cpu.usagemhz.average']);
  });

  it("the fleet asks once for its three checks' metrics, and judges each check's", () => {
    const asks = [
      askOf(CPU_PROFILE, configureVmCheck(CPU_PROFILE, options('15m'), { metric: 'average', perDisk: false })),
      askOf(MEM_PROFILE, configureVmCheck(MEM_PROFILE, options('15m'), { metric: '', perDisk: false })),
    ];
    const ask = unionAsk(asks);
    expect(ask.window).toBe(900);
    expect(metricPatterns(ask.reads)).toEqual(['cpu.usage.average', 'cpu.usage.maximum', 'cpu.usagemhz.average', 'mem.usage.average']);
    expect(ask.needs).toEqual(['cpu.usage.average', 'mem.usage.average']);
  });
});

describe('the CurrentUsageSpec a check posts', () => {
  it('names the metrics, nothing else', () => {
    const ask = askOf(MEM_PROFILE, configureVmCheck(MEM_PROFILE, options(), { metric: '', perDisk: false }));
    expect(ask.which).toBe('current');
    expect(elements(currentUsageSpec(metricPatterns(ask.reads)))).toEqual([
      ['CurrentUsageSpec', {}],
      ['MetricPattern', {}, 'mem.usage.average'],
    ]);
  });
});

import { formatDecimal } from '../../plugin/number-format';
import { evaluateThresholds } from '../../plugin/threshold';
import { percentMetric, type VmCheckProfile } from '../vm-check';
import type { MetricName } from '../metrics';

const SELECTED: Record<string, MetricName> = {
  average: 'cpu.usage.average',
  maximum: 'cpu.usage.maximum',
  mhz: 'cpu.usagemhz.average',
};

/** check_vm_cpu: cpu.usage.average % by default (SPEC 4.5). */
export const CPU_PROFILE: VmCheckProfile = {
  name: 'VM_CPU',
  command: 'check_vm_cpu',
  description: 'Checks the CPU usage of a VMware Cloud Director VM (current value, or aggregated over a window of the historic series).',
  metrics: ['average', 'maximum', 'mhz'],
  metricHelp: 'Threshold metric: average (cpu.usage.average %), maximum (cpu.usage.maximum %) or mhz (cpu.usagemhz.average).',
  needs: (metric) => [SELECTED[metric]],
  reads: ['cpu.usage.average', 'cpu.usage.maximum', 'cpu.usagemhz.average'],
  defaultThresholds: (metric) => (metric === 'mhz' ? {} : { warning: '80', critical: '90' }),
  thresholdHelp: 'Warning range (default 80 for the percentages; none for mhz).',
  evaluate({ values, metric, thresholds, vm, mode }) {
    const selected = SELECTED[metric];
    const value = values.get(selected) as number;
    const on = (m: string) => (m === metric ? thresholds : undefined);
    const shown = metric === 'mhz' ? `${formatDecimal(value, 0)} MHz` : `${formatDecimal(value, 1)}%`;
    const what = metric === 'maximum' ? 'cpu usage maximum' : 'cpu usage';
    return {
      state: evaluateThresholds(value, thresholds),
      summary: `${what} ${shown} (${mode}) on ${vm}`,
      metrics: [
        percentMetric('cpu_usage', values.get('cpu.usage.average'), on('average')),
        percentMetric('cpu_usage_max', values.get('cpu.usage.maximum'), on('maximum')),
        { label: 'cpu_mhz', value: values.get('cpu.usagemhz.average') ?? null, ...on('mhz'), min: 0 },
      ],
    };
  },
  examples: [
    'check_vm_cpu -u https://vcd.example.com --vm vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --password-file /etc/nagios/vcd.pw',
    'check_vm_cpu -u https://vcd.example.com --vm vm-4f2c... -U monitor -o acme --password-file PW --window 15m --aggregate max -w 85 -c 95',
    'check_vm_cpu --extra-opts vcd@/etc/nagios/cloudchecks.ini --vm https://vcd.example.com/tenant/acme/vdcs/.../vm/vm-4f2c.../general',
  ],
};

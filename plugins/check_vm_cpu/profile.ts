import { formatDecimal } from '../../lib/plugin/number-format';
import { defineOptions } from '../../lib/plugin/options';
import { PERCENT, ScalarContext } from '../../lib/plugin/scalar-context';
import type { MetricName } from '../../lib/vcd/vm/metrics';
import type { VmCheckProfile } from '../../lib/vcd/vm/profile';
import { metricOption } from '../../lib/vcd/vm/vm-options';

const SELECTED: Record<string, MetricName> = {
  average: 'cpu.usage.average',
  maximum: 'cpu.usage.maximum',
  mhz: 'cpu.usagemhz.average',
};

const METRICS = ['average', 'maximum', 'mhz'] as const;
const METRIC_HELP = 'Threshold metric: average (cpu.usage.average %), maximum (cpu.usage.maximum %) or mhz (cpu.usagemhz.average).';

/** check_vm_cpu's own option: the metric -w/-c judge. */
export const CPU_OPTIONS = defineOptions([metricOption(METRICS, METRIC_HELP)]);

/** check_vm_cpu: cpu.usage.average % by default. */
export const CPU_PROFILE: VmCheckProfile = {
  name: 'VM_CPU',
  command: 'check_vm_cpu',
  description: 'Checks the CPU usage of a VMware Cloud Director VM (current value, or aggregated over a window of the historic series).',
  metrics: METRICS,
  needs: (metric) => [SELECTED[metric]],
  reads: ['cpu.usage.average', 'cpu.usage.maximum', 'cpu.usagemhz.average'],
  zeroWhenOff: ['cpu.usage.average', 'cpu.usage.maximum', 'cpu.usagemhz.average'],
  defaultThresholds: (metric) => (metric === 'mhz' ? {} : { warning: '80', critical: '90' }),
  thresholdHelp: 'Warning range (default 80 for the percentages; none for mhz).',
  evaluate({ values, metric, thresholds, vm, mode }) {
    const selected = SELECTED[metric];
    const value = values.get(selected) as number;
    const { judged, metrics } = ScalarContext.of(thresholds).measureChosen(metric, [
      { key: 'average', label: 'cpu_usage', value: values.get('cpu.usage.average'), shape: PERCENT },
      { key: 'maximum', label: 'cpu_usage_max', value: values.get('cpu.usage.maximum'), shape: PERCENT },
      { key: 'mhz', label: 'cpu_mhz', value: values.get('cpu.usagemhz.average'), shape: { min: 0 } },
    ]);
    const shown = metric === 'mhz' ? `${formatDecimal(value, 0)} MHz` : `${formatDecimal(value, 1)}%`;
    const what = metric === 'maximum' ? 'cpu usage maximum' : 'cpu usage';
    return {
      state: judged!.state,
      summary: `${what} ${shown} (${mode}) on ${vm}`,
      metrics,
    };
  },
  examples: [
    'check_vm_cpu -u https://vcd.example.com --vm vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --password-file /etc/nagios/vcd.pw',
    'check_vm_cpu -u https://vcd.example.com --vm vm-4f2c... -U monitor -o acme --password-file PW --window 15m --aggregate max -w 85 -c 95',
    'check_vm_cpu --extra-opts vcd@/etc/nagios/cloudchecks.ini --vm https://vcd.example.com/tenant/acme/vdcs/.../vm/vm-4f2c.../general',
  ],
};

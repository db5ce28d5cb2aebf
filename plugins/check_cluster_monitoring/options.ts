import { DEFAULT_MAX_PODS } from '../../lib/cluster/monitoring-probe';
import { CLUSTER_OPTIONS } from '../../lib/cluster/target';
import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { thresholdOptions } from '../../lib/plugin/scalar-context';

/** The options of check_cluster_monitoring, in --help order. */
export const MONITORING_OPTIONS = defineOptions([
  ...CLUSTER_OPTIONS,
  ...HTTP_OPTIONS,
  {
    long: 'monitoring-namespace',
    type: 'string',
    arg: 'NS',
    default: 'openshift-monitoring',
    description: 'Namespace of the platform monitoring stack and of ConfigMap cluster-monitoring-config.',
  },
  {
    long: 'user-workload-namespace',
    type: 'string',
    arg: 'NS',
    default: 'openshift-user-workload-monitoring',
    description: 'Namespace of the workload monitoring stack.',
  },
  { long: 'expect-user-workload', type: 'boolean', description: 'CRITICAL when workload monitoring is off (default: off is OK).' },
  {
    long: 'max-pods',
    type: 'number',
    arg: 'N',
    default: DEFAULT_MAX_PODS,
    description: 'UNKNOWN when a namespace lists more pods than this (a broken or hostile server cannot hold the check or exhaust memory).',
  },
  ...thresholdOptions({
    warning: 'Range of pods not ready that is fine; WARNING outside it.',
    critical: 'Range of pods not ready that is fine; CRITICAL outside it.',
    criticalDefault: '0',
  }),
]);

/** check_cluster_monitoring's options as parsed. */
export type MonitoringOptions = PluginOptions<typeof MONITORING_OPTIONS>;

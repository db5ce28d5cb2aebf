// check_cluster_monitoring: the cluster's own monitoring stack.
import type { ClusterTarget } from '../../lib/cluster/client';
import { clusterCheck } from '../cluster-family';
import { listPods, probeClusterOperator, probeMonitoringConfig, type PodList } from '../../lib/cluster/monitoring-probe';
import { evaluateMonitoring } from '../../lib/cluster/monitoring-report';
import type { Result } from '../../lib/plugin/result';
import { configureMonitoring, type MonitoringCheckConfig } from './config';
import { MONITORING_OPTIONS } from './options';

/** check_cluster_monitoring's definition. */
export const plugin = clusterCheck({
  name: 'MONITORING',
  command: 'check_cluster_monitoring',
  description:
    'Checks the cluster\'s own monitoring stack: the "monitoring" ClusterOperator (Available=True, Degraded=False), enableUserWorkload in ConfigMap cluster-monitoring-config, and that the pods of the platform (and, when on, the workload) monitoring stack are Running and Ready.',
  usage: '[--expect-user-workload] [-w RANGE] [-c RANGE] [options]',
  options: MONITORING_OPTIONS,
  examples: [
    'check_cluster_monitoring --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem',
    'check_cluster_monitoring -H api.cluster.example.com --token-file /etc/nagios/cluster.token --expect-user-workload',
    'check_cluster_monitoring --kubeconfig /etc/nagios/kubeconfig -w 0 -c 2 --output json',
  ],
  notes: ['The account needs the cluster-reader role: it may get clusteroperators, get configmaps and list pods in the monitoring namespaces.'],
  configure: configureMonitoring,
  reading: 'reading the monitoring stack',
  read: readMonitoring,
  judge: judgeMonitoring,
});

type MonitoringReading = Awaited<ReturnType<typeof readMonitoring>>;

/** Independent reads go out together; the workload pods only once the ConfigMap says "on". */
async function readMonitoring(target: ClusterTarget, config: MonitoringCheckConfig) {
  const { platformNamespace, userWorkloadNamespace, get } = config;
  const [operator, monitoring, platform] = await Promise.all([
    probeClusterOperator(target, get),
    probeMonitoringConfig(target, platformNamespace, get),
    listPods(target, platformNamespace, get),
  ]);
  return { operator, config: monitoring, platform, userWorkload: monitoring.userWorkload ? await listPods(target, userWorkloadNamespace, get) : undefined };
}

/** The stack judged, with what was read as the notes of -v. */
function judgeMonitoring({ operator, config: monitoring, platform, userWorkload }: MonitoringReading, config: MonitoringCheckConfig): Result {
  const result = evaluateMonitoring(
    {
      operator,
      config: monitoring,
      platformNamespace: config.platformNamespace,
      platformPods: platform.pods,
      userWorkloadNamespace: config.userWorkloadNamespace,
      userWorkloadPods: userWorkload?.pods,
    },
    { notReady: config.notReady, expectUserWorkload: config.expectUserWorkload },
  );
  const read = [
    operator ? `ClusterOperator monitoring read` : 'no ClusterOperator monitoring (404: OpenShift 3 or plain Kubernetes), skipped',
    monitoring.source,
    ...[platform, ...(userWorkload ? [userWorkload] : [])].map(podsRead),
  ];
  return { ...result, notes: read };
}

/** "N pods in NAMESPACE (P pages, C completed)". */
function podsRead(l: PodList): string {
  const completed = l.pods.filter((p) => p.completed).length;
  return `${l.pods.length} pods in ${l.namespace} (${l.pages} page${l.pages === 1 ? '' : 's'}${completed > 0 ? `, ${completed} completed` : ''})`;
}

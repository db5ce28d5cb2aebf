// check_cluster_monitoring: the cluster's own monitoring stack.
import { listPods, probeClusterOperator, probeMonitoringConfig } from '../../lib/cluster/monitoring-probe';
import { evaluateMonitoring } from '../../lib/cluster/monitoring-report';
import { CLUSTER_CA_NOTE, CLUSTER_CREDENTIALS_NOTE, readCluster, TOKEN_ENV } from '../../lib/cluster/target';
import { HTTP_ENVIRONMENT_NOTE } from '../../lib/http/options';
import type { RunContext } from '../../lib/plugin/context';
import { runPlugin } from '../../lib/plugin/run';
import { configureMonitoring, type MonitoringCheckConfig } from './config';
import { MONITORING_OPTIONS } from './options';

void runPlugin({
  name: 'MONITORING',
  command: 'check_cluster_monitoring',
  description:
    'Checks the cluster\'s own monitoring stack: the "monitoring" ClusterOperator (Available=True, Degraded=False), enableUserWorkload in ConfigMap cluster-monitoring-config, and that the pods of the platform (and, when on, the workload) monitoring stack are Running and Ready.',
  usage:
    'check_cluster_monitoring (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH] [--expect-user-workload] [-w RANGE] [-c RANGE] [options]',
  secretEnv: [TOKEN_ENV],
  options: MONITORING_OPTIONS,
  examples: [
    'check_cluster_monitoring --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem',
    'check_cluster_monitoring -H api.cluster.example.com --token-file /etc/nagios/cluster.token --expect-user-workload',
    'check_cluster_monitoring --kubeconfig /etc/nagios/kubeconfig -w 0 -c 2 --output json',
  ],
  notes: [
    'The account needs the cluster-reader role: it may get clusteroperators, get configmaps and list pods in the monitoring namespaces.',
    CLUSTER_CREDENTIALS_NOTE,
    CLUSTER_CA_NOTE,
    HTTP_ENVIRONMENT_NOTE,
  ],
  async run(options, context) {
    const config = await configureMonitoring(options, context);
    const { operator, config: monitoring, platform, userWorkload } = await probeMonitoring(config, context);
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
      ...[platform, ...(userWorkload ? [userWorkload] : [])].map(
        (l) =>
          `${l.pods.length} pods in ${l.namespace} (${l.pages} page${l.pages === 1 ? '' : 's'}${l.pods.some((p) => p.completed) ? `, ${l.pods.filter((p) => p.completed).length} completed` : ''})`,
      ),
    ];
    return { ...result, notes: read };
  },
});

/** Independent reads go out together; the workload pods only once the ConfigMap says "on". */
async function probeMonitoring(config: MonitoringCheckConfig, context: RunContext) {
  const { target, platformNamespace, userWorkloadNamespace, get } = config;
  context.log(2, `namespaces: platform ${platformNamespace}, workload ${userWorkloadNamespace}`);
  return readCluster(target, context, 'reading the monitoring stack', async (t) => {
    const [operator, monitoring, platform] = await Promise.all([
      probeClusterOperator(t, get),
      probeMonitoringConfig(t, platformNamespace, get),
      listPods(t, platformNamespace, get),
    ]);
    return { operator, config: monitoring, platform, userWorkload: monitoring.userWorkload ? await listPods(t, userWorkloadNamespace, get) : undefined };
  });
}

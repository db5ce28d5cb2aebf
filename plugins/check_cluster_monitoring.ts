// check_cluster_monitoring: the cluster's own monitoring stack (SPEC 4b).
import { DEFAULT_MAX_PODS, probeClusterOperator, probeMonitoringConfig, listPods } from '../lib/cluster/monitoring-probe';
import { evaluateMonitoring } from '../lib/cluster/monitoring-report';
import { CLUSTER_CA_NOTE, CLUSTER_OPTIONS, clusterTargetFrom, describeTarget, TOKEN_ENV, withCredentialRenewal } from '../lib/cluster/target';
import { HTTP_ENVIRONMENT_NOTE, HTTP_OPTIONS, maxBytesFrom } from '../lib/http/options';
import { UsageError } from '../lib/plugin/errors';
import { positiveInteger } from '../lib/plugin/options';
import { parseRange } from '../lib/plugin/range';
import { runPlugin } from '../lib/plugin/run';

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function namespaceOption(value: unknown, option: string): string {
  const ns = String(value);
  if (!NAMESPACE.test(ns)) throw new UsageError(`invalid ${option} ${JSON.stringify(ns)}: expected a namespace name (lower-case letters, digits and -)`);
  return ns;
}

void runPlugin({
  name: 'MONITORING',
  command: 'check_cluster_monitoring',
  description:
    'Checks the cluster\'s own monitoring stack: the "monitoring" ClusterOperator (Available=True, Degraded=False), enableUserWorkload in ConfigMap cluster-monitoring-config, and that the pods of the platform (and, when on, the workload) monitoring stack are Running and Ready.',
  usage: 'check_cluster_monitoring (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH] [--expect-user-workload] [-w RANGE] [-c RANGE] [options]',
  secretEnv: [TOKEN_ENV],
  options: [
    ...CLUSTER_OPTIONS,
    ...HTTP_OPTIONS,
    { long: 'monitoring-namespace', type: 'string', arg: 'NS', default: 'openshift-monitoring', description: 'Namespace of the platform monitoring stack and of ConfigMap cluster-monitoring-config.' },
    { long: 'user-workload-namespace', type: 'string', arg: 'NS', default: 'openshift-user-workload-monitoring', description: 'Namespace of the workload monitoring stack.' },
    { long: 'expect-user-workload', type: 'boolean', description: 'CRITICAL when workload monitoring is off (default: off is OK).' },
    { long: 'max-pods', type: 'number', arg: 'N', default: DEFAULT_MAX_PODS, description: 'UNKNOWN when a namespace lists more pods than this (a broken or hostile server cannot hold the check or exhaust memory).' },
    { long: 'warning', short: 'w', type: 'string', arg: 'RANGE', description: 'Range of pods not ready that is fine; WARNING outside it.' },
    { long: 'critical', short: 'c', type: 'string', arg: 'RANGE', default: '0', description: 'Range of pods not ready that is fine; CRITICAL outside it.' },
  ],
  examples: [
    'check_cluster_monitoring --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem',
    'check_cluster_monitoring -H api.cluster.example.com --token-file /etc/nagios/cluster.token --expect-user-workload',
    'check_cluster_monitoring --kubeconfig /etc/nagios/kubeconfig -w 0 -c 2 --output json',
  ],
  notes: [
    'The account needs the cluster-reader role: it may get clusteroperators, get configmaps and list pods in the monitoring namespaces.',
    'Credentials, first found wins: --token-file, --token, $KUBE_TOKEN, --client-cert/--client-key, the kubeconfig user (token, tokenFile, client certificate, exec plugin), the pod\'s service account.',
    CLUSTER_CA_NOTE,
    HTTP_ENVIRONMENT_NOTE,
  ],
  async run(options, context) {
    const warnings: string[] = [];
    const target = await clusterTargetFrom(options, context, warnings);
    const platformNamespace = namespaceOption(options['monitoring-namespace'], '--monitoring-namespace');
    const userWorkloadNamespace = namespaceOption(options['user-workload-namespace'], '--user-workload-namespace');
    const warning = options.warning === undefined ? undefined : parseRange(options.warning as string, '-w/--warning');
    const critical = parseRange(options.critical as string, '-c/--critical');
    const get = { maxBytes: maxBytesFrom(options), maxPods: positiveInteger(options['max-pods'], '--max-pods'), signal: context.signal, trace: (l: string) => context.log(3, l) };
    context.log(2, describeTarget(target));
    context.log(2, `namespaces: platform ${platformNamespace}, workload ${userWorkloadNamespace}`);
    context.setPhase(`reading the monitoring stack from ${target.url.origin}`);
    // Independent reads go out together; the workload pods only once the ConfigMap says "on".
    const { operator, config, platform, userWorkload } = await withCredentialRenewal(target, async (t) => {
      const [operator, config, platform] = await Promise.all([probeClusterOperator(t, get), probeMonitoringConfig(t, platformNamespace, get), listPods(t, platformNamespace, get)]);
      return { operator, config, platform, userWorkload: config.userWorkload ? await listPods(t, userWorkloadNamespace, get) : undefined };
    });
    const result = evaluateMonitoring(
      { operator, config, platformNamespace, platformPods: platform.pods, userWorkloadNamespace, userWorkloadPods: userWorkload?.pods },
      { warning, critical, expectUserWorkload: options['expect-user-workload'] as boolean },
    );
    if (context.verbose >= 1) {
      const facts = [
        operator ? `ClusterOperator monitoring read` : 'no ClusterOperator monitoring (404: OpenShift 3 or plain Kubernetes), skipped',
        `${config.source}`,
        ...[platform, ...(userWorkload ? [userWorkload] : [])].map((l) => `${l.pods.length} pods in ${l.namespace} (${l.pages} page${l.pages === 1 ? '' : 's'}${l.pods.some((p) => p.completed) ? `, ${l.pods.filter((p) => p.completed).length} completed` : ''})`),
        ...warnings,
      ];
      result.summary += ` [${facts.join('; ')}]`;
    }
    return result;
  },
});

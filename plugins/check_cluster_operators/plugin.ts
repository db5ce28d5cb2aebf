// check_cluster_operators: every ClusterOperator and the ClusterVersion of an OpenShift 4 cluster.
import { clusterCheck } from '../cluster-family';
import { evaluateOperators, operatorDiscovery } from '../../lib/cluster/operators-report';
import { probeOperators } from '../../lib/cluster/operators-probe';
import { State } from '../../lib/plugin/state';
import { configureOperators } from './config';
import { OPERATORS_OPTIONS } from './options';

/** check_cluster_operators' definition. */
export const plugin = clusterCheck({
  name: 'OPERATORS',
  command: 'check_cluster_operators',
  description:
    'Checks every ClusterOperator of an OpenShift 4 cluster (Available=True and Degraded=False; Progressing=True too long is WARNING; Upgradeable=False is noted) and the ClusterVersion (Failing=True is CRITICAL; an update in progress, updates offered and an unreachable update graph are said). The status line names each failing operator with its condition, reason, message and since when.',
  usage: '[--grace DURATION] [--ignore NAME]... [--operator NAME] [options]',
  options: OPERATORS_OPTIONS,
  examples: [
    'check_cluster_operators --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem --grace 10m',
    'check_cluster_operators --kubeconfig /etc/nagios/kubeconfig --ignore insights --update-available-state WARNING',
    'check_cluster_operators -H api.cluster.example.com --token-file /etc/nagios/cluster.token --operator etcd',
    'check_cluster_operators --kubeconfig /etc/nagios/kubeconfig --output json   (Zabbix master item; --discovery for {#OPERATOR})',
  ],
  notes: ['The account needs the cluster-reader role: it may list clusteroperators and get the clusterversion "version" (config.openshift.io), nothing more.'],
  configure: configureOperators,
  reading: 'reading cluster operators',
  read: (target, config) => probeOperators(target, config.get),
  judge({ operators, version }, config) {
    if (config.discovery) return { state: State.OK, summary: '', raw: operatorDiscovery(operators) };
    const listed = `${operators.length} operators listed${version === undefined ? ', no ClusterVersion (404)' : ''}`;
    return { ...evaluateOperators(operators, version, { ...config.rules, now: Date.now() }), notes: [listed] };
  },
});

// check_apiserver: the API server's own health (/readyz and /livez, each check by name) and version.
import { probeApiServer } from '../../lib/cluster/apiserver-probe';
import { evaluateApiServer } from '../../lib/cluster/apiserver-report';
import { clusterCheck } from '../cluster-family';
import { configureApiServer } from './config';
import { APISERVER_OPTIONS } from './options';

/** check_apiserver's definition. */
export const plugin = clusterCheck({
  name: 'APISERVER',
  command: 'check_apiserver',
  description:
    'Checks the health of a Kubernetes/OpenShift API server: every check of /readyz?verbose and /livez?verbose must pass ([-]etcd failed is CRITICAL, naming the check), each answer within -w/-c seconds; /version says which version answered.',
  usage: '[-w SECONDS] [-c SECONDS] [options]',
  options: APISERVER_OPTIONS,
  examples: [
    'check_apiserver --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem -w 0.8 -c 2',
    'check_apiserver -H api.cluster.example.com --token-file /etc/nagios/cluster.token',
    'check_apiserver --kubeconfig /etc/nagios/kubeconfig --output json   (Zabbix master item)',
  ],
  notes: [
    'The account needs get on the non-resource URLs /readyz, /livez and /version: Kubernetes grants them to everyone (system:public-info-viewer), OpenShift through cluster-reader (docs/tokens.md).',
  ],
  configure: configureApiServer,
  reading: 'reading /readyz, /livez and /version',
  read: (target, config) => probeApiServer(target, config.get),
  judge: (probe, config) => evaluateApiServer(probe, config.time),
});

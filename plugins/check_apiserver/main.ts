// check_apiserver: the API server's own health (/readyz and /livez, each check by name) and version.
import { probeApiServer } from '../../lib/cluster/apiserver-probe';
import { evaluateApiServer } from '../../lib/cluster/apiserver-report';
import { CLUSTER_CA_NOTE, CLUSTER_CREDENTIALS_NOTE, readCluster, TOKEN_ENV } from '../../lib/cluster/target';
import { HTTP_ENVIRONMENT_NOTE } from '../../lib/http/options';
import { runPlugin } from '../../lib/plugin/run';
import { configureApiServer } from './config';
import { APISERVER_OPTIONS } from './options';

void runPlugin({
  name: 'APISERVER',
  command: 'check_apiserver',
  description:
    'Checks the health of a Kubernetes/OpenShift API server: every check of /readyz?verbose and /livez?verbose must pass ([-]etcd failed is CRITICAL, naming the check), each answer within -w/-c seconds; /version says which version answered.',
  usage: 'check_apiserver (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH] [-w SECONDS] [-c SECONDS] [options]',
  secretEnv: [TOKEN_ENV],
  options: APISERVER_OPTIONS,
  examples: [
    'check_apiserver --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem -w 0.8 -c 2',
    'check_apiserver -H api.cluster.example.com --token-file /etc/nagios/cluster.token',
    'check_apiserver --kubeconfig /etc/nagios/kubeconfig --output json   (Zabbix master item)',
  ],
  notes: [
    'The account needs get on the non-resource URLs /readyz, /livez and /version: Kubernetes grants them to everyone (system:public-info-viewer), OpenShift through cluster-reader (docs/tokens.md).',
    CLUSTER_CREDENTIALS_NOTE,
    CLUSTER_CA_NOTE,
    HTTP_ENVIRONMENT_NOTE,
  ],
  async run(options, context) {
    const config = await configureApiServer(options, context);
    const probe = await readCluster(config.target, context, 'reading /readyz, /livez and /version', (t) => probeApiServer(t, config.get));
    return evaluateApiServer(probe, config.time);
  },
});

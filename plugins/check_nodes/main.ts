// check_nodes: node health of a Kubernetes/OpenShift cluster.
import { listNodes, type ListStats } from '../../lib/cluster/node-list';
import { discoveryJson, evaluateNodes } from '../../lib/cluster/node-report';
import { NodeTally } from '../../lib/cluster/node-tally';
import { CLUSTER_CA_NOTE, CLUSTER_CREDENTIALS_NOTE, describeTarget, TOKEN_ENV, withCredentialRenewal } from '../../lib/cluster/target';
import { HTTP_ENVIRONMENT_NOTE } from '../../lib/http/options';
import type { RunContext } from '../../lib/plugin/context';
import type { Result } from '../../lib/plugin/result';
import { runPlugin } from '../../lib/plugin/run';
import { State } from '../../lib/plugin/state';
import { configureNodes, type NodesConfig } from './config';
import { NODES_OPTIONS } from './options';

void runPlugin({
  name: 'NODES',
  command: 'check_nodes',
  description:
    'Checks that the nodes of a Kubernetes/OpenShift cluster are healthy: Ready=True and every other condition False (override with --condition / --ignore-condition).',
  usage: 'check_nodes (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH] [-w RANGE] [-c RANGE] [options]',
  secretEnv: [TOKEN_ENV],
  options: NODES_OPTIONS,
  examples: [
    'check_nodes --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem',
    'check_nodes -H ocp.example.com --token-file /etc/nagios/cluster.token -l node-role.kubernetes.io/worker= -w 0 -c 2 --grace 10m',
    'check_nodes --kubeconfig /etc/nagios/kubeconfig --percent -w 10 -c 25 --ignore-cordoned',
    'check_nodes --kubeconfig --context prod-eu1 --cache-dir /var/cache/nagios/cloudchecks',
  ],
  notes: [CLUSTER_CREDENTIALS_NOTE, CLUSTER_CA_NOTE, HTTP_ENVIRONMENT_NOTE],
  async run(options, context) {
    const config = await configureNodes(options, context);
    const { tally, stats } = await probeNodes(config, context);
    if (config.discovery) return { state: State.OK, summary: '', raw: discoveryJson(tally) };
    const listed = `${tally.listed} listed in ${stats.pages} page${stats.pages === 1 ? '' : 's'}${stats.restarted ? ' (restarted after 410 Gone)' : ''}`;
    return { ...evaluate(config, tally), notes: [listed, ...(config.selector ? [`selector ${config.selector}`] : [])] };
  },
});

/** Lists the nodes into a tally (again from the start when a renewed credential retries). */
async function probeNodes(config: NodesConfig, context: RunContext): Promise<{ tally: NodeTally; stats: ListStats }> {
  const tally = new NodeTally(config.rule, config.selection);
  context.log(2, describeTarget(config.target));
  context.setPhase(`listing nodes from ${config.target.url.origin}`);
  const listOptions = {
    selector: config.selector,
    maxBytes: config.maxBytes,
    maxNodes: config.maxNodes,
    signal: context.signal,
    trace: (l: string) => context.log(3, l),
  };
  const stats = await withCredentialRenewal(config.target, (t) => (tally.reset(), listNodes(t, listOptions, tally)));
  return { tally, stats };
}

function evaluate(config: NodesConfig, tally: NodeTally): Result {
  const { failing, percent, minNodes, grace, listAll, selector, selectionOptions } = config;
  return evaluateNodes(tally, {
    failing,
    percent,
    minNodes,
    node: config.selection.node,
    grace,
    listAll,
    selector,
    selectionOptions,
  });
}

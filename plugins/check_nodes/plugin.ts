// check_nodes: node health of a Kubernetes/OpenShift cluster.
import { listNodes, type ListStats } from '../../lib/cluster/node-list';
import { discoveryJson, evaluateNodes } from '../../lib/cluster/node-report';
import { NodeTally } from '../../lib/cluster/node-tally';
import { NodeFacts, teeSinks } from '../../lib/cluster/node-facts';
import { withParts } from '../../lib/plugin/part';
import { clusterPlugin } from '../cluster-family';
import { readCluster } from '../../lib/cluster/target';
import type { RunContext } from '../../lib/plugin/context';
import type { Result } from '../../lib/plugin/result';
import { State } from '../../lib/plugin/state';
import { configureNodes, type NodesConfig } from './config';
import { judgeControlPlane, startControlPlaneReads } from './control-plane';
import { NODES_OPTIONS } from './options';

const VM_FACTS_NOTE =
  "VMs in Cloud Director: with --vcd-url (or --vcd-extra-opts) each failing node's line names its VM (found by spec.providerID vmware-cloud-director://urn:vcloud:vm:<uuid>, else by a VM named as the node or its kubernetes.io/hostname label) with its power state, and a running VM's CPU and memory use. Healthy nodes cost no vCD request; vCD down or slow leaves the verdict as it is, with one phrase saying the VM facts are missing. The vCD session is cached (--cache-dir) as the VM checks cache theirs.";

/** check_nodes' definition. */
export const plugin = clusterPlugin({
  name: 'NODES',
  command: 'check_nodes',
  description:
    'Checks that the nodes of a Kubernetes/OpenShift cluster are healthy: Ready=True and every other condition False (override with --condition / --ignore-condition).',
  usage: '[-w RANGE] [-c RANGE] [options]',
  secretEnv: ['VCD_PASSWORD'],
  options: NODES_OPTIONS,
  examples: [
    'check_nodes --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem',
    'check_nodes -H ocp.example.com --token-file /etc/nagios/cluster.token -l node-role.kubernetes.io/worker= -w 0 -c 2 --grace 10m',
    'check_nodes --kubeconfig /etc/nagios/kubeconfig --percent -w 10 -c 25 --ignore-cordoned',
    'check_nodes --kubeconfig --context prod-eu1 --cache-dir /var/cache/nagios/cloudchecks',
    'check_nodes --kubeconfig --vcd-url https://vcd.example.com --vcd-user monitor --vcd-org acme --vcd-password-file /etc/nagios/vcd.password',
  ],
  otherConnectionNotes: [VM_FACTS_NOTE],
  async run(options, context) {
    const config = await configureNodes(options, context);
    const facts = new NodeFacts();
    const reads = startControlPlaneReads(config, context);
    const { tally, stats } = await probeNodes(config, context, facts);
    // What follows is judging what was listed (and awaiting the reads started beside it, each
    // naming its own phase): a timeout now must not blame the listing.
    context.setPhase(`judging the ${tally.listed} listed nodes`);
    if (config.discovery) return { state: State.OK, summary: '', raw: discoveryJson(tally) };
    const listed = `${tally.listed} listed in ${stats.pages} page${stats.pages === 1 ? '' : 's'}${stats.restarted ? ' (restarted after 410 Gone)' : ''}`;
    const result = { ...evaluate(config, tally), notes: [listed, ...(config.selector ? [`selector ${config.selector}`] : [])] };
    const joined = withParts(result, await judgeControlPlane(config, reads, tally, facts, context));
    return config.vm ? addVmFacts(joined, config.vm, tally, facts, context) : joined;
  },
});

/** The failing nodes' VM facts added to the result (the vCD side loaded now, not at start-up). */
async function addVmFacts(result: Result, vm: NonNullable<NodesConfig['vm']>, tally: NodeTally, facts: NodeFacts, context: RunContext): Promise<Result> {
  const { addVmFacts: add } = await import('../../lib/join/node-vm/node-vm');
  const failing = tally.failing.map(({ name }) => {
    const fact = facts.byName.get(name);
    return { name, providerID: fact?.providerID, hostLabel: fact?.hostLabel };
  });
  return add(result, failing, vm, context);
}

/** Lists the nodes into a tally (again from the start when a renewed credential retries). */
async function probeNodes(config: NodesConfig, context: RunContext, facts: NodeFacts): Promise<{ tally: NodeTally; stats: ListStats }> {
  const tally = new NodeTally(config.rule, config.selection);
  const listOptions = {
    selector: config.selector,
    maxBytes: config.maxBytes,
    maxNodes: config.maxNodes,
    signal: context.signal,
    trace: (l: string) => context.log(3, l),
  };
  const sink = config.pods || config.skew || config.vm ? teeSinks(tally, facts) : tally;
  const stats = await readCluster(config.target, context, 'listing nodes', (t) => (sink.reset(), listNodes(t, listOptions, sink)));
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

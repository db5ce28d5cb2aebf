// check_nodes: node health of a Kubernetes/OpenShift cluster (SPEC 3).
import { DEFAULT_MAX_NODES, listNodes } from '../lib/cluster/client';
import { parseHealthRule } from '../lib/cluster/node';
import { discoveryJson, evaluateNodes, parseGrace } from '../lib/cluster/node-report';
import { compileNamePattern, NodeTally } from '../lib/cluster/node-tally';
import { CLUSTER_CA_NOTE, CLUSTER_OPTIONS, clusterTargetFrom, describeTarget, TOKEN_ENV, withCredentialRenewal } from '../lib/cluster/target';
import { HTTP_ENVIRONMENT_NOTE, HTTP_OPTIONS, maxBytesFrom } from '../lib/http/options';
import { UsageError } from '../lib/plugin/errors';
import { positiveInteger } from '../lib/plugin/options';
import { parseRange } from '../lib/plugin/range';
import { runPlugin } from '../lib/plugin/run';
import { State } from '../lib/plugin/state';
import { describeThresholdSlip } from '../lib/plugin/threshold';

void runPlugin({
  name: 'NODES',
  command: 'check_nodes',
  description: 'Checks that the nodes of a Kubernetes/OpenShift cluster are healthy: Ready=True and every other condition False (override with --condition / --ignore-condition).',
  usage: 'check_nodes (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH] [-w RANGE] [-c RANGE] [options]',
  secretEnv: [TOKEN_ENV],
  options: [
    ...CLUSTER_OPTIONS,
    ...HTTP_OPTIONS,
    { long: 'selector', short: 'l', type: 'string', arg: 'SELECTOR', description: 'Label selector sent to the API, e.g. node-role.kubernetes.io/worker= (the role labels have an empty value).' },
    { long: 'include', type: 'string', arg: 'REGEX', description: 'Check only nodes whose name (metadata.name) or Hostname address matches.' },
    { long: 'exclude', type: 'string', arg: 'REGEX', description: 'Skip nodes whose name or Hostname address matches.' },
    { long: 'ignore-cordoned', type: 'boolean', description: 'Skip cordoned nodes (spec.unschedulable); long output lists them as skipped.' },
    { long: 'min-nodes', type: 'number', arg: 'N', description: 'CRITICAL when fewer than N nodes are checked. Without it, zero nodes is UNKNOWN.' },
    { long: 'condition', type: 'list', arg: 'TYPE=True|False', description: 'Expected status of a condition type (repeatable), e.g. storage.kubernetes.io/CSIReady=True.' },
    { long: 'ignore-condition', type: 'list', arg: 'TYPE', description: 'Ignore a condition type (repeatable).' },
    { long: 'warning', short: 'w', type: 'string', arg: 'RANGE', description: 'Range of failing nodes that is fine; WARNING outside it.' },
    { long: 'critical', short: 'c', type: 'string', arg: 'RANGE', default: '0', description: 'Range of failing nodes that is fine; CRITICAL outside it.' },
    { long: 'percent', type: 'boolean', description: '-w/-c are percentages of the checked nodes.' },
    { long: 'grace', type: 'string', arg: 'DURATION', description: 'A failing node whose bad conditions all changed less than DURATION ago (90s, 10m, 1h) is WARNING, not CRITICAL, and does not count against -w/-c: reboots and upgrades.' },
    { long: 'list-all', type: 'boolean', description: 'Long output lists every node; by default only the failing, cordoned and skipped ones, and a count of the healthy. --output json always lists every node (per-node items of Zabbix).' },
    { long: 'node', type: 'string', arg: 'NAME', description: 'Check one node, by name or Hostname address (for Zabbix items per discovered node).' },
    { long: 'max-nodes', type: 'number', arg: 'N', default: DEFAULT_MAX_NODES, description: 'UNKNOWN when the server lists more nodes than this (a broken or hostile server cannot exhaust memory).' },
    { long: 'discovery', type: 'boolean', description: 'Print Zabbix low-level discovery JSON [{"{#NODE}":"name","{#NODE.HOST}":"host"},...] and exit 0.' },
  ],
  examples: [
    'check_nodes --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem',
    'check_nodes -H ocp.example.com --token-file /etc/nagios/cluster.token -l node-role.kubernetes.io/worker= -w 0 -c 2 --grace 10m',
    'check_nodes --kubeconfig /etc/nagios/kubeconfig --percent -w 10 -c 25 --ignore-cordoned',
    'check_nodes --kubeconfig --context prod-eu1 --cache-dir /var/cache/nagios/cloudchecks',
  ],
  notes: ['Credentials, first found wins: --token-file, --token, $KUBE_TOKEN, --client-cert/--client-key, the kubeconfig user (token, tokenFile, client certificate, exec plugin), the pod\'s service account.', CLUSTER_CA_NOTE, HTTP_ENVIRONMENT_NOTE],
  async run(options, context) {
    const warnings: string[] = [];
    const target = await clusterTargetFrom(options, context, warnings);
    const minNodes = options['min-nodes'] as number | undefined;
    if (minNodes !== undefined && !(Number.isInteger(minNodes) && minNodes >= 0)) throw new UsageError(`invalid --min-nodes ${minNodes}: expected a whole number >= 0`);
    const rule = parseHealthRule(options.condition as string[], options['ignore-condition'] as string[]);
    const warning = options.warning === undefined ? undefined : parseRange(options.warning as string, '-w/--warning');
    const critical = parseRange(options.critical as string, '-c/--critical');
    const node = options.node as string | undefined;
    const grace = options.grace === undefined ? undefined : parseGrace(options.grace as string);
    const slip = describeThresholdSlip({ warning, critical });
    if (slip) warnings.push(slip);
    const tally = new NodeTally(rule, {
      include: compileNamePattern(options.include as string | undefined, '--include'),
      exclude: compileNamePattern(options.exclude as string | undefined, '--exclude'),
      node,
      ignoreCordoned: options['ignore-cordoned'] as boolean,
    });
    const selector = options.selector as string | undefined;
    context.log(2, describeTarget(target));
    context.setPhase(`listing nodes from ${target.url.origin}`);
    const listOptions = { selector, maxBytes: maxBytesFrom(options), maxNodes: positiveInteger(options['max-nodes'], '--max-nodes'), signal: context.signal, trace: (l: string) => context.log(3, l) };
    const stats = await withCredentialRenewal(target, (t) => (tally.reset(), listNodes(t, listOptions, tally)));
    if (options.discovery) return { state: State.OK, summary: '', raw: discoveryJson(tally) };
    const given = ['include', 'exclude', 'node'].filter((o) => options[o] !== undefined).map((o) => `--${o} ${JSON.stringify(options[o])}`);
    const result = evaluateNodes(tally, {
      selectionOptions: given.length > 0 ? given.join(' and ') : undefined,
      selector, warning, critical, percent: options.percent as boolean, minNodes, node, grace, listAll: (options['list-all'] as boolean) || options.output === 'json' || node !== undefined });
    if (context.verbose >= 1) {
      const facts = [`${tally.listed} listed in ${stats.pages} page${stats.pages === 1 ? '' : 's'}${stats.restarted ? ' (restarted after 410 Gone)' : ''}`, ...(selector ? [`selector ${selector}`] : []), ...warnings];
      result.summary += ` [${facts.join(', ')}]`;
    }
    return result;
  },
});

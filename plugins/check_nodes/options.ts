import { DEFAULT_MAX_NODES } from '../../lib/cluster/node-list';
import { DEFAULT_MAX_PODS } from '../../lib/cluster/pods-per-node';
import { CLUSTER_OPTIONS } from '../../lib/cluster/target';
import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { thresholdOptions } from '../../lib/plugin/scalar-context';
import { VCD_NODE_OPTIONS } from '../../lib/join/node-vm/node-vm-options';

/** The options of check_nodes, in --help order. */
export const NODES_OPTIONS = defineOptions([
  ...CLUSTER_OPTIONS,
  ...HTTP_OPTIONS,
  {
    long: 'selector',
    short: 'l',
    type: 'string',
    arg: 'SELECTOR',
    description: 'Label selector sent to the API, e.g. node-role.kubernetes.io/worker= (the role labels have an empty value).',
  },
  { long: 'include', type: 'string', arg: 'REGEX', description: 'Check only nodes whose name (metadata.name) or Hostname address matches.' },
  { long: 'exclude', type: 'string', arg: 'REGEX', description: 'Skip nodes whose name or Hostname address matches.' },
  { long: 'ignore-cordoned', type: 'boolean', description: 'Skip cordoned nodes (spec.unschedulable); long output lists them as skipped.' },
  { long: 'min-nodes', type: 'number', arg: 'N', description: 'CRITICAL when fewer than N nodes are checked. Without it, zero nodes is UNKNOWN.' },
  {
    long: 'condition',
    type: 'list',
    arg: 'TYPE=True|False',
    description: 'Expected status of a condition type (repeatable), e.g. storage.kubernetes.io/CSIReady=True.',
  },
  { long: 'ignore-condition', type: 'list', arg: 'TYPE', description: 'Ignore a condition type (repeatable).' },
  ...thresholdOptions({
    warning: 'Range of failing nodes that is fine; WARNING outside it.',
    critical: 'Range of failing nodes that is fine; CRITICAL outside it.',
    criticalDefault: '0',
  }),
  { long: 'percent', type: 'boolean', description: '-w/-c are percentages of the checked nodes.' },
  {
    long: 'grace',
    type: 'string',
    arg: 'DURATION',
    description:
      'A failing node whose bad conditions all changed less than DURATION ago (90s, 10m, 1h) is WARNING, not CRITICAL, and does not count against -w/-c: reboots and upgrades.',
  },
  {
    long: 'list-all',
    type: 'boolean',
    description:
      'Long output lists every node; by default only the failing, cordoned and skipped ones, and a count of the healthy. --output json always lists every node (per-node items of Zabbix).',
  },
  { long: 'node', type: 'string', arg: 'NAME', description: 'Check one node, by name or Hostname address (for Zabbix items per discovered node).' },
  {
    long: 'max-nodes',
    type: 'number',
    arg: 'N',
    default: DEFAULT_MAX_NODES,
    description: 'UNKNOWN when the server lists more nodes than this (a broken or hostile server cannot exhaust memory).',
  },
  {
    long: 'pods',
    type: 'boolean',
    description:
      "Also count each checked node's pods (all but Succeeded and Failed ones) against its status.allocatable.pods (else capacity), read as one paged Table of every pod.",
  },
  {
    long: 'pods-warning',
    type: 'string',
    arg: 'RANGE',
    default: '90',
    description: "With --pods: range of a node's pods in percent of its limit that is fine; WARNING outside it.",
  },
  { long: 'pods-critical', type: 'string', arg: 'RANGE', default: '95', description: 'With --pods: the same for CRITICAL.' },
  {
    long: 'max-pods',
    type: 'number',
    arg: 'N',
    default: DEFAULT_MAX_PODS,
    description: 'With --pods: UNKNOWN when the server lists more pods than this (a broken or hostile server cannot keep the check busy).',
  },
  {
    long: 'version-skew',
    type: 'boolean',
    description:
      "Also compare each checked node's kubelet version with the API server's (/version): a newer kubelet is CRITICAL, one more than --max-skew minors older WARNING, one of another major version (v0.x against v1.x) CRITICAL when newer and WARNING when older; nodes on other minors are named. A patch difference is no skew.",
  },
  {
    long: 'max-skew',
    type: 'number',
    arg: 'N',
    description:
      "With --version-skew: minors a kubelet may lag behind the API server (default: what the API server's version supports, 2 before 1.28, else 3).",
  },
  ...VCD_NODE_OPTIONS,
  { long: 'discovery', type: 'boolean', description: 'Print Zabbix low-level discovery JSON [{"{#NODE}":"name","{#NODE.HOST}":"host"},...] and exit 0.' },
]);

/** check_nodes' options as parsed. */
export type NodesOptions = PluginOptions<typeof NODES_OPTIONS>;

import type { ClusterTarget } from '../../lib/cluster/client';
import { parseHealthRule, type HealthRule } from '../../lib/cluster/node';
import { parseDuration } from '../../lib/plugin/duration';
import type { NodeSelection } from '../../lib/cluster/node-tally';
import { compileNamePattern } from '../../lib/plugin/linear-regexp';
import { clusterTargetFrom } from '../../lib/cluster/target';
import { maxBytesFrom } from '../../lib/http/options';
import type { RunContext } from '../../lib/plugin/context';
import { UsageError } from '../../lib/plugin/errors';
import { positiveInteger } from '../../lib/plugin/options';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import type { NodeVmConfig } from '../../lib/join/node-vm/node-vm-config';
import { wantsVmFacts } from '../../lib/join/node-vm/node-vm-options';
import { controlPlaneConfig, type ControlPlaneConfig } from './control-plane';
import type { NodesOptions } from './options';

/** Everything check_nodes' options say, validated before the first request. */
export interface NodesConfig extends ControlPlaneConfig {
  target: ClusterTarget;
  rule: HealthRule;
  /** -w/-c on the failing nodes (a count, or a percentage with --percent). */
  failing: ScalarContext;
  percent: boolean;
  minNodes?: number;
  grace?: number;
  selection: NodeSelection;
  selector?: string;
  /** The selection options given, named when nothing matched them. */
  selectionOptions?: string;
  listAll: boolean;
  discovery: boolean;
  maxBytes: number;
  maxNodes: number;
  /** The --vcd-* options: the VMs of failing nodes are looked up (absent without them). */
  vm?: NodeVmConfig;
}

/** The options of check_nodes as its config (the target first: where the cluster is comes before how to judge it). */
export async function configureNodes(options: NodesOptions, context: RunContext): Promise<NodesConfig> {
  const target = await clusterTargetFrom(options, context, context.notes);
  const minNodes = options['min-nodes'];
  if (minNodes !== undefined && !(Number.isInteger(minNodes) && minNodes >= 0))
    throw new UsageError(`invalid --min-nodes ${minNodes}: expected a whole number >= 0`);
  const rule = parseHealthRule(options.condition, options['ignore-condition']);
  const failing = ScalarContext.fromOptions(options);
  const node = options.node;
  const grace = options.grace === undefined ? undefined : parseDuration(options.grace, '--grace', { maxSeconds: 7 * 86400 });
  const slip = failing.slip;
  if (slip) context.notes.add(slip);
  const selection: NodeSelection = {
    include: compileNamePattern(options.include, '--include'),
    exclude: compileNamePattern(options.exclude, '--exclude'),
    node,
    ignoreCordoned: options['ignore-cordoned'],
  };
  const given = (['include', 'exclude', 'node'] as const).filter((o) => options[o] !== undefined).map((o) => `--${o} ${JSON.stringify(options[o])}`);
  return {
    target,
    rule,
    failing,
    percent: options.percent,
    minNodes,
    grace,
    selection,
    selector: options.selector,
    selectionOptions: given.length > 0 ? given.join(' and ') : undefined,
    listAll: options['list-all'] || options.output === 'json' || node !== undefined,
    discovery: options.discovery,
    maxBytes: maxBytesFrom(options),
    maxNodes: positiveInteger(options['max-nodes'], '--max-nodes'),
    ...controlPlaneConfig(options, context),
    ...(wantsVmFacts(options) && !options.discovery ? { vm: await vmConfig(options, context) } : {}),
  };
}

/** The --vcd-* options as config: the vCD side is loaded only when they are given. */
async function vmConfig(options: NodesOptions, context: RunContext): Promise<NodeVmConfig> {
  const { nodeVmConfigFrom } = await import('../../lib/join/node-vm/node-vm-config');
  return nodeVmConfigFrom(options, context);
}

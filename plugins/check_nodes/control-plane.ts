// check_nodes --pods and --version-skew: their options as config, their reads (the pods of
// every namespace, the API server's /version) beside the node list, and their judgement.
import type { NodeFacts } from '../../lib/cluster/node-facts';
import { podsPart, skewPart } from '../../lib/cluster/node-extras-report';
import type { Part } from '../../lib/plugin/part';
import type { NodeTally } from '../../lib/cluster/node-tally';
import { countPodsPerNode, type PodCount } from '../../lib/cluster/pods-per-node';
import { readServerVersion, type KubeVersion } from '../../lib/cluster/kube-version';
import { withCredentialRenewal } from '../../lib/cluster/target';
import { judgeSkew } from '../../lib/cluster/version-skew';
import type { RunContext } from '../../lib/plugin/context';
import { CheckError, UsageError } from '../../lib/plugin/errors';
import { positiveInteger } from '../../lib/plugin/options';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import type { ClusterTarget } from '../../lib/cluster/client';
import type { NodesOptions } from './options';

/** What --pods and --version-skew ask of check_nodes (absent when not asked for). */
export interface ControlPlaneConfig {
  /** --pods: each node's pods in percent of its limit, and the bound on the pods listed. */
  pods?: { usage: ScalarContext; maxPods: number };
  /** --version-skew, with --max-skew when given. */
  skew?: { maxSkew?: number };
}

/** Where the control-plane reads go, and what they are bounded by. */
type ControlPlaneTarget = ControlPlaneConfig & { target: ClusterTarget; maxBytes: number };

/** The --pods and --version-skew parts of check_nodes' config, from its options. */
export function controlPlaneConfig(options: NodesOptions, context: RunContext): ControlPlaneConfig {
  const out: ControlPlaneConfig = {};
  if (options.pods) {
    const usage = ScalarContext.fromOptions({ warning: options['pods-warning'], critical: options['pods-critical'] }, undefined, {
      warning: '--pods-warning',
      critical: '--pods-critical',
    });
    if (usage.slip) context.notes.add(usage.slip);
    out.pods = { usage, maxPods: positiveInteger(options['max-pods'], '--max-pods') };
  }
  const maxSkew = options['max-skew'];
  if (maxSkew !== undefined && !(Number.isInteger(maxSkew) && maxSkew >= 0))
    throw new UsageError(`invalid --max-skew ${maxSkew}: expected a whole number of minors >= 0`);
  if (options['version-skew']) out.skew = { maxSkew };
  else if (maxSkew !== undefined) throw new UsageError('--max-skew goes with --version-skew');
  return out;
}

/** The checked nodes' names: failing and healthy, not the skipped ones. */
function checkedNodes(tally: NodeTally): string[] {
  return [...tally.failing, ...tally.healthy].map((n) => n.name);
}

/** The reads of --pods and --version-skew, under way while the node list is read. */
export interface ControlPlaneReads {
  pods?: Promise<PodCount>;
  server?: Promise<KubeVersion | undefined>;
}

/** Starts what --pods and --version-skew read, beside the node list: the pods of every namespace, /version. */
export function startControlPlaneReads(config: ControlPlaneTarget, context: RunContext): ControlPlaneReads {
  const get = { maxBytes: config.maxBytes, signal: context.signal, trace: (l: string) => context.log(3, l) };
  const reads: ControlPlaneReads = {};
  if (config.pods) {
    const { maxPods } = config.pods;
    reads.pods = withCredentialRenewal(config.target, (t) => countPodsPerNode(t, { ...get, maxPods }));
  }
  if (config.skew) reads.server = withCredentialRenewal(config.target, (t) => readServerVersion(t, get));
  // Awaited after the node list; a failure meanwhile must not count as unhandled.
  for (const read of [reads.pods, reads.server]) read?.catch(() => undefined);
  return reads;
}

/**
 * Judges what the reads found for the checked nodes; no parts when neither option is given.
 * Each wait and each judgement says its phase: a timeout names it, not the listing before.
 */
export async function judgeControlPlane(
  config: ControlPlaneConfig,
  reads: ControlPlaneReads,
  tally: NodeTally,
  facts: NodeFacts,
  context: Pick<RunContext, 'setPhase'>,
): Promise<Part[]> {
  const nodes = checkedNodes(tally);
  const parts: Part[] = [];
  if (config.pods && reads.pods) {
    context.setPhase('reading the pods per node');
    const counts = await reads.pods;
    context.setPhase(`judging the pods of ${nodes.length} nodes`);
    parts.push(podsPart(counts, facts.byName, nodes, config.pods.usage));
  }
  if (config.skew && reads.server) {
    context.setPhase("reading the API server's version (/version)");
    const server = await reads.server;
    if (server === undefined)
      throw new CheckError(
        "--version-skew: the API server's version is not readable (/version refused or without gitVersion); grant get on /version (docs/tokens.md), or drop --version-skew",
      );
    context.setPhase(`judging the kubelet versions of ${nodes.length} nodes`);
    const listed = nodes.map((name) => ({ name, kubeletVersion: facts.byName.get(name)?.kubeletVersion }));
    parts.push(skewPart(judgeSkew(server, listed, config.skew.maxSkew), server.text));
  }
  return parts;
}

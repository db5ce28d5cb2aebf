// check_nodes --pods and --version-skew: their options as config, and their reads after the
// node list (the pods of every namespace; the API server's /version).
import type { NodeFacts } from '../../lib/cluster/node-facts';
import { podsPart, skewPart, type ResultPart } from '../../lib/cluster/node-extras-report';
import type { NodeTally } from '../../lib/cluster/node-tally';
import { countPodsPerNode } from '../../lib/cluster/pods-per-node';
import { readServerVersion } from '../../lib/cluster/kube-version';
import { withCredentialRenewal } from '../../lib/cluster/target';
import { judgeSkew } from '../../lib/cluster/version-skew';
import type { RunContext } from '../../lib/plugin/context';
import { CheckError, UsageError } from '../../lib/plugin/errors';
import { positiveInteger } from '../../lib/plugin/options';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import type { NodesConfig } from './config';
import type { NodesOptions } from './options';

/** The --pods and --version-skew parts of check_nodes' config (absent when not asked for). */
export function controlPlaneConfig(options: NodesOptions, context: RunContext): Pick<NodesConfig, 'pods' | 'skew'> {
  const out: Pick<NodesConfig, 'pods' | 'skew'> = {};
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

/** Reads what --pods and --version-skew need and judges it; none when neither is asked for. */
export async function probeControlPlaneParts(config: NodesConfig, tally: NodeTally, facts: NodeFacts, context: RunContext): Promise<ResultPart[]> {
  const get = { maxBytes: config.maxBytes, signal: context.signal, trace: (l: string) => context.log(3, l) };
  const parts: Array<Promise<ResultPart>> = [];
  const nodes = checkedNodes(tally);
  if (config.pods) {
    const { usage, maxPods } = config.pods;
    context.setPhase(`counting pods per node from ${config.target.url.origin}`);
    parts.push(
      withCredentialRenewal(config.target, (t) => countPodsPerNode(t, { ...get, maxPods })).then((count) => podsPart(count, facts.byName, nodes, usage)),
    );
  }
  if (config.skew) {
    const { maxSkew } = config.skew;
    parts.push(
      withCredentialRenewal(config.target, (t) => readServerVersion(t, get)).then((server) => {
        if (server === undefined)
          throw new CheckError(
            `--version-skew: the API server's version is not readable (/version refused or without gitVersion); grant get on /version (docs/tokens.md), or drop --version-skew`,
          );
        const listed = nodes.map((name) => ({ name, kubeletVersion: facts.byName.get(name)?.kubeletVersion }));
        return skewPart(judgeSkew(server, listed, maxSkew), server.text);
      }),
    );
  }
  return Promise.all(parts);
}

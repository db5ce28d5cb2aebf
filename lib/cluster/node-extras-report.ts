// What --pods and --version-skew add to check_nodes' result: each a subcheck with its items,
// a phrase for the status line when it is not OK, and its perfdata; the worst state wins.
import type { Metric } from '../plugin/perfdata';
import type { Item, Result } from '../plugin/result';
import { PERCENT, unjudgedMetric, type ScalarContext } from '../plugin/scalar-context';
import { State } from '../plugin/state';
import { worstOf } from '../plugin/subcheck';
import type { NodeFact } from './node-facts';
import type { PodCount } from './pods-per-node';
import type { SkewVerdict } from './version-skew';

/** One part of a check's result, joined to the others by `joinParts`. */
export interface ResultPart {
  state: State;
  /** Said on the status line when the part is not OK. */
  phrase?: string;
  items: Item[];
  metrics: Metric[];
  notes?: string[];
}

/** Nodes named on the status line; the long output names every one. */
const NAMED = 5;

function named(texts: string[]): string {
  return texts.slice(0, NAMED).join(', ') + (texts.length > NAMED ? ` and ${texts.length - NAMED} more` : '');
}

/** Pods per selected node in percent of its limit, judged by `usage` (--pods-warning/--pods-critical). */
export function podsPart(count: PodCount, facts: ReadonlyMap<string, NodeFact>, nodes: readonly string[], usage: ScalarContext): ResultPart {
  const rows = nodes.map((name) => {
    const pods = count.byNode.get(name) ?? 0;
    const limit = facts.get(name)?.podLimit ?? NaN;
    const pct = limit > 0 ? (pods / limit) * 100 : NaN;
    // A node without a limit costs its figure, not the check: it is not judged.
    return { name, pods, limit, pct, state: Number.isFinite(pct) ? usage.measure('pods_pct', pct).state : State.OK };
  });
  const judged = rows.filter((r) => Number.isFinite(r.pct));
  const full = rows.filter((r) => r.state !== State.OK).sort((a, b) => b.pct - a.pct);
  const worst = judged.reduce<(typeof rows)[number] | undefined>((a, r) => (a === undefined || r.pct > a.pct ? r : a), undefined);
  const say = (r: (typeof rows)[number]) => `${r.name} ${r.pods}/${r.limit} pods (${Math.round(r.pct)}%)`;
  const unlimited = rows.length - judged.length;
  return {
    state: worstOf(rows),
    phrase: full.length > 0 ? `${full.length} node${full.length === 1 ? '' : 's'} near the pod limit: ${named(full.map(say))}` : undefined,
    items: full.map((r) => ({ name: r.name, state: r.state, text: say(r) })),
    metrics: [
      worst === undefined ? unjudgedMetric('pods_max_pct', null, PERCENT) : usage.measure('pods_max_pct', worst.pct, { ...PERCENT, decimals: 1 }).metric,
      unjudgedMetric(
        'pods',
        [...nodes].reduce((n, name) => n + (count.byNode.get(name) ?? 0), 0),
        { min: 0 },
      ),
    ],
    notes: [
      `${count.pods} pods counted in ${count.pages} page${count.pages === 1 ? '' : 's'}${count.table ? ' (Table form)' : ' (the server ignored the Table form)'}`,
      ...(worst ? [`fullest node ${say(worst)}`] : []),
      ...(unlimited > 0 ? [`${unlimited} node${unlimited === 1 ? '' : 's'} without a pod limit (status.allocatable.pods)`] : []),
    ],
  };
}

/** Kubelets against the API server: the nodes that break the skew policy, and every minor in use. */
export function skewPart(verdict: SkewVerdict, serverText: string): ResultPart {
  const bad = verdict.kubelets.filter((k) => k.state !== State.OK);
  const minors = [...verdict.byMinor].filter(([, names]) => names.length > 0);
  // The API server's minor comes first in byMinor: the others are named with their nodes.
  const [serverMinor] = verdict.byMinor.keys();
  const others = minors.filter(([m]) => m !== serverMinor);
  const spread =
    others.length > 0 ? `kubelets off the API server's ${serverMinor}: ${others.map(([m, names]) => `${m} on ${named(names)}`).join(', ')}` : undefined;
  const behind = Math.max(0, ...verdict.kubelets.map((k) => k.behind ?? 0));
  return {
    state: worstOf(bad),
    phrase: bad.length > 0 ? `${named(bad.map((k) => k.text))}` : spread,
    items: [
      ...bad.map((k) => ({ name: k.node, state: k.state, text: k.text })),
      ...(spread ? [{ name: 'kubelet versions', state: State.OK, text: `${spread} (API server ${serverText})` }] : []),
    ],
    metrics: [unjudgedMetric('kubelet_minors_behind', behind, { min: 0 }), unjudgedMetric('kubelet_minor_versions', minors.length, { min: 0 })],
    notes: [
      `API server ${serverText}, kubelets at most ${verdict.maxSkew} minors behind`,
      ...(verdict.patchDiffers.length > 0 ? [`other patch level (no skew): ${named(verdict.patchDiffers)}`] : []),
    ],
  };
}

/** The result with the parts joined: worst state, their phrases after the summary, their items, perfdata and notes after its own. */
export function joinParts(result: Result, parts: readonly ResultPart[]): Result {
  if (parts.length === 0) return result;
  const phrases = parts.flatMap((p) => (p.phrase === undefined ? [] : [p.phrase]));
  return {
    ...result,
    state: worstOf([result, ...parts]),
    summary: [result.summary, ...phrases].join('; '),
    items: [...(result.items ?? []), ...parts.flatMap((p) => p.items)],
    metrics: [...(result.metrics ?? []), ...parts.flatMap((p) => p.metrics)],
    notes: [...(result.notes ?? []), ...parts.flatMap((p) => p.notes ?? [])],
  };
}

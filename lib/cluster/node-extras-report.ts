// What --pods and --version-skew add to check_nodes' result: each a subcheck with its items,
// a phrase for the status line when it is not OK, and its perfdata; the worst state wins.
import type { Metric } from '../plugin/perfdata';
import type { Item, Result } from '../plugin/result';
import { PERCENT, type ScalarContext } from '../plugin/scalar-context';
import { State, worstState } from '../plugin/state';
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
    return { name, pods, limit, pct, state: Number.isFinite(pct) ? usage.evaluate(pct) : State.OK };
  });
  const judged = rows.filter((r) => Number.isFinite(r.pct));
  const full = rows.filter((r) => r.state !== State.OK).sort((a, b) => b.pct - a.pct);
  const worst = judged.reduce<(typeof rows)[number] | undefined>((a, r) => (a === undefined || r.pct > a.pct ? r : a), undefined);
  const say = (r: (typeof rows)[number]) => `${r.name} ${r.pods}/${r.limit} pods (${Math.round(r.pct)}%)`;
  const unlimited = rows.length - judged.length;
  return {
    state: worstState(rows.map((r) => r.state)),
    phrase: full.length > 0 ? `${full.length} node${full.length === 1 ? '' : 's'} near the pod limit: ${named(full.map(say))}` : undefined,
    items: full.map((r) => ({ name: r.name, state: r.state, text: say(r) })),
    metrics: [
      usage.perfdata('pods_max_pct', worst === undefined ? null : Math.round(worst.pct * 10) / 10, PERCENT),
      { label: 'pods', value: [...nodes].reduce((n, name) => n + (count.byNode.get(name) ?? 0), 0), min: 0 },
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
    state: worstState(bad.map((k) => k.state)),
    phrase: bad.length > 0 ? `${named(bad.map((k) => k.text))}` : spread,
    items: [
      ...bad.map((k) => ({ name: k.node, state: k.state, text: k.text })),
      ...(spread ? [{ name: 'kubelet versions', state: State.OK, text: `${spread} (API server ${serverText})` }] : []),
    ],
    metrics: [
      { label: 'kubelet_minors_behind', value: behind, min: 0 },
      { label: 'kubelet_minor_versions', value: minors.length, min: 0 },
    ],
    notes: [
      `API server ${serverText}, kubelets at most ${verdict.maxSkew} minors behind`,
      ...(verdict.patchDiffers.length > 0 ? [`other patch level (no skew): ${named(verdict.patchDiffers)}`] : []),
    ],
  };
}

/** The result with the parts joined: worst state, their phrases after the summary, their items, perfdata and notes after its own. */
export function joinParts(result: Result, parts: readonly ResultPart[]): Result {
  if (parts.length === 0) return result;
  const phrases = parts.filter((p) => p.phrase !== undefined && (p.state !== State.OK || p.phrase)).map((p) => p.phrase as string);
  return {
    ...result,
    state: worstState([result.state, ...parts.map((p) => p.state)]),
    summary: [result.summary, ...phrases].join('; '),
    items: [...(result.items ?? []), ...parts.flatMap((p) => p.items)],
    metrics: [...(result.metrics ?? []), ...parts.flatMap((p) => p.metrics)],
    notes: [...(result.notes ?? []), ...parts.flatMap((p) => p.notes ?? [])],
  };
}

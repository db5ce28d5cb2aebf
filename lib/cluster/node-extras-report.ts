// What --pods and --version-skew add to check_nodes' result: each a subcheck with its items,
// words for the status line when it is not OK, and its perfdata: a part that lib/plugin joins to the result.
import { isNamed, itemsPart, nameSome, type Part } from '../plugin/part';
import { PERCENT, unjudgedMetric, type ScalarContext } from '../plugin/scalar-context';
import { State } from '../plugin/state';
import type { NodeFact } from './node-facts';
import type { PodCount } from './pods-per-node';
import type { SkewVerdict } from './version-skew';

/** Nodes named on the status line; the long output names every one. */
const NAMED = 5;

function named(texts: string[]): string {
  return nameSome(texts, NAMED);
}

/** Pods per selected node in percent of its limit, judged by `usage` (--pods-warning/--pods-critical). */
export function podsPart(count: PodCount, facts: ReadonlyMap<string, NodeFact>, nodes: readonly string[], usage: ScalarContext): Part {
  const sized = nodes.map((name) => {
    const pods = count.byNode.get(name) ?? 0;
    const limit = facts.get(name)?.podLimit ?? NaN;
    return { name, pods, limit, pct: limit > 0 ? (pods / limit) * 100 : NaN };
  });
  // Each node judged, the fullest graphed; a node without a limit costs its figure, not the check: it is not judged.
  const measured = usage.measureEach(
    'pods_max_pct',
    sized.map((r) => (Number.isFinite(r.pct) ? r.pct : undefined)),
    'highest',
    { ...PERCENT, decimals: 1 },
  );
  const rows = sized.map((r, i) => ({ ...r, state: measured.states[i] ?? State.OK }));
  const full = rows.filter(isNamed).sort((a, b) => b.pct - a.pct);
  const worst = measured.graphed === undefined ? undefined : rows[measured.graphed];
  const say = (r: (typeof rows)[number]) => `${r.name} ${r.pods}/${r.limit} pods (${Math.round(r.pct)}%)`;
  const unlimited = rows.filter((r) => !Number.isFinite(r.pct)).length;
  const text = full.length > 0 ? `${full.length} node${full.length === 1 ? '' : 's'} near the pod limit: ${named(full.map(say))}` : undefined;
  return itemsPart(
    text,
    full.map((r) => ({ name: r.name, state: r.state, text: say(r) })),
    {
      metrics: [
        measured.metric,
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
    },
  );
}

/** Kubelets against the API server: the nodes that break the skew policy, and every minor in use. */
export function skewPart(verdict: SkewVerdict, serverText: string): Part {
  const bad = verdict.kubelets.filter(isNamed);
  const minors = [...verdict.byMinor].filter(([, names]) => names.length > 0);
  // The API server's minor comes first in byMinor: the others are named with their nodes.
  const [serverMinor] = verdict.byMinor.keys();
  const others = minors.filter(([m]) => m !== serverMinor);
  const spread =
    others.length > 0 ? `kubelets off the API server's ${serverMinor}: ${others.map(([m, names]) => `${m} on ${named(names)}`).join(', ')}` : undefined;
  const behind = Math.max(0, ...verdict.kubelets.map((k) => k.behind ?? 0));
  const items = [
    ...bad.map((k) => ({ name: k.node, state: k.state, text: k.text })),
    ...(spread ? [{ name: 'kubelet versions', state: State.OK, text: `${spread} (API server ${serverText})` }] : []),
  ];
  return itemsPart(bad.length > 0 ? `${named(bad.map((k) => k.text))}` : spread, items, {
    metrics: [unjudgedMetric('kubelet_minors_behind', behind, { min: 0 }), unjudgedMetric('kubelet_minor_versions', minors.length, { min: 0 })],
    notes: [
      `API server ${serverText}, kubelets at most ${verdict.maxSkew} minors behind`,
      ...(verdict.patchDiffers.length > 0 ? [`other patch level (no skew): ${named(verdict.patchDiffers)}`] : []),
    ],
  });
}

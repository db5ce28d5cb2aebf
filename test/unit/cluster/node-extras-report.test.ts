import { describe, expect, it } from 'vitest';
import type { NodeFact } from '../../../lib/cluster/node-facts';
import { podsPart, skewPart } from '../../../lib/cluster/node-extras-report';
import type { PodCount } from '../../../lib/cluster/pods-per-node';
import { judgeSkew } from '../../../lib/cluster/version-skew';
import { withParts } from '../../../lib/plugin/part';
import { parseRange } from '../../../lib/plugin/range';
import { ScalarContext } from '../../../lib/plugin/scalar-context';
import { State } from '../../../lib/plugin/state';

// --pods-warning 80 --pods-critical 95 (percent of each node's pod limit).
const USAGE = new ScalarContext({ warning: parseRange('80', '--pods-warning'), critical: parseRange('95', '--pods-critical') });

const count = (byNode: Record<string, number>): PodCount => ({
  byNode: new Map(Object.entries(byNode)),
  pods: Object.values(byNode).reduce((a, b) => a + b, 0),
  pages: 1,
  table: true,
});
const facts = (limits: Record<string, number>): Map<string, NodeFact> =>
  new Map(Object.entries(limits).map(([name, podLimit]) => [name, { podLimit } as NodeFact]));

describe('podsPart', () => {
  it('nodes well below their limit: OK, nothing said on the status line, the fullest graphed with the ranges', () => {
    const p = podsPart(count({ 'worker-1': 40, 'worker-2': 55 }), facts({ 'worker-1': 110, 'worker-2': 110 }), ['worker-1', 'worker-2'], USAGE);
    expect(p.state).toBe(State.OK);
    expect(p.text).toBeUndefined();
    expect(p.items).toEqual([]);
    expect(p.metrics).toEqual([
      { label: 'pods_max_pct', value: 50, uom: '%', min: 0, max: 100, warning: USAGE.warning, critical: USAGE.critical },
      { label: 'pods', value: 95, min: 0 },
    ]);
    expect(p.notes).toEqual(['95 pods counted in 1 page (Table form)', 'fullest node worker-2 55/110 pods (50%)']);
  });

  it('each node judged by its own limit, the fullest named first; the state is the worst', () => {
    const p = podsPart(
      count({ 'worker-1': 90, 'worker-2': 250, 'worker-3': 10 }),
      facts({ 'worker-1': 110, 'worker-2': 250, 'worker-3': 110 }),
      ['worker-1', 'worker-2', 'worker-3'],
      USAGE,
    );
    expect(p.state).toBe(State.CRITICAL);
    expect(p.text).toBe('2 nodes near the pod limit: worker-2 250/250 pods (100%), worker-1 90/110 pods (82%)');
    expect(p.items?.map((i) => [i.name, i.state])).toEqual([
      ['worker-2', State.CRITICAL],
      ['worker-1', State.WARNING],
    ]);
    expect(p.metrics?.[0]).toMatchObject({ label: 'pods_max_pct', value: 100 });
  });

  it('a node without a pod limit costs its figure, not the check: not judged, counted in a note', () => {
    const p = podsPart(count({ 'worker-1': 30 }), facts({ 'worker-1': NaN }), ['worker-1'], USAGE);
    expect(p.state).toBe(State.OK);
    expect(p.metrics?.[0]).toEqual({ label: 'pods_max_pct', value: null, uom: '%', min: 0, max: 100 });
    expect(p.notes).toContain('1 node without a pod limit (status.allocatable.pods)');
  });
});

describe('skewPart', () => {
  const server = { text: 'v1.29.5', major: 1, minor: 29, patch: 5 };

  it('kubelets on the API server minor: OK, nothing said, no minor behind', () => {
    const p = skewPart(judgeSkew(server, [{ name: 'worker-1', kubeletVersion: 'v1.29.5' }]), server.text);
    expect(p.state).toBe(State.OK);
    expect(p.text).toBeUndefined();
    expect(p.metrics).toEqual([
      { label: 'kubelet_minors_behind', value: 0, min: 0 },
      { label: 'kubelet_minor_versions', value: 1, min: 0 },
    ]);
  });

  it('a kubelet newer than the API server breaks the policy: its words on the status line, its line in the long output', () => {
    const p = skewPart(
      judgeSkew(server, [
        { name: 'worker-1', kubeletVersion: 'v1.29.5' },
        { name: 'worker-2', kubeletVersion: 'v1.30.1' },
      ]),
      server.text,
    );
    expect(p.state).not.toBe(State.OK);
    expect(p.text).toContain('worker-2');
    expect(p.items?.some((i) => i.name === 'worker-2' && i.state === p.state)).toBe(true);
  });

  it('an older kubelet within the policy is OK but said: the minors in use', () => {
    const p = skewPart(
      judgeSkew(server, [
        { name: 'worker-1', kubeletVersion: 'v1.29.5' },
        { name: 'worker-2', kubeletVersion: 'v1.28.9' },
      ]),
      server.text,
    );
    expect(p.state).toBe(State.OK);
    expect(p.text).toBe("kubelets off the API server's v1.29: v1.28 on worker-2");
    expect(p.metrics?.[0]).toEqual({ label: 'kubelet_minors_behind', value: 1, min: 0 });
  });
});

describe('the parts joined to check_nodes result', () => {
  it('the worst state, their words after the summary, their perfdata and notes after its own', () => {
    const base = { state: State.OK, summary: '3 of 3 nodes healthy', metrics: [{ label: 'nodes', value: 3, min: 0 }] };
    const pods = podsPart(count({ 'worker-1': 109 }), facts({ 'worker-1': 110 }), ['worker-1'], USAGE);
    const r = withParts(base, [pods]);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('3 of 3 nodes healthy; 1 node near the pod limit: worker-1 109/110 pods (99%)');
    expect(r.metrics?.map((m) => m.label)).toEqual(['nodes', 'pods_max_pct', 'pods']);
    expect(r.notes?.[0]).toBe('109 pods counted in 1 page (Table form)');
  });
});

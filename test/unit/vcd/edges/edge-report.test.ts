import { describe, expect, it } from 'vitest';
import { State } from '../../../../lib/plugin/state';
import type { EdgeGateway } from '../../../../lib/vcd/edges/edge-read';
import { judgeEdges } from '../../../../lib/vcd/edges/edge-report';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const OPTIONS = { graceSeconds: 900, now: NOW, remembers: true, scope: '' };
const edge = (name: string, over: Partial<EdgeGateway> = {}): EdgeGateway => ({
  id: `id-${name}`,
  name,
  org: 'acme',
  vdc: 'acme-prod',
  status: 'REALIZED',
  busy: false,
  source: 'cloudapi',
  ...over,
});

describe('judgeEdges', () => {
  it('one edge: its line is the status line', () => {
    const r = judgeEdges([edge('edge-1')], new Map(), OPTIONS);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('edge gateway edge-1 (org acme), VDC acme-prod: realised');
  });

  it('the worst edge decides; the problems named, each by its name and organisation', () => {
    const edges = [edge('edge-1'), edge('edge-2', { status: 'REALIZATION_FAILED' }), edge('edge-3', { busy: true })];
    const r = judgeEdges(edges, new Map([['id-edge-3', NOW - 3600_000]]), OPTIONS);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(/^3 edge gateways: edge-2 \(org acme\) \S+.*, edge-3 \(org acme\) busy for 1h \(more than --busy-grace 15m\)$/);
    expect(r.metrics?.find((m) => m.label === 'edges_problem')?.value).toBe(2);
  });

  it('busy within --busy-grace is OK, said on the status line', () => {
    const r = judgeEdges([edge('edge-1'), edge('edge-2', { busy: true })], new Map([['id-edge-2', NOW - 60_000]]), OPTIONS);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('2 edge gateways: all realised (1 busy within --busy-grace)');
  });
});

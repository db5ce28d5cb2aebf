// The edge gateways as check_edge_gateways reads them, from documents built from the API
// reference (test/fixtures/vcd/edges/README.md), and its judgement of each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordsPageReader } from '../../../../lib/vcd/api/query-pages';
import { State } from '../../../../lib/plugin/state';
import { edgeFromCloudApi, edgeFromRecord, type EdgeGateway } from '../../../../lib/vcd/edges/edge-read';
import { judgeEdges, selectEdges } from '../../../../lib/vcd/edges/edge-report';
import { parseEdgeTarget } from '../../../../plugins/check_edge_gateways/config';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd/edges', name));

function cloudEdges(): EdgeGateway[] {
  const doc = JSON.parse(fixture('edgeGateways-cloudapi-schema-api37.json').toString('utf8')) as { values: Array<Record<string, unknown>> };
  return doc.values.map((v) => edgeFromCloudApi(v)!);
}

function recordEdges(): EdgeGateway[] {
  const edges: EdgeGateway[] = [];
  const reader = new RecordsPageReader('query response', ['EdgeGatewayRecord'], (e) => edges.push(edgeFromRecord(e, 'query response')));
  reader.write(fixture('edgeGateway-records-schema-api38.xml'));
  reader.end();
  return edges;
}

const options = { graceSeconds: 1800, now: Date.parse('2024-03-11T09:00:00Z'), remembers: true, scope: '' };

describe('edge gateways', () => {
  it('reads the CloudAPI list: status, organisation, the VDC or VDC group; a missing status is unknown', () => {
    const edges = cloudEdges();
    expect(edges.map((e) => [e.id, e.name, e.org, e.vdc, e.status])).toEqual([
      ['4c7b3f0e-5a2d-4e6b-9f1c-2d3e4f5a6b70', 'acme-edge-01', 'acme', 'acme-prod', 'REALIZED'],
      ['5d8c4a1f-6b3e-4f7c-8a2d-3e4f5a6b7c81', 'Globex Edge (DMZ)   $USER1$', 'globex', 'globex-vdc-group', 'REALIZATION_FAILED'],
      ['6e9d5b20-7c4f-4a8d-9b3e-4f5a6b7c8d92', 'legacy-edge', 'initech', '', undefined],
    ]);
    const result = judgeEdges(edges, new Map(), options);
    expect(result.state).toBe(State.CRITICAL);
    expect(result.summary).toBe(
      '3 edge gateways: Globex Edge (DMZ)   $USER1$ (org globex) failed (REALIZATION_FAILED), legacy-edge (org initech) state not reported by this vCD',
    );
    expect(result.items?.map((i) => i.state)).toEqual([State.OK, State.CRITICAL, State.UNKNOWN]);
  });

  it('reads the query records: ready, busy with HA degraded, and the older record without orgName', () => {
    const edges = recordEdges();
    expect(edges.map((e) => [e.name, e.org, e.status, e.busy, e.ha])).toEqual([
      ['acme-edge-v', 'acme', 'READY', false, 'UP'],
      ['globex-edge-v', 'globex', 'READY', true, 'DEGRADED'],
      ['old-edge', '', 'NOT_READY', false, undefined],
    ]);
    const busySince = new Map([[edges[1].id, options.now - 40 * 60_000]]);
    const result = judgeEdges(edges, busySince, options);
    expect(result.items?.map((i) => i.text)).toEqual([
      'acme-edge-v (org acme), VDC acme-prod: realised',
      'globex-edge-v (org globex), VDC globex-prod: busy for 40m (more than --busy-grace 30m), HA degraded (haStatus DEGRADED)',
      'old-edge (org unknown): not realised (NOT_READY)',
    ]);
    // Busy within the grace: OK, but HA degraded is WARNING.
    const within = judgeEdges([edges[1]], new Map([[edges[1].id, options.now - 60_000]]), options);
    expect([within.state, within.summary]).toEqual([
      State.WARNING,
      'edge gateway globex-edge-v (org globex), VDC globex-prod: busy for 1m, HA degraded (haStatus DEGRADED)',
    ]);
  });

  it('--edge by name, any case, or by id in its forms; two of one name need the id', () => {
    const edges = [...cloudEdges(), ...recordEdges()];
    const where = { account: 'a@System', origin: 'https://vcd' };
    expect(selectEdges(edges, parseEdgeTarget('ACME-EDGE-01'), where).map((e) => e.name)).toEqual(['acme-edge-01']);
    for (const id of [
      'urn:vcloud:gateway:5D8C4A1F-6B3E-4F7C-8A2D-3E4F5A6B7C81',
      'https://vcd.example.com/cloudapi/1.0.0/edgeGateways/urn:vcloud:gateway:5d8c4a1f-6b3e-4f7c-8a2d-3e4f5a6b7c81',
    ])
      expect(selectEdges(edges, parseEdgeTarget(id), where)).toHaveLength(1);
    expect(() => selectEdges(edges, parseEdgeTarget('nope'), where)).toThrow(/no edge gateway named "nope" is visible to a@System/);
    expect(() => selectEdges([...edges, { ...edges[0], id: 'x' }], parseEdgeTarget('acme-edge-01'), where)).toThrow(/2 edge gateways are named/);
  });
});

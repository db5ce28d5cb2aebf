// The edge gateways of the simulated cloud director, as the CloudAPI lists them
// (GET /cloudapi/1.0.0/edgeGateways: EdgeGateway with id urn:vcloud:gateway:<uuid>, name,
// status, orgRef, ownerRef, edgeGatewayUplinks, paged with resultTotal, pageCount, page,
// pageSize, values) and as the query service does (type=edgeGateway: EdgeGatewayRecord with
// gatewayStatus, haStatus, isBusy, orgVdcName and orgName).
import { HOSTILE_NAMES } from './fleet';
import type { QueryRow } from './query';

/** One simulated edge gateway. */
export interface SimEdge {
  id: string;
  name: string;
  org: string;
  vdc: string;
  /** The CloudAPI status: REALIZED, REALIZATION_FAILED, CONFIGURING, PENDING, UNKNOWN. */
  status: string;
  /** The record's haStatus (the CloudAPI has none). */
  ha: string;
}

const guid = (n: number) => `${(0xe1d90000 + n).toString(16)}-2c3b-4a5d-8e6f-${n.toString(16).padStart(12, '0')}`;

/** The edges of a scenario, and `extra` more in the tenant organisation (every 100th failed). */
export function scenarioEdges(scenario: string, tenant: string, extra = 0): SimEdge[] {
  const edge = (n: number, name: string, org: string, status: string, ha = 'UP'): SimEdge => ({
    id: guid(n),
    name,
    org,
    vdc: `${org.toLowerCase()}-prod`,
    status,
    ha,
  });
  const base =
    scenario === 'default'
      ? [
          edge(1, `${tenant}-edge-01`, tenant, 'REALIZED'),
          edge(2, `${tenant}-edge-02`, tenant, 'CONFIGURING'),
          edge(3, 'globex-edge-01', 'globex', 'REALIZATION_FAILED', 'DOWN'),
          edge(4, 'initech-edge-01', 'initech', 'REALIZED', 'DEGRADED'),
        ]
      : scenario === 'hostile'
        ? HOSTILE_NAMES.map(([name], i) => edge(100 + i, name, tenant, i % 2 === 0 ? 'REALIZATION_FAILED' : 'REALIZED'))
        : [edge(1, `${tenant}-edge-01`, tenant, 'REALIZED')];
  const bulk: SimEdge[] = [];
  for (let n = 0; n < extra; n++)
    bulk.push(edge(100_000 + n, `bulk-edge-${String(n).padStart(6, '0')}`, tenant, n % 100 === 0 ? 'REALIZATION_FAILED' : 'REALIZED'));
  return [...base, ...bulk];
}

/** One edge as the CloudAPI writes it. */
function cloudApiEdge(e: SimEdge): Record<string, unknown> {
  return {
    status: e.status,
    id: `urn:vcloud:gateway:${e.id}`,
    name: e.name,
    description: '',
    edgeGatewayUplinks: [{ uplinkId: 'urn:vcloud:network:5f3c0c8a-1b2d-4e3f-8a9b-0c1d2e3f4a5b', uplinkName: 'provider-gw', connected: true, dedicated: false }],
    distributedRoutingEnabled: false,
    orgVdcNetworkCount: 2,
    orgVdc: { name: e.vdc, id: 'urn:vcloud:vdc:7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f' },
    ownerRef: { name: e.vdc, id: 'urn:vcloud:vdc:7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f' },
    orgRef: { name: e.org, id: 'urn:vcloud:org:a0b1c2d3-e4f5-4a6b-9c7d-8e9f0a1b2c3d' },
  };
}

/**
 * A CloudAPI page of `items`, each written by `write`; `endless` makes every page claim one more
 * after it, as a server whose list never ends would.
 */
export function cloudApiPage<T>(items: readonly T[], page: number, pageSize: number, endless: boolean, write: (item: T) => Record<string, unknown>): string {
  const pageCount = endless ? page + 1 : Math.max(1, Math.ceil(items.length / pageSize));
  const slice = endless ? items.slice(0, pageSize) : items.slice((page - 1) * pageSize, page * pageSize);
  return JSON.stringify({
    resultTotal: endless ? pageCount * pageSize : items.length,
    pageCount,
    page,
    pageSize,
    associations: null,
    values: slice.map(write),
  });
}

/** A CloudAPI page of edges. */
export function cloudApiEdgesPage(edges: readonly SimEdge[], page: number, pageSize: number, endless: boolean): string {
  return cloudApiPage(edges, page, pageSize, endless, cloudApiEdge);
}

/** The gatewayStatus of the record: READY when realised, else NOT_READY. */
const gatewayStatus = (e: SimEdge) => (e.status === 'REALIZED' ? 'READY' : e.status === 'REALIZATION_FAILED' ? 'FAILED' : 'NOT_READY');

/** The edges as EdgeGatewayRecord rows. */
export function edgeRows(edges: readonly SimEdge[], base: string): QueryRow[] {
  return edges.map((e) => {
    const values = (): Record<string, string> => ({
      gatewayStatus: gatewayStatus(e),
      haStatus: e.ha,
      isBusy: String(e.status === 'CONFIGURING' || e.status === 'PENDING'),
      name: e.name,
      numberOfExtNetworks: '1',
      numberOfOrgNetworks: '2',
      orgName: e.org,
      orgVdcName: e.vdc,
      vdc: `${base}/api/vdc/7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f`,
      href: `${base}/api/admin/edgeGateway/${e.id}`,
    });
    return {
      name: e.name,
      id: e.id,
      attr: (a) => values()[a],
      element: 'EdgeGatewayRecord',
      get xml() {
        return Object.entries(values());
      },
      get json() {
        return { _type: 'QueryResultEdgeGatewayRecordType', ...values() };
      },
    };
  });
}

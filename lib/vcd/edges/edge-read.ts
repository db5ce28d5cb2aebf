// The edge gateways an account sees: the CloudAPI list (GET /cloudapi/1.0.0/edgeGateways, API
// 34.0 and later, each with its `status`: PENDING, CONFIGURING, REALIZED, REALIZATION_FAILED,
// UNKNOWN), or where the server has none or sends no status, the query service's edgeGateway
// records (EdgeGatewayRecord: gatewayStatus, haStatus, isBusy, and from API 38.0 orgName).
import { blankControlCharacters } from '../../plugin/control-characters';
import { CheckError } from '../../plugin/errors';
import { boundedExcerpt } from '../../plugin/server-text';
import { withVcdSession, type SessionRequest } from '../api/session';
import { cloudApiAllPages } from '../api/cloudapi-pages';
import type { VcdConnection } from '../api/connection';
import { detached, MAX_NAME_CHARS, PAGE_SIZE, streamAllPages } from '../api/query-pages';
import type { SessionReader } from '../api/session-reads';
import type { XmlElement } from '../api/xml';
import { uuidAfter, uuidOfUrn } from '../api/ids';

/** One edge gateway as read. A field the answer does not send is undefined (or '' for names). */
export interface EdgeGateway {
  /** Its UUID (lower case). */
  id: string;
  name: string;
  /** Its organisation's name ('' when not sent). */
  org: string;
  /** Its VDC's (or VDC group's) name ('' when not sent). */
  vdc: string;
  /** CloudAPI `status` or the record's `gatewayStatus`, upper case. */
  status?: string;
  busy: boolean;
  /** The record's haStatus, upper case (the CloudAPI has none). */
  ha?: string;
  /** Where it was read. */
  source: 'cloudapi' | 'query';
}

/** More edge gateways than any cloud has: the answer is refused beyond. */
export const MAX_EDGES = 100_000;

const name = (value: unknown): string =>
  typeof value === 'string' ? detached(blankControlCharacters(value.length > MAX_NAME_CHARS ? `${value.slice(0, MAX_NAME_CHARS)}…` : value).trim()) : '';
const word = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? name(value).toUpperCase().slice(0, 40) : undefined);
const refName = (ref: unknown): string => (ref !== null && typeof ref === 'object' ? name((ref as { name?: unknown }).name) : '');

/** One value of the CloudAPI list (EdgeGateway), or undefined when it has no gateway id. */
export function edgeFromCloudApi(v: Record<string, unknown>): EdgeGateway | undefined {
  const id = uuidOfUrn(v.id, 'gateway');
  if (id === undefined) return undefined;
  const status = word(v.status);
  return {
    id: id.toLowerCase(),
    name: name(v.name),
    org: refName(v.orgRef),
    vdc: refName(v.ownerRef) || refName(v.orgVdc),
    ...(status === undefined ? {} : { status }),
    busy: status === 'PENDING' || status === 'CONFIGURING',
    source: 'cloudapi',
  };
}

/** One EdgeGatewayRecord of the query service. */
export function edgeFromRecord(element: XmlElement, what: string): EdgeGateway {
  const a = element.attributes;
  const id = uuidAfter(a.href, 'edgeGateway');
  if (id === undefined)
    throw new CheckError(`unexpected ${what}: an ${element.local} without an edge gateway href (${JSON.stringify(boundedExcerpt(a.href ?? '', 120))})`);
  const status = word(a.gatewayStatus);
  const ha = word(a.haStatus);
  return {
    id: id.toLowerCase(),
    name: name(a.name),
    org: name(a.orgName),
    vdc: name(a.orgVdcName),
    ...(status === undefined ? {} : { status }),
    busy: a.isBusy === 'true',
    ...(ha === undefined ? {} : { ha }),
    source: 'query',
  };
}

const NARROW = 'narrow it with --tenant-org or --edge';

/** The CloudAPI list, or `absent`. */
function readCloudApiEdges(conn: VcdConnection, get: SessionReader, org?: string): Promise<EdgeGateway[] | 'absent'> {
  const filter = org === undefined ? '' : `?filter=${encodeURIComponent(`orgRef.name==${org.replace(/[;,()=]/g, '*')}`)}`;
  return cloudApiAllPages(conn, get, `/cloudapi/1.0.0/edgeGateways${filter}`, {
    max: MAX_EDGES,
    noun: 'edge gateways',
    narrow: NARROW,
    refused: "the account needs the right to view its organisation's edge gateways (Gateway: View), or a System account for every organisation's",
    take: (v) => edgeFromCloudApi(v),
  });
}

/** The query service's edgeGateway records. */
async function readQueryEdges(conn: VcdConnection, get: SessionReader): Promise<EdgeGateway[]> {
  const edges: EdgeGateway[] = [];
  await streamAllPages(
    conn,
    get,
    `/api/query?type=edgeGateway&format=records&pageSize=${PAGE_SIZE}`,
    {
      recordNames: ['EdgeGatewayRecord'],
      record: edgeFromRecord,
      max: MAX_EDGES,
      noun: 'edge gateways',
      list: 'the edge gateways',
      narrow: NARROW,
      refused: "the account needs the right to view its organisation's edge gateways (Gateway: View)",
    },
    (e) => edges.push(e),
  );
  return edges;
}

/** Where the edges were read from, for -v. */
export interface EdgeReading {
  edges: EdgeGateway[];
  source: string;
}

/**
 * The edge gateways the account sees (with `org`, of that organisation): the CloudAPI list, or
 * the query service's where the server has no such list or sends no status in it.
 */
export async function readEdges(req: SessionRequest, org?: string): Promise<EdgeReading> {
  return withVcdSession(req, async (get) => {
    const cloud = await readCloudApiEdges(req.conn, get, org);
    const inOrg = (edges: EdgeGateway[]) => (org === undefined ? edges : edges.filter((e) => e.org.toLowerCase() === org.toLowerCase()));
    if (cloud !== 'absent' && (cloud.length === 0 || cloud.some((e) => e.status !== undefined)))
      return { edges: inOrg(cloud), source: `CloudAPI edgeGateways (API ${req.conn.apiVersion})` };
    const why = cloud === 'absent' ? 'no CloudAPI edgeGateways' : 'no status in the CloudAPI list';
    return { edges: inOrg(await readQueryEdges(req.conn, get)), source: `query service edgeGateway records (${why})` };
  });
}

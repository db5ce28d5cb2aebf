// What Cloud Director stands on, as a System account reads it: the vCenter servers it knows (the
// CloudAPI list GET /cloudapi/1.0.0/virtualCenters, API 36.0 and later: VCenterServer with
// isConnected, listenerState, clusterHealthStatus, isEnabled, vcVersion; where the server has no
// such list, the query service's virtualCenter records: listenerState, isEnabled, vcVersion) and
// its datastores (the query service's datastore records: storageMB, storageUsedMB,
// provisionedStorageMB, requestedStorageMB, isEnabled, isDeleted, vcName, datastoreType). Every
// field is optional: one that is not sent costs that figure, never the check.
import { blankControlCharacters } from '../../plugin/control-characters';
import { CheckError } from '../../plugin/errors';
import { boundedExcerpt } from '../../plugin/server-text';
import { cloudApiAllPages } from '../api/cloudapi-pages';
import type { VcdConnection } from '../api/connection';
import { detached, MAX_NAME_CHARS, PAGE_SIZE, streamAllPages } from '../api/query-pages';
import type { SessionReader } from '../api/session-reads';
import { withVcdSession, type SessionRequest } from '../api/session';
import type { XmlElement } from '../api/xml';
import { uuidAfter, uuidOfUrn } from '../api/ids';

/** One vCenter server as read. A field the answer does not send is undefined. */
export interface VCenter {
  /** Its UUID (lower case), or its name where the answer gives no id. */
  id: string;
  name: string;
  enabled?: boolean;
  connected?: boolean;
  /** CONNECTED, DISCONNECTED, CONNECTING, RECONNECTING, …, upper case. */
  listener?: string;
  /** GRAY, RED, YELLOW, GREEN (CloudAPI only). */
  health?: string;
  version?: string;
}

/** One datastore as read. Units as the record's: MB. */
export interface Datastore {
  /** Its UUID (from its href), lower case. */
  id: string;
  name: string;
  /** The name of its vCenter ('' when not sent). */
  vc: string;
  /** VMFS5, NFS, VSAN, … ('' when not sent). */
  type: string;
  enabled?: boolean;
  capacityMB?: number;
  usedMB?: number;
  /** provisionedStorageMB, else requestedStorageMB. */
  provisionedMB?: number;
  /** Attributes sent that were no number: said, and unknown. */
  odd: readonly string[];
}

/** More vCenters than any vCD holds: the answer is refused beyond. */
export const MAX_VCENTERS = 10_000;
/** More datastores than any vCD holds: a page of 100,000 is read and judged. */
export const MAX_DATASTORES = 100_000;

const name = (value: unknown): string =>
  typeof value === 'string' ? detached(blankControlCharacters(value.length > MAX_NAME_CHARS ? `${value.slice(0, MAX_NAME_CHARS)}…` : value).trim()) : '';
const word = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? name(value).toUpperCase().slice(0, 40) : undefined);
const flag = (value: unknown): boolean | undefined => (value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined);
const version = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? name(value).slice(0, 60) : undefined);

/** Writes the defined fields only: an absent one stays absent. */
function defined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;
}

/** One value of the CloudAPI list (VCenterServer), or undefined when it has neither id nor name. */
export function vcenterFromCloudApi(v: Record<string, unknown>): VCenter | undefined {
  const id = uuidOfUrn(v.vcId, 'vimserver')?.toLowerCase();
  const n = name(v.name);
  if (id === undefined && n === '') return undefined;
  return defined({
    id: id ?? n,
    name: n || (id ?? ''),
    enabled: flag(v.isEnabled),
    connected: flag(v.isConnected),
    listener: word(v.listenerState),
    health: word(v.clusterHealthStatus),
    version: version(v.vcVersion),
  });
}

/** One VirtualCenterRecord of the query service (no isConnected, no clusterHealthStatus). */
export function vcenterFromRecord(element: XmlElement): VCenter {
  const a = element.attributes;
  const id = uuidAfter(a.href, 'vimServer')?.toLowerCase();
  const n = name(a.name);
  return defined({
    id: id ?? n,
    name: n || (id ?? ''),
    enabled: flag(a.isEnabled),
    listener: word(a.listenerState),
    version: version(a.vcVersion),
  });
}

/** A whole, non-negative figure of a record, or undefined (missing, or no number: then noted in `odd`). */
function figure(a: Record<string, string>, key: string, odd: string[]): number | undefined {
  const text = a[key];
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\s*\d{1,15}(\.\d{1,6})?\s*$/.test(text)) return Number(text);
  odd.push(`${key} ${JSON.stringify(boundedExcerpt(name(text), 40))}`);
  return undefined;
}

const NONE: readonly string[] = Object.freeze([]);

/** One DatastoreRecord of the query service, or undefined for a deleted datastore. */
export function datastoreFromRecord(element: XmlElement, what: string): Datastore | undefined {
  const a = element.attributes;
  const id = uuidAfter(a.href, 'datastore')?.toLowerCase();
  if (id === undefined)
    throw new CheckError(`unexpected ${what}: a ${element.local} without a datastore href (${JSON.stringify(boundedExcerpt(name(a.href ?? ''), 120))})`);
  if (flag(a.isDeleted) === true) return undefined;
  const odd: string[] = [];
  const provisioned = figure(a, 'provisionedStorageMB', odd) ?? figure(a, 'requestedStorageMB', odd);
  return defined({
    id,
    name: name(a.name) || id,
    vc: name(a.vcName),
    type: word(a.datastoreType) ?? '',
    enabled: flag(a.isEnabled),
    capacityMB: figure(a, 'storageMB', odd),
    usedMB: figure(a, 'storageUsedMB', odd),
    provisionedMB: provisioned,
    odd: odd.length === 0 ? NONE : odd,
  });
}

const REFUSED = 'the account needs a System role that may view vCenter servers and datastores (System Administrator, or a provider role with vCenter: View)';

/** The vCenters: the CloudAPI list, or the query service's records where the server has none. */
async function readVCenters(conn: VcdConnection, get: SessionReader): Promise<{ vcenters: VCenter[]; source: string }> {
  const cloud = await cloudApiAllPages(conn, get, '/cloudapi/1.0.0/virtualCenters', {
    max: MAX_VCENTERS,
    noun: 'vCenter servers',
    narrow: 'check --url (is this a Cloud Director?)',
    refused: REFUSED,
    take: (v) => vcenterFromCloudApi(v),
  });
  if (cloud !== 'absent') return { vcenters: cloud, source: `CloudAPI virtualCenters (API ${conn.apiVersion})` };
  const vcenters: VCenter[] = [];
  await streamAllPages(
    conn,
    get,
    `/api/query?type=virtualCenter&format=records&pageSize=${PAGE_SIZE}`,
    {
      recordNames: ['VirtualCenterRecord'],
      record: (e) => vcenterFromRecord(e),
      max: MAX_VCENTERS,
      noun: 'vCenter servers',
      list: 'the vCenter servers',
      narrow: 'check --url (is this a Cloud Director?)',
      refused: REFUSED,
    },
    (v) => vcenters.push(v),
  );
  return { vcenters, source: 'query service virtualCenter records (no CloudAPI virtualCenters)' };
}

/** The datastores, read as the pages arrive. */
async function readDatastores(conn: VcdConnection, get: SessionReader): Promise<Datastore[]> {
  const datastores: Datastore[] = [];
  await streamAllPages(
    conn,
    get,
    `/api/query?type=datastore&format=records&pageSize=${PAGE_SIZE}`,
    {
      recordNames: ['DatastoreRecord'],
      record: datastoreFromRecord,
      max: MAX_DATASTORES,
      noun: 'datastores',
      list: 'the datastores',
      narrow: 'narrow it with --vcenter or --datastore',
      refused: REFUSED,
    },
    (d) => {
      if (d !== undefined) datastores.push(d);
    },
  );
  return datastores;
}

/** What was read, and from where (for -v). */
export interface BackendReading {
  vcenters: VCenter[];
  datastores: Datastore[];
  source: string;
}

/** The vCenters (unless `vcenters` is false: a --datastore check needs none) and the datastores, in one session. */
export async function readBackends(req: SessionRequest, wanted: { vcenters: boolean; datastores: boolean }): Promise<BackendReading> {
  return withVcdSession(req, async (get) => {
    const vc = wanted.vcenters ? await readVCenters(req.conn, get) : { vcenters: [], source: '' };
    const datastores = wanted.datastores ? await readDatastores(req.conn, get) : [];
    return { vcenters: vc.vcenters, datastores, source: [vc.source, wanted.datastores ? 'query service datastore records' : ''].filter(Boolean).join(', ') };
  });
}

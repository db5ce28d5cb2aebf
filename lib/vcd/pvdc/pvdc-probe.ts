// check_pvdc's reads in one session: every provider VDC (one query), every provider storage
// policy (one query), and only for --basis reserved each chosen provider VDC's document.
import { CheckError } from '../../plugin/errors';
import { boundedExcerpt } from '../../plugin/server-text';
import { withVcdSession, type SessionRequest } from '../api/session';
import type { SessionReader } from '../api/session-reads';
import { describeResponse } from '../api/connection';
import { principal } from '../api/login';
import {
  parseProviderVdcMetrics,
  parseProviderVdcReservations,
  providerVdcDocumentPath,
  providerVdcMetricsPath,
  type ProviderVdcReservations,
  type Reservation,
} from './pvdc-capacity';
import { queryProviderStoragePolicies, queryProviderVdcs, type ProviderStoragePolicyRecord, type ProviderVdcRecord } from './pvdc-query';
import type { ObjectTarget } from '../api/ids';

/** The provider VDC of --pvdc: by its UUID, or by name. */
export type PvdcTarget = ObjectTarget;

/** What is judged against capacity: the API's used, allocated or reserved figures. */
export type Basis = 'used' | 'allocated' | 'reserved';

/** One provider VDC as read: its record, its storage policies, and (--basis reserved) its reservations or why they are unknown. */
export interface PvdcReading {
  pvdc: ProviderVdcRecord;
  policies: readonly ProviderStoragePolicyRecord[];
  reservations?: ProviderVdcReservations | { error: string };
}

/** Provider VDCs named in a message at most. */
const NAMED_AT_MOST = 20;

/** The provider VDCs --pvdc names (all without it): exact name first, then ignoring case; an unknown one names those that exist. */
export function selectProviderVdcs(
  records: readonly ProviderVdcRecord[],
  target: PvdcTarget | undefined,
  where: { account: string; origin: string },
): ProviderVdcRecord[] {
  // A provider VDC listed twice (a page shifted while read) counts once, as last listed, where first listed.
  const byId = new Map<string, ProviderVdcRecord>();
  for (const r of records) byId.set(r.id, r);
  const unique = [...byId.values()];
  if (target === undefined) return unique;
  let found = target.kind === 'id' ? unique.filter((r) => r.id === target.id) : unique.filter((r) => r.name === target.name);
  if (found.length === 0 && target.kind === 'name') found = unique.filter((r) => r.name.toLowerCase() === target.name.toLowerCase());
  const asked = target.kind === 'id' ? `with id ${target.id}` : `named ${JSON.stringify(boundedExcerpt(target.name, 120))}`;
  if (found.length === 0) {
    const names = unique.slice(0, NAMED_AT_MOST).map((r) => `${JSON.stringify(r.name)} (${r.id})`);
    const more = unique.length > NAMED_AT_MOST ? ` … ${unique.length - NAMED_AT_MOST} more` : '';
    const known = unique.length === 0 ? 'it lists none' : `it lists ${names.join(', ')}${more}`;
    throw new CheckError(`no provider VDC ${asked} is visible to ${where.account} at ${where.origin}: ${known}; check --pvdc`);
  }
  if (found.length > 1) {
    const shown = found.slice(0, 10).map((r) => `${r.name} (${r.id})`);
    throw new CheckError(`${found.length} provider VDCs are ${asked}: ${shown.join(', ')}, give the provider VDC's id with --pvdc`);
  }
  return found;
}

/**
 * Reads the chosen provider VDCs in one session: the records, then (unless `recordsOnly`,
 * for discovery) the storage policies, and with --basis reserved each one's document. Records
 * are kept as they arrive, reduced to what is judged; a policy only when its provider VDC is
 * among those chosen.
 */
export async function readProviderVdcs(req: SessionRequest, target: PvdcTarget | undefined, basis: Basis, recordsOnly = false): Promise<PvdcReading[]> {
  const where = { account: principal(req.creds), origin: req.conn.base.origin };
  return withVcdSession(req, async (get) => {
    const records: ProviderVdcRecord[] = [];
    await queryProviderVdcs(req.conn, get, (r) => records.push(r));
    const pvdcs = selectProviderVdcs(records, target, where);
    records.length = 0;
    if (recordsOnly) return pvdcs.map((pvdc) => ({ pvdc, policies: [] }));
    // A provider VDC's first policy makes its array of one (an empty array that is pushed to
    // takes room for 17: some 150 bytes for each of 100,000 provider VDCs).
    const groups = new Map<string, ProviderStoragePolicyRecord[] | null>(pvdcs.map((pvdc) => [pvdc.id, null]));
    await queryProviderStoragePolicies(req.conn, get, (p) => {
      const group = groups.get(p.pvdcId);
      if (group === null) groups.set(p.pvdcId, [p]);
      else group?.push(p);
    });
    const readings: PvdcReading[] = pvdcs.map((pvdc) => ({ pvdc, policies: groups.get(pvdc.id) ?? [] }));
    if (basis !== 'reserved') return readings;
    for (const reading of readings) reading.reservations = await readReservations(req, get, reading.pvdc.id);
    return readings;
  });
}

/** Reads one document with the session: what it parses to, or why not. */
async function readDocument(
  req: SessionRequest,
  get: SessionReader,
  path: string,
  parse: (body: Buffer, what: string) => ProviderVdcReservations,
  what: string,
  accept?: () => string,
): Promise<ProviderVdcReservations | { error: string }> {
  const res = await get(path, accept);
  if (res.status < 200 || res.status >= 300) return { error: `its ${what} answered ${describeResponse(res)}` };
  try {
    return parse(res.body, `provider VDC ${what} from ${req.conn.base.origin}`);
  } catch (error) {
    if (!(error instanceof CheckError)) throw error;
    return { error: error.message };
  }
}

const hasReserved = (r: ProviderVdcReservations) => r.cpu.reserved !== undefined || r.memory.reserved !== undefined;

/** Each figure from the document, or where it has none from the metrics. */
function fill(document: Reservation, metrics: Reservation): Reservation {
  if (document.reserved !== undefined && document.total !== undefined) return document;
  return document.reserved !== undefined ? { reserved: document.reserved, total: metrics.total } : metrics;
}

/**
 * A provider VDC's reservations: the ComputeCapacity Reserved of its VMWProviderVdc document,
 * or, where the document gives none (or cannot be read), the CloudAPI provider VDC metrics.
 */
async function readReservations(req: SessionRequest, get: SessionReader, id: string): Promise<ProviderVdcReservations | { error: string }> {
  req.conn.setPhase(`reading the reservations of provider VDC ${id}`);
  const document = await readDocument(
    req,
    get,
    providerVdcDocumentPath(id),
    (body, what) => parseProviderVdcReservations(body.toString('utf8'), what),
    'document',
  );
  if ('cpu' in document && document.cpu.reserved !== undefined && document.memory.reserved !== undefined) return document;
  req.conn.setPhase(`reading the CloudAPI metrics of provider VDC ${id}`);
  const metrics = await readDocument(
    req,
    get,
    providerVdcMetricsPath(id),
    parseProviderVdcMetrics,
    'CloudAPI metrics',
    () => `application/json;version=${req.conn.apiVersion}`,
  );
  if (!('cpu' in metrics)) {
    if ('cpu' in document && hasReserved(document)) return document;
    return { error: 'cpu' in document ? `its document gives no Reserved and ${metrics.error}` : `${document.error}, and ${metrics.error}` };
  }
  if (!('cpu' in document)) return metrics;
  return { cpu: fill(document.cpu, metrics.cpu), memory: fill(document.memory, metrics.memory), odd: [...document.odd, ...metrics.odd] };
}

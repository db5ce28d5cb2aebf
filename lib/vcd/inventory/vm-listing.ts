// Which VMs an account sees, and through which queries: the one place that knows a tenant
// account (the `vm` query of its own organisation) from a provider one (System: `adminVM` over
// every organisation, with the organisations' names from the `organization` query).
import { CheckError } from '../../plugin/errors';
import type { VcdConnection } from '../api/connection';
import type { Credentials } from '../api/login';
import { queryAllPages, type PagedQuery } from '../api/query-pages';
import { vmScope, type VmScope } from '../api/scope';
import { withVcdSession, type SessionRequest } from '../api/session';
import type { SessionReader } from '../api/session-reads';
import { ORG_QUERY_PATH, parseOrgRecords, queryEachVmPage, queryPath, type OrgRecord, type VmAlternative, type VmRecord } from './vm-query';

const quote = (s: string) => JSON.stringify(s);

/** Organisations are few: far more than any provider has is no answer to keep. */
const MAX_ORGS = 20_000;

const ORG_QUERY: PagedQuery<OrgRecord> = {
  parse: parseOrgRecords,
  max: MAX_ORGS,
  noun: 'organisations',
  list: 'the organisation list',
  narrow: 'not a list to trust, check --url',
  refused: 'the System account needs a role that may view organisations (see docs/vcd.md, provider account)',
};

/** What a refused adminVM query means for a provider account. */
const ADMIN_VM_REFUSED = "the System account needs a role that may view every organisation's VMs (type=adminVM; see docs/vcd.md, provider account)";

/** The organisation named `name`: the exact name first, then ignoring case (vCD does at login). */
export function pickOrg(orgs: readonly OrgRecord[], name: string, origin: string): OrgRecord {
  const found = orgs.find((o) => o.name === name) ?? orgs.find((o) => o.name.toLowerCase() === name.toLowerCase());
  if (found) return found;
  const names = orgs.map((o) => o.name).filter((n) => n.toLowerCase() !== 'system');
  const shown = names.slice(0, 10).map(quote).join(', ') + (names.length > 10 ? ` … ${names.length - 10} more` : '');
  throw new CheckError(
    `no organisation named ${quote(name)} at ${origin}${names.length ? ` (it has ${shown})` : ''}, check --tenant-org: the organisation's name as in its tenant portal URL`,
  );
}

/** What a listing is narrowed to, besides the scope. */
export interface VmFilter {
  name?: string;
  vapp?: string;
  /** Any of these VMs (by id or name): several looked up in one query. */
  any?: readonly VmAlternative[];
  /** Keep the records' hygiene attributes (Tools, snapshots, leases) for the hygiene checks. */
  withHygiene?: boolean;
}

/** How the listing reads: the session's GET, the page counter, the record bound. */
export interface ListingRequest {
  conn: VcdConnection;
  creds: Credentials;
  get: SessionReader;
  scope: VmScope;
  maxVms?: number;
  onPage?: (n: number) => void;
}

/**
 * The VMs the account sees (templates too when the filter lets them through), each with its
 * organisation's name: a tenant's own organisation through `type=vm`; a provider's every (or
 * the --tenant-org) organisation through `type=adminVM`, named from `type=organization`.
 */
export async function listScopedVms(req: ListingRequest, filter: VmFilter): Promise<VmRecord[]> {
  const listed: VmRecord[] = [];
  await eachScopedVm(req, filter, (r) => listed.push(r));
  return listed;
}

/**
 * The VMs of listScopedVms handed to `take` one by one as their pages are read (only the
 * organisations are kept meanwhile); returns how many were handed on.
 */
export async function eachScopedVm(req: ListingRequest, filter: VmFilter, take: (record: VmRecord) => void): Promise<number> {
  const { conn, creds, get, scope } = req;
  let count = 0;
  if (!scope.provider) {
    await queryEachVmPage(
      conn,
      get,
      queryPath(filter, 'vm'),
      (records) => {
        for (const r of records) {
          r.org = creds.org;
          take(r);
          count++;
        }
      },
      req.onPage,
      req.maxVms,
      undefined,
      filter.withHygiene,
    );
    return count;
  }
  const orgs = await queryAllPages(conn, get, ORG_QUERY_PATH, ORG_QUERY);
  const names = new Map(orgs.map((o) => [o.id, o.name]));
  const only = scope.tenantOrg === undefined ? undefined : pickOrg(orgs, scope.tenantOrg, conn.base.origin);
  const orgHref = only && `${conn.base.origin}/api/org/${only.id}`;
  const take1 = (records: VmRecord[]) => {
    for (const r of records) {
      // A server that ignored the filter does not widen the listing.
      if (only && r.orgId !== undefined && r.orgId !== only.id) continue;
      r.org = only ? only.name : r.orgId === undefined ? '' : (names.get(r.orgId) ?? '');
      take(r);
      count++;
    }
  };
  await queryEachVmPage(conn, get, queryPath({ ...filter, orgHref }, 'adminVM'), take1, req.onPage, req.maxVms, ADMIN_VM_REFUSED, filter.withHygiene);
  return count;
}

/**
 * Every VM the account sees (templates included: the caller selects), each with its
 * organisation, read with an open session: a tenant's own organisation, a provider's every one
 * (or --tenant-org's) through the admin queries.
 */
export async function queryVmList(
  req: SessionRequest,
  get: SessionReader,
  filter: { vapp?: string; withHygiene?: boolean },
): Promise<{ records: VmRecord[]; pages: number }> {
  const records: VmRecord[] = [];
  const { pages } = await eachListedVm(req, get, filter, (r) => records.push(r));
  return { records, pages };
}

/** The VMs of queryVmList handed to `take` as their pages are read: how many, in how many pages. */
export async function eachListedVm(
  req: SessionRequest,
  get: SessionReader,
  filter: { vapp?: string; withHygiene?: boolean },
  take: (record: VmRecord) => void,
): Promise<{ records: number; pages: number }> {
  let pages = 0;
  const scope = req.scope ?? vmScope(req.creds, undefined);
  const listing = { conn: req.conn, creds: req.creds, get, scope, maxVms: req.maxVms, onPage: (n: number) => (pages = n) };
  const records = await eachScopedVm(listing, { vapp: filter.vapp, withHygiene: filter.withHygiene }, take);
  return { records, pages };
}

/** Every VM the account sees (templates included: the caller selects), through the query service. */
export async function listVms(req: SessionRequest, filter: { vapp?: string }): Promise<{ records: VmRecord[]; pages: number }> {
  return withVcdSession(req, (get) => queryVmList(req, get, filter));
}

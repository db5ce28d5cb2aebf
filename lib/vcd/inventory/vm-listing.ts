// Which VMs an account sees, and through which queries: the one place that knows a tenant
// account (the `vm` query of its own organisation) from a provider one (System: `adminVM` over
// every organisation, with the organisations' names from the `organization` query).
import { CheckError, UsageError } from '../../plugin/errors';
import type { VcdConnection } from '../api/connection';
import { isProvider, principal, type Credentials } from '../api/login';
import { queryAllPages, type PagedQuery } from '../api/query-pages';
import { MAX_NAME_CHARS, ORG_QUERY_PATH, parseOrgRecords, queryAllVms, queryPath, type OrgRecord, type SessionGet, type VmRecord } from './vm-query';

/** Whose VMs a listing covers: the account's organisation, or (provider) all or one of them. */
export interface VmScope {
  provider: boolean;
  /** --tenant-org: the one organisation a provider account lists. */
  tenantOrg?: string;
}

const quote = (s: string) => JSON.stringify(s);

/**
 * --tenant-org as given, checked against the account before any request (every plugin that
 * takes it): a name, and a provider account to narrow. `account` names the login in messages.
 */
export function checkTenantOrg(org: string | undefined, account: string, tenantOrg: string | undefined): string | undefined {
  if (tenantOrg === undefined) return undefined;
  if (tenantOrg.trim() === '' || tenantOrg.length > MAX_NAME_CHARS)
    throw new UsageError(`invalid --tenant-org ${quote(tenantOrg.slice(0, 60))}: give the name of an organisation`);
  if (org === undefined || !isProvider(org))
    throw new UsageError(
      `--tenant-org ${quote(tenantOrg)} needs a provider account: ${account} sees only its own organisation, drop --tenant-org, or log in as a System user (--org System)`,
    );
  return tenantOrg;
}

/** The scope of an account and --tenant-org, checked before any request. */
export function vmScope(creds: Credentials, tenantOrg: string | undefined): VmScope {
  const provider = isProvider(creds.org);
  const only = checkTenantOrg(creds.org, principal(creds), tenantOrg);
  return only === undefined ? { provider } : { provider, tenantOrg: only };
}

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
}

/** How the listing reads: the session's GET, the page counter, the record bound. */
export interface ListingRequest {
  conn: VcdConnection;
  creds: Credentials;
  get: SessionGet;
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
  const { conn, creds, get, scope } = req;
  if (!scope.provider) {
    const records = await queryAllVms(conn, get, queryPath(filter, 'vm'), req.onPage, req.maxVms);
    for (const r of records) r.org = creds.org;
    return records;
  }
  const orgs = await queryAllPages(conn, get, ORG_QUERY_PATH, ORG_QUERY);
  const names = new Map(orgs.map((o) => [o.id, o.name]));
  const only = scope.tenantOrg === undefined ? undefined : pickOrg(orgs, scope.tenantOrg, conn.base.origin);
  const orgHref = only && `${conn.base.origin}/api/org/${only.id}`;
  const records = await queryAllVms(conn, get, queryPath({ ...filter, orgHref }, 'adminVM'), req.onPage, req.maxVms, ADMIN_VM_REFUSED);
  const listed: VmRecord[] = [];
  for (const r of records) {
    // A server that ignored the filter does not widen the listing.
    if (only && r.orgId !== undefined && r.orgId !== only.id) continue;
    r.org = only ? only.name : r.orgId === undefined ? '' : (names.get(r.orgId) ?? '');
    listed.push(r);
  }
  return listed;
}

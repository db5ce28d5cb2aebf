// Whose objects an account's queries cover: a tenant account its own organisation, a provider
// account (System) every organisation, or the one --tenant-org names.
import { UsageError } from '../../plugin/errors';
import { isProvider, principal, type Credentials } from './login';
import { MAX_NAME_CHARS } from './query-pages';

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

import { CheckError } from '../../plugin/errors';
import type { VmRecord } from './vm-query';

/** A VM chosen by name: its record. */
export interface ResolvedVm {
  id: string;
  name: string;
  vapp: string;
  /** Its organisation (the account's, or for a provider account the VM's own). */
  org?: string;
}

const quote = (s: string) => JSON.stringify(s);

/**
 * The one VM (not a template) whose name is `name` (in vApp `vapp` when given): exact names
 * first, then the same name in another case (vCD compares names ignoring case). None, or
 * several, is one UNKNOWN that names them (and, for a provider account, their organisations):
 * a VM is never picked silently.
 */
export function pickVmByName(
  records: readonly VmRecord[],
  name: string,
  vapp: string | undefined,
  where: { account: string; origin: string; provider?: boolean },
): ResolvedVm {
  const candidates = records.filter((r) => !r.template && (vapp === undefined || r.vapp === vapp));
  let found = candidates.filter((r) => r.name === name);
  if (found.length === 0) found = candidates.filter((r) => r.name.toLowerCase() === name.toLowerCase());
  const inVapp = vapp === undefined ? '' : ` in vApp ${quote(vapp)}`;
  if (found.length === 0) {
    throw new CheckError(
      `no VM named ${quote(name)}${inVapp} is visible to ${where.account} at ${where.origin}, check the name as the tenant portal shows it${vapp === undefined ? '' : ' and --vapp'}, the account's org, or give the VM id (vm-<guid>)`,
    );
  }
  // The same record twice (a server paging while the list changes) is still one VM.
  const unique = [...new Map(found.map((r) => [r.id, r])).values()];
  const orgs = new Set(unique.map((r) => r.org ?? ''));
  if (where.provider && orgs.size > 1) {
    const byOrg = [...unique].sort((a, b) => ((a.org ?? '') + a.id < (b.org ?? '') + b.id ? -1 : 1));
    const shown = byOrg.slice(0, 10).map((r) => `org ${quote(r.org ?? '')} vApp ${quote(r.vapp)} (${r.id})`);
    const more = unique.length > 10 ? ` … ${unique.length - 10} more` : '';
    throw new CheckError(
      `${unique.length} VMs named ${quote(name)}${inVapp} in ${orgs.size} organisations: ${shown.join(', ')}${more}, add --tenant-org ORG, or give the VM id with --vm`,
    );
  }
  if (unique.length > 1) {
    const shown = unique.slice(0, 10).map((r) => `${r.name} in vApp ${quote(r.vapp)} (${r.id})`);
    const more = unique.length > 10 ? ` … ${unique.length - 10} more` : '';
    throw new CheckError(`${unique.length} VMs are named ${quote(name)}${inVapp}: ${shown.join(', ')}${more}, add --vapp NAME, or give the VM id with --vm`);
  }
  const r = unique[0];
  return { id: r.id, name: r.name, vapp: r.vapp, ...(r.org !== undefined ? { org: r.org } : {}) };
}

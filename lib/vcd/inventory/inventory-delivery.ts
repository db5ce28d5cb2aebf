// What --discovery hands on: the VMs listed and rendered, the connection the generated hosts
// name, and the inventory on stdout or in --discovery-file.
import { dirname, join } from 'node:path';
import type { Result } from '../../plugin/result';
import { State } from '../../plugin/state';
import type { SessionRequest } from '../api/session';
import { inventoryGroupOrgs, nagiosOrgGroups, orgGroupFileName, renderDiscovery, selectVms, type DiscoveryFormat, type DiscoverySource } from './discovery';
import { writeInventory } from './inventory-file';
import { nagiosVcdParentGroup, vcdParentFileName } from './vcd-parent';
import type { DiscoveryConfig, DiscoveryFiles, InventoryOutput } from './inventory-options';
import { listVms } from './vm-listing';

/** --discovery: lists the VMs and prints them in the chosen format (exit 0). */
export async function runDiscovery(command: string, config: DiscoveryConfig, req: SessionRequest): Promise<Result> {
  const { format, selection } = config;
  const { records, pages } = await listVms(req, { vapp: selection.vapp });
  const vms = selectVms(records, selection);
  req.log(`discovery: ${records.length} records in ${pages} page${pages === 1 ? '' : 's'}, ${vms.length} VMs after selection`);
  const source = discoverySource(command, config.files, req);
  const raw = renderDiscovery(format, vms, config.poweredOffState === undefined ? source : { ...source, poweredOffState: config.poweredOffState });
  return deliverInventory(raw, format, config.output, vms.length, 'VM', inventoryGroupOrgs(vms, source), source.url);
}

/** What the generated host definitions say of the connection: what the discovery itself used. */
export function discoverySource(command: string, files: DiscoveryFiles, req: SessionRequest): DiscoverySource {
  const { creds } = req;
  return {
    command,
    url: req.conn.base.origin,
    org: creds.org,
    tenantOrg: req.scope?.tenantOrg,
    user: creds.user,
    ...files,
    apiVersion: req.forcedVersion,
  };
}

/**
 * The discovery output on stdout, or written to --discovery-file (a one-line result then).
 * `groupOrgs` are the organisations whose Nagios host groups the hosts join (a provider
 * account): after the hosts on stdout; beside the file, one file per group, before it, so that
 * no host names a group its engine lacks (Icinga 2 inventories define their own). `vcdUrl`: the
 * vCD whose parent servicegroup a Nagios inventory's dependency names (vcd-parent.ts), written
 * the same way.
 */
export function deliverInventory(
  raw: string,
  format: DiscoveryFormat,
  output: InventoryOutput,
  count: number,
  noun: string,
  groupOrgs: readonly string[],
  vcdUrl: string,
): Result {
  const path = output.file;
  const groups = format === 'nagios' ? groupOrgs : [];
  const parent = format === 'nagios' ? vcdUrl : undefined;
  if (path === undefined)
    return { state: State.OK, summary: '', raw: raw + nagiosOrgGroups(groups) + (parent === undefined ? '' : `\n${nagiosVcdParentGroup(parent)}`) };
  for (const org of groups) writeInventory(join(dirname(path), orgGroupFileName(org)), format, nagiosOrgGroups([org]).slice(1), true);
  if (parent !== undefined) writeInventory(join(dirname(path), vcdParentFileName(parent)), format, nagiosVcdParentGroup(parent), true);
  const written = writeInventory(path, format, raw, output.allowShrink, noun);
  const was = written.previous === undefined ? 'new file' : `was ${written.previous}`;
  return {
    state: State.OK,
    summary: `${count} ${noun}${count === 1 ? '' : 's'} in ${path} (${written.changed ? `written, ${was}` : 'unchanged, not touched'})`,
  };
}

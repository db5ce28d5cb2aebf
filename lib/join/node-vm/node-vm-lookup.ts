// Failing nodes to their VMs: one query of the query service names every VM looked for (by the
// node's provider id, else by its names), then each running VM's current metrics are read,
// all in one session of the VM checks' kind (cached across runs).
import type { RunContext } from '../../plugin/context';
import { CheckError } from '../../plugin/errors';
import { principal } from '../../vcd/api/login';
import { withVcdSession, type OpenSession } from '../../vcd/api/session';
import { openVcdSession, type OpenedSession } from '../../vcd/api/session-request';
import { listScopedVms } from '../../vcd/inventory/vm-listing';
import { pickVmByName } from '../../vcd/inventory/vm-name';
import type { VmAlternative, VmRecord } from '../../vcd/inventory/vm-query';
import { parseCurrentUsage } from '../../vcd/vm/metrics';
import { parseVmTarget } from '../../vcd/vm/vm-id';
import { readMetrics } from '../../vcd/vm/vm-metrics';
import { notRunning } from '../../vcd/vm/vm-record';
import type { NodeVmConfig } from './node-vm-config';

/** A failing node as the lookup sees it: its names and where its machine is. */
export interface NodeMachine {
  name: string;
  /** spec.providerID. */
  providerID?: string;
  /** The kubernetes.io/hostname label. */
  hostLabel?: string;
}

/** What vCD says of one node's VM. */
export type NodeVmFact =
  | {
      kind: 'vm';
      id: string;
      name: string;
      /** `powered off`, `suspended`, `running`, or vCD's own status word. */
      power: string;
      /** cpu.usage.average and mem.usage.average (%) of a running VM, when vCD gave them. */
      cpu?: number;
      mem?: number;
      /** Why a running VM's metrics are missing. */
      problem?: string;
    }
  | { kind: 'none'; how: string };

const PREFIX = /^vmware-cloud-director:\/\//i;

/**
 * The VM id (`vm-<guid>`) a providerID names: `vmware-cloud-director://urn:vcloud:vm:<uuid>`
 * as the Cloud Director cloud provider and the Cluster API provider set it (any case), or a
 * bare uuid; undefined for any other provider's id.
 */
export function vmIdOfProvider(providerID: string | undefined): string | undefined {
  if (providerID === undefined) return undefined;
  const text = providerID.trim();
  const rest = text.replace(PREFIX, '');
  // Without the scheme only the id forms are taken: another provider's id is no VM name.
  if (rest === text && !/^(urn:vcloud:vm:|vm-)?[0-9a-f-]{36}$/i.test(text)) return undefined;
  try {
    const target = parseVmTarget(rest);
    return target.kind === 'id' ? target.id : undefined;
  } catch {
    return undefined;
  }
}

/** The names a node's VM may have: the node's, then its hostname label's. */
function namesOf(node: NodeMachine): string[] {
  return [...new Set([node.name, ...(node.hostLabel !== undefined ? [node.hostLabel] : [])])];
}

const quote = (s: string) => JSON.stringify(s);
const WANTED = new Set(['cpu.usage.average', 'mem.usage.average']);

/** The VM facts of each node (by name), read in one session of `context` (whose deadline bounds it). */
export async function lookUpNodeVms(config: NodeVmConfig, nodes: readonly NodeMachine[], context: RunContext): Promise<Map<string, NodeVmFact>> {
  const session = openVcdSession(config.session, context);
  const facts = await withVcdSession(session, async (_get, open) => {
    const wanted = nodes.map((node) => ({ node, id: vmIdOfProvider(node.providerID), names: namesOf(node) }));
    const any = wanted.flatMap((w): VmAlternative[] => (w.id !== undefined ? [{ id: w.id }] : w.names.map((name) => ({ name, vapp: config.vapp }))));
    context.setPhase(`looking up the VMs of ${nodes.length} failing node${nodes.length === 1 ? '' : 's'} at ${session.conn.base.origin}`);
    const records = await listScopedVms(
      { conn: session.conn, creds: session.creds, get: (p) => open.get(p), scope: session.scope, maxVms: session.maxVms },
      { any },
    );
    const found = await Promise.all(wanted.map(async (w) => [w.node.name, await factOf(w, records, config, session, open)] as const));
    return new Map(found);
  });
  for (const n of [...(session.cache?.notes ?? []), ...session.facts]) context.notes.add(n);
  return facts;
}

/** One node's VM among the records, and its metrics when it runs. */
async function factOf(
  w: { node: NodeMachine; id?: string; names: string[] },
  records: readonly VmRecord[],
  config: NodeVmConfig,
  session: OpenedSession,
  open: OpenSession,
): Promise<NodeVmFact> {
  const account = principal(session.creds);
  let record: VmRecord | undefined;
  if (w.id !== undefined) {
    record = records.find((r) => r.id === w.id && !r.template);
    if (!record) return { kind: 'none', how: `spec.providerID names ${w.id}, which ${account} does not see` };
  } else {
    const inVapp = config.vapp === undefined ? '' : ` in vApp ${quote(config.vapp)}`;
    const name = w.names.find((n) =>
      records.some((r) => !r.template && r.name.toLowerCase() === n.toLowerCase() && (config.vapp === undefined || r.vapp === config.vapp)),
    );
    const how = `no vCD providerID; no VM named ${w.names.map(quote).join(' or ')}${inVapp} visible to ${account}`;
    if (name === undefined) return { kind: 'none', how };
    try {
      const vm = pickVmByName(records, name, config.vapp, { account, origin: session.conn.base.origin, provider: session.scope.provider });
      record = records.find((r) => r.id === vm.id);
    } catch (error) {
      if (!(error instanceof CheckError)) throw error;
      return { kind: 'none', how: error.message };
    }
    if (!record) return { kind: 'none', how };
  }
  const off = notRunning({ statusName: record.status });
  const base = { kind: 'vm' as const, id: record.id, name: record.name };
  if (off !== undefined) return { ...base, power: off };
  if (record.status !== 'POWERED_ON') return { ...base, power: record.status };
  try {
    const answer = await readMetrics(session, { id: record.id, name: record.name }, (p, phase) => open.get(p, phase), 'current');
    if (answer.kind === 'refused') return { ...base, power: 'running', problem: `current metrics refused (${answer.detail})` };
    const usage = parseCurrentUsage(answer.body, `current metrics of ${record.id}`, WANTED);
    return { ...base, power: 'running', cpu: usage.get('cpu.usage.average')?.value, mem: usage.get('mem.usage.average')?.value };
  } catch (error) {
    if (!(error instanceof CheckError)) throw error;
    return { ...base, power: 'running', problem: error.message };
  }
}

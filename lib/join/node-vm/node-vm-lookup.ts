// Failing nodes to their VMs: one query of the query service names every VM looked for (by the
// node's provider id, else by its names), then each running VM's current metrics are read,
// all in one frame of the VM checks' kind (the session cached across runs), through the per-VM
// seam: the VMs listed and named as --vm NAME is, each VM's metrics read as a VM check reads them.
import type { RunContext } from '../../plugin/context';
import { CheckError } from '../../plugin/errors';
import { UUID } from '../../vcd/api/ids';
import { principal } from '../../vcd/api/login';
import { withVcdSession, type OpenSession } from '../../vcd/api/session';
import type { OpenedSession } from '../../vcd/api/session-request';
import { openVcdFrame } from '../../vcd/frame/vcd-frame';
import type { VmAlternative, VmRecord } from '../../vcd/inventory/vm-query';
import { parseCurrentUsage } from '../../vcd/vm/metrics';
import { parseVmTarget } from '../../vcd/vm/vm-id';
import { readMetrics } from '../../vcd/vm/vm-metrics';
import { notRunning } from '../../vcd/vm/vm-record';
import { listVmsInSession, vmInSession, vmNamed } from '../../vcd/vm/vm-session';
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
  if (rest === text && !new RegExp(`^(urn:vcloud:vm:|vm-)?${UUID}$`, 'i').test(text)) return undefined;
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
  const frame = openVcdFrame({ session: config.session }, context);
  const { session } = frame;
  const facts = await withVcdSession(session, async (_get, open) => {
    const wanted = nodes.map((node) => ({ node, id: vmIdOfProvider(node.providerID), names: namesOf(node) }));
    const any = wanted.flatMap((w): VmAlternative[] => (w.id !== undefined ? [{ id: w.id }] : w.names.map((name) => ({ name, vapp: config.vapp }))));
    context.setPhase(`looking up the VMs of ${nodes.length} failing node${nodes.length === 1 ? '' : 's'} at ${session.conn.base.origin}`);
    const records = await listVmsInSession(session, open, { any });
    const found = await Promise.all(wanted.map(async (w) => [w.node.name, await factOf(w, records, config, session, open)] as const));
    return new Map(found);
  });
  frame.note();
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
      const vm = vmNamed(session, records, name, config.vapp);
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
    const { vm, get } = vmInSession(session, open, { id: record.id, name: record.name });
    const answer = await readMetrics(session, vm, get, 'current');
    if (answer.kind === 'refused') return { ...base, power: 'running', problem: `current metrics refused (${answer.detail})` };
    const usage = parseCurrentUsage(answer.body, `current metrics of ${record.id}`, WANTED);
    return { ...base, power: 'running', cpu: usage.get('cpu.usage.average')?.value, mem: usage.get('mem.usage.average')?.value };
  } catch (error) {
    if (!(error instanceof CheckError)) throw error;
    return { ...base, power: 'running', problem: error.message };
  }
}

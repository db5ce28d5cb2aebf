// The three hygiene services as one shape: given a VM's query record (and a GET for the one
// section it may need), a result. check_vm_snapshot, check_vm_tools and check_vm_lease each run
// one for their VM; check_vm_fleet runs them for every VM, so that each of its services is
// exactly what the single check prints.
import type { Result } from '../../plugin/result';
import type { State } from '../../plugin/state';
import { readLeases, readSnapshots, type HygieneSubject, type LeaseSectionCache } from './hygiene-probe';
import type { SessionGet } from '../api/session-reads';
import { judgeLeases, type LeaseThresholds } from './lease-judge';
import { judgeSnapshots, type SnapshotThresholds } from './snapshot-judge';
import { judgeTools, type ToolsPolicy } from './tools-judge';

/** The services' names, as --services and every engine's service names (`vm-snapshot`) say them. */
export const HYGIENE_SERVICES = ['snapshot', 'tools', 'lease'] as const;
export type HygieneServiceName = (typeof HYGIENE_SERVICES)[number];

/** A VM as a service judges it: its id and record, its status (POWERED_ON, ...) and how results name it. */
export interface HygieneVm extends HygieneSubject {
  status: string;
  label: string;
  /**
   * This VM's own powered-off state (the fleet's --inventory host), over the policy's
   * --powered-off-state. Only Tools take it: snapshots and leases are judged whatever the power state.
   */
  poweredOff?: State;
}

/** One hygiene service, its options already made into thresholds. */
export interface HygieneService {
  name: HygieneServiceName;
  /** The first word of the plugin's status line. */
  label: 'VM_SNAPSHOT' | 'VM_TOOLS' | 'VM_LEASE';
  /** Reads what the record does not say (at most one request) and judges it at `now` (ms). */
  judge(vm: HygieneVm, get: SessionGet, now: number): Promise<Result>;
}

/** Snapshots: no request when the record says there is none, else the VM's SnapshotSection. */
export function snapshotService(thresholds: SnapshotThresholds): HygieneService {
  return {
    name: 'snapshot',
    label: 'VM_SNAPSHOT',
    judge: async (vm, get, now) => judgeSnapshots(await readSnapshots(get, vm), thresholds, vm.label, now),
  };
}

/** Tools: from the record alone, a powered-off VM in its own powered-off state where it has one. */
export function toolsService(policy: ToolsPolicy): HygieneService {
  return {
    name: 'tools',
    label: 'VM_TOOLS',
    judge: async (vm) => judgeTools(vm.status, vm.hygiene, vm.poweredOff === undefined ? policy : { ...policy, poweredOff: vm.poweredOff }, vm.label),
  };
}

/** Leases: from the record's dates, else the vApp's LeaseSettingsSection, read once per vApp through `cache`. */
export function leaseService(thresholds: LeaseThresholds, cache: LeaseSectionCache = new Map()): HygieneService {
  return {
    name: 'lease',
    label: 'VM_LEASE',
    judge: async (vm, get, now) => judgeLeases(await readLeases(get, vm, cache), thresholds, vm.label, now),
  };
}

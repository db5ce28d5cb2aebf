// check_vdc's judgement: each VDC's CPU, memory and per-policy storage use as a percentage of
// its limits (a limit of 0 is unlimited: reported, never divided by, never judged), its state
// (disabled or not ready is CRITICAL) and its VMs in failed or unknown states (WARNING).
import { formatBytes, formatDecimal } from '../../plugin/number-format';
import type { Metric } from '../../plugin/perfdata';
import { PerfdataLabels } from '../../plugin/perfdata-labels';
import { Verdict } from '../../plugin/part';
import { resultFromItems, type Item, type Result } from '../../plugin/result';
import { PERCENT, unjudgedMetric, type Measurement, type ScalarContext } from '../../plugin/scalar-context';
import { State } from '../../plugin/state';
import type { Quota, StoragePolicyRecord, VdcRecord, VdcVm } from './vdc-query';
import { FAILED_VM_STATES } from '../vm/vm-record';

/** -w/-c of each resource, in percent of its limit. */
export interface VdcThresholds {
  cpu: ScalarContext;
  memory: ScalarContext;
  storage: ScalarContext;
}

/** One VDC as read: its record, its storage policies and its VMs. */
export interface VdcReading {
  vdc: VdcRecord;
  policies: readonly StoragePolicyRecord[];
  vms: readonly VdcVm[];
}

/** VM states of a VM that works (on, off, suspended, deployed, and the steps between). */
const NORMAL_VM_STATES: ReadonlySet<string> = new Set([
  'POWERED_ON',
  'POWERED_OFF',
  'SUSPENDED',
  'RESOLVED',
  'DEPLOYED',
  'WAITING_FOR_INPUT',
  'MIXED',
  'PARTIALLY_POWERED_OFF',
  'PARTIALLY_SUSPENDED',
  'VAPP_UNDEPLOYED',
  'VAPP_PARTIALLY_DEPLOYED',
  'DESCRIPTOR_PENDING',
  'COPYING_CONTENTS',
  'DISK_CONTENTS_PENDING',
]);

/** VDC states that are not a problem: READY, or BUSY with a task. */
const GOOD_VDC_STATES: ReadonlySet<string> = new Set(['READY', 'BUSY']);

const MIB = 1024 * 1024;
/** Failed VMs named per VDC in the status line; the long output names up to MAX_VMS_LISTED. */
const VMS_IN_SUMMARY = 5;
const MAX_VMS_LISTED = 50;

/** How a quota's figures are said and graphed. */
interface QuotaUnit {
  show: (n: number) => string;
  /** What one unit of the quota is in perfdata's unit (MB in bytes). */
  scale: number;
  uom?: 'B';
  /** The perfdata measure of the absolute value (`cpu_mhz`, `memory`); its percentage is `<what>_pct`. */
  measure: (what: string) => string;
}

/** One limit of a VDC: what it is, its perfdata label, and its use judged by -w/-c when it has a limit. */
interface QuotaUse {
  what: string;
  /** The label of the absolute value. */
  label: string;
  q: Quota;
  unit: QuotaUnit;
  /** The percentage of the limit: its state and perfdata from one value; none when unlimited. */
  judged?: Measurement;
}

/** The percentage of a limit, or undefined when there is none (0 = unlimited) or a figure is unknown. */
export function percentOfLimit(q: Quota): number | undefined {
  return q.used !== undefined && q.limit !== undefined && q.limit > 0 ? (q.used / q.limit) * 100 : undefined;
}

const CPU: QuotaUnit = { show: (n) => `${formatDecimal(n, 0)} MHz`, scale: 1, measure: (what) => `${what}_mhz` };
const MEMORY: QuotaUnit = { show: (n) => formatBytes(n * MIB), scale: MIB, uom: 'B', measure: (what) => what };

/**
 * The quotas of one VDC (CPU, memory, each storage policy), measured once for its findings and
 * its perfdata. `names` are the names its labels are made of (its organisation's and its own).
 */
function quotasOf(r: VdcReading, names: readonly string[], labels: PerfdataLabels, t: VdcThresholds): QuotaUse[] {
  // `…__memory_pct` beside `…__memory`; CPU says its unit: `…__cpu_pct`, `…__cpu_mhz`; a policy is a name of its own: `…__<policy>__storage_pct`.
  const use = (what: string, of: readonly string[], measure: string, q: Quota, unit: QuotaUnit, ctx: ScalarContext): QuotaUse => {
    const pct = percentOfLimit(q);
    const judged = pct === undefined ? undefined : ctx.measure(labels.label(of, `${measure}_pct`), pct, PERCENT);
    return { what, label: labels.label(of, unit.measure(measure)), q, unit, judged };
  };
  return [
    use('cpu', names, 'cpu', r.vdc.cpuMhz, CPU, t.cpu),
    use('memory', names, 'memory', r.vdc.memoryMb, MEMORY, t.memory),
    ...r.policies.map((p) => use(`storage ${p.name}`, [...names, p.name], 'storage', p.storageMb, MEMORY, t.storage)),
  ];
}

/** What one quota says: its percentage in the state it was judged, unlimited, or which figure is unknown (said, on the status line too, but it sets no state). */
function sayQuota(v: Verdict, { what, q, unit, judged }: QuotaUse): void {
  const pct = percentOfLimit(q);
  if (q.unknown !== undefined) {
    // A figure the record did not send costs that figure: this quota is not judged, and the
    // state is the one the other figures give (a pay-as-you-go VDC's record may carry no
    // memory limit at all, run after run: it must not make the service UNKNOWN for good).
    const used = q.used === undefined ? 'use unknown' : `${unit.show(q.used)} used`;
    const limit = q.limit === undefined ? 'limit unknown' : q.limit > 0 ? `limit ${unit.show(q.limit)}` : 'unlimited';
    v.addUnknown(`${what} ${used}, ${limit} (${q.unknown})`);
  } else if (judged === undefined || pct === undefined) v.add(`${what} ${unit.show(q.used ?? 0)} used, unlimited`);
  else v.add(`${what} ${formatDecimal(pct, 1)}% (${unit.show(q.used ?? 0)} of ${unit.show(q.limit ?? 0)})`, judged.state);
}

/** The VMs in failed or unknown states, said as WARNING. */
function sayVms(v: Verdict, vms: readonly VdcVm[]): VdcVm[] {
  const bad = vms.filter((vm) => !NORMAL_VM_STATES.has(vm.status));
  if (bad.length === 0) return bad;
  const named = bad.slice(0, VMS_IN_SUMMARY).map((vm) => `${vm.name} (${describeVmStatus(vm.status)})`);
  const more = bad.length > VMS_IN_SUMMARY ? ` … ${bad.length - VMS_IN_SUMMARY} more` : '';
  v.add(`${bad.length} VM${bad.length === 1 ? '' : 's'} failed: ${named.join(', ')}${more}`, State.WARNING);
  return bad;
}

function describeVmStatus(status: string): string {
  return FAILED_VM_STATES.has(status) ? status : `unknown status ${status}`;
}

/** Everything said about one VDC (`name`), the worst first, and its failed VMs. */
function verdictOf(r: VdcReading, name: string, quotas: readonly QuotaUse[]): { verdict: Verdict; bad: VdcVm[] } {
  const { vdc } = r;
  const v = new Verdict(name, 'worst first');
  if (!vdc.enabled) v.add('disabled', State.CRITICAL);
  if (vdc.status !== undefined && !GOOD_VDC_STATES.has(vdc.status)) v.add(`status ${vdc.status}`, State.CRITICAL);
  for (const q of quotas) sayQuota(v, q);
  const bad = sayVms(v, r.vms);
  const { total, running } = vmCounts(r);
  v.add(`${running} of ${total} VMs running`);
  return { verdict: v, bad };
}

/** The VM counts of the record when it has them (API 37.0 and later), else counted from the VM list. */
function vmCounts(r: VdcReading): { total: number; running: number } {
  if (r.vdc.vms !== undefined && r.vdc.runningVms !== undefined) return { total: r.vdc.vms, running: r.vdc.runningVms };
  return { total: r.vms.length, running: r.vms.filter((v) => v.status === 'POWERED_ON').length };
}

/** How a VDC is named: with its organisation when several may be listed (a provider account). */
function vdcName(vdc: VdcRecord, withOrg: boolean): string {
  return withOrg && vdc.org !== '' ? `${vdc.name} (org ${vdc.org})` : vdc.name;
}

/** The perfdata of one VDC: percentages with the thresholds, absolute values with the limits as max. */
function perfdataOf(r: VdcReading, names: readonly string[], labels: PerfdataLabels, quotas: readonly QuotaUse[]): Metric[] {
  const out: Metric[] = [];
  for (const { label, q, unit, judged } of quotas) {
    if (judged) out.push(judged.metric);
    // A use the record did not send has no perfdata (never 0); a limit it did not send, no max.
    if (q.used === undefined) continue;
    const shape = { ...(unit.uom ? { uom: unit.uom } : {}), min: 0, ...(q.limit !== undefined && q.limit > 0 ? { max: q.limit * unit.scale } : {}) };
    out.push(unjudgedMetric(label, q.used * unit.scale, shape));
  }
  const { total, running } = vmCounts(r);
  out.push(unjudgedMetric(labels.label(names, 'vms'), total, { min: 0 }), unjudgedMetric(labels.label(names, 'vms_running'), running, { min: 0, max: total }));
  return out;
}

/**
 * The result of check_vdc over the VDCs read: one long-output line per VDC (and per failed
 * VM), perfdata per VDC, and a status line that names the problems (or the one VDC's figures).
 */
export function judgeVdcs(readings: readonly VdcReading[], t: VdcThresholds, options: { withOrg: boolean; scope: string }): Result {
  const items: Item[] = [];
  const metrics: Metric[] = [];
  const problems: string[] = [];
  const labels = new PerfdataLabels();
  let single = '';
  for (const r of readings) {
    const name = vdcName(r.vdc, options.withOrg);
    // A provider's VDCs are named within their organisation (two organisations may each have an `acme-prod`).
    const names = options.withOrg ? [r.vdc.org, r.vdc.name] : [r.vdc.name];
    const quotas = quotasOf(r, names, labels, t);
    const { verdict, bad } = verdictOf(r, name, quotas);
    items.push(verdict.item(r.vdc.name));
    for (const v of bad.slice(0, MAX_VMS_LISTED))
      items.push({ name: v.name, state: State.WARNING, text: `${name}: VM ${v.name} in vApp ${v.vapp || '?'} (${v.id}) is ${describeVmStatus(v.status)}` });
    if (bad.length > MAX_VMS_LISTED) items.push({ name: r.vdc.name, state: State.WARNING, text: `${name}: … ${bad.length - MAX_VMS_LISTED} more VMs failed` });
    const problem = verdict.problem(name, true);
    if (problem !== undefined) problems.push(problem);
    single = verdict.line;
    for (const m of perfdataOf(r, names, labels, quotas)) metrics.push(m);
  }
  if (readings.length === 1) return resultFromItems(single, items, metrics);
  const n = `${readings.length} VDCs${options.scope}`;
  const summary = problems.length === 0 ? `${n}: all enabled, ready and within their limits` : `${n}: ${problems.join(', ')}`;
  return resultFromItems(summary, items, metrics);
}

// check_vm_lease's judgement: the runtime and storage leases of a VM's vApp, the earlier expiry first.
import { CheckError } from '../../plugin/errors';
import type { Metric } from '../../plugin/perfdata';
import { resultFromItems, type Item, type Result } from '../../plugin/result';
import { State } from '../../plugin/state';
import { SECONDS, TimeLeft } from '../../plugin/time-left';
import type { VmHygiene } from '../inventory/hygiene-record';
import type { LeaseSection } from './lease-section';
import { formatMoment, formatSpan, parseDateTime } from '../api/vcd-time';

/** One lease: when it expires (ms), or why it never does. */
export type LeaseTerm = { expires: number } | { never: string };

/** The vApp's two leases and what its record says of them. */
export interface LeaseFacts {
  runtime: LeaseTerm;
  storage: LeaseTerm;
  /** The record's isExpired. */
  expired?: boolean;
}

const KINDS = ['runtime', 'storage'] as const;

function dateTerm(text: string, which: string, what: string): LeaseTerm {
  const expires = parseDateTime(text);
  if (expires === undefined) throw new CheckError(`${what}: the ${which} lease's expiry does not parse as a date (${JSON.stringify(text.slice(0, 64))})`);
  return { expires };
}

/**
 * The leases as the query record gives them, or undefined when it lacks a date it would need
 * (never read as "no expiry": the caller reads the vApp's LeaseSettingsSection instead).
 */
export function leaseFromRecord(h: VmHygiene | undefined, what: string): LeaseFacts | undefined {
  if (h === undefined || h.autoDeleteDate === undefined) return undefined;
  if (h.deployed !== false && h.autoUndeployDate === undefined) return undefined;
  const runtime = h.deployed === false ? { never: 'the vApp is not deployed' } : dateTerm(h.autoUndeployDate as string, 'runtime', what);
  return { runtime, storage: dateTerm(h.autoDeleteDate, 'storage', what), ...(h.expired !== undefined ? { expired: h.expired } : {}) };
}

/** The leases as the vApp's LeaseSettingsSection gives them; `deployed` from the record, when it says. */
export function leaseFromSection(s: LeaseSection, deployed: boolean | undefined, what: string, expired?: boolean): LeaseFacts {
  const runtime: LeaseTerm =
    deployed === false
      ? { never: 'the vApp is not deployed' }
      : s.deploymentSeconds === 0
        ? { never: 'a runtime lease of 0 never expires' }
        : s.deploymentExpiration !== undefined
          ? dateTerm(s.deploymentExpiration, 'runtime', what)
          : { never: 'no runtime expiry set (the vApp is not deployed)' };
  const storage: LeaseTerm =
    s.storageSeconds === 0
      ? { never: 'a storage lease of 0 never expires' }
      : s.storageExpiration !== undefined
        ? dateTerm(s.storageExpiration, 'storage', what)
        : { never: 'no storage expiry set' };
  return { runtime, storage, ...(expired !== undefined ? { expired } : {}) };
}

/** Time-left thresholds in seconds: an alert when less is left. */
export interface LeaseThresholds {
  warning: number;
  critical: number;
}

/** Judges the leases at `now` (ms): expired is CRITICAL, less left than -c CRITICAL, than -w WARNING. */
export function judgeLeases(facts: LeaseFacts, t: LeaseThresholds, vm: string, now: number): Result {
  const context = new TimeLeft(t, SECONDS);
  const items: Item[] = [];
  const metrics: Metric[] = [];
  const expiring: Array<{ kind: string; left: number; at: number; state: State }> = [];
  for (const kind of KINDS) {
    const term = facts[kind];
    if ('never' in term) {
      items.push({ name: kind, state: State.OK, text: `${kind} lease: no expiry (${term.never})` });
      continue;
    }
    const left = context.left(term.expires, now);
    const measured = context.measure(`lease_${kind}`, left);
    expiring.push({ kind, left, at: term.expires, state: measured.state });
    items.push({ name: kind, state: measured.state, text: `${kind} lease ${describeLeft(left)} (${formatMoment(term.expires)})` });
    metrics.push(measured.metric);
  }
  if (facts.expired === true && !expiring.some((e) => e.left <= 0))
    items.push({ name: 'expired', state: State.CRITICAL, text: "the VM's record says its vApp's lease has expired" });
  const first = expiring.sort((a, b) => a.left - b.left)[0];
  const summary =
    first === undefined
      ? facts.expired === true
        ? `lease expired on ${vm} (the record says so; no expiry date given)`
        : `no expiry on ${vm}`
      : `${first.kind} lease ${describeLeft(first.left)} (${formatMoment(first.at)}) on ${vm}`;
  return resultFromItems(summary, items, metrics);
}

function describeLeft(left: number): string {
  return left <= 0 ? `expired ${formatSpan(-left)} ago` : `expires in ${formatSpan(left)}`;
}

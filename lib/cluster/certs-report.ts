// The judgement of check_cluster_certs: each certificate's time left against -w/-c (days,
// alerting below), and kubelet CSRs pending longer than --csr-grace.
import type { Item, Result } from '../plugin/result';
import { unjudgedMetric } from '../plugin/scalar-context';
import { State } from '../plugin/state';
import { itemPart, part, problemPart, resultOf, withAllWell, type Part } from '../plugin/part';
import type { CertificateLife, CertsProbe } from './certs-probe';
import { isKubeletCsr, type PendingCsr } from './csr-list';
import { formatDuration } from '../plugin/duration';
import type { TimeLeft } from '../plugin/time-left';
import { formatAge } from './node-report';

export interface CertRules {
  /** -w/-c on days left: `30:` and `7:` (alert below). */
  daysLeft: TimeLeft;
  /** A kubelet CSR pending longer than this many seconds is WARNING. */
  csrGrace: number;
  now: number;
}

/** Pending CSRs named on the status line. */
const NAMED = 3;

const ROLE_WORDS: Record<CertificateLife['role'], string> = {
  serving: 'API server certificate',
  intermediate: 'intermediate CA',
  root: 'root CA',
  client: 'client certificate',
};

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `API server certificate api.example.com expires in 12d (2026-12-08)`, `... expired 3d ago (...)`. */
function describeLife(c: CertificateLife, now: number): string {
  const what = `${ROLE_WORDS[c.role]} ${c.name}`;
  if (!Number.isFinite(c.notAfter)) return `${what} has no readable expiry date`;
  if (Number.isFinite(c.notBefore) && c.notBefore > now) return `${what} is not valid before ${day(c.notBefore)}`;
  const left = c.notAfter - now;
  return left < 0 ? `${what} expired ${formatAge(-left)} ago (${day(c.notAfter)})` : `${what} expires in ${formatAge(left)} (${day(c.notAfter)})`;
}

/** A certificate's state apart from its time left: UNKNOWN without a date, CRITICAL before it is valid; undefined when its time left judges it. */
function judgeDates(c: CertificateLife, now: number): State | undefined {
  if (!Number.isFinite(c.notAfter)) return State.UNKNOWN;
  if (Number.isFinite(c.notBefore) && c.notBefore > now) return State.CRITICAL;
  return undefined;
}

/** `csr-8wq4t (kubelet-serving, system:node:worker-6, pending 3h)`. */
function describeCsr(csr: PendingCsr, now: number): string {
  const signer = csr.signer.replace(/^kubernetes\.io\//, '');
  const age = csr.created === undefined ? '' : `, pending ${formatAge(now - csr.created)}`;
  return `${csr.name} (${signer}${csr.username ? `, ${csr.username}` : ''}${age})`;
}

function overdue(csr: PendingCsr, rules: CertRules): boolean {
  return isKubeletCsr(csr) && csr.created !== undefined && rules.now - csr.created > rules.csrGrace * 1000;
}

/** The result: the worst certificate's state and the CSRs', the nearest expiry on the status line. */
export function evaluateCertificates(probe: CertsProbe, rules: CertRules): Result {
  const { certificates } = probe;
  // Each dated certificate judged by its time left, the nearest graphed, in one call.
  const dated = certificates.map((c) => (Number.isFinite(c.notAfter) ? rules.daysLeft.left(c.notAfter, rules.now) : undefined));
  const lives = rules.daysLeft.measureEach('cert_days_left', dated, 'lowest', rules.daysLeft.shape);
  // A certificate is said when it is a problem; when none is, the nearest expiry is.
  const certs = certificates.map((c, i) => {
    const item: Item = { name: c.name, state: judgeDates(c, rules.now) ?? lives.states[i]!, text: describeLife(c, rules.now) };
    return problemPart(item.text, item.state, { items: [item] });
  });
  const nearest = lives.graphed === undefined ? undefined : certificates[lives.graphed];
  const csrs = probe.csrs;
  const pendingCount = csrs === undefined ? undefined : csrs.pending.length + csrs.morePending;
  const parts = [
    ...withAllWell(certs, nearest && `nearest expiry: ${describeLife(nearest, rules.now)}`),
    ...(csrs === undefined ? [] : csrParts(csrs, rules)),
    ...(probe.csrsUnread === undefined
      ? []
      : [{ ...part('CSRs not read', State.UNKNOWN), items: [{ name: 'csrs', state: State.UNKNOWN, text: `CSRs not read: ${probe.csrsUnread}` }] }]),
  ];
  const notes = probe.verifyError ? [`the server's chain does not verify: ${probe.verifyError}`] : [];
  const metrics = [lives.metric, ...(pendingCount === undefined ? [] : [unjudgedMetric('csr_pending', pendingCount, { min: 0 })])];
  // The status line in the order of the sentence (certificates, then CSRs); the long output's problems first.
  return resultOf(parts, { notes, metrics }, '; ', { words: 'as given', items: 'problems first' });
}

/** The pending CSRs: a line each (the first 200), and what the status line says of them. */
function csrParts(csrs: NonNullable<CertsProbe['csrs']>, rules: CertRules): Part[] {
  const pendingCount = csrs.pending.length + csrs.morePending;
  const late = csrs.pending.filter((c) => overdue(c, rules));
  const lines = csrs.pending
    .slice(0, 200)
    .map((c) => itemPart({ name: c.name, state: overdue(c, rules) ? State.WARNING : State.OK, text: `CSR ${describeCsr(c, rules.now)}` }));
  if (csrs.pending.length > 200)
    lines.push(itemPart({ name: 'csrs', state: State.OK, text: `… and ${csrs.pending.length - 200 + csrs.morePending} more pending CSRs` }));
  if (late.length > 0) {
    const named = late.slice(0, NAMED).map((c) => describeCsr(c, rules.now));
    return [
      ...lines,
      part(
        `${late.length} kubelet CSR${late.length === 1 ? '' : 's'} pending over ${formatDuration(rules.csrGrace)}: ${named.join(', ')}${late.length > NAMED ? ` and ${late.length - NAMED} more` : ''} (approve with oc adm certificate approve / kubectl certificate approve)`,
      ),
    ];
  }
  return [
    ...lines,
    part(`${pendingCount} CSR${pendingCount === 1 ? '' : 's'} pending${pendingCount > 0 ? `, none for kubelets over ${formatDuration(rules.csrGrace)}` : ''}`),
  ];
}

// The pending CertificateSigningRequests (certificates.k8s.io/v1). A CSR is pending while it
// has no Approved, Denied or Failed condition; kubelets ask for their serving certificate
// (signer kubernetes.io/kubelet-serving) and their client certificate
// (kubernetes.io/kube-apiserver-client-kubelet) this way, and a node whose CSRs wait stays
// NotReady (the case of an OpenShift cluster started after a long shutdown).
import { checkDeadline } from '../plugin/deadline';
import { boundedExcerpt } from '../plugin/server-text';
import type { ClusterTarget, GetOptions } from './client';
import { pageThrough } from './list-pages';
import { ShapeError } from './shape-error';

export const CSR_GROUP = 'certificates.k8s.io';
export const CSR_PATH = `/apis/${CSR_GROUP}/v1/certificatesigningrequests`;
export const KUBELET_SIGNERS: ReadonlySet<string> = new Set(['kubernetes.io/kubelet-serving', 'kubernetes.io/kube-apiserver-client-kubelet']);
/** Far above a real cluster (the API server deletes issued CSRs after an hour, pending ones after a day). */
export const DEFAULT_MAX_CSRS = 200_000;
/** Pending CSRs kept by name; more are counted. */
const MAX_KEPT = 1000;

/** A CSR that waits for approval. */
export interface PendingCsr {
  name: string;
  signer: string;
  /** `system:node:worker-3`: the node it is for, when a kubelet asked with its node credential. */
  username?: string;
  /** spec.groups of the requestor (`system:nodes`, `system:bootstrappers`), when listed. */
  groups?: string[];
  /** metadata.creationTimestamp in ms since the epoch, when valid. */
  created?: number;
}

export interface CsrSummary {
  /** Every CSR listed. */
  total: number;
  /** Pending ones, oldest first, at most MAX_KEPT. */
  pending: PendingCsr[];
  /** Pending ones beyond MAX_KEPT. */
  morePending: number;
}

const DECIDED = new Set(['Approved', 'Denied', 'Failed']);
/** The signer of a CSR made without one (v1beta1, or before Kubernetes 1.18), as v1 reads it. */
const LEGACY_SIGNER = 'kubernetes.io/legacy-unknown';

function text(v: unknown, max = 253): string | undefined {
  return typeof v === 'string' && v !== '' ? boundedExcerpt(v, max) : undefined;
}

/** One item as a pending CSR, or undefined when it is decided; a ShapeError when it is not a CSR. */
export function readPendingCsr(item: unknown, at: string): PendingCsr | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new ShapeError(at, 'is not an object');
  const { metadata, spec, status } = item as { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: { conditions?: unknown } };
  const name = text(metadata?.name);
  if (name === undefined) throw new ShapeError(`${at}.metadata.name`, 'is missing');
  const conditions = Array.isArray(status?.conditions) ? (status.conditions as unknown[]) : [];
  if (conditions.some((c) => c !== null && typeof c === 'object' && DECIDED.has(String((c as { type?: unknown }).type)))) return undefined;
  const created = Date.parse(String(metadata?.creationTimestamp ?? ''));
  return {
    name,
    // A CSR without a signer is one of the legacy API: kubelets always set one in v1.
    signer: text(spec?.signerName) ?? LEGACY_SIGNER,
    username: text(spec?.username),
    groups: Array.isArray(spec?.groups) ? spec.groups.slice(0, 32).flatMap((g) => text(g) ?? []) : undefined,
    created: Number.isFinite(created) ? created : undefined,
  };
}

/** Requestors and groups that only kubelets (with their node or bootstrap credential) have. */
const KUBELET_REQUESTOR = /^system:(node|bootstrap):/;
const KUBELET_GROUP = /^system:(nodes|bootstrappers)(:|$)/;

/**
 * A kubelet's CSR: one of the kubelet signers, or the legacy signer that a CSR made through
 * v1beta1 (or before Kubernetes 1.18, which had no signers) reads as in v1, asked for by a
 * node or with a bootstrap token. Such a node waits on it as on any other.
 */
export function isKubeletCsr(csr: PendingCsr): boolean {
  if (KUBELET_SIGNERS.has(csr.signer)) return true;
  if (csr.signer !== LEGACY_SIGNER) return false;
  return KUBELET_REQUESTOR.test(csr.username ?? '') || (csr.groups ?? []).some((g) => KUBELET_GROUP.test(g));
}

/** Lists every CSR, keeping the pending ones (bounded), page by page. */
export async function listPendingCsrs(target: ClusterTarget, options: GetOptions & { maxCsrs: number }): Promise<CsrSummary> {
  const summary: CsrSummary = { total: 0, pending: [], morePending: 0 };
  await pageThrough(
    target,
    {
      path: CSR_PATH,
      permission: { verb: 'list', resource: 'certificatesigningrequests', group: CSR_GROUP },
      what: 'a CertificateSigningRequestList',
      maxItems: options.maxCsrs,
      maxOption: '--max-csrs',
    },
    options,
    (page) => {
      if (page.kind !== undefined && page.kind !== 'CertificateSigningRequestList')
        throw new ShapeError('kind', `is ${JSON.stringify(page.kind).slice(0, 80)}, not CertificateSigningRequestList`);
      const items = page.items;
      if (!Array.isArray(items)) throw new ShapeError('items', 'is missing or not an array');
      items.forEach((item, i) => {
        const csr = readPendingCsr(item, `items[${i}]`);
        if (csr === undefined) return;
        if (summary.pending.length < MAX_KEPT) summary.pending.push(csr);
        else summary.morePending++;
      });
      summary.total += items.length;
      checkDeadline('reading the certificate signing requests');
      return items.length;
    },
    () => Object.assign(summary, { total: 0, pending: [], morePending: 0 }),
  );
  summary.pending.sort((a, b) => (a.created ?? Infinity) - (b.created ?? Infinity));
  return summary;
}

// Reads what check_cluster_certs judges: the API server's certificate chain (from a handshake),
// the client certificate the check authenticates with, and the pending CSRs.
import { X509Certificate } from 'node:crypto';
import { readPeerChain } from '../http/peer-chain';
import { CheckError } from '../plugin/errors';
import { boundedExcerpt } from '../plugin/server-text';
import type { ClusterTarget, GetOptions } from './client';
import { CSR_PATH, listPendingCsrs, type CsrSummary } from './csr-list';
import { ShapeError } from './shape-error';

/** Where a certificate sits: the API server's own, one that signed it, or ours. */
export type CertificateRole = 'serving' | 'intermediate' | 'root' | 'client';

/** One certificate's lifetime, as the check judges it. */
export interface CertificateLife {
  role: CertificateRole;
  /** Its subject CN (else the whole subject): what an operator searches for. */
  name: string;
  /** notAfter and notBefore in ms since the epoch; NaN when the dates cannot be read. */
  notAfter: number;
  notBefore: number;
}

export interface CertsProbe {
  certificates: CertificateLife[];
  /** Why the server's chain did not verify, when only its dates are wrong (`CERT_HAS_EXPIRED`). */
  verifyError?: string;
  /** Undefined when the CSRs were not read (--skip-csrs, or `csrsUnread`). */
  csrs?: CsrSummary;
  /** Why the CSRs were not read although asked for: the token is not sent to a server whose chain does not verify. */
  csrsUnread?: string;
}

/** `CN=api.example.com` of a subject (one attribute a line), or the subject folded to one line. */
function commonName(subject: string): string {
  const cn = /^CN=(.*)$/m.exec(subject)?.[1];
  return boundedExcerpt(cn ?? subject.replace(/\n/g, ', '), 120) || '(no subject)';
}

/** The lifetime of a certificate, whatever its dates say (absurd ones read as NaN, judged later). */
export function certificateLife(cert: X509Certificate, role: CertificateRole): CertificateLife {
  return { role, name: commonName(cert.subject), notAfter: Date.parse(cert.validTo), notBefore: Date.parse(cert.validFrom) };
}

/** The role of the certificate at `i` of a chain the server sent: its own first, a self-signed root last. */
function chainRole(cert: X509Certificate, i: number): CertificateRole {
  if (i === 0) return 'serving';
  return cert.issuer === cert.subject && cert.ca ? 'root' : 'intermediate';
}

/** The first certificate of a PEM text (the client certificate; any after it are its issuers). */
function clientCertificate(pem: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (e) {
    throw new CheckError(`the client certificate cannot be read (${(e as Error).message}); check --client-cert or the kubeconfig's client-certificate`);
  }
}

/**
 * Reads the chain on a connection that carries no credential, then the client certificate and
 * (unless `skipCsrs`) the CSRs. The chain comes first: it is judged only once it leads to the
 * trusted CA, and the token (or client certificate) goes only over a connection that verifies in
 * full, so a chain whose dates are wrong leaves the CSRs unread.
 */
export async function probeCertificates(target: ClusterTarget, options: GetOptions & { maxCsrs: number; skipCsrs: boolean }): Promise<CertsProbe> {
  const peer = await readPeerChain(target.url, target.tls, options.signal);
  const certificates = peer.chain.map((c, i) => certificateLife(c, chainRole(c, i)));
  if (target.credential === 'client certificate' && target.tls.cert !== undefined)
    certificates.push(certificateLife(clientCertificate(target.tls.cert), 'client'));
  const probe: CertsProbe = { certificates, verifyError: peer.verifyError };
  if (options.skipCsrs) return probe;
  if (peer.verifyError !== undefined && !target.tls.insecure)
    return {
      ...probe,
      csrsUnread: `the server's chain does not verify now (${peer.verifyError}), and the ${target.credential ?? 'token'} is sent only over one that does`,
    };
  return { ...probe, csrs: await readCsrs(target, options) };
}

async function readCsrs(target: ClusterTarget, options: GetOptions & { maxCsrs: number }): Promise<CsrSummary> {
  try {
    return await listPendingCsrs(target, options);
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    throw new CheckError(
      `unexpected response from ${target.url.origin}${CSR_PATH}: ${e.message} (not a CertificateSigningRequestList as the API sends it); check --url, or give --skip-csrs`,
    );
  }
}

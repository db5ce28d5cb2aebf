// Whether a server's certificate chain leads to a trusted CA, decided by signatures and names
// alone, whatever the certificates' dates. A check that judges certificates must know that the
// chain is the server's before it reads a date: OpenSSL reports only the last of its errors, so
// an impostor's chain that also holds an expired certificate says "expired", not "untrusted".
import { X509Certificate } from 'node:crypto';
import * as tls from 'node:tls';
import { pemCertificateBlocks } from './ca-file';

/** Certificates from the server's up to its trusted issuer: a longer path is refused. */
export const MAX_PATH = 10;

/** A chain that leads to a trusted CA: the path from the server's certificate, and that CA. */
export interface TrustedPath {
  /** The server's certificate first, then each intermediate up to (not including) the anchor. */
  path: X509Certificate[];
  /** The trusted certificate the path ends in (the server's own when it is trusted itself). */
  anchor: X509Certificate;
}

/** Why no path leads to a trusted CA: the certificate the walk stopped at. */
export interface Untrusted {
  stoppedAt: X509Certificate;
  reason: string;
}

/** True when `issuer` is a CA whose name and key signed `cert` (dates not looked at). */
function signed(cert: X509Certificate, issuer: X509Certificate): boolean {
  if (!issuer.ca || !cert.checkIssued(issuer)) return false;
  try {
    return cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/**
 * Walks from the server's certificate (`presented[0]`) through the certificates the server
 * presented to one of `anchors`, checking each signature; dates play no part. Returns the path,
 * or where and why it stopped.
 */
export function trustedPath(presented: readonly X509Certificate[], anchors: readonly X509Certificate[]): TrustedPath | Untrusted {
  const leaf = presented[0];
  const pinned = anchors.find((a) => a.fingerprint256 === leaf.fingerprint256);
  if (pinned) return { path: [leaf], anchor: pinned };
  const path = [leaf];
  for (let cert = leaf; path.length <= MAX_PATH;) {
    const anchor = anchors.find((a) => signed(cert, a));
    if (anchor) return { path, anchor };
    const next = presented.find((p) => !path.includes(p) && signed(cert, p));
    if (!next) return { stoppedAt: cert, reason: cert === leaf ? 'not signed by a trusted CA' : 'its chain does not lead to a trusted CA' };
    path.push(next);
    cert = next;
  }
  return { stoppedAt: leaf, reason: `no trusted CA within ${MAX_PATH} certificates` };
}

let systemRoots: X509Certificate[] | undefined;

/** The CAs a connection with these settings trusts: `ca` alone, or the system's roots and `ca`. */
export function trustAnchors(ca: string | undefined, caOnly: boolean | undefined): X509Certificate[] {
  const given = ca === undefined ? [] : pemCertificates(ca);
  if (ca !== undefined && caOnly) return given;
  systemRoots ??= tls.rootCertificates.flatMap(pemCertificates);
  return [...systemRoots, ...given];
}

/** Every certificate of a PEM text; unreadable blocks are skipped (the CA was read before: target.ts). */
function pemCertificates(pem: string): X509Certificate[] {
  return pemCertificateBlocks(pem).flatMap((b) => {
    try {
      return [new X509Certificate(b)];
    } catch {
      return [];
    }
  });
}

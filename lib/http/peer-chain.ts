// The certificate chain a TLS server presents, read from a handshake of its own: the checks
// that judge certificates need it also when its dates are wrong (an expired certificate is
// their finding, not a reason to give up). Trust is decided first, by signatures to the
// configured CA whatever the dates; only a chain that leads there has its dates read. This
// handshake carries no credential (no client certificate; no request, so no token).
import { X509Certificate } from 'node:crypto';
import * as tls from 'node:tls';
import { isIP, type Socket } from 'node:net';
import { CheckError } from '../plugin/errors';
import { MAX_PATH, trustAnchors, trustedPath } from './chain-trust';
import { describeNetworkError } from './network-errors';
import { proxyFor } from './proxy';
import { connectTunnel, type TlsSettings } from './request';

/** What the handshake showed: the certificates whose dates the check may judge. */
export interface PeerChain {
  /**
   * The server's certificate first, then each CA up to and including the trusted one it leads
   * to (with -k/--insecure: the chain as presented, trusted or not).
   */
  chain: X509Certificate[];
  /**
   * Undefined when the chain verified in full (dates included); else why not, one of the
   * lifetime errors (`CERT_HAS_EXPIRED`, `CERT_NOT_YET_VALID`), or any error under -k.
   */
  verifyError?: string;
}

/** Certificates read from a handshake: more than any path the check would accept, bounded. */
const MAX_PRESENTED = 2 * MAX_PATH;
/** Verification errors that are the certificates' lifetimes: the check's findings, once the chain is trusted. */
const LIFETIME_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/** The certificates of the handshake, the server's first, each once (Node orders them by issuer). */
function presentedOf(socket: tls.TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  let cert: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert?.raw && chain.length < MAX_PRESENTED && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  return chain;
}

function handshake(url: URL, settings: TlsSettings, socket: Socket | undefined, signal?: AbortSignal): Promise<tls.TLSSocket> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const name = settings.serverName ?? (isIP(host) ? undefined : host);
  const ca = settings.ca === undefined ? undefined : settings.caOnly ? settings.ca : [...tls.rootCertificates, settings.ca];
  return new Promise((resolve, reject) => {
    // No client certificate: this connection is to a server not yet known to be the right one.
    const s = tls.connect({ ...(socket ? { socket } : { host, port: Number(url.port || 443) }), servername: name, ca, rejectUnauthorized: false });
    const abort = () => s.destroy(new Error('aborted'));
    signal?.addEventListener('abort', abort, { once: true });
    s.once('secureConnect', () => {
      signal?.removeEventListener('abort', abort);
      resolve(s);
    });
    s.once('error', (e) => {
      signal?.removeEventListener('abort', abort);
      reject(e);
    });
  });
}

/** The certificate in Node's detailed form, as describeNetworkError names it (issuer, dates). */
function asPeer(cert: X509Certificate): { issuer: Record<string, string>; subject: Record<string, string>; valid_to: string; valid_from: string } {
  const fields = (dn: string) => Object.fromEntries(dn.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { issuer: fields(cert.issuer), subject: fields(cert.subject), valid_to: cert.validTo, valid_from: cert.validFrom };
}

/**
 * The certificates whose dates may be judged: the path from the server's certificate to the
 * trusted CA. A chain that does not lead there is refused as the requests refuse it, naming
 * where it stopped, whatever its dates say.
 */
function judgedChain(socket: tls.TLSSocket, presented: X509Certificate[], url: URL, proxy: URL | undefined, settings: TlsSettings): PeerChain {
  const opensslError = socket.authorized ? undefined : String((socket.authorizationError as unknown as string | Error | undefined) ?? 'UNABLE_TO_VERIFY');
  if (settings.insecure) return { chain: presented.slice(0, MAX_PATH), verifyError: opensslError };
  const trust = trustedPath(presented, trustAnchors(settings.ca, settings.caOnly));
  if ('reason' in trust) {
    // The library verified it in full, dates included, against the same CAs: trusted, whatever
    // path it took (a signature scheme the walk cannot check would otherwise refuse a good server).
    if (socket.authorized) return { chain: presented.slice(0, MAX_PATH) };
    const code = trust.stoppedAt === presented[0] && trust.stoppedAt.checkIssued(trust.stoppedAt) ? 'DEPTH_ZERO_SELF_SIGNED_CERT' : 'UNABLE_TO_GET_ISSUER_CERT';
    throw describeNetworkError(Object.assign(new Error(trust.reason), { code, peer: asPeer(trust.stoppedAt) }), url, proxy, settings);
  }
  // Signed all the way to the CA: any error left but the dates (a purpose, a constraint) refuses it still.
  if (opensslError !== undefined && !LIFETIME_ERRORS.has(opensslError))
    throw describeNetworkError(Object.assign(new Error(opensslError), { code: opensslError, peer: socket.getPeerCertificate() }), url, proxy, settings);
  const chain = trust.path.includes(trust.anchor) ? trust.path : [...trust.path, trust.anchor];
  return { chain, verifyError: opensslError };
}

/**
 * Connects to the server of `url` (through HTTPS_PROXY or the kubeconfig's proxy as the
 * requests do), reads the chain it presents and closes. A chain that does not lead to the
 * trusted CA, or fails verification for any reason but its dates, or names another host, is
 * refused as the requests would refuse it, unless `insecure`.
 */
export async function readPeerChain(url: URL, settings: TlsSettings, signal?: AbortSignal): Promise<PeerChain> {
  const proxy = settings.proxy ?? proxyFor(url);
  let socket: tls.TLSSocket;
  try {
    socket = await handshake(url, settings, proxy ? await connectTunnel(proxy, url, signal) : undefined, signal);
  } catch (error) {
    throw error instanceof CheckError ? error : describeNetworkError(error, url, proxy, settings);
  }
  try {
    const presented = presentedOf(socket);
    if (presented.length === 0) throw new CheckError(`${url.host} presented no certificate; check --url`);
    const judged = judgedChain(socket, presented, url, proxy, settings);
    // The chain leads to a trusted CA: now the name, as the requests check it.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const identity = settings.insecure ? undefined : tls.checkServerIdentity(settings.serverName ?? host, socket.getPeerCertificate());
    if (identity) throw describeNetworkError(identity, url, proxy, settings);
    return judged;
  } finally {
    socket.destroy();
  }
}

// The certificate chain a TLS server presents, read from a handshake of its own: the checks
// that judge certificates need it also when it no longer verifies (an expired certificate is
// their finding, not a reason to give up), so verification is done here after the fact.
import { X509Certificate } from 'node:crypto';
import * as tls from 'node:tls';
import { isIP, type Socket } from 'node:net';
import { CheckError } from '../plugin/errors';
import { describeNetworkError } from './network-errors';
import { proxyFor } from './proxy';
import { connectTunnel, type TlsSettings } from './request';

/** What the handshake showed: the chain from the server's certificate up, and whether it verified. */
export interface PeerChain {
  /** The server's certificate first, then each issuer the server sent (the root only when sent). */
  chain: X509Certificate[];
  /** Why the chain did not verify against the trusted CAs (`CERT_HAS_EXPIRED`), or undefined when it did. */
  verifyError?: string;
}

/** A server sends a handful of certificates; more is a loop or a hostile server. */
const MAX_CHAIN = 10;
/** Verification errors that are the certificates' lifetimes: the check's findings, not failures. */
const LIFETIME_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

function chainOf(socket: tls.TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  let cert: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert?.raw && chain.length < MAX_CHAIN && !seen.has(cert.fingerprint256)) {
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
    const s = tls.connect({
      ...(socket ? { socket } : { host, port: Number(url.port || 443) }),
      servername: name,
      ca,
      cert: settings.cert,
      key: settings.key,
      rejectUnauthorized: false,
    });
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

/**
 * Connects to the server of `url` (through HTTPS_PROXY or the kubeconfig's proxy as the
 * requests do), reads the chain it presents and closes. A chain that fails verification for
 * any reason but its dates is refused as the requests would refuse it, unless `insecure`.
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
    const chain = chainOf(socket);
    if (chain.length === 0) throw new CheckError(`${url.host} presented no certificate; check --url`);
    const code = socket.authorized ? undefined : String((socket.authorizationError as unknown as string | Error | undefined) ?? 'UNABLE_TO_VERIFY');
    if (code !== undefined && !LIFETIME_ERRORS.has(code) && !settings.insecure)
      throw describeNetworkError(Object.assign(new Error(code), { code, peer: socket.getPeerCertificate() }), url, proxy, settings);
    // The chain is signed by a trusted CA: now the name, as the requests check it.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const identity = settings.insecure ? undefined : tls.checkServerIdentity(settings.serverName ?? host, socket.getPeerCertificate());
    if (identity) throw describeNetworkError(identity, url, proxy, settings);
    return { chain, verifyError: code };
  } finally {
    socket.destroy();
  }
}

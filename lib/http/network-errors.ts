import { CheckError } from '../plugin/errors';
import { boundedExcerpt } from '../plugin/server-text';
import type { TlsSettings } from './tls-settings';

// Each failure of verification with the fix that belongs to it: only an unknown issuer is
// cured by giving the CA; an expired certificate wants renewing (or the clock fixing).
const TRUST_FIX = 'pass the CA that signed it with --ca-file PATH, or skip verification with -k/--insecure';
const TLS_REASONS: Record<string, [reason: string, fix: string]> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: ['the certificate is self-signed', TRUST_FIX],
  SELF_SIGNED_CERT_IN_CHAIN: ['the chain ends in a self-signed CA that is not trusted', TRUST_FIX],
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: ['the certificate was issued by an unknown CA', TRUST_FIX],
  UNABLE_TO_GET_ISSUER_CERT: ['the certificate was issued by an unknown CA', TRUST_FIX],
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: ['the certificate was issued by an unknown CA', TRUST_FIX],
  CERT_HAS_EXPIRED: ['the certificate has expired', "renew the server's certificate, or check this host's clock if it should still be valid"],
  CERT_NOT_YET_VALID: ['the certificate is not valid yet', "check this host's clock (and the server's), or wait until the certificate's start date"],
  CERT_SIGNATURE_FAILURE: ['the certificate signature is invalid', 'the server presents a damaged or forged certificate: have it replaced'],
  CERT_REVOKED: ['the certificate is revoked', "have the server's certificate replaced"],
};

/** The names a peer certificate carries (subjectAltName, else the subject CN), as `DNS:a, IP:b`. */
function certificateNames(cert: { subjectaltname?: string; subject?: { CN?: string | string[] } } | undefined): string {
  const san = typeof cert?.subjectaltname === 'string' ? cert.subjectaltname : '';
  const names = san
    .split(/,\s*/)
    .map((n) => n.trim().replace(/^IP Address:/, 'IP:'))
    .filter((n) => /^(DNS|IP):/.test(n));
  if (names.length > 0) return names.length > 8 ? `${names.slice(0, 8).join(', ')} and ${names.length - 8} more` : names.join(', ');
  const cn = cert?.subject?.CN;
  return cn ? `only the common name ${Array.isArray(cn) ? cn.join(', ') : cn} (no subjectAltName)` : 'no names';
}

/** A certificate's issuer as `CN=…, O=…`, bounded: the server chose the text. */
function issuerOf(cert: { issuer?: Record<string, string | string[]> } | undefined): string | undefined {
  const issuer = cert?.issuer;
  if (!issuer || typeof issuer !== 'object') return undefined;
  const parts = ['CN', 'O', 'OU']
    .filter((k) => issuer[k] !== undefined)
    .map((k) => `${k}=${boundedExcerpt([issuer[k]].flat().join('+'), 80).replace(/"/g, "'")}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** A certificate date (`Jan  2 00:00:00 2020 GMT`) as ISO minutes, or undefined. */
function dateOf(text: unknown): string | undefined {
  const ms = typeof text === 'string' ? Date.parse(text) : NaN;
  return Number.isFinite(ms) ? `${new Date(ms).toISOString().slice(0, 16)}Z` : undefined;
}

/**
 * No answer to judge came: the connection could not be made, was refused, or broke before the
 * answer was complete (reset, hung up, cut mid-body, TLS handshake failed). A certificate the
 * client refuses is not one: the server answered, and the fix is on this side.
 */
export class TransportError extends CheckError {}

// A connection that never reached the other end: through a proxy, that end is the proxy.
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA']);

/** Turns a socket-level failure into a CheckError that names the cause and the fix. */
export function describeNetworkError(error: unknown, url: URL, via?: URL, trust: TlsSettings = {}): CheckError {
  type Cert = Parameters<typeof certificateNames>[0] & Parameters<typeof issuerOf>[0] & { valid_from?: string; valid_to?: string };
  const e = error as NodeJS.ErrnoException & { reason?: string; hostname?: string; host?: string; cert?: Cert; peer?: Cert };
  const code = e?.code ?? '';
  const where = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  const proxyNote = via ? ` (through proxy ${via.host})` : '';
  let message: string;
  let transport = true;
  if (via && CONNECT_CODES.has(code)) {
    // The plugin only ever connects to the proxy; the proxy connects to the server.
    const proxyWhere = `${via.hostname}:${via.port || 80}`;
    const dns = code === 'ENOTFOUND' || code.startsWith('EAI_');
    const what = code === 'ECONNREFUSED' ? 'refused the connection' : dns ? `could not be resolved (DNS ${code})` : `could not be reached (${code})`;
    message = `proxy ${proxyWhere} ${what} on the way to ${where}; check that the proxy is running, or HTTPS_PROXY/HTTP_PROXY and NO_PROXY`;
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA') {
    const host = via && e.hostname === via.hostname ? via.hostname : url.hostname;
    message = `cannot resolve host "${host}" (DNS ${code}); check the host name and the monitoring host's resolver`;
  } else if (code === 'ECONNREFUSED') {
    message = `connection refused by ${where}${proxyNote}; check the port and that the API server is running`;
  } else if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') {
    message = `cannot reach ${where}${proxyNote} (${code}); check routing, firewalls and HTTPS_PROXY`;
  } else if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    transport = false;
    // The name checked is the URL's host, or the kubeconfig's tls-server-name when one is set.
    const checked = trust.serverName ?? url.hostname.replace(/^\[|\]$/g, '');
    const names = certificateNames(e.cert?.subjectaltname !== undefined || e.cert?.subject?.CN !== undefined ? e.cert : e.peer);
    if (trust.serverNameOption !== undefined) {
      message = `TLS certificate of ${where} is not valid for the name "${checked}": it carries ${names}; give one of those names with ${trust.serverNameOption}, or have the certificate reissued`;
    } else {
      const where2 = trust.serverName !== undefined ? 'as tls-server-name' : 'in the URL';
      message = `TLS certificate of ${where} is not valid for the name "${checked}": it carries ${names}; use one of those names ${where2}, have the certificate reissued, or skip verification with -k/--insecure`;
    }
  } else if (TLS_REASONS[code]) {
    transport = false;
    // "Pass the CA with --ca-file" is no help to someone who did: say that CA is not the one,
    // and name the issuer the server presented; an expired certificate says since when.
    const trustFix = TLS_REASONS[code][1] === TRUST_FIX;
    const fix =
      trustFix && trust.ca !== undefined
        ? `the CA given (${trust.caSource ?? '--ca-file'}) did not sign it: give the CA that signed the server's certificate, or skip verification with -k/--insecure`
        : TLS_REASONS[code][1];
    const cert = e.peer ?? e.cert;
    const issuer = trustFix ? issuerOf(cert) : undefined;
    const until = code === 'CERT_HAS_EXPIRED' ? dateOf(cert?.valid_to) : undefined;
    const from = code === 'CERT_NOT_YET_VALID' ? dateOf(cert?.valid_from) : undefined;
    const detail = issuer ? ` (issuer ${issuer})` : '';
    const when = until ? ` (it expired on ${until})` : from ? ` (it is valid from ${from})` : '';
    message = `TLS verification of ${where} failed: ${TLS_REASONS[code][0]}${detail}; ${fix}${when}`;
  } else if (code.startsWith('ERR_SSL_') || code === 'EPROTO' || /SSL|TLS/.test(e?.message ?? '')) {
    message = `TLS handshake with ${where} failed (${code || e.message}); check that the URL is https:// on a TLS port`;
  } else if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(e?.message ?? '')) {
    message = `connection to ${where}${proxyNote} was reset before the response was complete; retry, or check load balancers and proxies in between`;
  } else if (code === 'ERR_INVALID_URL') {
    transport = false;
    message = `invalid URL "${url.href}"`;
  } else {
    message = `request to ${where}${proxyNote} failed: ${e?.message ?? String(error)}${code ? ` (${code})` : ''}`;
  }
  return transport ? new TransportError(message, { cause: error }) : new CheckError(message, { cause: error });
}

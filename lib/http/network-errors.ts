import { CheckError } from '../plugin/errors';

const TLS_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the chain ends in a self-signed CA that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate was issued by an unknown CA',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate was issued by an unknown CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate was issued by an unknown CA',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet (check the clock)',
  CERT_SIGNATURE_FAILURE: 'the certificate signature is invalid',
  CERT_REVOKED: 'the certificate is revoked',
};

const TLS_FIX = 'pass the CA that signed it with --ca-file PATH, or skip verification with -k/--insecure';

/** Turns a socket-level failure into a CheckError that names the cause and the fix. */
export function describeNetworkError(error: unknown, url: URL, via?: URL): CheckError {
  const e = error as NodeJS.ErrnoException & { reason?: string; hostname?: string };
  const code = e?.code ?? '';
  const where = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  const proxyNote = via ? ` (through proxy ${via.host})` : '';
  let message: string;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA') {
    const host = via && e.hostname === via.hostname ? via.hostname : url.hostname;
    message = `cannot resolve host "${host}" (DNS ${code}); check the host name and the monitoring host's resolver`;
  } else if (code === 'ECONNREFUSED') {
    message = `connection refused by ${where}${proxyNote}; check the port and that the API server is running`;
  } else if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') {
    message = `cannot reach ${where}${proxyNote} (${code}); check routing, firewalls and HTTPS_PROXY`;
  } else if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    message = `TLS certificate of ${where} is not valid for the name "${url.hostname}" (${e.reason ?? 'host name mismatch'}); use a host name the certificate lists, or skip verification with -k/--insecure`;
  } else if (TLS_REASONS[code]) {
    message = `TLS verification of ${where} failed: ${TLS_REASONS[code]}; ${TLS_FIX}`;
  } else if (code.startsWith('ERR_SSL_') || code === 'EPROTO' || /SSL|TLS/.test(e?.message ?? '')) {
    message = `TLS handshake with ${where} failed (${code || e.message}); check that the URL is https:// on a TLS port`;
  } else if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(e?.message ?? '')) {
    message = `connection to ${where}${proxyNote} was reset before the response was complete; retry, or check load balancers and proxies in between`;
  } else if (code === 'ERR_INVALID_URL') {
    message = `invalid URL "${url.href}"`;
  } else {
    message = `request to ${where}${proxyNote} failed: ${e?.message ?? String(error)}${code ? ` (${code})` : ''}`;
  }
  return new CheckError(message, { cause: error });
}

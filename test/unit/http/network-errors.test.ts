import { describe, expect, it } from 'vitest';
import { describeNetworkError, TransportError } from '../../../lib/http/network-errors';
import { CheckError } from '../../../lib/plugin/errors';

const url = new URL('https://api.cluster.example.com:6443/api/v1/nodes');
const err = (code: string, message = code, extra: object = {}) => Object.assign(new Error(message), { code, ...extra });

describe('describeNetworkError', () => {
  it.each([
    ['ENOTFOUND', /cannot resolve host "api\.cluster\.example\.com" \(DNS ENOTFOUND\)/],
    ['EAI_AGAIN', /cannot resolve host .*DNS EAI_AGAIN/],
    ['ECONNREFUSED', /connection refused by api\.cluster\.example\.com:6443; check the port/],
    ['EHOSTUNREACH', /cannot reach api\.cluster\.example\.com:6443 \(EHOSTUNREACH\); check routing, firewalls and HTTPS_PROXY/],
    ['ETIMEDOUT', /cannot reach .*ETIMEDOUT/],
    [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      /TLS verification of api\.cluster\.example\.com:6443 failed: the certificate is self-signed; pass the CA that signed it with --ca-file PATH, or skip verification with -k\/--insecure/,
    ],
    ['SELF_SIGNED_CERT_IN_CHAIN', /self-signed CA that is not trusted; pass .*--ca-file/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /issued by an unknown CA/],
    [
      'CERT_HAS_EXPIRED',
      /^TLS verification of api\.cluster\.example\.com:6443 failed: the certificate has expired; renew the server's certificate, or check this host's clock if it should still be valid$/,
    ],
    ['CERT_NOT_YET_VALID', /the certificate is not valid yet; check this host's clock/],
    ['CERT_REVOKED', /the certificate is revoked; have the server's certificate replaced$/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /not valid for the name "api\.cluster\.example\.com".*-k\/--insecure/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', /TLS handshake with .* failed .*check that the URL is https:\/\/ on a TLS port/],
    ['ECONNRESET', /was reset before the response was complete/],
    ['EWHATEVER', /request to api\.cluster\.example\.com:6443 failed: EWHATEVER \(EWHATEVER\)/],
  ])('%s', (code, message) => {
    const e = describeNetworkError(err(code), url);
    expect(e).toBeInstanceOf(CheckError);
    expect(e.message).toMatch(message);
  });

  it('no answer to judge (refused, unreachable, reset, hung up, a failed handshake) is a TransportError; a refused certificate is not', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', 'EPIPE', 'ERR_SSL_WRONG_VERSION_NUMBER', 'EWHATEVER'])
      expect(describeNetworkError(err(code), url), code).toBeInstanceOf(TransportError);
    expect(describeNetworkError(err('', 'socket hang up'), url)).toBeInstanceOf(TransportError);
    for (const code of ['DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_INVALID_URL'])
      expect(describeNetworkError(err(code), url), code).not.toBeInstanceOf(TransportError);
  });

  it('names the proxy when the request went through one', () => {
    expect(describeNetworkError(err('ECONNRESET'), url, new URL('http://proxy.corp:3128')).message).toMatch(/\(through proxy proxy\.corp:3128\)/);
  });

  it('sends only the CA-trust failures to --ca-file and -k', () => {
    for (const code of ['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED', 'CERT_SIGNATURE_FAILURE']) {
      expect(describeNetworkError(err(code), url).message).not.toMatch(/--ca-file|--insecure/);
    }
  });

  it('names the DNS and IP names a wrong-host certificate carries', () => {
    // Node's checkServerIdentity error for an IP host lists only the IP SANs ("is not in the
    // cert's list: " with nothing after it when there are none); the peer certificate rides along.
    const mismatch = err('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames: IP: 10.0.0.5 is not in the cert's list: ", {
      reason: "IP: 10.0.0.5 is not in the cert's list: ",
      host: '10.0.0.5',
      cert: {
        subject: { CN: 'api.cluster.example.com' },
        subjectaltname: 'DNS:api.cluster.example.com, DNS:api-int.cluster.example.com, IP Address:172.30.0.1',
      },
    });
    expect(describeNetworkError(mismatch, new URL('https://10.0.0.5:6443/')).message).toBe(
      'TLS certificate of 10.0.0.5:6443 is not valid for the name "10.0.0.5": it carries DNS:api.cluster.example.com, DNS:api-int.cluster.example.com, IP:172.30.0.1; use one of those names in the URL, have the certificate reissued, or skip verification with -k/--insecure',
    );
    // The Icinga 2 API: a name option and no -k for that connection.
    expect(describeNetworkError(mismatch, new URL('https://10.0.0.5:5665/'), undefined, { serverNameOption: '--icinga2-server-name' }).message).toBe(
      'TLS certificate of 10.0.0.5:5665 is not valid for the name "10.0.0.5": it carries DNS:api.cluster.example.com, DNS:api-int.cluster.example.com, IP:172.30.0.1; give one of those names with --icinga2-server-name, or have the certificate reissued',
    );
    const cnOnly = err('ERR_TLS_CERT_ALTNAME_INVALID', 'x', { cert: { subject: { CN: 'legacy.example.com' } } });
    expect(describeNetworkError(cnOnly, url).message).toMatch(/it carries only the common name legacy\.example\.com \(no subjectAltName\)/);
    expect(describeNetworkError(err('ERR_TLS_CERT_ALTNAME_INVALID'), url).message).toMatch(/it carries no names/);
  });

  it('blames the proxy, not the API server, when the proxy cannot be reached', () => {
    const proxy = new URL('http://127.0.0.1:3128');
    expect(describeNetworkError(err('ECONNREFUSED'), url, proxy).message).toBe(
      'proxy 127.0.0.1:3128 refused the connection on the way to api.cluster.example.com:6443; check that the proxy is running, or HTTPS_PROXY/HTTP_PROXY and NO_PROXY',
    );
    expect(describeNetworkError(err('ENOTFOUND'), url, new URL('http://proxy.corp:8080')).message).toMatch(
      /^proxy proxy\.corp:8080 could not be resolved \(DNS ENOTFOUND\)/,
    );
    expect(describeNetworkError(err('ETIMEDOUT'), url, proxy).message).toMatch(/^proxy 127\.0\.0\.1:3128 could not be reached \(ETIMEDOUT\)/);
    expect(describeNetworkError(err('ECONNREFUSED'), url, proxy).message).not.toMatch(/API server/);
  });

  it('does not advise --ca-file to someone who gave one: that CA is not the right one', () => {
    const given = describeNetworkError(err('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), url, undefined, { ca: '-----BEGIN CERTIFICATE-----' }).message;
    expect(given).toBe(
      "TLS verification of api.cluster.example.com:6443 failed: the certificate was issued by an unknown CA; the CA given (--ca-file) did not sign it: give the CA that signed the server's certificate, or skip verification with -k/--insecure",
    );
    expect(given).not.toMatch(/pass the CA/);
    // Expiry is not a trust matter, CA given or not.
    expect(describeNetworkError(err('CERT_HAS_EXPIRED'), url, undefined, { ca: 'x' }).message).toMatch(/renew the server's certificate/);
  });

  it('names where the CA came from, per API: --ca-file, or the kubeconfig', () => {
    const vcd = describeNetworkError(err('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), url, undefined, { ca: 'x', caSource: '--ca-file' }).message;
    expect(vcd).toContain('the CA given (--ca-file) did not sign it');
    expect(vcd).not.toContain('kubeconfig');
    const kc = { ca: 'x', caSource: 'certificate-authority of kubeconfig /etc/icinga2/kubeconfig' };
    expect(describeNetworkError(err('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), url, undefined, kc).message).toContain(
      'the CA given (certificate-authority of kubeconfig /etc/icinga2/kubeconfig) did not sign it',
    );
  });

  it('names the issuer the server presented, and when an expired certificate expired', () => {
    const peer = { issuer: { CN: 'Acme "Root"\nCA', O: 'Acme' }, valid_from: 'Jan  1 00:00:00 2020 GMT', valid_to: 'Jan  2 00:00:00 2020 GMT' };
    expect(describeNetworkError(err('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'x', { peer }), url, undefined, { ca: 'x' }).message).toContain(
      "issued by an unknown CA (issuer CN=Acme 'Root' CA, O=Acme); the CA given (--ca-file) did not sign it",
    );
    expect(describeNetworkError(err('CERT_HAS_EXPIRED', 'x', { peer }), url).message).toBe(
      "TLS verification of api.cluster.example.com:6443 failed: the certificate has expired; renew the server's certificate, or check this host's clock if it should still be valid (it expired on 2020-01-02T00:00Z)",
    );
  });
});

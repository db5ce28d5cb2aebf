import { describe, expect, it } from 'vitest';
import { describeNetworkError } from '../../../lib/http/network-errors';
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
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /TLS verification of api\.cluster\.example\.com:6443 failed: the certificate is self-signed; pass the CA that signed it with --ca-file PATH, or skip verification with -k\/--insecure/],
    ['SELF_SIGNED_CERT_IN_CHAIN', /self-signed CA that is not trusted; pass .*--ca-file/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /issued by an unknown CA/],
    ['CERT_HAS_EXPIRED', /the certificate has expired/],
    ['CERT_NOT_YET_VALID', /not valid yet \(check the clock\)/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /not valid for the name "api\.cluster\.example\.com".*-k\/--insecure/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', /TLS handshake with .* failed .*check that the URL is https:\/\/ on a TLS port/],
    ['ECONNRESET', /was reset before the response was complete/],
    ['EWHATEVER', /request to api\.cluster\.example\.com:6443 failed: EWHATEVER \(EWHATEVER\)/],
  ])('%s', (code, message) => {
    const e = describeNetworkError(err(code), url);
    expect(e).toBeInstanceOf(CheckError);
    expect(e.message).toMatch(message);
  });

  it('names the proxy when the request went through one', () => {
    expect(describeNetworkError(err('ECONNREFUSED'), url, new URL('http://proxy.corp:3128')).message).toMatch(/\(through proxy proxy\.corp:3128\)/);
  });
});

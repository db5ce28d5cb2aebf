import { describe, expect, it } from 'vitest';
import { bypassesProxy, maskedProxyUrl, proxyAuthorization, proxyFor } from '../../../lib/http/proxy';
import { runRedactor } from '../../../lib/plugin/redact';
import { CheckError } from '../../../lib/plugin/errors';

describe('proxyFor', () => {
  const https = new URL('https://api.cluster.example.com:6443/api/v1/nodes');
  const http = new URL('http://vcd.example.com/api');
  it('takes HTTPS_PROXY for https and HTTP_PROXY for http, either case', () => {
    expect(proxyFor(https, { HTTPS_PROXY: 'http://proxy:3128' })?.host).toBe('proxy:3128');
    expect(proxyFor(https, { https_proxy: 'proxy.corp:8080' })?.href).toBe('http://proxy.corp:8080/');
    expect(proxyFor(https, { HTTP_PROXY: 'http://proxy:3128' })).toBeUndefined();
    expect(proxyFor(http, { HTTP_PROXY: 'http://proxy:3128' })?.host).toBe('proxy:3128');
    expect(proxyFor(http, { ALL_PROXY: 'http://all:1' })?.host).toBe('all:1');
    expect(proxyFor(https, {})).toBeUndefined();
  });
  it('honours NO_PROXY', () => {
    expect(proxyFor(https, { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com' })).toBeUndefined();
    expect(proxyFor(https, { HTTPS_PROXY: 'http://p:1', no_proxy: 'other.org' })?.host).toBe('p:1');
  });
  it('refuses a proxy URL it cannot read, naming the variable', () => {
    expect(() => proxyFor(https, { HTTPS_PROXY: 'http://[bad' })).toThrow(CheckError);
    expect(() => proxyFor(https, { HTTPS_PROXY: 'http://[bad' })).toThrow(
      /^HTTPS_PROXY "http:\/\/\[bad" is not a valid proxy URL; expected http:\/\/host:port$/,
    );
  });
  it.each(['socks5://127.0.0.1:1080', 'socks5h://proxy.corp:1080', 'socks4://p:1080', 'https://proxy.corp:3129'])(
    'refuses the non-HTTP proxy %s instead of speaking HTTP to it',
    (raw) => {
      expect(() => proxyFor(https, { HTTPS_PROXY: raw })).toThrow(
        /^HTTPS_PROXY is a \w+:\/\/ proxy \(.+\), which is not supported: only http:\/\/ proxies \(HTTP CONNECT\) are; give an HTTP proxy, or list api\.cluster\.example\.com in NO_PROXY to go direct$/,
      );
      expect(() => proxyFor(https, { all_proxy: raw })).toThrow(/^all_proxy is a /);
      // NO_PROXY still wins: a host that goes direct never looks at the proxy.
      expect(proxyFor(https, { HTTPS_PROXY: raw, NO_PROXY: '.example.com' })).toBeUndefined();
    },
  );
  it('never prints proxy credentials of an unreadable URL', () => {
    expect(() => proxyFor(https, { HTTPS_PROXY: 'http://user:s3cret@[bad' })).toThrow(/<user>@/);
    expect(() => proxyFor(https, { HTTPS_PROXY: 'http://user:s3cret@[bad' })).not.toThrow(/s3cret/);
  });
  it.each([
    ['a password with @', 'http://monitor:p@ss-s3cret@[bad'],
    ['a password with /', 'http://monitor:pa/ss-s3cret@[bad'],
    ['a password with : and %', 'http://monitor:pa:ss%zz-s3cret@[bad'],
    ['no scheme', 'monitor:ss-s3cret@[bad]x'],
  ])('masks everything before the last @, %s', (_, raw) => {
    const error = (() => {
      try {
        proxyFor(https, { HTTPS_PROXY: raw });
      } catch (e) {
        return String(e);
      }
      return '';
    })();
    expect(error).toMatch(/<user>@/);
    expect(error).not.toMatch(/s3cret|monitor/);
  });
  it('maskedProxyUrl: one rule for HTTPS_PROXY and a kubeconfig proxy-url', () => {
    expect(maskedProxyUrl('http://u:p@ss@proxy:3128')).toBe('http://<user>@proxy:3128');
    expect(maskedProxyUrl('proxy.example.com:3128')).toBe('proxy.example.com:3128');
  });
  it('proxyAuthorization registers the password, as given and decoded, and the Basic value as secrets', () => {
    const value = proxyAuthorization(new URL('http://monitor:Sommer%40zeit@proxy:3128'))!;
    expect(value).toBe(`Basic ${Buffer.from('monitor:Sommer@zeit').toString('base64')}`);
    expect(runRedactor.redact(`proxy said: Sommer@zeit / Sommer%40zeit / ${value.slice(6)}`)).toBe('proxy said: <redacted> / <redacted> / <redacted>');
    expect(proxyAuthorization(new URL('http://proxy:3128'))).toBeUndefined();
  });
});

describe('bypassesProxy', () => {
  const u = (s: string) => new URL(s);
  it.each([
    ['https://api.example.com:6443', '*', true],
    ['https://api.example.com:6443', 'example.com', true],
    ['https://api.example.com:6443', '.example.com', true],
    ['https://api.example.com:6443', '*.example.com', true],
    ['https://example.com', '.example.com', true],
    ['https://api.example.com:6443', 'api.example.com:6443', true],
    ['https://api.example.com:6443', 'api.example.com:443', false],
    ['https://api.example.com', 'api.example.com:443', true],
    ['https://notexample.com', 'example.com', false],
    ['https://127.0.0.1:8443', '127.0.0.1', true],
    ['https://127.0.0.1:8443', 'localhost, 10.0.0.1', false],
    ['https://[::1]:8443', '::1', true],
    ['https://api.example.com', '', false],
    // CIDR entries, as curl (7.86+) and Go's httpproxy read them: IP-literal hosts only.
    ['https://127.0.0.1:8443', '127.0.0.0/8', true],
    ['https://127.200.3.4:8443', 'localhost,127.0.0.0/8', true],
    ['https://10.12.0.5:6443', '10.0.0.0/8', true],
    ['https://11.0.0.1:6443', '10.0.0.0/8', false],
    ['https://192.168.1.20', '192.168.1.0/24', true],
    ['https://192.168.2.20', '192.168.1.0/24', false],
    ['https://10.0.0.1', '0.0.0.0/0', true],
    ['https://api.example.com', '10.0.0.0/8', false],
    ['https://[fd00::12]:6443', 'fd00::/8', true],
    ['https://[fe80::1]:6443', 'fd00::/8', false],
    ['https://[::1]:6443', '[::1]/128', true],
    ['https://[::1]:6443', '0:0:0:0:0:0:0:1', true],
    ['https://[::1]:6443', '[::1]:6443', true],
    ['https://[::1]:6443', '[::1]:443', false],
    ['https://11.2.3.4', '1.2.3.4', false],
    ['https://127.0.0.1:8443', '127.0.0.0/33', false],
  ])('%s with NO_PROXY=%j -> %s', (url, noProxy, expected) => {
    expect(bypassesProxy(u(url), noProxy)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFor } from '../../../lib/http/proxy';

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
  it('ignores a proxy URL it cannot read', () => {
    expect(proxyFor(https, { HTTPS_PROXY: 'http://[bad' })).toBeUndefined();
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
  ])('%s with NO_PROXY=%j -> %s', (url, noProxy, expected) => {
    expect(bypassesProxy(u(url), noProxy)).toBe(expected);
  });
});

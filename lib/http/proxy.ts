import { BlockList, isIP } from 'node:net';
import { CheckError } from '../plugin/errors';
import { runRedactor } from '../plugin/redact';

/**
 * The proxy URL the environment asks for to reach `target`, or undefined (NO_PROXY, none set).
 * Only http:// proxies (HTTP CONNECT) are spoken: any other scheme is refused rather than
 * taken for HTTP, so a SOCKS proxy never receives the request in a protocol it cannot read.
 */
export function proxyFor(target: URL, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const names =
    target.protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy'] : ['HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];
  const name = names.find((n) => env[n] !== undefined && env[n] !== '');
  if (name === undefined) return undefined;
  const raw = (env[name] as string).trim();
  if (bypassesProxy(target, env.NO_PROXY ?? env.no_proxy ?? '')) return undefined;
  let proxy: URL;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    throw new CheckError(`${name} ${JSON.stringify(maskedProxyUrl(raw))} is not a valid proxy URL; expected http://host:port`);
  }
  if (proxy.protocol !== 'http:') {
    throw new CheckError(
      `${name} is a ${proxy.protocol.slice(0, -1)}:// proxy (${proxy.host}), which is not supported: only http:// proxies (HTTP CONNECT) are; give an HTTP proxy, or list ${target.hostname} in NO_PROXY to go direct`,
    );
  }
  return proxy;
}

/**
 * A proxy URL as it may be printed, even one that cannot be parsed (HTTPS_PROXY, a
 * kubeconfig's proxy-url): everything up to its last `@` (user and password, which may
 * themselves hold `@`, `/` or `:`) becomes `<user>`.
 */
export function maskedProxyUrl(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^]*@/i, '$1<user>@');
}

/**
 * The Proxy-Authorization value for a proxy URL with user info, or undefined. Its password
 * and the value itself are registered as secrets first: a proxy may echo them.
 */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username) return undefined;
  const password = safeDecode(proxy.password);
  const basic = Buffer.from(`${safeDecode(proxy.username)}:${password}`).toString('base64');
  runRedactor.add(password);
  runRedactor.add(proxy.password);
  runRedactor.add(basic);
  return `Basic ${basic}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A NO_PROXY entry in CIDR form, as a block list, or undefined when the entry is not one. */
function cidrEntry(entry: string): BlockList | undefined {
  const m = /^\[?([0-9a-f.:]+)\]?\/(\d{1,3})$/i.exec(entry);
  if (!m) return undefined;
  const family = isIP(m[1]);
  const prefix = Number(m[2]);
  if (family === 0 || prefix > (family === 4 ? 32 : 128)) return undefined;
  const list = new BlockList();
  list.addSubnet(m[1], prefix, family === 4 ? 'ipv4' : 'ipv6');
  return list;
}

/**
 * True when NO_PROXY covers the target: comma-separated host names, `.domain` suffixes,
 * `host:port`, IP addresses (IPv6 with or without brackets), CIDR ranges such as
 * `10.0.0.0/8` or `fd00::/8` (matched against IP-literal hosts, as curl and Go do), or `*`.
 */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const hostFamily = isIP(host);
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (let entry of noProxy.split(/[,\s]+/)) {
    entry = entry.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const cidr = cidrEntry(entry);
    if (cidr) {
      if (hostFamily !== 0 && cidr.check(host, hostFamily === 4 ? 'ipv4' : 'ipv6')) return true;
      continue;
    }
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1];
      entryPort = bracketed[2];
    } else if (isIP(entry) !== 6) {
      const m = /^(.*):(\d+)$/.exec(entry);
      if (m) {
        entry = m[1];
        entryPort = m[2];
      }
    }
    if (entryPort && entryPort !== port) continue;
    if (isIP(entry) !== 0 || hostFamily !== 0) {
      // Addresses match only exactly (no suffix rule: 1.2.3.4 must not cover 11.2.3.4).
      if (isIP(entry) === 6 && hostFamily === 6 ? single(entry).check(host, 'ipv6') : entry === host) return true;
      continue;
    }
    entry = entry.replace(/^\*?\./, '.');
    if (entry.startsWith('.') ? host.endsWith(entry) || host === entry.slice(1) : host === entry || host.endsWith(`.${entry}`)) {
      return true;
    }
  }
  return false;
}

// `::1` and `0:0:0:0:0:0:0:1` are one address: compare IPv6 entries by value, not text.
function single(address: string): BlockList {
  const list = new BlockList();
  list.addAddress(address, 'ipv6');
  return list;
}

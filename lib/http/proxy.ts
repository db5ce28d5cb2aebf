/** The proxy URL the environment asks for to reach `target`, or undefined (NO_PROXY, none set). */
export function proxyFor(target: URL, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const raw =
    target.protocol === 'https:'
      ? env.HTTPS_PROXY ?? env.https_proxy ?? env.ALL_PROXY ?? env.all_proxy
      : env.HTTP_PROXY ?? env.http_proxy ?? env.ALL_PROXY ?? env.all_proxy;
  if (!raw) return undefined;
  if (bypassesProxy(target, env.NO_PROXY ?? env.no_proxy ?? '')) return undefined;
  try {
    return new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    return undefined;
  }
}

/** True when NO_PROXY (comma-separated hosts, .domains, host:port, or `*`) covers the target. */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (let entry of noProxy.split(/[,\s]+/)) {
    entry = entry.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const m = /^(.*):(\d+)$/.exec(entry);
    if (m && !entry.includes('::')) {
      entry = m[1];
      entryPort = m[2];
    }
    if (entryPort && entryPort !== port) continue;
    entry = entry.replace(/^\*?\./, '.');
    if (entry.startsWith('.') ? host.endsWith(entry) || host === entry.slice(1) : host === entry || host.endsWith(`.${entry}`)) {
      return true;
    }
  }
  return false;
}

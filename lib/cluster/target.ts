import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireTlsUnlessAllowed, tlsSettingsFrom } from '../http/options';
import type { TlsSettings } from '../http/request';
import type { RunContext } from '../plugin/context';
import { CheckError, UsageError } from '../plugin/errors';
import type { OptionSpec, ParsedOptions } from '../plugin/options';
import { readSecretFile } from '../plugin/secret-file';
import type { ClusterTarget } from './client';

/** Options that say where the cluster is and which token to use. */
export const CLUSTER_OPTIONS: readonly OptionSpec[] = [
  { long: 'url', type: 'string', arg: 'URL', description: 'API server URL, e.g. https://api.cluster.example.com:6443.' },
  { long: 'hostname', short: 'H', type: 'string', arg: 'HOST', description: 'API server host, used as https://HOST:PORT.' },
  { long: 'port', short: 'p', type: 'number', arg: 'PORT', description: 'API server port with -H (default: 8443 when HOST begins "ocp.", else 6443).' },
  { long: 'kubeconfig', type: 'string', arg: '[PATH]', optionalValue: true, description: 'Take server, token and CA from the current context of a kubeconfig (default: $KUBECONFIG, else ~/.kube/config).' },
  { long: 'token-file', type: 'string', arg: 'PATH', description: 'File holding the bearer token of the monitoring service account (read on every run).' },
  { long: 'token', type: 'string', arg: 'TOKEN', secret: true, description: 'Bearer token (discouraged: visible in the process list; prefer --token-file or $KUBE_TOKEN).' },
];

/** Environment variables that may carry the token. */
export const TOKEN_ENV = 'KUBE_TOKEN';

/** Where a pod finds its service-account token and the cluster CA. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Reads a token file, refusing a missing, unreadable or empty one; `warnings` gets a loose mode. */
export function readTokenFile(path: string, label: string, warnings: string[]): string {
  const token = readSecretFile(path, label, warnings).replace(/[\r\n]+$/, '').trim();
  if (token === '') throw new CheckError(`${label} ${path} is empty; put the service account's token in it`);
  return token;
}

function readCaFile(path: string, label: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CheckError(`cannot read ${label} ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'}); check the path, or give the CA with --ca-file`);
  }
}

/** The API server URL of `-H HOST [-p PORT]`: 8443 for v3 `ocp.` hosts, else 6443. */
export function urlFromHost(host: string, port?: number): URL {
  if (/[/\s]/.test(host) || host.includes('://')) throw new UsageError(`invalid -H/--hostname ${JSON.stringify(host)}: give a host name (or use --url for a full URL)`);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) throw new UsageError(`invalid -p/--port ${port}: expected 1-65535`);
  const p = port ?? (host.toLowerCase().startsWith('ocp.') ? 8443 : 6443);
  return new URL(`https://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${p}`);
}

function parseUrl(text: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid ${from} ${JSON.stringify(text)}: expected a URL such as https://api.cluster.example.com:6443`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`invalid ${from} ${JSON.stringify(text)}: expected an https:// URL`);
  return url;
}

/**
 * Works out the cluster URL, token and TLS trust from the options, the environment, a
 * kubeconfig or the pod's service account. The token is registered as a secret at once.
 */
export async function clusterTargetFrom(
  options: ParsedOptions,
  context: Pick<RunContext, 'addSecret'>,
  warnings: string[],
  env: NodeJS.ProcessEnv = process.env,
  serviceAccountDir = SERVICE_ACCOUNT_DIR,
): Promise<ClusterTarget> {
  const host = options.hostname as string | undefined;
  const urlText = options.url as string | undefined;
  if (host !== undefined && urlText !== undefined) throw new UsageError('give either --url or -H/--hostname, not both');
  if (options.port !== undefined && host === undefined) throw new UsageError('-p/--port needs -H/--hostname (or use --url)');
  if (options['token-file'] !== undefined && options.token !== undefined) throw new UsageError('give either --token-file or --token, not both');

  let url = urlText !== undefined ? parseUrl(urlText, '--url') : host !== undefined ? urlFromHost(host, options.port as number | undefined) : undefined;
  let tls: TlsSettings = tlsSettingsFrom(options);
  const explicitTls = tls.insecure === true || tls.ca !== undefined;
  let token: string | undefined;
  let tokenSource = '';

  if (options['token-file'] !== undefined) {
    tokenSource = `--token-file ${options['token-file'] as string}`;
    token = readTokenFile(options['token-file'] as string, '--token-file', warnings);
  } else if (options.token !== undefined) {
    token = options.token as string;
    tokenSource = '--token';
  } else if (env[TOKEN_ENV]) {
    token = env[TOKEN_ENV];
    tokenSource = `$${TOKEN_ENV}`;
  }
  context.addSecret(token);

  if (options.kubeconfig !== undefined) {
    // Loaded only when asked for: most runs never pay for the YAML parser.
    const { defaultKubeconfigPath, loadKubeconfig } = await import('./kubeconfig');
    const kc = loadKubeconfig((options.kubeconfig as string) || defaultKubeconfigPath(env));
    context.addSecret(kc.token);
    url ??= parseUrl(kc.server, `server of kubeconfig ${kc.file}`);
    if (!explicitTls) {
      if (kc.insecure) tls = { insecure: true };
      else if (kc.caPem) tls = { ca: kc.caPem };
      else if (kc.caFile) tls = { ca: readCaFile(kc.caFile, `certificate-authority of kubeconfig ${kc.file}`) };
    }
    if (token === undefined) {
      if (kc.token) {
        token = kc.token;
        tokenSource = `the token of context "${kc.context}" in ${kc.file}`;
      } else if (kc.tokenFile) {
        token = readTokenFile(kc.tokenFile, `tokenFile of kubeconfig ${kc.file}`, warnings);
        tokenSource = `the tokenFile ${kc.tokenFile} of kubeconfig ${kc.file}`;
      } else if (kc.unsupportedAuth) {
        throw new CheckError(`kubeconfig ${kc.file}: ${kc.unsupportedAuth}, which check_nodes cannot use; give a service-account token with --token-file`);
      }
    }
  }

  const inPod = env.KUBERNETES_SERVICE_HOST;
  if (url === undefined && inPod) {
    url = urlFromHost(inPod, Number(env.KUBERNETES_SERVICE_PORT || 443));
    if (!explicitTls) tls = { ca: readCaFile(join(serviceAccountDir, 'ca.crt'), "the pod's service-account CA") };
  }
  if (url === undefined) throw new UsageError('no cluster given: use --url URL, -H HOST [-p PORT] or --kubeconfig [PATH]');
  requireTlsUnlessAllowed(url, options, urlText !== undefined ? '--url' : 'the cluster URL', warnings);
  if (token === undefined && inPod) {
    token = readTokenFile(join(serviceAccountDir, 'token'), 'service-account token', warnings);
    tokenSource = `the pod's service-account token ${join(serviceAccountDir, 'token')}`;
  }
  if (token === undefined) throw new UsageError(`no token given: use --token-file PATH, $${TOKEN_ENV}, --token or --kubeconfig`);
  context.addSecret(token);
  if (!/^[\x21-\x7e]+$/.test(token)) throw new CheckError(`the token from ${tokenSource} holds spaces or control characters; it must be the bare token on one line`);
  return { url, token, tokenSource, tls };
}

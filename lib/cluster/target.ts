import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { pemCertificateBlocks, readCaFile } from '../http/ca-file';
import { requireTlsUnlessAllowed, tlsSettingsFrom, type HttpOptions } from '../http/options';
import { maskedProxyUrl } from '../http/proxy';
import type { TlsSettings } from '../http/request';
import { clientPairProblem, tokenProblem } from '../http/sendable';
import type { RunContext } from '../plugin/context';
import { CheckError, UsageError } from '../plugin/errors';
import { defineOptions, type OptionsOf } from '../plugin/options';
import { couldBeWord } from '../plugin/redact';
import { readSecretFile } from '../plugin/secret-file';
import { HttpStatusError } from './api-error';
import type { ClusterTarget } from './client';
import type { Notes } from '../plugin/notes';

/** Options that say where the cluster is and which credentials to use. */
export const CLUSTER_OPTIONS = defineOptions([
  { long: 'url', type: 'string', arg: 'URL', description: 'API server URL, e.g. https://api.cluster.example.com:6443.' },
  {
    long: 'hostname',
    short: 'H',
    type: 'string',
    arg: 'HOST',
    description: 'API server host name or IP address (IPv6 as ::1 or [::1]), used as https://HOST:PORT.',
  },
  { long: 'port', short: 'p', type: 'number', arg: 'PORT', description: 'API server port with -H (default: 8443 when HOST begins "ocp.", else 6443).' },
  {
    long: 'kubeconfig',
    type: 'string',
    arg: '[PATH]',
    optionalValue: true,
    description:
      'Take server, CA and credentials (token, tokenFile, client certificate, exec plugin) from a kubeconfig (default: the files of $KUBECONFIG, merged as kubectl does, else ~/.kube/config). Without --url or -H, a set $KUBECONFIG is used as if --kubeconfig were given.',
  },
  { long: 'context', type: 'string', arg: 'NAME', description: 'The kubeconfig context to use instead of its current-context (implies --kubeconfig).' },
  { long: 'token-file', type: 'string', arg: 'PATH', description: 'File holding the bearer token of the monitoring service account (read on every run).' },
  {
    long: 'token',
    type: 'string',
    arg: 'TOKEN',
    secret: true,
    description: 'Bearer token (discouraged: visible in the process list; prefer --token-file or $KUBE_TOKEN).',
  },
  { long: 'client-cert', type: 'string', arg: 'FILE', description: 'PEM client certificate to authenticate with (with --client-key), instead of a token.' },
  { long: 'client-key', type: 'string', arg: 'FILE', description: 'PEM private key of --client-cert (keep it mode 0600).' },
  {
    long: 'cache-dir',
    type: 'string',
    arg: 'DIR',
    description: 'Where credentials of kubeconfig exec plugins are kept until they expire (default $XDG_CACHE_HOME/cloudchecks or ~/.cache/cloudchecks).',
  },
  { long: 'no-cache', type: 'boolean', description: 'Run the kubeconfig exec plugin on every check instead of keeping its credential.' },
]);

/** What a cluster target is made from: the cluster options and the HTTP ones, as parsed. */
export type ClusterOptions = OptionsOf<typeof CLUSTER_OPTIONS> & HttpOptions;

/** Where a cluster plugin finds its credentials, in order. */
export const CLUSTER_CREDENTIALS_NOTE =
  "Credentials, first found wins: --token-file, --token, $KUBE_TOKEN, --client-cert/--client-key, the kubeconfig user (token, tokenFile, client certificate, exec plugin), the pod's service account.";

/** What --ca-file means for a cluster: the only CA trusted, as kubectl --certificate-authority and curl --cacert. */
export const CLUSTER_CA_NOTE =
  "Trust: a CA from --ca-file, the kubeconfig (certificate-authority[-data]) or the pod's service account is the only CA trusted for the cluster, as with kubectl; without one, the system CAs are.";

/** What to do when a CA file of the cluster cannot be read. */
const CA_FIX = 'check the path, or give the CA with --ca-file';

/** Environment variables that may carry the token. */
export const TOKEN_ENV = 'KUBE_TOKEN';

/** Where a pod finds its service-account token and the cluster CA. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Reads a token file, refusing a missing, unreadable or empty one; `notes` gets a loose mode. */
export function readTokenFile(path: string, label: string, notes: Notes): string {
  const token = readSecretFile(path, label, notes)
    .replace(/[\r\n]+$/, '')
    .trim();
  if (token === '') throw new CheckError(`${label} ${path} is empty; put the service account's token in it`);
  return token;
}

/**
 * The API server URL of `-H HOST [-p PORT]`: 8443 for v3 `ocp.` hosts, else 6443. A URL, a
 * host with a port or anything else that is no host is a usage error saying what to write.
 */
export function urlFromHost(host: string, port?: number): URL {
  const shown = JSON.stringify(host);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host.trim()))
    throw new UsageError(`invalid -H/--hostname ${shown}: -H takes a host name, not a URL; use --url ${host.trim()}`);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) throw new UsageError(`invalid -p/--port ${port}: expected 1-65535`);
  let name = host.trim();
  let withPort: string | undefined;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(name);
  if (bracketed) {
    name = bracketed[1];
    withPort = bracketed[2];
    if (isIP(name) !== 6) throw new UsageError(`invalid -H/--hostname ${shown}: brackets hold an IPv6 address, e.g. -H ::1 or -H [::1]`);
  } else if (isIP(name) !== 6 && name.includes(':')) {
    const at = name.lastIndexOf(':');
    withPort = name.slice(at + 1);
    name = name.slice(0, at);
  }
  const v6 = isIP(name) === 6;
  if (withPort !== undefined) {
    const p = /^\d{1,5}$/.test(withPort) ? withPort : 'PORT';
    const h = v6 ? `[${name}]` : name;
    throw new UsageError(
      `invalid -H/--hostname ${shown}: give the port with -p, as -H ${v6 ? name : name || 'HOST'} -p ${p} (or use --url https://${h || 'HOST'}:${p})`,
    );
  }
  if (!v6 && !/^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_.])?$/.test(name)) {
    throw new UsageError(
      `invalid -H/--hostname ${shown}: give a host name or IP address such as api.cluster.example.com, 10.0.0.5 or ::1 (or use --url for a full URL)`,
    );
  }
  const p = port ?? (name.toLowerCase().startsWith('ocp.') ? 8443 : 6443);
  try {
    return new URL(`https://${v6 ? `[${name}]` : name}:${p}`);
  } catch {
    throw new UsageError(`invalid -H/--hostname ${shown}: not a host name; use --url https://HOST:PORT`);
  }
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

function readPem(path: string, label: string, kind: 'CERTIFICATE' | 'PRIVATE KEY', notes: Notes): string {
  const text = kind === 'PRIVATE KEY' ? readSecretFile(path, label, notes) : readCaFile(path, label);
  const marker = kind === 'PRIVATE KEY' ? /-----BEGIN [A-Z ]*PRIVATE KEY-----/ : /-----BEGIN CERTIFICATE-----/;
  if (!marker.test(text)) throw new CheckError(`${label} ${path} holds no PEM ${kind.toLowerCase()} (-----BEGIN ${kind}-----); check the file`);
  return text;
}

/** The runtime a cluster target needs: secrets, and for exec plugins the deadline and log. */
export type TargetContext = Pick<RunContext, 'addSecret'> & Partial<Pick<RunContext, 'deadline' | 'signal' | 'setPhase'>>;

/**
 * What a cluster target is made of while it is worked out: each source (options, kubeconfig,
 * the pod's service account) fills what the ones before it left open.
 */
interface TargetDraft {
  url?: URL;
  tls: TlsSettings;
  trustSource: string;
  /** -k or --ca-file given: no kubeconfig or service-account CA replaces them. */
  explicitTls: boolean;
  token?: string;
  tokenSource: string;
  credential: NonNullable<ClusterTarget['credential']>;
  haveCert: boolean;
  /** A fresh credential after a 401, from the target it renews. */
  renewFrom?: (target: ClusterTarget) => Promise<ClusterTarget | undefined>;
}

/**
 * Works out the cluster URL, credentials and TLS trust from the options, the environment, a
 * kubeconfig or the pod's service account. Every secret is registered at once.
 */
export async function clusterTargetFrom(
  options: ClusterOptions,
  context: TargetContext,
  notes: Notes,
  env: NodeJS.ProcessEnv = process.env,
  serviceAccountDir = SERVICE_ACCOUNT_DIR,
): Promise<ClusterTarget> {
  checkOptionPairs(options);
  const draft = draftFromOptions(options, context, notes, env);
  const choice: KubeconfigChoice = {
    path: options.kubeconfig || undefined,
    contextName: options.context,
    cache: options['no-cache'] ? false : { dir: options['cache-dir'] },
  };
  // As kubectl: $KUBECONFIG names the cluster when nothing on the command line does.
  const kubeconfigFromEnv = draft.url === undefined && (env.KUBECONFIG ?? '').trim() !== '';
  if (options.kubeconfig !== undefined || options.context !== undefined || kubeconfigFromEnv) await applyKubeconfig(draft, choice, context, notes, env);
  const inPod = env.KUBERNETES_SERVICE_HOST;
  if (draft.url === undefined && inPod) {
    draft.url = urlFromHost(inPod, Number(env.KUBERNETES_SERVICE_PORT || 443));
    if (!draft.explicitTls) {
      draft.tls = {
        ...draft.tls,
        ca: readCaFile(join(serviceAccountDir, 'ca.crt'), "the pod's service-account CA", CA_FIX),
        caOnly: true,
        caSource: "the pod's service-account CA",
      };
      draft.trustSource = `only the pod's service-account CA ${join(serviceAccountDir, 'ca.crt')}`;
    }
  }
  const url = draft.url;
  if (url === undefined) throw new UsageError('no cluster given: use --url URL, -H HOST [-p PORT] or --kubeconfig [PATH]');
  requireTlsUnlessAllowed(url, options, options.url !== undefined ? '--url' : 'the cluster URL', notes);
  if (draft.token === undefined && inPod && !draft.haveCert) {
    draft.token = readTokenFile(join(serviceAccountDir, 'token'), 'service-account token', notes);
    draft.tokenSource = `the pod's service-account token ${join(serviceAccountDir, 'token')}`;
  }
  if (draft.token === undefined && !draft.haveCert)
    throw new UsageError(`no credentials given: use --token-file PATH, $${TOKEN_ENV}, --token, --client-cert with --client-key, or --kubeconfig`);
  const { token, tokenSource, tls, trustSource, renewFrom } = draft;
  const target: ClusterTarget = {
    url,
    token,
    tokenSource,
    credential: token !== undefined ? 'token' : draft.credential,
    tls,
    trustSource,
    renew: renewFrom && (() => renewFrom(target)),
  };
  return checkedToken(target);
}

/** Options that exclude or need each other. */
function checkOptionPairs(options: ClusterOptions): void {
  if (options.hostname !== undefined && options.url !== undefined) throw new UsageError('give either --url or -H/--hostname, not both');
  if (options.port !== undefined && options.hostname === undefined) throw new UsageError('-p/--port needs -H/--hostname (or use --url)');
  if (options['token-file'] !== undefined && options.token !== undefined) throw new UsageError('give either --token-file or --token, not both');
  if ((options['client-cert'] === undefined) !== (options['client-key'] === undefined))
    throw new UsageError('--client-cert and --client-key go together: give both');
}

/** What the command line (and $KUBE_TOKEN) say: URL, trust, token or client certificate. */
function draftFromOptions(options: ClusterOptions, context: TargetContext, notes: Notes, env: NodeJS.ProcessEnv): TargetDraft {
  const { hostname: host, url: urlText } = options;
  const url = urlText !== undefined ? parseUrl(urlText, '--url') : host !== undefined ? urlFromHost(host, options.port) : undefined;
  // --ca-file is the cluster's CA: the only trust anchor, as kubectl --certificate-authority.
  const tls: TlsSettings = { ...tlsSettingsFrom(options) };
  const trustSource = tls.insecure ? 'not verified (-k)' : tls.ca ? `only --ca-file ${options['ca-file']}` : 'the system CAs';
  const draft: TargetDraft = {
    url,
    tls,
    trustSource,
    explicitTls: tls.insecure === true || tls.ca !== undefined,
    tokenSource: '',
    credential: 'token',
    haveCert: false,
  };
  if (tls.ca) tls.caOnly = true;
  const tokenFile = options['token-file'];
  if (tokenFile !== undefined) {
    draft.tokenSource = `--token-file ${tokenFile}`;
    draft.token = readTokenFile(tokenFile, '--token-file', notes);
  } else if (options.token !== undefined) {
    draft.token = options.token;
    draft.tokenSource = '--token';
  } else if (env[TOKEN_ENV]) {
    draft.token = env[TOKEN_ENV];
    draft.tokenSource = `$${TOKEN_ENV}`;
  }
  context.addSecret(draft.token);
  const certFile = options['client-cert'];
  const keyFile = options['client-key'];
  if (certFile !== undefined && keyFile !== undefined) {
    tls.cert = readPem(certFile, '--client-cert', 'CERTIFICATE', notes);
    tls.key = readPem(keyFile, '--client-key', 'PRIVATE KEY', notes);
    context.addSecret(tls.key);
    draft.haveCert = true;
    if (draft.token === undefined) {
      draft.credential = 'client certificate';
      draft.tokenSource = `--client-cert ${certFile} and --client-key ${keyFile}`;
    }
  }
  return draft;
}

type Kubeconfig = Awaited<ReturnType<typeof import('./kubeconfig').loadKubeconfig>>;

/** Which kubeconfig and context (--kubeconfig, --context), and where exec credentials are kept (--cache-dir, or false with --no-cache). */
interface KubeconfigChoice {
  /** Undefined: $KUBECONFIG or the default path. */
  path?: string;
  contextName?: string;
  cache: { dir?: string } | false;
}

/** The kubeconfig's cluster (URL, trust, server name, proxy) and, when none was given, its user's credential. */
async function applyKubeconfig(draft: TargetDraft, choice: KubeconfigChoice, context: TargetContext, notes: Notes, env: NodeJS.ProcessEnv): Promise<void> {
  // Loaded only when asked for: most runs never pay for the YAML parser.
  const { kubeconfigPaths, loadKubeconfig } = await import('./kubeconfig');
  const { paths, explicit } = kubeconfigPaths(choice.path, env);
  const kc = await loadKubeconfig(paths, { contextName: choice.contextName, explicit });
  const { user } = kc;
  context.addSecret(user.token);
  context.addSecret(user.keyPem);
  // An exec plugin's env is configuration as often as secrets (AWS_PROFILE=default,
  // AWS_STS_REGIONAL_ENDPOINTS=regional): values under a secret's name are secrets at any
  // length, the others only when they could not be ordinary words ("1" would be redacted
  // from every server message).
  for (const v of user.exec?.env ?? []) if (SECRET_ENV_NAME.test(v.name) || !couldBeWord(v.value)) context.addSecret(v.value);
  for (const f of kc.looseFiles) notes.add(`kubeconfig ${f} holds a secret and is readable by others; chmod 600 it`);
  applyKubeconfigCluster(draft, kc);
  if (draft.token === undefined && !draft.haveCert) await applyKubeconfigUser(draft, kc, choice.cache, context, notes, env);
}

function applyKubeconfigCluster(draft: TargetDraft, kc: Kubeconfig): void {
  const { cluster } = kc;
  const where = `kubeconfig ${kc.file}`;
  draft.url ??= parseUrl(cluster.server, `server of cluster "${cluster.name}" in ${where}`);
  if (!draft.explicitTls) {
    if (cluster.insecure) {
      draft.tls = { ...draft.tls, insecure: true, ca: undefined, caOnly: undefined, caSource: undefined };
      draft.trustSource = `not verified (insecure-skip-tls-verify in ${where})`;
    } else if (cluster.caPem) {
      draft.tls = { ...draft.tls, ca: cluster.caPem, caOnly: true, caSource: `certificate-authority-data of ${where}` };
      draft.trustSource = `only the certificate-authority-data of cluster "${cluster.name}"`;
    } else if (cluster.caFile) {
      draft.tls = {
        ...draft.tls,
        ca: readCaFile(cluster.caFile, `certificate-authority of ${where}`, CA_FIX),
        caOnly: true,
        caSource: `certificate-authority of ${where}`,
      };
      draft.trustSource = `only the certificate-authority ${cluster.caFile}`;
    }
  }
  if (cluster.tlsServerName) draft.tls.serverName = cluster.tlsServerName;
  if (cluster.proxyUrl) draft.tls.proxy = proxyFromKubeconfig(cluster.proxyUrl, `proxy-url of cluster "${cluster.name}" in ${where}`);
}

/** The kubeconfig user's credential: a client certificate, a token, a tokenFile, or an exec plugin. */
async function applyKubeconfigUser(
  draft: TargetDraft,
  kc: Kubeconfig,
  cache: KubeconfigChoice['cache'],
  context: TargetContext,
  notes: Notes,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const { user } = kc;
  const where = `kubeconfig ${kc.file}`;
  const who = `user "${user.name}" of context "${kc.context}" in ${kc.file}`;
  if (user.certPem !== undefined || user.certFile !== undefined) {
    draft.tls.cert = user.certPem ?? readPem(user.certFile!, `client-certificate of ${where}`, 'CERTIFICATE', notes);
    draft.tls.key = user.keyPem ?? readPem(user.keyFile!, `client-key of ${where}`, 'PRIVATE KEY', notes);
    context.addSecret(draft.tls.key);
    draft.haveCert = true;
  }
  if (user.token) {
    draft.token = user.token;
    draft.tokenSource = `the token of ${who}`;
  } else if (user.tokenFile) {
    draft.token = readTokenFile(user.tokenFile, `tokenFile of ${where}`, notes);
    draft.tokenSource = `the tokenFile ${user.tokenFile} of ${who}`;
  } else if (draft.haveCert) {
    draft.credential = 'client certificate';
    draft.tokenSource = `the client certificate of ${who}`;
  } else if (user.exec) {
    await applyExecCredential(draft, kc, who, cache, context, notes, env);
  } else if (user.name) {
    throw new CheckError(
      `kubeconfig ${kc.file}: ${who} has no credentials this check can use (token, tokenFile, client certificate or exec); give a service-account token with --token-file`,
    );
  }
}

/** Runs (or reuses the cached result of) the kubeconfig's exec credential plugin; a 401 may renew it once. */
async function applyExecCredential(
  draft: TargetDraft,
  kc: Kubeconfig,
  who: string,
  cache: KubeconfigChoice['cache'],
  context: TargetContext,
  notes: Notes,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const exec = kc.user.exec!;
  const { execCredentialFor } = await import('./exec-credential-cache');
  const { defaultCacheDir } = await import('../plugin/private-cache');
  context.setPhase?.(`running the exec credential plugin "${exec.command}" of ${who}`);
  const obtained = await execCredentialFor(kc, {
    cacheDir: cache === false ? undefined : (cache.dir ?? defaultCacheDir(env)),
    deadline: context.deadline ?? Date.now() + 10_000,
    signal: context.signal,
    env,
    addSecret: (s) => context.addSecret(s),
    notes,
  });
  draft.tokenSource = `the exec credential plugin "${exec.command}" of ${who}`;
  ({ token: draft.token, cert: draft.tls.cert, key: draft.tls.key } = obtained.credential);
  draft.haveCert = draft.tls.cert !== undefined;
  draft.credential = draft.token === undefined ? 'client certificate' : 'token';
  draft.renewFrom = async (target) => {
    const fresh = await obtained.renew();
    if (!fresh) return undefined;
    const t = {
      ...target,
      token: fresh.token,
      credential: fresh.token === undefined ? ('client certificate' as const) : ('token' as const),
      tls: { ...target.tls, cert: fresh.cert, key: fresh.key },
    };
    return checkedToken(t);
  };
}

/** Names of environment variables that hold secrets (AZURE_CLIENT_SECRET, VAULT_TOKEN, DB_PASSWORD, AWS_SECRET_ACCESS_KEY). */
const SECRET_ENV_NAME = /SECRET|TOKEN|PASS|KEY|CREDENTIAL|AUTH/i;

function checkedToken(target: ClusterTarget): ClusterTarget {
  const problem = target.token === undefined ? undefined : tokenProblem(target.token);
  if (problem) throw new CheckError(`the token from ${target.tokenSource} ${problem}; it must be the bare token on one line`);
  checkTlsMaterial(target);
  return target;
}

/**
 * Loads the CA and the client certificate pair once here, so that a broken PEM block or a key
 * that does not belong to its certificate is one message naming where they came from, not a
 * TLS library error in the middle of a request.
 */
function checkTlsMaterial(target: ClusterTarget): void {
  const { tls } = target;
  const why = (e: unknown) => String((e as Error).message ?? e).replace(/^error:[0-9A-F]+:/, '');
  if (tls.ca !== undefined && !tls.insecure) {
    try {
      // A CA Node cannot parse is silently dropped (and every server then "unknown"): parse each block.
      const blocks = pemCertificateBlocks(tls.ca);
      if (blocks.length === 0) throw new Error('no PEM certificate');
      for (const block of blocks) new X509Certificate(block);
    } catch (e) {
      throw new CheckError(`cannot use the CA (${target.trustSource ?? 'given'}): ${why(e)}; check that it is a PEM certificate`);
    }
  }
  const pair = tls.cert !== undefined && tls.key !== undefined ? clientPairProblem(tls.cert, tls.key) : undefined;
  if (pair)
    throw new CheckError(
      `cannot use the client certificate and key of ${target.tokenSource}: ${pair}; check that the key is the PEM private key of that certificate`,
    );
}

function proxyFromKubeconfig(text: string, label: string): URL {
  let proxy: URL;
  try {
    proxy = new URL(text);
  } catch {
    throw new CheckError(`${label} ${JSON.stringify(maskedProxyUrl(text))} is not a URL; check the kubeconfig`);
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new CheckError(
      `${label} is a ${proxy.protocol.replace(/:$/, '')} proxy, which cluster checks do not support; use an http:// proxy (or an SSH tunnel and --url)`,
    );
  }
  return proxy;
}

/**
 * Runs `attempt` with the target; when the server answers 401 and the credential can be
 * renewed (a cached exec credential), renews it once and runs `attempt` again.
 */
export async function withCredentialRenewal<T>(target: ClusterTarget, attempt: (target: ClusterTarget) => Promise<T>): Promise<T> {
  try {
    return await attempt(target);
  } catch (error) {
    if (!(error instanceof HttpStatusError) || error.status !== 401 || !target.renew) throw error;
    const renewed = await target.renew();
    if (!renewed) throw error;
    return attempt(renewed);
  }
}

/**
 * A check's read of the cluster: says where it goes (-vv) and what it reads (`reading`, the
 * phase a timeout names: "<reading> from <origin>"), then runs `attempt` as
 * withCredentialRenewal does.
 */
export function readCluster<T>(
  target: ClusterTarget,
  context: Pick<RunContext, 'log' | 'setPhase'>,
  reading: string,
  attempt: (target: ClusterTarget) => Promise<T>,
): Promise<T> {
  context.log(2, describeTarget(target));
  context.setPhase(`${reading} from ${target.url.origin}`);
  return withCredentialRenewal(target, attempt);
}

/** One -vv line: where the cluster is, what authenticates, whom TLS trusts. */
export function describeTarget(target: ClusterTarget): string {
  const tls = target.tls;
  const extra = [tls.serverName ? `server name ${tls.serverName}` : '', tls.proxy ? `proxy ${tls.proxy.host}` : ''].filter(Boolean).join(', ');
  return `cluster: ${target.url.href}; ${target.credential ?? 'token'} from ${target.tokenSource}; TLS: ${target.trustSource ?? (tls.insecure ? 'not verified' : tls.ca ? 'given CA' : 'the system CAs')}${extra ? ` (${extra})` : ''}`;
}

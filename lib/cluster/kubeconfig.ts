import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { countJsonContainers } from '../plugin/json-bounds';
import { parseYamlBounded, YamlLimitError } from '../plugin/yaml-bounds';
import { CheckError } from '../plugin/errors';

/** The server side of a kubeconfig context. */
export interface KubeconfigCluster {
  name: string;
  server: string;
  /** PEM text of certificate-authority-data. */
  caPem?: string;
  /** certificate-authority, resolved against the file that named it. */
  caFile?: string;
  insecure: boolean;
  /** tls-server-name: the name sent by SNI and checked in the server certificate. */
  tlsServerName?: string;
  /** proxy-url: the proxy for this cluster only. */
  proxyUrl?: string;
}

/** users[].user.exec: a credential plugin, as kubectl runs it. */
export interface ExecConfig {
  apiVersion: 'client.authentication.k8s.io/v1' | 'client.authentication.k8s.io/v1beta1';
  command: string;
  args: string[];
  env: Array<{ name: string; value: string }>;
  installHint?: string;
  provideClusterInfo: boolean;
  /** Never, IfAvailable or Always (v1 requires it; v1beta1 defaults to IfAvailable). */
  interactiveMode: string;
}

/** The credentials side of a kubeconfig context. */
export interface KubeconfigUser {
  name: string;
  token?: string;
  tokenFile?: string;
  /** client-certificate-data / client-key-data as PEM text, or the file forms resolved. */
  certPem?: string;
  certFile?: string;
  keyPem?: string;
  keyFile?: string;
  exec?: ExecConfig;
}

/** What a cluster check takes from one context of a (merged) kubeconfig. */
export interface KubeconfigContext {
  /** The files read, in precedence order. */
  files: string[];
  /** The file that defined the context (for messages). */
  file: string;
  context: string;
  cluster: KubeconfigCluster;
  user: KubeconfigUser;
  /** Files that hold the user's inline secret (token, key) and that others may read. */
  looseFiles: string[];
}

/**
 * The files kubectl would read, in precedence order: `--kubeconfig PATH` alone, else every
 * entry of $KUBECONFIG (a ':'-separated list), else ~/.kube/config.
 */
export function kubeconfigPaths(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): { paths: string[]; explicit: boolean } {
  if (explicit) return { paths: [explicit], explicit: true };
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter((p) => p.trim() !== '');
  if (listed.length > 0) return { paths: [...new Set(listed)], explicit: false };
  return { paths: [join(env.HOME || homedir(), '.kube', 'config')], explicit: true };
}

/** The kubeconfig kubectl would use first: the first file in $KUBECONFIG, else ~/.kube/config. */
export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return kubeconfigPaths(undefined, env).paths[0];
}

type Doc = Record<string, unknown>;

interface LoadedFile {
  file: string;
  doc: Doc;
  loose: boolean;
}

/** A kubeconfig larger than this is not one (real ones are a few KiB; a bundle of 50 clusters is 200 KiB). */
const MAX_KUBECONFIG_BYTES = 4 * 1024 * 1024;

function readKubeconfigFile(file: string): { text: string; loose: boolean } | 'missing' {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw unreadable(file, e);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('not a file'), { code: st.isDirectory() ? 'EISDIR' : 'not a regular file' });
    if (st.size > MAX_KUBECONFIG_BYTES) throw new CheckError(`kubeconfig ${file} is ${st.size} bytes, larger than any kubeconfig (4 MiB); check the path`);
    // Whoever may write it chooses the server the token goes to and the command an exec plugin runs as this user.
    if (st.mode & 0o022) {
      throw new CheckError(
        `kubeconfig ${file} is writable by others (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}), so anyone could make it run a command as this user (exec) or send the credentials elsewhere (server); chmod go-w ${file}`,
      );
    }
    return { text: readFileSync(fd, 'utf8'), loose: (st.mode & 0o077) !== 0 };
  } catch (e) {
    throw e instanceof CheckError ? e : unreadable(file, e);
  } finally {
    closeSync(fd);
  }
}

function unreadable(file: string, e: unknown): CheckError {
  return new CheckError(
    `cannot read kubeconfig ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'}); check the path given to --kubeconfig (or $KUBECONFIG) and that the monitoring user may read it`,
  );
}

async function parseKubeconfig(file: string, text: string): Promise<Doc> {
  let doc: unknown;
  // A JSON kubeconfig (kubectl reads those too) needs no YAML parser at all. One that opens
  // more objects and arrays than a kubeconfig has goes to the YAML reader, which refuses it
  // with the reason (JSON.parse could not be interrupted, and would build them all).
  if (/^\s*\{/.test(text) && countJsonContainers(Buffer.from(text), KUBECONFIG_LIMITS.maxTokens / 10) <= KUBECONFIG_LIMITS.maxTokens / 10) {
    try {
      doc = JSON.parse(text);
    } catch {
      // not JSON after all: YAML flow style, read below
    }
  }
  // Loaded here only: a check that reads no kubeconfig never pays for the YAML parser
  // (tens of milliseconds to load and warm up).
  if (doc === undefined) doc = await parseYaml(file, text);
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new CheckError(`kubeconfig ${file} holds no configuration mapping; check the file`);
  return doc as Doc;
}

/**
 * A kubeconfig of a thousand contexts holds some 120,000 tokens and nests a few deep; aliases
 * are rare (none in what kubectl writes), and each may expand a subtree: a few lines of nested
 * aliases would otherwise expand to gigabytes.
 */
const KUBECONFIG_LIMITS = { maxTokens: 150_000, maxDepth: 100, maxAliases: 100 };

async function parseYaml(file: string, text: string): Promise<unknown> {
  const fix = `check the file (kubectl config view --kubeconfig ${file}), or use --url with --token-file`;
  try {
    const doc = await parseYamlBounded(text, {}, { ...KUBECONFIG_LIMITS, what: `reading kubeconfig ${file}` });
    // The first line only ("… at line 3, column 1"): the parser's context lines quote the file, secrets included.
    if (doc.errors.length > 0) throw doc.errors[0];
    return doc.toJS({ maxAliasCount: KUBECONFIG_LIMITS.maxAliases });
  } catch (e) {
    if (e instanceof YamlLimitError) throw new CheckError(`kubeconfig ${file} ${e.message}, far more than any kubeconfig; ${fix}`);
    if (e instanceof CheckError) throw e;
    const why = String((e as Error).message ?? e)
      .split('\n', 1)[0]
      .replace(/:$/, '');
    throw new CheckError(`kubeconfig ${file} is not valid YAML (${why}); ${fix}`);
  }
}

function isMap(v: unknown): v is Doc {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A string field: absent/empty is undefined, another type is an error naming the field. */
function str(obj: Doc, key: string, where: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new CheckError(`${where}: ${key} is not a string; check the file`);
}

/** The entry of `list` (clusters, users, contexts) named `name` in the first file that has one. */
function findNamed(files: LoadedFile[], list: string, name: string): { body: Doc; file: LoadedFile } | undefined {
  const kind = list.slice(0, -1);
  for (const f of files) {
    const entries = f.doc[list];
    if (entries === undefined || entries === null) continue;
    if (!Array.isArray(entries)) throw new CheckError(`kubeconfig ${f.file}: ${list} is not a list; check the file`);
    for (const e of entries) {
      if (isMap(e) && e.name === name) {
        const body = e[kind];
        return { body: isMap(body) ? body : {}, file: f };
      }
    }
  }
  return undefined;
}

function decodePem(data: string, where: string, what: string): string {
  const pem = Buffer.from(data.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (!pem.includes('-----BEGIN')) throw new CheckError(`${where}: ${what} is not base64 of a PEM block; check the file`);
  return pem;
}

const REMOVED_PROVIDERS: Record<string, string> = {
  gcp: 'the gke-gcloud-auth-plugin exec plugin (gcloud components install gke-gcloud-auth-plugin, then gcloud container clusters get-credentials again)',
  azure: 'the kubelogin exec plugin (kubelogin convert-kubeconfig -l azurecli)',
  oidc: 'an exec plugin such as kubelogin (kubectl oidc-login) or a service-account token file',
};

function readUser(name: string, body: Doc, file: string): KubeconfigUser {
  const where = `kubeconfig ${file}, user "${name}"`;
  const resolve = (p: string) => (isAbsolute(p) ? p : join(dirname(file), p)); // kubectl resolves relative paths against the file
  const provider = body['auth-provider'];
  if (provider !== undefined && provider !== null) {
    const pname = isMap(provider) && typeof provider.name === 'string' ? provider.name : '?';
    const instead = REMOVED_PROVIDERS[pname] ?? 'an exec credential plugin or a service-account token file';
    throw new CheckError(`${where} uses auth-provider "${pname}", which kubectl removed and cluster checks do not support; use ${instead}`);
  }
  if (body.username !== undefined || body.password !== undefined) {
    throw new CheckError(
      `${where} uses a user name and password (basic authentication, removed from Kubernetes); give a service-account token with --token-file`,
    );
  }
  for (const key of ['as', 'as-uid', 'as-groups', 'as-user-extra']) {
    if (body[key] !== undefined && body[key] !== null)
      throw new CheckError(`${where} impersonates another account (${key}), which cluster checks do not do; give the monitoring account's own credentials`);
  }
  const user: KubeconfigUser = { name };
  user.token = str(body, 'token', where);
  const tokenFile = str(body, 'tokenFile', where);
  if (tokenFile && !user.token) user.tokenFile = resolve(tokenFile);
  const certData = str(body, 'client-certificate-data', where);
  const keyData = str(body, 'client-key-data', where);
  if (certData) user.certPem = decodePem(certData, where, 'client-certificate-data');
  else if (str(body, 'client-certificate', where)) user.certFile = resolve(str(body, 'client-certificate', where)!);
  if (keyData) user.keyPem = decodePem(keyData, where, 'client-key-data');
  else if (str(body, 'client-key', where)) user.keyFile = resolve(str(body, 'client-key', where)!);
  const hasCert = user.certPem !== undefined || user.certFile !== undefined;
  const hasKey = user.keyPem !== undefined || user.keyFile !== undefined;
  if (hasCert !== hasKey)
    throw new CheckError(
      `${where} has a client ${hasCert ? 'certificate but no key' : 'key but no certificate'}; give both (client-certificate-data and client-key-data)`,
    );
  if (body.exec !== undefined && body.exec !== null) user.exec = readExec(body.exec, where, file);
  return user;
}

function readExec(exec: unknown, where: string, file: string): ExecConfig {
  if (!isMap(exec)) throw new CheckError(`${where}: exec is not a mapping; check the file`);
  const w = `${where}, exec`;
  const apiVersion = str(exec, 'apiVersion', w);
  if (apiVersion !== 'client.authentication.k8s.io/v1' && apiVersion !== 'client.authentication.k8s.io/v1beta1') {
    throw new CheckError(
      `${w}: apiVersion ${apiVersion ?? '(none)'} is not supported; use client.authentication.k8s.io/v1 or v1beta1 (v1alpha1 was removed in Kubernetes 1.24: update the plugin and regenerate the kubeconfig)`,
    );
  }
  let command = str(exec, 'command', w);
  if (!command) throw new CheckError(`${w} has no command; check the file`);
  // As kubectl: a command with a slash but not absolute is relative to the kubeconfig's folder.
  if (command.includes('/') && !isAbsolute(command)) command = join(dirname(file), command);
  const args = exec.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string' && typeof a !== 'number'))
    throw new CheckError(`${w}: args is not a list of strings; check the file`);
  const env = exec.env ?? [];
  if (!Array.isArray(env)) throw new CheckError(`${w}: env is not a list of {name, value}; check the file`);
  const vars = env.map((e) => {
    if (!isMap(e) || typeof e.name !== 'string' || e.name === '' || e.name.includes('='))
      throw new CheckError(`${w}: env holds an entry without a valid name; check the file`);
    return { name: e.name, value: e.value === undefined || e.value === null ? '' : String(e.value) };
  });
  const mode = str(exec, 'interactiveMode', w) ?? (apiVersion.endsWith('/v1') ? undefined : 'IfAvailable');
  if (mode === undefined) throw new CheckError(`${w}: interactiveMode is required with ${apiVersion}; set it to Never`);
  if (!['Never', 'IfAvailable', 'Always'].includes(mode))
    throw new CheckError(`${w}: interactiveMode ${mode} is not Never, IfAvailable or Always; check the file`);
  return {
    apiVersion,
    command,
    args: args.map(String),
    env: vars,
    installHint: str(exec, 'installHint', w),
    provideClusterInfo: exec.provideClusterInfo === true,
    interactiveMode: mode,
  };
}

function readCluster(name: string, body: Doc, file: string): KubeconfigCluster {
  const where = `kubeconfig ${file}, cluster "${name}"`;
  const server = str(body, 'server', where);
  if (!server) throw new CheckError(`${where} has no server; check the file`);
  const cluster: KubeconfigCluster = { name, server, insecure: body['insecure-skip-tls-verify'] === true };
  const caData = str(body, 'certificate-authority-data', where);
  const caPath = str(body, 'certificate-authority', where);
  if (caData) cluster.caPem = decodePem(caData, where, 'certificate-authority-data');
  else if (caPath) cluster.caFile = isAbsolute(caPath) ? caPath : join(dirname(file), caPath);
  cluster.tlsServerName = str(body, 'tls-server-name', where);
  cluster.proxyUrl = str(body, 'proxy-url', where);
  return cluster;
}

/**
 * Reads the context `contextName` (else the current one) of the kubeconfig `paths`, merged
 * by kubectl's rules: the first file to name a cluster, user or context wins, and
 * current-context comes from the first file that sets it. Files of a $KUBECONFIG list that
 * do not exist are skipped, as kubectl does; an explicit --kubeconfig file must exist.
 */
export async function loadKubeconfig(paths: string[], options: { contextName?: string; explicit?: boolean } = {}): Promise<KubeconfigContext> {
  const files: LoadedFile[] = [];
  for (const file of paths) {
    const read = readKubeconfigFile(file);
    if (read === 'missing') {
      if (options.explicit !== false) throw unreadable(file, { code: 'ENOENT' });
      continue;
    }
    files.push({ file, doc: await parseKubeconfig(file, read.text), loose: read.loose });
  }
  const names = paths.join(delimiter);
  if (files.length === 0) throw new CheckError(`none of the kubeconfig files in $KUBECONFIG exists (${names}); check $KUBECONFIG or give --kubeconfig PATH`);

  let contextName = options.contextName;
  if (!contextName) {
    for (const f of files) {
      const current = f.doc['current-context'];
      if (typeof current === 'string' && current !== '') {
        contextName = current;
        break;
      }
    }
  }
  if (!contextName) throw new CheckError(`kubeconfig ${names} has no current-context; give --context NAME or set one with "kubectl config use-context NAME"`);
  const ctx = findNamed(files, 'contexts', contextName);
  if (!ctx) {
    const known = files
      .flatMap((f) => (Array.isArray(f.doc.contexts) ? f.doc.contexts : []))
      .map((e) => (isMap(e) ? e.name : undefined))
      .filter((n): n is string => typeof n === 'string');
    const list = known.length ? ` (it has ${[...new Set(known)].slice(0, 10).join(', ')})` : '';
    throw new CheckError(`kubeconfig ${names} has no context named "${contextName}"${list}; check --context or the current-context`);
  }
  const where = `kubeconfig ${ctx.file.file}, context "${contextName}"`;
  const clusterName = str(ctx.body, 'cluster', where);
  if (!clusterName) throw new CheckError(`${where} names no cluster; check the file`);
  const clusterEntry = findNamed(files, 'clusters', clusterName);
  if (!clusterEntry) throw new CheckError(`${where} names cluster "${clusterName}", which ${names} does not define; check the file`);
  const cluster = readCluster(clusterName, clusterEntry.body, clusterEntry.file.file);

  const userName = str(ctx.body, 'user', where);
  let user: KubeconfigUser = { name: '' };
  const looseFiles: string[] = [];
  if (userName) {
    const userEntry = findNamed(files, 'users', userName);
    if (!userEntry) throw new CheckError(`${where} names user "${userName}", which ${names} does not define; check the file`);
    user = readUser(userName, userEntry.body, userEntry.file.file);
    if (userEntry.file.loose && (user.token !== undefined || user.keyPem !== undefined)) looseFiles.push(userEntry.file.file);
  }
  return { files: files.map((f) => f.file), file: ctx.file.file, context: contextName, cluster, user, looseFiles };
}

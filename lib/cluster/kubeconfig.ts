import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, delimiter } from 'node:path';
import { CheckError } from '../plugin/errors';
import { parseYaml, YamlError, type YamlValue } from './kubeconfig-yaml';

/** What check_nodes takes from the current context of a kubeconfig. */
export interface KubeconfigContext {
  file: string;
  context: string;
  server: string;
  token?: string;
  tokenFile?: string;
  /** PEM text of certificate-authority-data, or the path of certificate-authority. */
  caPem?: string;
  caFile?: string;
  insecure: boolean;
  /** The user authenticates in a way check_nodes does not support (exec plugin, client certificate). */
  unsupportedAuth?: string;
}

/** The kubeconfig kubectl would use: the first file in $KUBECONFIG, else ~/.kube/config. */
export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const first = (env.KUBECONFIG ?? '').split(delimiter).find((p) => p.trim() !== '');
  return first ?? join(env.HOME || homedir(), '.kube', 'config');
}

type Doc = { [key: string]: YamlValue };

function named(doc: Doc, list: string, name: string, file: string): Doc {
  const entries = doc[list];
  const kind = list.slice(0, -1); // clusters -> cluster
  if (Array.isArray(entries)) {
    for (const e of entries) {
      if (e && typeof e === 'object' && !Array.isArray(e) && e.name === name) {
        const body = e[kind];
        return body && typeof body === 'object' && !Array.isArray(body) ? body : {};
      }
    }
  }
  throw new CheckError(`kubeconfig ${file}: no ${kind} named "${name}" (listed in the current context); check the file`);
}

function str(v: YamlValue | undefined): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Reads the current context of a kubeconfig: server, bearer token or token file, CA, insecure flag. */
export function loadKubeconfig(file: string): KubeconfigContext {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CheckError(`cannot read kubeconfig ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'}); check the path given to --kubeconfig (or $KUBECONFIG) and that the monitoring user may read it`);
  }
  let doc: YamlValue;
  try {
    doc = parseYaml(text);
  } catch (e) {
    const why = e instanceof YamlError || e instanceof SyntaxError ? e.message : String(e);
    throw new CheckError(`kubeconfig ${file} is not valid YAML (${why}); check the file, or use --url with --token-file`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new CheckError(`kubeconfig ${file} holds no configuration mapping; check the file`);
  const contextName = str(doc['current-context']);
  if (!contextName) throw new CheckError(`kubeconfig ${file} has no current-context; set one with "kubectl config use-context NAME"`);
  const context = named(doc, 'contexts', contextName, file);
  const cluster = named(doc, 'clusters', String(context.cluster ?? ''), file);
  const user = context.user === undefined || context.user === null ? {} : named(doc, 'users', String(context.user), file);

  const server = str(cluster.server);
  if (!server) throw new CheckError(`kubeconfig ${file}: cluster "${String(context.cluster)}" has no server; check the file`);
  const base = dirname(file);
  const resolve = (p: string) => (isAbsolute(p) ? p : join(base, p)); // kubectl resolves relative paths against the file
  const out: KubeconfigContext = { file, context: contextName, server, insecure: cluster['insecure-skip-tls-verify'] === true };

  const caData = str(cluster['certificate-authority-data']);
  if (caData) out.caPem = Buffer.from(caData, 'base64').toString('utf8');
  else if (str(cluster['certificate-authority'])) out.caFile = resolve(str(cluster['certificate-authority'])!);

  out.token = str(user.token);
  if (!out.token && str(user.tokenFile)) out.tokenFile = resolve(str(user.tokenFile)!);
  if (!out.token && !out.tokenFile) {
    const how = user.exec ? 'an exec credential plugin' : user['auth-provider'] ? 'an auth-provider' : user['client-certificate'] || user['client-certificate-data'] ? 'a client certificate' : undefined;
    if (how) out.unsupportedAuth = `user "${String(context.user)}" authenticates with ${how}`;
  }
  return out;
}

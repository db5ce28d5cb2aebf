import { spawn } from 'node:child_process';
import { clientPairProblem, tokenProblem } from '../http/sendable';
import { CheckError } from '../plugin/errors';
import { countJsonContainers } from '../plugin/json-bounds';
import { boundedExcerpt } from '../plugin/server-text';
import type { ExecConfig, KubeconfigCluster } from './kubeconfig';

/** What an exec credential plugin hands back: a bearer token or a client certificate pair. */
export interface ExecCredential {
  token?: string;
  cert?: string;
  key?: string;
  /** Milliseconds since the epoch; undefined when the plugin gave no expirationTimestamp. */
  expires?: number;
}

export interface ExecRun {
  exec: ExecConfig;
  cluster: KubeconfigCluster;
  /** Milliseconds since the epoch by which the plugin must have answered. */
  deadline: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Output larger than this is no credential (a token is a few KiB, a certificate pair under 10). */
const MAX_STDOUT = 1024 * 1024;
const MAX_STDERR = 64 * 1024;

/** The KUBERNETES_EXEC_INFO a plugin reads: never interactive, with the cluster if asked for. */
export function execInfo(exec: ExecConfig, cluster: KubeconfigCluster): string {
  const spec: Record<string, unknown> = { interactive: false };
  if (exec.provideClusterInfo) {
    const c: Record<string, unknown> = { server: cluster.server };
    if (cluster.tlsServerName) c['tls-server-name'] = cluster.tlsServerName;
    if (cluster.insecure) c['insecure-skip-tls-verify'] = true;
    if (cluster.caPem) c['certificate-authority-data'] = Buffer.from(cluster.caPem).toString('base64');
    if (cluster.proxyUrl) c['proxy-url'] = cluster.proxyUrl;
    spec.cluster = c;
  }
  return JSON.stringify({ apiVersion: exec.apiVersion, kind: 'ExecCredential', spec });
}

/** The first non-empty line of a kubeconfig text (installHint), without control characters, bounded. */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return boundedExcerpt(line, 200);
}

/** How much of a failing plugin's stderr a message keeps. */
export const STDERR_CHARS = 400;
/** Of which the head (what failed); the rest is the tail (why: the innermost cause comes last). */
const STDERR_HEAD = 120;
// klog's line header (Go plugins: gke-gcloud-auth-plugin, kubelogin): severity, date, time,
// thread id, file:line]. It costs a line its first 30 characters and says nothing to the admin.
const KLOG_HEADER = /^([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+[^\s\]]+:\d+\]\s?/;

/**
 * What a failing plugin said on stderr, as one line: klog headers dropped (and klog's info
 * and warning entries, when it logged errors too), lines joined, every secret and every
 * credential-shaped value redacted before anything is cut, and at most STDERR_CHARS kept:
 * the head and the tail, where wrapped errors name their cause.
 */
export function stderrExcerpt(text: string): string {
  const entries: { severity?: string; lines: string[] }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const header = KLOG_HEADER.exec(raw);
    const line = (header ? raw.slice(header[0].length) : raw).trim();
    if (header || entries.length === 0) entries.push({ severity: header?.[1], lines: [] });
    if (line !== '') entries[entries.length - 1].lines.push(line);
  }
  const errors = entries.some((e) => e.severity === 'E' || e.severity === 'F');
  const kept = entries.filter((e) => !errors || (e.severity !== 'I' && e.severity !== 'W'));
  // boundedExcerpt redacts it whole (stderr is bounded by MAX_STDERR), then folds, then cuts.
  const clean = boundedExcerpt(kept.flatMap((e) => e.lines).join(' '), MAX_STDERR);
  if (clean.length <= STDERR_CHARS) return clean;
  return `${clean.slice(0, STDERR_HEAD).trimEnd()} … ${clean.slice(clean.length - (STDERR_CHARS - STDERR_HEAD - 3)).trimStart()}`;
}

/**
 * Runs the plugin as kubectl does, but never interactively: no shell, stdin closed, bounded
 * by the deadline (the whole process group is killed when it passes) and by output size.
 * Every failure is one CheckError naming the command.
 */
export function runExecPlugin(run: ExecRun): Promise<ExecCredential> {
  const { exec } = run;
  const name = `exec credential plugin "${exec.command}"`;
  if (exec.interactiveMode === 'Always') {
    return Promise.reject(
      new CheckError(
        `${name} asks for interactiveMode Always, and a check cannot answer prompts; set interactiveMode: Never and give the plugin non-interactive credentials`,
      ),
    );
  }
  const budget = run.deadline - Date.now();
  if (budget <= 0) return Promise.reject(new CheckError(`no time left to run ${name}; raise -t/--timeout`));
  const env: NodeJS.ProcessEnv = { ...(run.env ?? process.env) };
  for (const { name: key, value } of exec.env) env[key] = value;
  env.KUBERNETES_EXEC_INFO = execInfo(exec, run.cluster);

  return new Promise<ExecCredential>((resolve, reject) => {
    let settled = false;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let outSize = 0;
    let errSize = 0;
    let overflow = false;
    let child: ReturnType<typeof spawn>;
    try {
      // detached: its own process group, so that a plugin's children die with it on expiry.
      child = spawn(exec.command, exec.args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
    } catch (error) {
      reject(startFailure(exec, name, error));
      return;
    }
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const finish = (error: Error | undefined, value?: ExecCredential) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      if (error) {
        killGroup();
        reject(error);
      } else resolve(value!);
    };
    const onAbort = () => finish(new CheckError(`${name} did not answer before the timeout; raise -t/--timeout or check the plugin`));
    const timer = setTimeout(onAbort, budget);
    run.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => {
      outSize += chunk.length;
      if (outSize > MAX_STDOUT) {
        overflow = true;
        finish(new CheckError(`${name} wrote more than ${MAX_STDOUT} bytes, which is no ExecCredential; check the plugin`));
      } else stdout.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (errSize < MAX_STDERR) stderr.push(chunk);
      errSize += chunk.length;
    });
    child.once('error', (error) => finish(startFailure(exec, name, error)));
    child.once('close', (code, signal) => {
      if (settled || overflow) return;
      if (code !== 0) {
        const said = stderrExcerpt(Buffer.concat(stderr).toString('utf8'));
        const how = signal ? `killed by ${signal}` : `exit ${code}`;
        finish(new CheckError(`${name} failed (${how})${said ? `: ${said}` : ''}; run it by hand as the monitoring user to see why`));
        return;
      }
      try {
        finish(undefined, parseExecCredential(Buffer.concat(stdout).toString('utf8'), exec, name));
      } catch (error) {
        finish(error as Error);
      }
    });
  });
}

/** Why a credential cannot be sent (a token with a line break, a key that is not its certificate's), or undefined. */
export function credentialProblem(cred: ExecCredential): string | undefined {
  const token = cred.token === undefined ? undefined : tokenProblem(cred.token);
  if (token) return `a token that ${token}`;
  const pair = cred.cert !== undefined && cred.key !== undefined ? clientPairProblem(cred.cert, cred.key) : undefined;
  return pair ? `a client certificate and key that cannot be used (${pair})` : undefined;
}

function startFailure(exec: ExecConfig, name: string, error: unknown): CheckError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    const hint = exec.installHint ? firstLine(exec.installHint) : `install it, or give its full path in the kubeconfig's exec command`;
    return new CheckError(`${name} not found (not in PATH of the monitoring user); ${hint}`);
  }
  if (code === 'EACCES') return new CheckError(`${name} cannot be run (EACCES); check that the monitoring user may execute it`);
  return new CheckError(`${name} could not be started (${code ?? String(error)}); check the command in the kubeconfig`);
}

/** Reads the plugin's ExecCredential: status.token or the client certificate pair, and its expiry. */
export function parseExecCredential(text: string, exec: ExecConfig, name = `exec credential plugin "${exec.command}"`): ExecCredential {
  // An ExecCredential is a few small objects: a megabyte of `[` is not given to JSON.parse.
  if (countJsonContainers(Buffer.from(text), 100) > 100)
    throw new CheckError(`${name} printed more JSON objects and arrays than an ExecCredential holds; check the plugin`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CheckError(`${name} did not print an ExecCredential (its output is not JSON); check the plugin's arguments (e.g. --output json)`);
  }
  const d = doc as { kind?: unknown; apiVersion?: unknown; status?: Record<string, unknown> };
  if (!d || typeof d !== 'object' || d.kind !== 'ExecCredential') throw new CheckError(`${name} printed JSON that is not an ExecCredential; check the plugin`);
  if (d.apiVersion !== exec.apiVersion) {
    throw new CheckError(
      `${name} answered with apiVersion ${String(d.apiVersion)} where the kubeconfig asks for ${exec.apiVersion}; align the kubeconfig's exec apiVersion with the plugin`,
    );
  }
  const status = d.status;
  if (!status || typeof status !== 'object') throw new CheckError(`${name} printed an ExecCredential without status; check the plugin`);
  const cred: ExecCredential = {};
  if (typeof status.token === 'string' && status.token !== '') cred.token = status.token;
  const cert = status.clientCertificateData;
  const key = status.clientKeyData;
  if (typeof cert === 'string' && cert !== '' && typeof key === 'string' && key !== '') {
    cred.cert = cert;
    cred.key = key;
  } else if ((typeof cert === 'string' && cert !== '') !== (typeof key === 'string' && key !== '')) {
    throw new CheckError(`${name} returned a client ${cert ? 'certificate without its key' : 'key without its certificate'}; check the plugin`);
  }
  if (cred.token === undefined && cred.cert === undefined) throw new CheckError(`${name} returned neither a token nor a client certificate; check the plugin`);
  // Refused here, before anything keeps it: a token that cannot be sent would fail every
  // check that reused it, long after the plugin was mended. (A certificate pair is checked
  // where it is used, and by the cache before it keeps one.)
  const token = cred.token === undefined ? undefined : tokenProblem(cred.token);
  if (token) throw new CheckError(`${name} returned a token that ${token}; check the plugin (nothing was kept)`);
  if (status.expirationTimestamp !== undefined && status.expirationTimestamp !== null) {
    const t = typeof status.expirationTimestamp === 'string' ? Date.parse(status.expirationTimestamp) : NaN;
    if (!Number.isFinite(t))
      throw new CheckError(
        `${name} returned an expirationTimestamp that is not a time (${boundedExcerpt(JSON.stringify(status.expirationTimestamp) ?? '', 40)}); check the plugin`,
      );
    cred.expires = t;
  }
  return cred;
}

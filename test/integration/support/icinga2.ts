// A private, throw-away Icinga 2 daemon for the integration tests: its own config, data,
// log and run directories (the -D constants), its REST API on 127.0.0.1, a GraphiteWriter
// pointed at a local TCP sink (so that Icinga parses every perfdata item and tells us
// which it rejected) and an Influxdb2Writer at a local HTTP sink (the metrics the Grafana
// dashboard reads), and nothing of the system's Icinga touched.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { SIM_CA_PEM, SIM_SERVER_CERTS, SIM_SERVER_KEY_PEM } from '../../../sim/tls-material';
import { runDocumentedSteps, type StepRun } from './documented-steps';
import { findExecutable, sleep, stopDaemon } from './engines';

export interface CheckResult {
  exit_status: number;
  state: number;
  output: string;
  performance_data: string[];
  command: string[];
  execution_end: number;
}

/** A free TCP port on 127.0.0.1 (a small race with other programs is acceptable in tests). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The -D constants that give the daemon private directories and the current user. */
export function directoryConstants(root: string): string[] {
  const user = userInfo().username;
  let group = user;
  try {
    group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  } catch {
    // keep the user name as the group name
  }
  return [
    `-DConfigDir=${join(root, 'etc')}`,
    `-DDataDir=${join(root, 'data')}`,
    `-DLogDir=${join(root, 'log')}`,
    `-DCacheDir=${join(root, 'cache')}`,
    `-DSpoolDir=${join(root, 'spool')}`,
    `-DInitRunDir=${join(root, 'run')}`,
    `-DRunAsUser=${user}`,
    `-DRunAsGroup=${group}`,
  ];
}

/** Writes the ApiListener's certificate: openssl when present, else the simulator's own. */
function writeCertificates(certDir: string, nodeName: string): { nodeName: string } {
  mkdirSync(certDir, { recursive: true });
  const crt = join(certDir, `${nodeName}.crt`);
  const key = join(certDir, `${nodeName}.key`);
  const openssl = findExecutable('openssl');
  if (openssl) {
    execFileSync(openssl, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', crt, '-days', '2', '-subj', `/CN=${nodeName}`], {
      stdio: 'ignore',
    });
    copyFileSync(crt, join(certDir, 'ca.crt'));
    return { nodeName };
  }
  // No openssl: the simulator's CA and server certificate (issued for localhost) serve.
  const fallback = 'localhost';
  writeFileSync(join(certDir, `${fallback}.crt`), SIM_SERVER_CERTS.valid);
  writeFileSync(join(certDir, `${fallback}.key`), createPrivateKey(SIM_SERVER_KEY_PEM).export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(certDir, 'ca.crt'), SIM_CA_PEM);
  return { nodeName: fallback };
}

/** Collects the lines that Icinga's GraphiteWriter sends. */
class GraphiteSink {
  lines: string[] = [];
  /** Connections the GraphiteWriter opened: it drops the results of checks made before one. */
  connections = 0;
  private server = net.createServer((socket) => {
    this.connections++;
    let rest = '';
    socket.on('data', (chunk) => {
      rest += chunk.toString();
      const parts = rest.split('\n');
      rest = parts.pop() ?? '';
      this.lines.push(...parts.filter((l) => l.trim() !== ''));
    });
    socket.on('error', () => undefined);
  });
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Collects the line protocol Icinga's Influxdb2Writer posts to /api/v2/write (answering as InfluxDB v2 does: 204). */
class InfluxSink {
  lines: string[] = [];
  /** The query strings of the writes (org, bucket, precision). */
  writes: string[] = [];
  private server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && req.url?.startsWith('/api/v2/write?')) {
        this.writes.push(req.url.slice('/api/v2/write?'.length));
        this.lines.push(...body.split('\n').filter((l) => l.trim() !== ''));
      }
      res.writeHead(req.method === 'POST' ? 204 : 200).end();
    });
  });
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export interface IcingaOptions {
  icinga2: string;
  /** Config appended after the daemon's own objects (hosts, services, includes). */
  objects: string;
  /** Value of the PluginDir constant, defined before `objects`. */
  pluginDir: string;
}

/** Validates a configuration without starting a daemon: `icinga2 daemon -C`. */
export function validateConfig(icinga2: string, configText: string): { code: number; output: string } {
  const root = mkdtempSync(join(tmpdir(), 'cc-icinga-validate-'));
  try {
    for (const d of ['etc', 'data', 'log', 'cache', 'spool', 'run']) mkdirSync(join(root, d));
    const conf = join(root, 'etc', 'icinga2.conf');
    writeFileSync(conf, configText);
    try {
      const output = execFileSync(icinga2, ['daemon', '-C', '-c', conf, ...directoryConstants(root)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 30_000,
      });
      return { code: 0, output };
    } catch (e) {
      const err = e as { status?: number; stdout?: string; stderr?: string };
      return { code: err.status ?? 1, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** One call of an Icinga 2 REST API on 127.0.0.1 (bounded): the parsed answer, or an error naming the status and body. */
export function callIcingaApi(connect: https.RequestOptions, method: string, path: string, body?: unknown): Promise<unknown> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        ...connect,
        host: '127.0.0.1',
        path,
        method,
        headers: { Accept: 'application/json', ...(payload ? { 'Content-Type': 'application/json' } : {}) },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          if ((res.statusCode ?? 500) >= 400) reject(new Error(`HTTP ${res.statusCode} ${method} ${path}: ${text}`));
          else resolve(text ? JSON.parse(text) : undefined);
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** What the parts of Icinga's REST API the tests read answer (the fields they use). */
interface ApiAnswer {
  results?: Array<{ attrs?: { last_check_result?: CheckResult | null } }>;
}

export class PrivateIcinga {
  readonly root = mkdtempSync(join(tmpdir(), 'cc-icinga-'));
  /** Everything the daemon printed (it logs to stdout: no FileLogger is configured). */
  log = '';
  graphite = new GraphiteSink();
  influx = new InfluxSink();
  private child?: ChildProcess;
  private exited?: Promise<void>;
  /** The REST API's port on 127.0.0.1, known once start() ran. */
  apiPort = 0;
  private password = randomBytes(12).toString('hex');
  /** The endpoint's name, which its API certificate carries. */
  nodeName = 'cloudchecks-test';

  constructor(private readonly options: IcingaOptions) {}

  /** The daemon's configuration; `icinga2 daemon -C` accepts it before start() runs it. */
  config(): string {
    return [
      `const NodeName = ${JSON.stringify(this.nodeName)}`,
      'const ZoneName = NodeName',
      `const PluginDir = ${JSON.stringify(this.options.pluginDir)}`,
      'include <itl>',
      'object Endpoint NodeName {}',
      'object Zone ZoneName { endpoints = [ NodeName ] }',
      'object CheckerComponent "checker" {}',
      `object ApiListener "api" { bind_host = "127.0.0.1"; bind_port = ${this.apiPort} }`,
      `object ApiUser "cloudchecks-test" { password = ${JSON.stringify(this.password)}; permissions = [ "*" ] }`,
      // Makes Icinga parse every perfdata item of every result and log the ones it cannot.
      `object GraphiteWriter "graphite" { host = "127.0.0.1"; port = ${this.graphite.port}; enable_send_thresholds = true }`,
      // As features-available/influxdb2.conf has it, with the sink's port and a flush each second.
      `object Influxdb2Writer "influxdb2" { host = "127.0.0.1"; port = ${this.influx.port}; organization = "monitoring"; bucket = "icinga2"; auth_token = "cloudchecks-test"; flush_interval = 1s }`,
      this.options.objects,
      '',
    ].join('\n');
  }

  /** Starts the daemon and waits (bounded) until its API answers and its GraphiteWriter is connected. */
  async start(): Promise<void> {
    for (const d of ['etc', 'data', 'log', 'cache', 'spool', 'run']) mkdirSync(join(this.root, d), { recursive: true });
    this.nodeName = writeCertificates(join(this.root, 'data', 'certs'), this.nodeName).nodeName;
    await this.graphite.start();
    await this.influx.start();
    this.apiPort = await freePort();
    const conf = join(this.root, 'etc', 'icinga2.conf');
    writeFileSync(conf, this.config());
    const child = spawn(this.options.icinga2, ['daemon', '-c', conf, ...directoryConstants(this.root)], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    child.stdout!.on('data', (d) => (this.log += d));
    child.stderr!.on('data', (d) => (this.log += d));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`icinga2 exited with ${child.exitCode} at start-up:\n${this.log}`);
      try {
        await this.api('GET', '/v1/status/IcingaApplication');
        // The GraphiteWriter discards perfdata while it is not connected (it retries only every
        // 10 s): checks may start once it is, or a slow start-up loses their lines.
        if (this.graphite.connections > 0) return;
        if (Date.now() > deadline) throw new Error(`icinga2's GraphiteWriter did not connect within 30 s:\n${this.log}`);
        await sleep(200);
      } catch (error) {
        if ((error as Error).message.startsWith("icinga2's GraphiteWriter")) throw error;
        if (Date.now() > deadline) throw new Error(`icinga2 API did not answer within 30 s (${(error as Error).message}):\n${this.log}`);
        await sleep(200);
      }
    }
  }

  /** One REST API call as the test's ApiUser. */
  api(method: string, path: string, body?: unknown): Promise<ApiAnswer | undefined> {
    // The daemon's certificate is the self-signed one written above: nothing to verify against.
    return callIcingaApi({ port: this.apiPort, auth: `cloudchecks-test:${this.password}`, rejectUnauthorized: false }, method, path, body) as Promise<
      ApiAnswer | undefined
    >;
  }

  /** Forces one check of host!service and returns the result Icinga computed (bounded wait). */
  check(host: string, service: string, timeoutMs = 30_000): Promise<CheckResult> {
    return this.forceCheck('Service', `host.name==${JSON.stringify(host)} && service.name==${JSON.stringify(service)}`, `${host}!${service}`, timeoutMs);
  }

  /** Forces one check of a host and returns the result Icinga computed (bounded wait). */
  checkHost(host: string, timeoutMs = 30_000): Promise<CheckResult> {
    return this.forceCheck('Host', `host.name==${JSON.stringify(host)}`, `host ${host}`, timeoutMs);
  }

  private async forceCheck(type: 'Host' | 'Service', filter: string, what: string, timeoutMs: number): Promise<CheckResult> {
    const before = Date.now() / 1000;
    await this.api('POST', '/v1/actions/reschedule-check', { type, filter, force: true });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.api('GET', `/v1/objects/${type.toLowerCase()}s?attrs=last_check_result&filter=${encodeURIComponent(filter)}`);
      const result = r?.results?.[0]?.attrs?.last_check_result;
      if (result && result.execution_end >= before) return result;
      if (Date.now() > deadline) throw new Error(`no check result for ${what} within ${timeoutMs} ms:\n${this.log}`);
      await sleep(200);
    }
  }

  /** The GraphiteWriter lines of one service's perfdata: metric path -> value. */
  perfdataSent(host: string, service: string): Map<string, string> {
    const prefix = `icinga2.${escapeGraphite(host)}.services.${escapeGraphite(service)}.`;
    const sent = new Map<string, string>();
    for (const line of this.graphite.lines) {
      const [path, value] = line.split(' ');
      if (path.startsWith(prefix)) sent.set(path.slice(prefix.length), value);
    }
    return sent;
  }

  /** Stops the daemon by its own pid (its process group on a hang) and removes its files. */
  async stop(): Promise<void> {
    await stopDaemon(this.child, this.exited);
    await this.graphite.close();
    await this.influx.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** GraphiteWriter's escaping of object names in metric paths. */
function escapeGraphite(name: string): string {
  return name.replace(/[ .\\/:]/g, '_');
}

export { sleep };

/** Where Debian's icinga2 packages put the stock configuration and the ITL. */
export const STOCK_ICINGA_ETC = '/etc/icinga2';
const STOCK_ICINGA_INCLUDE = '/usr/share/icinga2/include';

/** True when this host has the stock configuration the tests copy. */
export function hasStockIcingaConfig(): boolean {
  return existsSync(join(STOCK_ICINGA_ETC, 'icinga2.conf')) && existsSync(STOCK_ICINGA_INCLUDE);
}

/**
 * A private copy of this host's STOCK Icinga 2 configuration (/etc/icinga2 as the package
 * installed it, and the ITL with plugins-contrib.d), validated with `icinga2 daemon -C` as a
 * user runs it: only the run-time directories, the user and the ITL's place are moved.
 */
export class StockIcinga {
  readonly etc: string;
  readonly include: string;

  constructor(
    private readonly icinga2: string,
    readonly root: string,
    options: { skipContrib?: RegExp } = {},
  ) {
    this.etc = join(root, 'etc');
    this.include = join(root, 'include');
    cpSync(STOCK_ICINGA_ETC, this.etc, { recursive: true });
    cpSync(STOCK_ICINGA_INCLUDE, this.include, { recursive: true, filter: (src) => !(options.skipContrib?.test(basename(src)) ?? false) });
    for (const d of ['data', 'log', 'cache', 'spool', 'run']) mkdirSync(join(root, d), { recursive: true });
  }

  /** The options that point `icinga2 daemon` at the copy. */
  args(): string[] {
    return ['-c', join(this.etc, 'icinga2.conf'), ...this.defines()];
  }

  /** The global -D options that point any `icinga2` CLI command (node setup, pki, object list, daemon) at the copy. */
  defines(): string[] {
    return [`-DIncludeConfDir=${this.include}`, `-DZonesDir=${join(this.etc, 'zones.d')}`, ...directoryConstants(this.root)];
  }

  /** A stock path (or a documented command holding one) moved into the copy. */
  localize(text: string): string {
    return text.replaceAll('/etc/icinga2', this.etc).replaceAll('/usr/share/icinga2/include', this.include);
  }

  /** A shell script for PATH: `icinga2 ...` as typed by a user, run on the copy. */
  shim(): string {
    return `exec '${this.icinga2}' "$@" ${this.args()
      .map((a) => `'${a}'`)
      .join(' ')}`;
  }

  /** Runs documented lines on the copy (`icinga2` through the shim); each run, and the one of `icinga2 daemon -C`. */
  runSteps(lines: string[], cwd: string, sandbox: string): { runs: StepRun[]; validation: StepRun } {
    const runs = runDocumentedSteps(lines, { cwd, localize: (l) => this.localize(l), dir: sandbox, shims: { icinga2: this.shim() } });
    const validation = runs.find((r) => r.line === 'icinga2 daemon -C');
    if (!validation) throw new Error(`no "icinga2 daemon -C" among the steps: ${lines.join(' / ')}`);
    return { runs, validation };
  }

  /** `icinga2 daemon -C` on the copy; never throws. */
  validate(): { code: number; output: string } {
    try {
      return {
        code: 0,
        output: execFileSync(this.icinga2, ['daemon', '-C', ...this.args()], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }),
      };
    } catch (e) {
      const err = e as { status?: number; stdout?: string; stderr?: string };
      return { code: err.status ?? 1, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
    }
  }
}

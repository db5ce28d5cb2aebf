// Two Icinga 2 daemons on 127.0.0.1 as a master and a satellite in its own zone, each with
// its own config, data and run directories and API port, their certificates signed by one
// throw-away CA (openssl), as a distributed setup has them. The objects of the satellite
// zone are given to both (zones.d/<zone> of each), so that no config sync and reload is
// needed; the check results made or received on the satellite reach the master through the
// cluster connection, which is what is tested.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable, sleep, stopDaemon } from './engines';
import { callIcingaApi, directoryConstants, freePort, type CheckResult } from './icinga2';

export const MASTER = 'master.cloudchecks.test';
export const SATELLITE = 'satellite.cloudchecks.test';
export const SATELLITE_ZONE = 'vcd-acme';

/** A CA and one certificate per node name (with the name as subjectAltName), in `dir`. */
function issueCertificates(dir: string, nodes: readonly string[]): void {
  const openssl = findExecutable('openssl');
  if (!openssl) throw new Error('openssl is needed for the Icinga 2 cluster test (apt-get install openssl)');
  const run = (args: string[]) => execFileSync(openssl, args, { cwd: dir, stdio: 'ignore' });
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=cloudchecks test CA']);
  for (const node of nodes) {
    writeFileSync(join(dir, `${node}.ext`), `subjectAltName=DNS:${node}\n`);
    run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${node}.key`, '-out', `${node}.csr`, '-subj', `/CN=${node}`]);
    run([
      'x509',
      '-req',
      '-in',
      `${node}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${node}.crt`,
      '-days',
      '2',
      '-extfile',
      `${node}.ext`,
    ]);
  }
}

export interface ClusterOptions {
  icinga2: string;
  pluginDir: string;
  /** Config both nodes load globally (the CheckCommands, as the package gives every node). */
  global: string;
  /** The objects of the satellite zone (hosts, services): both nodes have them. */
  zoneObjects: string;
  /** Objects only the satellite has in its local config (its ApiUser). */
  satelliteLocal: string;
}

/** One daemon of the pair. */
export class IcingaNode {
  readonly root: string;
  apiPort = 0;
  log = '';
  readonly password = randomBytes(12).toString('hex');
  private child?: ChildProcess;
  private exited?: Promise<void>;

  constructor(
    readonly name: string,
    parent: string,
  ) {
    this.root = join(parent, name);
    for (const d of ['etc', 'data/certs', 'log', 'cache', 'spool', 'run']) mkdirSync(join(this.root, d), { recursive: true });
  }

  get caFile(): string {
    return join(this.root, 'data', 'certs', 'ca.crt');
  }

  start(icinga2: string, config: string, zoneObjects: string): void {
    writeFileSync(join(this.root, 'etc', 'icinga2.conf'), config);
    mkdirSync(join(this.root, 'etc', 'zones.d', SATELLITE_ZONE), { recursive: true });
    writeFileSync(join(this.root, 'etc', 'zones.d', SATELLITE_ZONE, 'objects.conf'), zoneObjects);
    const args = ['daemon', '-c', join(this.root, 'etc', 'icinga2.conf'), ...directoryConstants(this.root), `-DZonesDir=${join(this.root, 'etc', 'zones.d')}`];
    const child = spawn(icinga2, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    child.stdout!.on('data', (d) => (this.log += d));
    child.stderr!.on('data', (d) => (this.log += d));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  get exitCode(): number | null {
    return this.child?.exitCode ?? null;
  }

  /** One REST API call as the node's root ApiUser, its certificate checked against the cluster CA. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const connect = { port: this.apiPort, auth: `root:${this.password}`, ca: readFileSync(this.caFile), servername: this.name };
    return callIcingaApi(connect, method, path, body) as Promise<T>;
  }

  /** The last check result of host!service, or undefined. */
  async lastResult(host: string, service: string): Promise<CheckResult | undefined> {
    const filter = `host.name==${JSON.stringify(host)} && service.name==${JSON.stringify(service)}`;
    const r = await this.api<{ results: Array<{ attrs: { last_check_result: CheckResult | null } }> }>(
      'GET',
      `/v1/objects/services?attrs=last_check_result&filter=${encodeURIComponent(filter)}`,
    );
    return r.results[0]?.attrs.last_check_result ?? undefined;
  }

  stop(): Promise<void> {
    return stopDaemon(this.child, this.exited);
  }
}

/** A master and a satellite (zone SATELLITE_ZONE, child of the master's), connected. */
export class IcingaCluster {
  readonly root = mkdtempSync(join(tmpdir(), 'cc-icinga-cluster-'));
  readonly master = new IcingaNode(MASTER, this.root);
  readonly satellite = new IcingaNode(SATELLITE, this.root);

  constructor(private readonly options: ClusterOptions) {}

  private config(self: IcingaNode, apiUsers: string): string {
    const { master, satellite } = this;
    return [
      `const NodeName = ${JSON.stringify(self.name)}`,
      `const ZoneName = ${JSON.stringify(self === master ? 'master' : SATELLITE_ZONE)}`,
      `const PluginDir = ${JSON.stringify(this.options.pluginDir)}`,
      'include <itl>',
      'include <plugins>',
      `object Endpoint ${JSON.stringify(master.name)} { host = "127.0.0.1"; port = ${master.apiPort} }`,
      `object Endpoint ${JSON.stringify(satellite.name)} { host = "127.0.0.1"; port = ${satellite.apiPort} }`,
      `object Zone "master" { endpoints = [ ${JSON.stringify(master.name)} ] }`,
      `object Zone ${JSON.stringify(SATELLITE_ZONE)} { endpoints = [ ${JSON.stringify(satellite.name)} ]; parent = "master" }`,
      'object CheckerComponent "checker" {}',
      `object ApiListener "api" { bind_host = "127.0.0.1"; bind_port = ${self.apiPort}; accept_config = false; accept_commands = false }`,
      `object ApiUser "root" { password = ${JSON.stringify(self.password)}; permissions = [ "*" ] }`,
      apiUsers,
      this.options.global,
      '',
    ].join('\n');
  }

  /** Starts both and waits (bounded) until the master sees the satellite connected. */
  async start(): Promise<void> {
    const certs = join(this.root, 'pki');
    mkdirSync(certs);
    issueCertificates(certs, [MASTER, SATELLITE]);
    for (const node of [this.master, this.satellite]) {
      node.apiPort = await freePort();
      for (const f of [`${node.name}.crt`, `${node.name}.key`, 'ca.crt']) writeFileSync(join(node.root, 'data', 'certs', f), readFileSync(join(certs, f)));
    }
    this.master.start(this.options.icinga2, this.config(this.master, ''), this.options.zoneObjects);
    this.satellite.start(this.options.icinga2, this.config(this.satellite, this.options.satelliteLocal), this.options.zoneObjects);
    const deadline = Date.now() + 60_000;
    for (;;) {
      for (const node of [this.master, this.satellite])
        if (node.exitCode !== null) throw new Error(`icinga2 ${node.name} exited with ${node.exitCode}:\n${node.log}`);
      try {
        const r = await this.master.api<{ results: Array<{ attrs: { connected: boolean } }> }>(
          'GET',
          `/v1/objects/endpoints?attrs=connected&filter=${encodeURIComponent(`endpoint.name==${JSON.stringify(SATELLITE)}`)}`,
        );
        if (r.results[0]?.attrs.connected) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the satellite did not connect to the master within 60 s:\n${this.master.log}\n${this.satellite.log}`);
      await sleep(300);
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.master.stop(), this.satellite.stop()]);
    rmSync(this.root, { recursive: true, force: true });
  }
}

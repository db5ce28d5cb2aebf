// A private, throw-away Zabbix for the integration test: its own PostgreSQL cluster (initdb in a
// temporary directory, schema from the zabbix-server-pgsql package), zabbix_server in the
// foreground with the package's zabbix_server.conf (its ports, ExternalScripts, log and
// database moved into the sandbox), and the frontend's JSON-RPC
// API served by `php -S` from a copy of /usr/share/zabbix whose config path points at our
// zabbix.conf.php (Debian's frontend reads a fixed /etc/zabbix/zabbix.conf.php). Everything
// listens on 127.0.0.1; nothing of the system's Zabbix or PostgreSQL is touched.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { findExecutable } from './engines';

const UI = '/usr/share/zabbix';
const SQL = '/usr/share/zabbix-server-pgsql';
/** The configuration zabbix-server-pgsql installs. */
const STOCK_CONF = '/etc/zabbix/zabbix_server.conf';

export interface ZabbixInstall {
  server: string;
  ui: string;
  sql: string;
  pgBin: string;
  php: string;
  psql: string;
  version: string;
}

/** The packages the test needs, or why they are not usable. */
export function findZabbix(): ZabbixInstall | { missing: string } {
  const server = findExecutable('zabbix_server');
  if (!server) return { missing: 'zabbix_server (zabbix-server-pgsql)' };
  if (!existsSync(join(UI, 'api_jsonrpc.php'))) return { missing: `${UI}/api_jsonrpc.php (zabbix-frontend-php)` };
  if (!existsSync(join(SQL, 'schema.sql.gz'))) return { missing: `${SQL}/schema.sql.gz (zabbix-server-pgsql)` };
  if (!existsSync(STOCK_CONF)) return { missing: `${STOCK_CONF} (zabbix-server-pgsql)` };
  const php = findExecutable('php');
  if (!php) return { missing: 'php (php8.2-cli)' };
  if (!/^pgsql$/m.test(spawnSync(php, ['-m'], { encoding: 'utf8' }).stdout ?? '')) return { missing: "php's pgsql module (php8.2-pgsql)" };
  const psql = findExecutable('psql');
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)) : [];
  if (!psql || versions.length === 0) return { missing: 'PostgreSQL (postgresql)' };
  const pgBin = `/usr/lib/postgresql/${versions.sort((a, b) => Number(b) - Number(a))[0]}/bin`;
  const v = /zabbix_server \(Zabbix\) (\S+)/.exec(execFileSync(server, ['-V'], { encoding: 'utf8' }));
  return { server, ui: UI, sql: SQL, pgBin, php, psql, version: v?.[1] ?? 'unknown' };
}

/** A free TCP port on 127.0.0.1 within [min, max] (zabbix_server's ListenPort must be 1024-32767). */
async function freePort(min = 20000, max = 32000): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = min + Math.floor(Math.random() * (max - min));
    const free = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port found on 127.0.0.1');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Who runs a program: root hands PostgreSQL to `postgres` and zabbix_server to `zabbix`. */
function userIds(name: string): { uid: number; gid: number } | undefined {
  const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  return r.status === 0 && g.status === 0 ? { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) } : undefined;
}

/** One private Zabbix: PostgreSQL + zabbix_server + the frontend API. */
export class PrivateZabbix {
  readonly root = mkdtempSync(join(tmpdir(), 'cc-zabbix-'));
  /** The user external checks run as: `zabbix` when the test runs as root (as in production). */
  readonly runAs = process.getuid?.() === 0 ? userIds('zabbix') : undefined;
  apiUrl = '';
  /** The frontend's address (index.php, chart2.php, zabbix.php). */
  webUrl = '';
  /** The session of the frontend's login form, signed in once (shared by pages asked at the same time). */
  private webCookie: Promise<string> | undefined;
  private pgPort = 0;
  /** The server's trapper port on 127.0.0.1 (ListenPort), known once start() ran. */
  serverPort = 0;
  private children: ChildProcess[] = [];
  private auth = '';
  private pgStarted = false;
  private readonly postgres = process.getuid?.() === 0 ? userIds('postgres') : undefined;

  constructor(private readonly install: ZabbixInstall) {
    chmodSync(this.root, 0o755);
  }

  get serverLog(): string {
    try {
      return readFileSync(join(this.root, 'server/zabbix_server.log'), 'utf8');
    } catch {
      return '';
    }
  }

  /** Runs a PostgreSQL tool as the cluster's owner. */
  private pg(tool: string, args: string[], input?: string): string {
    const exe = tool === 'psql' ? this.install.psql : join(this.install.pgBin, tool);
    const argv = this.postgres ? ['runuser', '-u', 'postgres', '--', exe, ...args] : [exe, ...args];
    const r = spawnSync(argv[0], argv.slice(1), { input, encoding: 'utf8', cwd: this.root, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
    if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
    return r.stdout;
  }

  /**
   * Starts PostgreSQL, the server (running external checks from `externalScripts`, with
   * `settings` in place of its zabbix_server.conf values or beside them) and the API. The
   * server's configuration is the package's /etc/zabbix/zabbix_server.conf as installed, with
   * only the sandbox's ports, files, database and user moved, and `settings`.
   */
  async start(externalScripts: string, settings: Record<string, string> = {}): Promise<void> {
    const { install } = this;
    // PostgreSQL: a cluster of our own, trust on 127.0.0.1 only, no fsync (thrown away after).
    const pgDir = join(this.root, 'pg');
    mkdirSync(pgDir);
    if (this.postgres) chownSync(pgDir, this.postgres.uid, this.postgres.gid);
    this.pgPort = await freePort(40000, 60000);
    this.pg('initdb', ['-D', join(pgDir, 'data'), '-A', 'trust', '-U', 'zabbix', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const pgOpts = `-p ${this.pgPort} -k ${pgDir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    this.pg('pg_ctl', ['-D', join(pgDir, 'data'), '-l', join(pgDir, 'log'), '-o', pgOpts, '-w', '-t', '60', 'start']);
    this.pgStarted = true;
    const psql = this.psqlArgs;
    this.pg('psql', [...psql, '-d', 'postgres', '-c', 'CREATE DATABASE zabbix']);
    // The package's own SQL, in the order its README gives: schema, images, data.
    for (const part of ['schema', 'images', 'data']) {
      this.pg('psql', [...psql, '-1', '-d', 'zabbix'], gunzipSync(readFileSync(join(install.sql, `${part}.sql.gz`))).toString('utf8'));
    }

    // zabbix_server, in the foreground so that it stays our child.
    const serverDir = join(this.root, 'server');
    mkdirSync(serverDir);
    if (this.runAs) chownSync(serverDir, this.runAs.uid, this.runAs.gid);
    this.serverPort = await freePort();
    const conf = join(serverDir, 'zabbix_server.conf');
    // Where this server differs from a packaged one: its ports, files, database and user.
    const sandbox = [
      'ListenIP=127.0.0.1',
      `ListenPort=${this.serverPort}`,
      `LogFile=${serverDir}/zabbix_server.log`,
      'LogFileSize=0',
      `PidFile=${serverDir}/zabbix_server.pid`,
      `SocketDir=${serverDir}`,
      `TmpDir=${serverDir}`,
      'DBHost=127.0.0.1',
      `DBPort=${this.pgPort}`,
      'DBName=zabbix',
      'DBUser=zabbix',
      `ExternalScripts=${externalScripts}`,
      // As root the server switches to the zabbix user, as the packages run it (without that
      // user, e.g. a build from source, it may only stay root when told so).
      ...(this.runAs ? ['User=zabbix'] : process.getuid?.() === 0 ? ['AllowRoot=1'] : []),
    ];
    const key = (line: string) => line.split('=')[0];
    // The package's own zabbix_server.conf: its settings but those the sandbox moves, and its
    // Include of the system's conf.d.
    const base = readFileSync(STOCK_CONF, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Za-z]+=/.test(line) && key(line) !== 'Include' && !sandbox.some((l) => key(l) === key(line)));
    writeFileSync(
      conf,
      [...base, ...sandbox]
        .filter((line) => !(key(line) in settings))
        .concat(
          Object.entries(settings).map(([k, v]) => `${k}=${v}`),
          '',
        )
        .join('\n'),
    );
    const server = spawn(install.server, ['-f', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    this.children.push(server);
    let serverErr = '';
    server.stderr!.on('data', (d) => (serverErr += d));

    // The frontend: a copy whose CConfigFile reads our zabbix.conf.php.
    const ui = join(this.root, 'ui');
    cpSync(install.ui, ui, { recursive: true, verbatimSymlinks: true });
    const configClass = join(ui, 'include/classes/core/CConfigFile.php');
    const zabbixConf = join(this.root, 'zabbix.conf.php');
    writeFileSync(configClass, readFileSync(configClass, 'utf8').replace(/const CONFIG_FILE_PATH = '[^']*'/, `const CONFIG_FILE_PATH = '${zabbixConf}'`));
    writeFileSync(
      zabbixConf,
      `<?php
$DB['TYPE'] = 'POSTGRESQL';
$DB['SERVER'] = '127.0.0.1';
$DB['PORT'] = '${this.pgPort}';
$DB['DATABASE'] = 'zabbix';
$DB['USER'] = 'zabbix';
$DB['PASSWORD'] = '';
$DB['SCHEMA'] = '';
$DB['ENCRYPTION'] = false;
$DB['KEY_FILE'] = '';
$DB['CERT_FILE'] = '';
$DB['CA_FILE'] = '';
$DB['VERIFY_HOST'] = false;
$DB['CIPHER_LIST'] = '';
$DB['VAULT_URL'] = '';
$DB['VAULT_DB_PATH'] = '';
$DB['VAULT_TOKEN'] = '';
$DB['DOUBLE_IEEE754'] = true;
$ZBX_SERVER = '127.0.0.1';
$ZBX_SERVER_PORT = '${this.serverPort}';
$ZBX_SERVER_NAME = 'cloudchecks-test';
$IMAGE_FORMAT_DEFAULT = IMAGE_FORMAT_PNG;
`,
    );
    const webPort = await freePort(40000, 60000);
    // Two workers: the graph test has chart2.php draw two images at a time.
    const php = spawn(install.php, ['-S', `127.0.0.1:${webPort}`, '-t', ui], {
      stdio: ['ignore', 'ignore', 'ignore'],
      detached: true,
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '2' },
    });
    this.children.push(php);
    this.webUrl = `http://127.0.0.1:${webPort}`;
    this.apiUrl = `${this.webUrl}/api_jsonrpc.php`;

    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        this.auth = (await this.call('user.login', { username: 'Admin', password: 'zabbix' })) as string;
        break;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`the Zabbix API did not answer within 30 s: ${(error as Error).message}`);
        await sleep(250);
      }
    }
    while (!/server #0 started/.test(this.serverLog)) {
      if (server.exitCode !== null) throw new Error(`zabbix_server exited with ${server.exitCode}: ${serverErr}\n${this.serverLog}`);
      if (Date.now() > deadline) throw new Error(`zabbix_server did not start within 30 s: ${serverErr}\n${this.serverLog}`);
      await sleep(250);
    }
    // The server's own host polls an agent that is not there: only noise in the log.
    const own = (await this.call('host.get', { filter: { host: ['Zabbix server'] }, output: ['hostid'] })) as Array<{ hostid: string }>;
    if (own.length > 0) await this.call('host.update', { hostid: own[0].hostid, status: 1 });
  }

  /** One JSON-RPC call; a Zabbix error becomes an exception with its message and data. */
  async call(method: string, params: unknown): Promise<unknown> {
    const body: Record<string, unknown> = { jsonrpc: '2.0', method, params, id: 1 };
    if (this.auth && method !== 'user.login' && method !== 'apiinfo.version') body.auth = this.auth;
    const started = Date.now();
    let doc: { result?: unknown; error?: { message: string; data: string } };
    try {
      const res = await fetch(this.apiUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json-rpc' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(180_000),
      });
      doc = (await res.json()) as typeof doc;
    } catch (error) {
      throw new Error(`${method} after ${((Date.now() - started) / 1000).toFixed(1)} s: ${(error as Error).message}`);
    }
    const took = Date.now() - started;
    if (took > 5000) console.warn(`zabbix API ${method} took ${(took / 1000).toFixed(1)} s`);
    if (doc.error) throw new Error(`${method}: ${doc.error.message} ${doc.error.data}`);
    return doc.result;
  }

  /** A frontend page (`chart2.php?…`, `zabbix.php?…`) as Admin, signed in once through the login form as a browser would. */
  async page(path: string): Promise<Response> {
    this.webCookie ||= this.signIn();
    const cookie = await this.webCookie;
    return fetch(`${this.webUrl}/${path}`, { headers: { cookie }, redirect: 'manual', signal: AbortSignal.timeout(60_000) });
  }

  private async signIn(): Promise<string> {
    const login = await fetch(`${this.webUrl}/index.php`, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Admin', password: 'zabbix', autologin: '1', enter: 'Sign in' }),
      redirect: 'manual',
      signal: AbortSignal.timeout(60_000),
    });
    const cookie = /zbx_session=[^;,\s]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error(`the frontend's login form gave no session (HTTP ${login.status}): ${(await login.text()).slice(0, 300)}`);
    return cookie;
  }

  /** psql's options for the private cluster, as its superuser, stopping at the first error. */
  private get psqlArgs(): string[] {
    return ['-h', '127.0.0.1', '-p', String(this.pgPort), '-U', 'zabbix', '-q', '-v', 'ON_ERROR_STOP=1'];
  }

  /**
   * Imports a templates export through the API with the Import dialog's default rules for
   * templates (CControllerPopupImport, preset "template"), as docs/zabbix.md has users import
   * it; true when the server took it. Then ANALYZE on the database, as autovacuum does on a
   * server within a minute or so of such a change, before a user goes on to add hosts.
   * Without statistics, PostgreSQL plans the frontend's trigger-dependency query (host.create
   * linking a template whose triggers depend on another template's) badly: 55-90 s for the
   * first fleet host on an idle machine here, past the API call's 180 s beside CI's other
   * lanes; 0.3 s once analysed.
   */
  async importTemplates(source: string): Promise<unknown> {
    const rule = { updateExisting: true, createMissing: true, deleteMissing: false };
    const rules = {
      // 7.0 has template groups of their own.
      [this.install.version.startsWith('7.') ? 'template_groups' : 'groups']: { updateExisting: true, createMissing: true },
      templates: { updateExisting: true, createMissing: true },
      valueMaps: rule,
      templateDashboards: rule,
      templateLinkage: { createMissing: true, deleteMissing: false },
      items: rule,
      discoveryRules: rule,
      triggers: rule,
      graphs: rule,
      httptests: rule,
    };
    const taken = await this.call('configuration.import', { format: 'yaml', source, rules });
    this.pg('psql', [...this.psqlArgs, '-d', 'zabbix', '-c', 'ANALYZE']);
    return taken;
  }

  /** Makes zabbix_server read the configuration now (new hosts, discovered items). */
  reloadConfig(): void {
    const conf = join(this.root, 'server/zabbix_server.conf');
    execFileSync(this.install.server, ['-c', conf, '-R', 'config_cache_reload'], { stdio: 'ignore' });
  }

  async stop(): Promise<void> {
    for (const child of this.children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) continue;
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // gone already
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone already
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (this.pgStarted) {
      try {
        this.pg('pg_ctl', ['-D', join(this.root, 'pg/data'), '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already down
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

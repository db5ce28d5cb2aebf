// One Icinga 2 node of a master + satellite cluster made the documented way (icinga2 node
// setup, a ticket, config sync), on 127.0.0.1 beside other nodes: a private copy of this
// host's stock configuration and ITL (StockIcinga) with the package installed into it (its
// CheckCommands where `include <plugins-contrib>` finds them, its plugins, dist/, as
// PluginDir), its own data, log, cache and run directories (the -D constants) and its own API
// port. The documented commands act on it through shims: `icinga2 ...` runs any CLI command
// on the copy, `systemctl restart|reload|stop icinga2` (re)starts its daemon detached
// (`icinga2 daemon -d`, as the service does), known by its pid file and stopped by that pid.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './engines';
import { callIcingaApi, StockIcinga, type CheckResult } from './icinga2';
import { DIST, REPO } from './simulator';

export class ClusterNode {
  readonly stock: StockIcinga;
  /** The API's port on 127.0.0.1, chosen by the test (the documented 5665 is moved there). */
  apiPort = 0;

  constructor(
    /** The node's name: the certificate's CN and its NodeName. */
    readonly name: string,
    private readonly icinga2: string,
    readonly root: string,
  ) {
    this.stock = new StockIcinga(icinga2, root, { skipContrib: /^cloudchecks/ });
    writeFileSync(join(this.stock.include, 'plugins-contrib.d', 'cloudchecks.conf'), readFileSync(join(REPO, 'contrib/icinga2/commands.conf')));
    const constants = join(this.stock.etc, 'constants.conf');
    const stock = readFileSync(constants, 'utf8');
    const packaged = stock.replace(/^const PluginDir = .*$/m, `const PluginDir = ${JSON.stringify(DIST)}`);
    if (packaged === stock) throw new Error(`${constants} has no PluginDir constant to point at ${DIST}`);
    writeFileSync(constants, packaged);
  }

  get etc(): string {
    return this.stock.etc;
  }

  get dataDir(): string {
    return join(this.root, 'data');
  }

  /** The cluster's CA as this node keeps it (node setup writes it). */
  get caFile(): string {
    return join(this.dataDir, 'certs', 'ca.crt');
  }

  private get pidFile(): string {
    return join(this.root, 'run', 'icinga2.pid');
  }

  /** The stock paths of a command (or of config text) moved into this node's copy. */
  localize(text: string): string {
    return this.stock.localize(text).replaceAll('/var/lib/icinga2', this.dataDir);
  }

  /** The shims of `icinga2` and `systemctl ... icinga2` for this node; `log` records the systemctl calls. */
  shims(log: string): Record<string, string> {
    const icinga2 = `'${this.icinga2}'`;
    const defines = this.stock
      .defines()
      .map((d) => `'${d}'`)
      .join(' ');
    const pid = `'${this.pidFile}'`;
    return {
      icinga2: `exec ${icinga2} "$@" ${defines}`,
      systemctl: [
        `echo "systemctl $*" >> '${log}'`,
        '[ "$2" = icinga2 ] || exit 0',
        `if [ "$1" = reload ]; then exec kill -HUP "$(cat ${pid})"; fi`,
        `if [ -f ${pid} ] && kill -0 "$(cat ${pid})" 2>/dev/null; then`,
        `  p=$(cat ${pid}); kill "$p"; n=0`,
        '  while kill -0 "$p" 2>/dev/null; do n=$((n+1)); if [ $n -gt 300 ]; then echo "icinga2 $p did not stop" >&2; exit 1; fi; sleep 0.1; done',
        'fi',
        '[ "$1" = stop ] && exit 0',
        `exec ${icinga2} daemon -d ${defines} </dev/null >> '${join(this.root, 'log', 'daemon.out')}' 2>&1`,
      ].join('\n'),
    };
  }

  /** The end of the daemon's log (its mainlog file and what it printed) without the API's request lines, for failure messages. */
  logTail(chars = 4000): string {
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '');
    const lines = (read(join(this.root, 'log', 'daemon.out')) + read(join(this.root, 'log', 'icinga2.log')))
      .split('\n')
      .filter((l) => !/\/HttpServerConnection: |ApiListener: New client connection from/.test(l));
    return `${this.name}:\n${lines.join('\n').slice(-chars)}`;
  }

  /** One REST API call as `auth` (user:password), the node's certificate checked against the cluster's CA for its name. */
  api<T = unknown>(auth: string, method: string, path: string, body?: unknown): Promise<T> {
    const connect = { port: this.apiPort, auth, ca: readFileSync(this.caFile), servername: this.name };
    return callIcingaApi(connect, method, path, body) as Promise<T>;
  }

  /** The last check result of host!service (with where it came from), or null. */
  async lastResult(auth: string, host: string, service: string): Promise<(CheckResult & { active: boolean; check_source: string }) | null> {
    const filter = `host.name==${JSON.stringify(host)} && service.name==${JSON.stringify(service)}`;
    const r = await this.api<{ results: Array<{ attrs: { last_check_result: (CheckResult & { active: boolean; check_source: string }) | null } }> }>(
      auth,
      'GET',
      `/v1/objects/services?attrs=last_check_result&filter=${encodeURIComponent(filter)}`,
    );
    return r.results[0]?.attrs.last_check_result ?? null;
  }

  /** Stops the daemon the shims started, by the pid in its pid file: SIGTERM, then SIGKILL after 15 s. */
  async stop(): Promise<void> {
    let pid: number;
    try {
      pid = Number(readFileSync(this.pidFile, 'utf8').trim());
    } catch {
      return;
    }
    if (!Number.isInteger(pid) || pid <= 1) return;
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (!alive()) return;
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 60 && alive(); i++) await sleep(250);
    if (alive()) process.kill(pid, 'SIGKILL');
  }
}

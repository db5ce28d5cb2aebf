// The real Nagios 4 (`nagios4 -v`) run on a private copy of this host's STOCK configuration:
// Debian's /etc/nagios4 (nagios.cfg, objects/templates.cfg, contacts.cfg, the cfg_dir
// conf.d) and /etc/nagios-plugins/config, as the packages installed them. Only what a check
// run writes (log, status, spool, lock) and the user it runs as are moved into the private
// directory; the objects are the stock ones, so that the shipped files are tested against
// what a user's host has, not against templates the test brings. PrivateNagios runs such a
// copy as a daemon.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { sleep, stopDaemon } from './engines';
import { DIST, REPO } from './simulator';

/** Where Debian's nagios4 packages put the stock configuration. */
export const STOCK_NAGIOS_ETC = '/etc/nagios4';
const STOCK_PLUGIN_CONFIG = '/etc/nagios-plugins/config';

/** The current user's primary group, which nagios4 -v wants as nagios_group. */
function currentGroup(): string {
  try {
    return execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  } catch {
    return userInfo().username;
  }
}

/** True when this host has the stock configuration the tests copy. */
export function hasStockNagiosConfig(): boolean {
  return existsSync(join(STOCK_NAGIOS_ETC, 'nagios.cfg')) && existsSync(join(STOCK_NAGIOS_ETC, 'objects', 'templates.cfg'));
}

export interface StockNagiosOptions {
  /** Leave files of /etc/nagios-plugins/config whose name matches out of the copy (a host without the package). */
  skipPluginConfig?: RegExp;
}

/** A private copy of the stock Nagios 4 configuration under root, checked with `nagios4 -v`. */
export class StockNagios {
  readonly etc: string;
  readonly main: string;
  readonly pluginConfig: string;

  constructor(
    private readonly nagios4: string,
    readonly root: string,
    options: StockNagiosOptions = {},
  ) {
    this.etc = join(root, 'etc', 'nagios4');
    this.main = join(this.etc, 'nagios.cfg');
    this.pluginConfig = join(root, 'etc', 'nagios-plugins', 'config');
    cpSync(STOCK_NAGIOS_ETC, this.etc, { recursive: true });
    mkdirSync(this.pluginConfig, { recursive: true });
    if (existsSync(STOCK_PLUGIN_CONFIG)) {
      cpSync(STOCK_PLUGIN_CONFIG, this.pluginConfig, { recursive: true, filter: (src) => !(options.skipPluginConfig?.test(basename(src)) ?? false) });
    }
    for (const d of ['lib/spool/checkresults', 'log/archives', 'run', 'tmp']) mkdirSync(join(root, 'var', d), { recursive: true });
    const stock = readFileSync(this.main, 'utf8');
    const runAs = (line: string) =>
      line.replace(/^nagios_user=.*$/m, `nagios_user=${userInfo().username}`).replace(/^nagios_group=.*$/m, `nagios_group=${currentGroup()}`);
    writeFileSync(this.main, runAs(this.localize(stock)));
  }

  /** A stock path (or a text holding stock paths, such as a documented command) moved into the copy. */
  localize(text: string): string {
    return text
      .replaceAll('/etc/nagios4', this.etc)
      .replaceAll('/etc/nagios-plugins/config', this.pluginConfig)
      .replaceAll('/var/lib/nagios4', join(this.root, 'var', 'lib'))
      .replaceAll('/var/log/nagios4', join(this.root, 'var', 'log'))
      .replaceAll('/var/run/nagios4', join(this.root, 'var', 'run'));
  }

  /** Copies a file into the stock cfg_dir /etc/nagios4/conf.d, as the docs tell a user to. */
  addToConfD(file: string, name = basename(file)): string {
    const target = join(this.etc, 'conf.d', name);
    cpSync(file, target);
    return target;
  }

  /**
   * The fleet's part of the package in the copy: $USER1$ made as the package makes it in `dir`
   * (check_vm_fleet beside the stock check_dummy) and contrib's commands.cfg in conf.d.
   * Returns `dir`, for the USER1 of PrivateNagios.
   */
  addFleetPlugins(dir: string): string {
    mkdirSync(dir);
    symlinkSync(join(DIST, 'check_vm_fleet'), join(dir, 'check_vm_fleet'));
    symlinkSync('/usr/lib/nagios/plugins/check_dummy', join(dir, 'check_dummy'));
    this.addToConfD(join(REPO, 'contrib/nagios/commands.cfg'), 'cloudchecks.cfg');
    return dir;
  }

  /** `nagios4 -v` on the copy's nagios.cfg; never throws. */
  verify(timeoutMs: number): NagiosVerification {
    try {
      return parseVerification(0, execFileSync(this.nagios4, ['-v', this.main], { encoding: 'utf8', timeout: timeoutMs }));
    } catch (e) {
      const err = e as { status?: number; stdout?: string };
      return parseVerification(err.status ?? 1, err.stdout ?? '');
    }
  }
}

export interface NagiosVerification {
  code: number;
  output: string;
  /** The counts of "Checked N <objects>." lines (hosts, services, commands, ...). */
  checked: Record<string, number>;
  warnings: number;
  errors: number;
}

/** The counts, warnings and errors of a `nagios4 -v` output. */
export function parseVerification(code: number, output: string): NagiosVerification {
  const checked: Record<string, number> = {};
  for (const m of output.matchAll(/^\s*Checked (\d+) ([a-z ]+)\.$/gm)) checked[m[2]] = Number(m[1]);
  const warnings = Number(/Total Warnings:\s+(\d+)/.exec(output)?.[1] ?? NaN);
  const errors = Number(/Total Errors:\s+(\d+)/.exec(output)?.[1] ?? NaN);
  return { code, output, checked, warnings, errors };
}

/**
 * The object definitions of a commented example in a shipped file (from the line starting
 * with `from` on), uncommented: what a user does with it.
 */
export function uncommentedExample(text: string, from: string): string {
  const start = text.indexOf(from);
  if (start < 0) throw new Error(`no example starting with ${JSON.stringify(from)}`);
  return text
    .slice(start)
    .split('\n')
    .filter((l) => /^# (define | {4}|\})/.test(l))
    .map((l) => l.replace(/^# ?/, ''))
    .join('\n');
}

/** One service's state as Nagios wrote it to status.dat. */
export interface NagiosServiceStatus {
  state: number;
  output: string;
  longOutput: string;
  lastCheck: number;
  /** The last result came from outside Nagios (check_type 1: a passive result, e.g. the fleet's). */
  passive: boolean;
  /** The state is HARD (state_type 1). */
  hard: boolean;
}

/**
 * A throw-away Nagios 4 daemon on a StockNagios copy: $USERn$ of its resource.cfg set by the
 * test, results written every second, external commands through its own command file, and
 * nothing of the system's Nagios touched. Stopped by its own pid.
 */
export class PrivateNagios {
  log = '';
  private child?: ChildProcess;
  private exited?: Promise<void>;

  constructor(
    private readonly nagios4: string,
    readonly stock: StockNagios,
    private readonly resources: Record<string, string>,
    /** Keep the stock retain_state_information=1: a reload (SIGHUP) then keeps every service's state, as on a real host. */
    private readonly retainState = false,
  ) {}

  /** A setting of the copy's nagios.cfg (status_file, log_file, command_file, ...). */
  setting(name: string): string {
    const value = new RegExp(`^${name}=(.*)$`, 'm').exec(readFileSync(this.stock.main, 'utf8'))?.[1];
    if (value === undefined) throw new Error(`no ${name} in ${this.stock.main}`);
    return value;
  }

  /** Starts the daemon and waits (bounded) until it reads external commands. */
  async start(): Promise<void> {
    const quick: Record<string, string> = {
      status_update_interval: '1',
      check_result_reaper_frequency: '1',
      check_external_commands: '1',
    };
    if (!this.retainState) quick.retain_state_information = '0';
    let main = readFileSync(this.stock.main, 'utf8');
    for (const [k, v] of Object.entries(quick)) main = main.replace(new RegExp(`^${k}=.*$`, 'm'), `${k}=${v}`);
    writeFileSync(this.stock.main, main);
    const resourceFile = this.setting('resource_file');
    writeFileSync(
      resourceFile,
      Object.entries(this.resources)
        .map(([k, v]) => `$${k}$=${v}\n`)
        .join(''),
    );
    mkdirSync(join(this.setting('command_file'), '..'), { recursive: true });
    const child = spawn(this.nagios4, [this.stock.main], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    child.stdout!.on('data', (d) => (this.log += d));
    child.stderr!.on('data', (d) => (this.log += d));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 30_000;
    while (!(existsSync(this.setting('command_file')) && existsSync(this.setting('status_file')))) {
      if (child.exitCode !== null) throw new Error(`nagios4 exited with ${child.exitCode} at start-up:\n${this.log}`);
      if (Date.now() > deadline) throw new Error(`nagios4 did not open its command file within 30 s:\n${this.log}`);
      await sleep(200);
    }
  }

  /**
   * Reloads the configuration as `systemctl reload nagios4` does on Debian (SIGHUP to the daemon)
   * and waits (bounded) until the daemon wrote its status again after reading it.
   */
  async reload(timeoutMs = 30_000): Promise<void> {
    const log = this.setting('log_file');
    const before = readFileSync(log, 'utf8').length;
    const sent = Math.floor(Date.now() / 1000);
    process.kill(this.child!.pid!, 'SIGHUP');
    const deadline = Date.now() + timeoutMs;
    // Nagios logs the signal, reads its objects, and writes its status with the new program_start.
    const restarted = () => {
      const start = /^\tprogram_start=(\d+)$/m.exec(readFileSync(this.setting('status_file'), 'utf8'))?.[1];
      return /Caught SIGHUP[\s\S]*starting\.\.\./.test(readFileSync(log, 'utf8').slice(before)) && Number(start) >= sent;
    };
    while (!restarted()) {
      if (Date.now() > deadline)
        throw new Error(`nagios4 did not come back from SIGHUP within ${timeoutMs} ms:\n${readFileSync(log, 'utf8').slice(before)}\n${this.log}`);
      await sleep(200);
    }
  }

  /** Sends one external command (e.g. SCHEDULE_FORCED_HOST_SVC_CHECKS;host;time). */
  command(line: string): void {
    appendFileSync(this.setting('command_file'), `[${Math.floor(Date.now() / 1000)}] ${line}\n`);
  }

  /** Every checked service's status by "host!service", from status.dat. */
  services(): Map<string, NagiosServiceStatus> {
    const out = new Map<string, NagiosServiceStatus>();
    let text = '';
    try {
      text = readFileSync(this.setting('status_file'), 'utf8');
    } catch {
      return out; // being replaced: read again next time
    }
    for (const m of text.matchAll(/^servicestatus \{\n([\s\S]*?)\n\t\}/gm)) {
      const f = new Map([...m[1].matchAll(/^\t(\w+)=(.*)$/gm)].map((x) => [x[1], x[2]]));
      if (f.get('has_been_checked') !== '1') continue;
      out.set(`${f.get('host_name')}!${f.get('service_description')}`, {
        state: Number(f.get('current_state')),
        output: f.get('plugin_output') ?? '',
        longOutput: f.get('long_plugin_output') ?? '',
        lastCheck: Number(f.get('last_check')),
        passive: f.get('check_type') === '1',
        hard: f.get('state_type') === '1',
      });
    }
    return out;
  }

  /** Forces a check of these services of a host and waits (bounded) for all their results. */
  async checkHost(host: string, services: readonly string[], timeoutMs = 60_000): Promise<Map<string, NagiosServiceStatus>> {
    const before = Math.floor(Date.now() / 1000);
    this.command(`SCHEDULE_FORCED_HOST_SVC_CHECKS;${host};${before}`);
    const wanted = services.map((s) => `${host}!${s}`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const all = this.services();
      const done = wanted.filter((k) => (all.get(k)?.lastCheck ?? 0) >= before);
      if (done.length === wanted.length) return new Map(wanted.map((k) => [k, all.get(k)!]));
      if (Date.now() > deadline) throw new Error(`Nagios checked ${done.length} of ${wanted.length} services of ${host} within ${timeoutMs} ms:\n${this.log}`);
      await sleep(250);
    }
  }

  /** Stops the daemon by its own pid (its process group on a hang). */
  stop(): Promise<void> {
    return stopDaemon(this.child, this.exited);
  }
}

/**
 * The organisation's runner host and its passive vm-fleet service (run when a test asks), as
 * docs/nagios.md has them, on `vcd` with `args` after the connection's.
 */
export function fleetRunnerConfig(vcd: Record<string, string>, args: string): string {
  return `define host {
    use                     generic-host
    host_name               vcd-acme-fleet
    check_command           return-ok
    contact_groups          admins
    max_check_attempts      3
}
define service {
    use                     generic-service
    host_name               vcd-acme-fleet
    service_description     vm-fleet
    check_command           cloudchecks_vm_fleet!${vcd.httpsUrl}!${vcd.user}!${vcd.org}!${vcd.passwordFile}!${args}
    check_interval          60
    active_checks_enabled   0
}
`;
}

// make deb and make rpm, as CI runs them: each built twice from the same commit must give the
// same bytes; the .deb is installed with dpkg -i on this machine, a real Icinga 2 whose
// configuration only says `include <plugins-contrib>` (no copied CheckCommands) runs the
// installed check_nodes against the simulator, the set-up steps docs/icinga2.md and
// docs/nagios.md give a package user are run as written against the installed files and
// copies of the stock /etc/icinga2 and /etc/nagios4, then the package is purged and nothing
// of it may be left. It changes the machine's packages, so it runs only in CI (CI=true) or when
// asked (CLOUDCHECKS_PACKAGE_TEST=1), as root; otherwise it says loudly that it is skipped.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable, reportSkip } from './support/engines';
import { documentedSteps, runDocumentedSteps, shimCalls } from './support/documented-steps';
import { PrivateIcinga, StockIcinga } from './support/icinga2';
import { parseVerification, StockNagios } from './support/nagios';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const tools = ['dpkg', 'dpkg-buildpackage', 'dh', 'lintian', 'rpmbuild', 'rpm', 'icinga2', 'nagios4', 'man', 'git'];
const missing = tools.filter((t) => !findExecutable(t));
const asked = process.env.CI === 'true' || process.env.CLOUDCHECKS_PACKAGE_TEST === '1';
const isRoot = process.getuid?.() === 0;
const why = !asked
  ? 'not in CI (set CI=true or CLOUDCHECKS_PACKAGE_TEST=1: it installs and purges a package)'
  : !isRoot
    ? 'not root (dpkg -i needs it)'
    : missing.length
      ? `missing tools: ${missing.join(', ')} (make package-deps, make integration-deps)`
      : '';
if (why)
  reportSkip({
    what: 'the .deb/.rpm package tests',
    why,
    ...(asked ? {} : { optional: "outside CI it changes the machine's packages: asked with CLOUDCHECKS_PACKAGE_TEST=1" }),
  });
const suite = why ? describe.skip : describe;

const PACKAGES = join(REPO, 'build/packages');
const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version as string;
const DEB = join(PACKAGES, `cloudchecks_${version}-1_all.deb`);
const RPM = join(PACKAGES, `cloudchecks-${version}-1.noarch.rpm`);
const PLUGINS = () =>
  readdirSync(DIST)
    .filter((f) => f.startsWith('check_'))
    .sort();

// The builds take a minute: run without blocking the worker, whose reports to vitest time out otherwise.
const make = (target: string) =>
  new Promise<void>((resolve, reject) =>
    execFile('make', ['-s', target], { cwd: REPO, timeout: 300_000 }, (error, _out, stderr) =>
      error ? reject(new Error(`make ${target}: ${error.message}\n${stderr}`)) : resolve(),
    ),
  );
const sh = (file: string, args: string[]) => execFileSync(file, args, { cwd: REPO, encoding: 'utf8', timeout: 300_000, stdio: ['ignore', 'pipe', 'pipe'] });
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** Installed, or removed with its conffiles left (dpkg -s knows it until it is purged). */
const known = () => spawnSync('dpkg', ['-s', 'cloudchecks'], { stdio: 'ignore' }).status === 0;
const installed = () => {
  try {
    return /^Status: install ok installed$/m.test(sh('dpkg', ['-s', 'cloudchecks']));
  } catch {
    return false;
  }
};

suite('make deb / make rpm', () => {
  it('builds the same .deb twice from the same commit, lintian-clean', async () => {
    assertBuilt();
    await make('deb'); // lintian --fail-on error runs inside
    const first = sha256(DEB);
    await make('deb');
    expect(sha256(DEB)).toBe(first);
  }, 600_000);

  it('puts every plugin, the CheckCommands, the Nagios commands (conffiles), contrib and docs where Debian expects them', () => {
    const list = sh('dpkg-deb', ['-c', DEB]);
    for (const p of PLUGINS()) expect(list).toMatch(new RegExp(` \\./usr/lib/nagios/plugins/${p}\\n`));
    for (const p of PLUGINS()) expect(list).toContain(` ./usr/share/man/man1/${p}.1.gz\n`);
    for (const f of [
      './usr/bin/cloudchecks-sim',
      './usr/share/icinga2/include/plugins-contrib.d/cloudchecks.conf',
      './etc/nagios-plugins/config/cloudchecks.cfg',
      './usr/share/cloudchecks/zabbix/cloudchecks_templates.yaml',
      './usr/share/doc/cloudchecks/copyright',
      './usr/share/cloudchecks/icinga2/vcd-service.conf',
      // The pictures for Icinga Web 2's graphite module and for Grafana (docs/icinga2.md).
      './usr/share/cloudchecks/icinga2/graphite/cloudchecks.ini',
      './usr/share/cloudchecks/grafana/cloudchecks-icinga2-influxdb2.json',
      // The inventory refresher: its script, its cron job and the systemd timer that replaces it.
      './usr/sbin/cloudchecks-inventory',
      './usr/share/man/man8/cloudchecks-inventory.8.gz',
      './etc/cron.d/cloudchecks-inventory',
      './lib/systemd/system/cloudchecks-inventory.service',
      './lib/systemd/system/cloudchecks-inventory.timer',
    ]) {
      expect(list).toContain(` ${f}\n`);
    }
    expect(sh('dpkg-deb', ['-f', DEB, 'Depends'])).toMatch(/^nodejs \(>= 18\)/);
    // Every file in /etc is a conffile: the admin's edits of the commands and of the cron job survive upgrades.
    expect(sh('dpkg-deb', ['--info', DEB, 'conffiles']).trim().split('\n').sort()).toEqual([
      '/etc/cron.d/cloudchecks-inventory',
      '/etc/nagios-plugins/config/cloudchecks.cfg',
    ]);
  });

  it('builds the same .rpm twice, with the plugins in /usr/lib64/nagios/plugins and Requires: nodejs', async () => {
    await make('rpm');
    const first = sha256(RPM);
    await make('rpm');
    expect(sha256(RPM)).toBe(first);
    const list = sh('rpm', ['-qlp', RPM]);
    for (const p of PLUGINS()) expect(list).toContain(`/usr/lib64/nagios/plugins/${p}\n`);
    for (const p of PLUGINS()) expect(list).toMatch(new RegExp(`^/usr/share/man/man1/${p}\\.1(\\.gz)?$`, 'm'));
    expect(list).toContain('/usr/share/icinga2/include/plugins-contrib.d/cloudchecks.conf\n');
    expect(sh('rpm', ['-qp', '--requires', RPM])).toMatch(/^nodejs >= 1:18$/m);
  }, 600_000);
});

suite('the installed .deb, run by Icinga 2 through include <plugins-contrib>', () => {
  const sim = new BuiltSimulator(['--cluster-scenario', 'healthy']);
  let icinga: PrivateIcinga | undefined;
  let files: string[] = [];

  beforeAll(async () => {
    if (installed()) throw new Error('a cloudchecks package is already installed here: this test would replace and purge it; remove it first');
    if (!existsSync(DEB)) await make('deb');
    files = sh('dpkg-deb', ['-c', DEB])
      .split('\n')
      .filter((l) => l.startsWith('-'))
      .map((l) => l.slice(l.indexOf('./') + 1));
    sh('dpkg', ['-i', DEB]);
    await sim.start();
  }, 600_000);
  afterAll(async () => {
    await icinga?.stop();
    await sim.stop();
    if (known()) sh('dpkg', ['--purge', 'cloudchecks']);
  });

  it('runs /usr/lib/nagios/plugins/check_nodes from the packaged CheckCommand', async () => {
    const cluster = sim.ready.apis.cluster;
    icinga = new PrivateIcinga({
      icinga2: findExecutable('icinga2')!,
      pluginDir: '/usr/lib/nagios/plugins',
      // What Debian's stock icinga2.conf and constants.conf hold; of cloudchecks, nothing.
      objects: [
        'const PluginContribDir = "/usr/lib/nagios/plugins"',
        'include <plugins>',
        'include <plugins-contrib>',
        'object Host "cluster" {',
        '  check_command = "dummy"',
        `  vars.cloudchecks_nodes_url = ${JSON.stringify(cluster.httpsUrl)}`,
        `  vars.cloudchecks_nodes_token_file = ${JSON.stringify(cluster.tokenFile)}`,
        `  vars.cloudchecks_ca_file = ${JSON.stringify(sim.ready.caFile)}`,
        '}',
        'object Service "nodes" { host_name = "cluster"; check_command = "cloudchecks-nodes"; check_interval = 1h }',
      ].join('\n'),
    });
    await icinga.start();
    const result = await icinga.check('cluster', 'nodes');
    expect(result.command[0]).toBe('/usr/lib/nagios/plugins/check_nodes');
    expect(result.output).toMatch(/^NODES OK - 6 of 6 nodes healthy/);
    expect(result.exit_status).toBe(0);
    const sim2 = sh('/usr/bin/cloudchecks-sim', ['--help']);
    expect(sim2).toMatch(/cloudchecks-sim/);
  }, 120_000);

  it('man finds a page for every plugin and for cloudchecks-sim', () => {
    for (const p of [...PLUGINS(), 'cloudchecks-sim']) expect(sh('man', ['-w', p]).trim()).toBe(`/usr/share/man/man1/${p}.1.gz`);
    expect(sh('man', ['-P', 'cat', 'check_vm_disk'])).toMatch(/--per-disk/);
  });

  it('docs/nagios.md "Set-up with the package", run as written: nagios4 -v on the stock configuration, no errors and no warnings', () => {
    const root = mkdtempSync(join(tmpdir(), 'cc-pkg-nagios-'));
    try {
      const stock = new StockNagios(findExecutable('nagios4')!, join(root, 'stock'), { skipPluginConfig: /^cloudchecks/ }).verify(30_000);
      // Copied now, with the package installed: its /etc/nagios-plugins/config/cloudchecks.cfg is in the stock cfg_dir.
      const nagios = new StockNagios(findExecutable('nagios4')!, join(root, 'installed'));
      const sandbox = join(root, 'sandbox');
      const runs = runDocumentedSteps(documentedSteps('docs/nagios.md', 'nagios-package'), { cwd: root, localize: (l) => nagios.localize(l), dir: sandbox });
      for (const run of runs.filter((r) => !r.line.startsWith('nagios4 -v'))) expect(run.code, `${run.line}\n${run.output}`).toBe(0);
      const verify = runs.find((r) => r.line.startsWith('nagios4 -v'))!;
      const r = parseVerification(verify.code, verify.output);
      expect(r.output).not.toMatch(/Warning:|Error:/);
      expect([r.warnings, r.errors]).toEqual([0, 0]);
      const commands = (file: string) => readFileSync(file, 'utf8').match(/^define command\s*\{/gm)?.length ?? 0;
      expect(r.checked.commands - stock.checked.commands).toBe(
        commands('/etc/nagios-plugins/config/cloudchecks.cfg') + commands('/usr/share/cloudchecks/nagios/vm-discovery.cfg'),
      );
      const services = (file: string) => readFileSync(file, 'utf8').match(/^define service\s*\{/gm)?.length ?? 0;
      expect(r.checked.services - stock.checked.services).toBe(services('/usr/share/cloudchecks/nagios/example-services.cfg'));
      expect(r.code).toBe(0);
      expect(shimCalls(sandbox)).toContain('systemctl reload nagios4');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('docs/icinga2.md "With the package", run as written: icinga2 daemon -C on the stock configuration; a copied commands.conf is "re-defined"', () => {
    const root = mkdtempSync(join(tmpdir(), 'cc-pkg-icinga-'));
    try {
      const icinga = new StockIcinga(findExecutable('icinga2')!, join(root, 'icinga'));
      const sandbox = join(root, 'sandbox');
      const { runs, validation } = icinga.runSteps(documentedSteps('docs/icinga2.md', 'icinga2-package'), root, sandbox);
      for (const run of runs) expect(run.code, `${run.line}\n${run.output}`).toBe(0);
      expect(validation.output).toMatch(/Finished validating the configuration file/);
      expect(validation.output).not.toMatch(/warning\/|critical\//);
      expect(shimCalls(sandbox)).toContain('systemctl reload icinga2');
      // What docs/troubleshooting.md says a second copy of the CheckCommands gives.
      const twice = icinga.runSteps(
        ['cp /usr/share/cloudchecks/icinga2/commands.conf /etc/icinga2/conf.d/cloudchecks-commands.conf', 'icinga2 daemon -C'],
        root,
        sandbox,
      ).validation;
      expect(twice.code).not.toBe(0);
      expect(twice.output).toMatch(/critical\/config: Error: Object 'cloudchecks-common' of type 'CheckCommand' re-defined/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("removed, not purged: the cron job, a conffile kept, says nothing every hour, even with the admin's inventory.conf left", async () => {
    await icinga?.stop();
    icinga = undefined;
    const conf = '/etc/cloudchecks/inventory.conf';
    const madeDir = !existsSync('/etc/cloudchecks');
    const madeConf = !existsSync(conf);
    if (madeConf) {
      mkdirSync('/etc/cloudchecks', { recursive: true });
      writeFileSync(conf, "# the admin's inventories, kept when the package is removed\n");
    }
    try {
      sh('dpkg', ['--remove', 'cloudchecks']);
      expect(existsSync('/usr/sbin/cloudchecks-inventory')).toBe(false);
      const line = readFileSync('/etc/cron.d/cloudchecks-inventory', 'utf8')
        .split('\n')
        .find((l) => /^\d/.test(l));
      // The command of the line (after five time fields and the user), as cron runs it.
      const command = /^(?:\S+\s+){6}(.*)$/.exec(line ?? '')![1];
      const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', HOME: '/root', LOGNAME: 'root', SHELL: '/bin/sh' } });
      expect(r.stdout + r.stderr).toBe('');
    } finally {
      if (madeConf) rmSync(conf, { force: true });
      if (madeDir) rmSync('/etc/cloudchecks', { recursive: true, force: true });
    }
  });

  it('purges to nothing: every file of the package, and the conffiles, are gone', async () => {
    await icinga?.stop();
    icinga = undefined;
    sh('dpkg', ['--purge', 'cloudchecks']);
    expect(installed()).toBe(false);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => existsSync(f))).toEqual([]);
    for (const dir of ['/usr/share/cloudchecks', '/usr/share/doc/cloudchecks']) expect(existsSync(dir), dir).toBe(false);
    for (const conffile of ['/etc/nagios-plugins/config/cloudchecks.cfg', '/etc/cron.d/cloudchecks-inventory'])
      expect(existsSync(conffile), conffile).toBe(false);
  });
});

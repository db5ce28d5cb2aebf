// `make install` / `make uninstall` with DESTDIR into a temporary directory, as a packager
// runs them. `-o build -o deps` keeps make from rebuilding dist/ and from running npm: the
// test installs what is built, and must not rewrite dist/ under the feet of other tests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findExecutable, reportSkip } from './support/engines';
import { PLUGINS, REPO } from './support/simulator';

// What make installs: the repository's dist/, whatever CLOUDCHECKS_DIST says.
const DIST = join(REPO, 'dist');

const make = findExecutable('make');
const suite = make ? describe : describe.skip;
if (!make) reportSkip({ what: 'the make install tests', why: 'no make on this machine', fix: 'apt-get install make' });

suite('make install / uninstall', () => {
  const destdir = mkdtempSync(join(tmpdir(), 'cc-destdir-'));
  afterAll(() => rmSync(destdir, { recursive: true, force: true }));
  const run = (target: string, vars: string[]) =>
    execFileSync(make!, ['-s', '-C', REPO, '-o', 'build', '-o', 'deps', target, `DESTDIR=${destdir}`, ...vars], { encoding: 'utf8', timeout: 60_000 });

  it('installs every plugin into DESTDIR + PLUGINDIR, executable, runnable from there', () => {
    const missing = PLUGINS.filter((p) => !existsSync(join(DIST, p)));
    expect(missing, "dist/ is not built: run 'make'").toEqual([]);
    run('install', ['PLUGINDIR=/usr/lib/nagios/plugins']);
    const dir = join(destdir, 'usr/lib/nagios/plugins');
    for (const p of PLUGINS) {
      const file = join(dir, p);
      expect(existsSync(file), file).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o755);
      expect(statSync(file).size).toBe(statSync(join(DIST, p)).size);
      // Self-contained: it runs from its new place, with no node_modules beside it.
      const version = (() => {
        try {
          return execFileSync(file, ['--version'], { encoding: 'utf8' });
        } catch (e) {
          return (e as { stdout: string }).stdout; // --version exits 3, per the guidelines
        }
      })();
      expect(version).toMatch(new RegExp(`^${p} \\d+\\.\\d+\\.\\d+`));
    }
  });

  it('installs only the plugins, and says that the simulator is make install-sim', () => {
    const out = run('install', ['PREFIX=/usr', 'PLUGINDIR=/usr/lib/nagios/plugins']);
    expect(existsSync(join(destdir, 'usr/bin/cloudchecks-sim'))).toBe(false);
    expect(out).toMatch(/not the simulator: make install-sim puts it into \/usr\/bin/);
  });

  it('installs the simulator into BINDIR (PREFIX/bin) with make install-sim', () => {
    run('install-sim', ['PREFIX=/usr']);
    expect(statSync(join(destdir, 'usr/bin/cloudchecks-sim')).mode & 0o777).toBe(0o755);
    run('uninstall-sim', ['PREFIX=/usr']);
    expect(existsSync(join(destdir, 'usr/bin/cloudchecks-sim'))).toBe(false);
  });

  it('honours another PLUGINDIR', () => {
    run('install', ['PLUGINDIR=/opt/cloudchecks/libexec']);
    expect(readdirSync(join(destdir, 'opt/cloudchecks/libexec')).sort()).toEqual([...PLUGINS].sort());
  });

  it('uninstall removes exactly what install put there', () => {
    run('uninstall', ['PLUGINDIR=/usr/lib/nagios/plugins']);
    run('uninstall', ['PLUGINDIR=/opt/cloudchecks/libexec']);
    expect(readdirSync(join(destdir, 'usr/lib/nagios/plugins'))).toEqual([]);
    expect(readdirSync(join(destdir, 'opt/cloudchecks/libexec'))).toEqual([]);
  });
});

suite('make install-package (what the .deb and the .rpm hold)', () => {
  const destdir = mkdtempSync(join(tmpdir(), 'cc-package-root-'));
  afterAll(() => rmSync(destdir, { recursive: true, force: true }));

  it('installs every dist/check_* with its manual page and every contrib file, and only command definitions where the engines read by themselves', () => {
    execFileSync(make!, ['-s', '-C', REPO, '-o', 'build', '-o', 'deps', 'install-package', `DESTDIR=${destdir}`, 'PREFIX=/usr'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const built = readdirSync(DIST).filter((f) => f.startsWith('check_'));
    expect(readdirSync(join(destdir, 'usr/lib/nagios/plugins')).sort()).toEqual(built.sort());
    for (const dir of ['icinga2', 'nagios', 'zabbix']) {
      expect(readdirSync(join(destdir, 'usr/share/cloudchecks', dir)).sort()).toEqual(readdirSync(join(REPO, 'contrib', dir)).sort());
    }
    // Everything in these directories is loaded by every Icinga / Nagios on the host: an
    // example service or a discovery rule there would apply itself to the admin's hosts.
    const icinga = join(destdir, 'usr/share/icinga2/include/plugins-contrib.d');
    expect(readdirSync(icinga)).toContain('cloudchecks.conf');
    for (const f of readdirSync(icinga)) expect(readFileSync(join(icinga, f), 'utf8'), f).not.toMatch(/^\s*(apply\s|object\s+(?!CheckCommand\b)\w)/m);
    const nagios = join(destdir, 'etc/nagios-plugins/config');
    expect(readdirSync(nagios)).toContain('cloudchecks.cfg');
    // A template (register 0) applies to nothing until an object uses it: commands.cfg's
    // cloudchecks-vcd-dependent, which the shipped services of the other files use.
    for (const f of readdirSync(nagios)) {
      const objects = readFileSync(join(nagios, f), 'utf8').match(/^\s*define (host|service|hostgroup)\s*\{[^}]*\}/gm) ?? [];
      for (const o of objects) expect(o, `${f}: only templates`).toMatch(/^\s*register\s+0\s*$/m);
    }
    expect(statSync(join(destdir, 'usr/bin/cloudchecks-sim')).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(destdir, 'usr/share/man/man1')).sort()).toEqual([...built.map((p) => `${p}.1`), 'cloudchecks-sim.1'].sort());
    // The inventory refresher, in /usr/sbin, with its page in section 8 (lintian wants one).
    expect(statSync(join(destdir, 'usr/sbin/cloudchecks-inventory')).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(destdir, 'usr/share/man/man8'))).toEqual(['cloudchecks-inventory.8']);
  });
});

const npm = findExecutable('npm');
if (!npm) reportSkip({ what: 'the npm install -g test', why: 'no npm on this machine', fix: 'apt-get install npm' });
(npm ? describe : describe.skip)('npm install -g', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-npm-g-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('installs the package as npm would publish it, with every executable on the PATH', () => {
    // The package as `npm pack` makes it (its "files"), installed globally into a private prefix.
    const tgz = execFileSync(npm!, ['pack', '--silent', '--pack-destination', root], { cwd: REPO, encoding: 'utf8', timeout: 60_000 })
      .trim()
      .split('\n')
      .pop()!;
    const prefix = join(root, 'prefix');
    execFileSync(npm!, ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(root, tgz)], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    for (const bin of [...PLUGINS, 'cloudchecks-sim']) expect(existsSync(join(prefix, 'bin', bin)), bin).toBe(true);
    let out = '';
    try {
      execFileSync(join(prefix, 'bin', 'check_vm_mem'), ['--version'], { encoding: 'utf8' });
    } catch (e) {
      out = (e as { stdout: string }).stdout;
    }
    expect(out).toMatch(/^check_vm_mem \d+\.\d+\.\d+/);
    const installed = join(prefix, 'lib/node_modules/cloudchecks');
    for (const f of ['contrib/icinga2/commands.conf', 'docs/icinga2.md', 'sim/demo.mjs', 'LICENSE']) expect(existsSync(join(installed, f)), f).toBe(true);
  }, 180_000);
});

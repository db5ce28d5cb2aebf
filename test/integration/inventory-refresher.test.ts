// The shipped inventory refresher (contrib/inventory/cloudchecks-inventory, installed as
// /usr/sbin/cloudchecks-inventory with its cron job and timer) run as cron runs it: an empty
// environment but PATH=/usr/bin:/bin (`env -i`), against the simulator, a copy of the stock
// /etc/icinga2 and one of the stock /etc/nagios4. Its configuration names one Icinga 2 and one
// Nagios inventory (and the provider VDCs of a System account, the pvdcs kind, in Icinga 2);
// the engines' validation commands are given by their bare names, as the defaults are, so that
// the refresher must find them in /usr/sbin itself. Only the reload is a script of the test's,
// which counts the reloads.
// Then the engine's user (the real nagios account, the default run-as) attacks the refresher,
// which runs as root as cron runs it: links planted in the inventory directory it owns, a file
// of another owner there, and the lock taken first by another local user.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import https from 'node:https';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdOpenAs } from './support/held-file';
import { announceSkip, findExecutable, reportSkip, until } from './support/engines';
import { hasStockIcingaConfig, StockIcinga } from './support/icinga2';
import { hasStockNagiosConfig, StockNagios } from './support/nagios';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const icinga2 = findExecutable('icinga2');
const nagios4 = findExecutable('nagios4');
const ready = !!icinga2 && hasStockIcingaConfig() && !!nagios4 && hasStockNagiosConfig();
if (!ready) announceSkip('icinga2 and nagios4', 'icinga2-bin icinga2-common nagios4-core (their stock configurations)');
const REFRESHER = join(REPO, 'contrib/inventory/cloudchecks-inventory');
// The attacks need root (the refresher as cron runs it) and the engines' nagios account.
const asRoot = process.getuid?.() === 0 && spawnSync('id', ['-u', 'nagios']).status === 0;
if (ready && !asRoot)
  reportSkip({
    what: 'the attacks of the nagios account on the refresher',
    why: 'they need root and the nagios user',
    fix: 'Run as root with the engines installed (make integration-deps).',
  });

(ready ? describe : describe.skip)("cloudchecks-inventory under cron's environment", () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-refresher-'));
  const sim = new BuiltSimulator(['--vcd-scenario', 'healthy', '--vcd-user', 'monitoring']);
  let icinga: StockIcinga;
  let nagios: StockNagios;
  const conf = join(root, 'inventory.conf');
  const reloadsFile = join(root, 'reloads');
  const icingaDir = () => join(icinga.etc, 'conf.d', 'vcd-inventory');
  const nagiosDir = () => join(nagios.etc, 'conf.d', 'vcd-inventory');

  /** The refresher as cron runs it: `env -i PATH=/usr/bin:/bin`. */
  const run = () => {
    const r = spawnSync('/usr/bin/env', ['-i', 'PATH=/usr/bin:/bin', REFRESHER, '-c', conf], { encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const reloads = () => (existsSync(reloadsFile) ? readFileSync(reloadsFile, 'utf8').split('\n').filter(Boolean) : []);
  const faults = (list: unknown[]) =>
    new Promise<void>((resolve, reject) => {
      const req = https.request(new URL('/_sim/faults', sim.ready.apis.vcd.httpsUrl), { method: 'PUT', ca: readFileSync(sim.ready.caFile) }, (res) =>
        res.resume().on('end', () => resolve()),
      );
      req.on('error', reject);
      req.end(JSON.stringify(list));
    });

  beforeAll(async () => {
    assertBuilt();
    await sim.start();
    icinga = new StockIcinga(icinga2!, join(root, 'icinga'), { skipContrib: /^cloudchecks/ });
    for (const f of ['commands.conf', 'vm-discovery.conf', 'vdc-discovery.conf', 'vcd-service.conf'])
      writeFileSync(join(icinga.etc, 'conf.d', `cloudchecks-${f}`), readFileSync(join(REPO, 'contrib/icinga2', f)));
    nagios = new StockNagios(nagios4!, join(root, 'nagios'), { skipPluginConfig: /^cloudchecks/ });
    nagios.addToConfD(join(REPO, 'contrib/nagios/commands.cfg'), 'cloudchecks.cfg');
    nagios.addToConfD(join(REPO, 'contrib/nagios/vm-discovery.cfg'), 'cloudchecks-vm-discovery.cfg');
    mkdirSync(icingaDir());
    mkdirSync(nagiosDir());
    const api = sim.ready.apis.vcd;
    const ini = join(root, 'cloudchecks.ini');
    writeFileSync(
      ini,
      `[acme]\nurl=${api.httpsUrl}\nuser=${api.user}\norg=${api.org}\npassword-file=${api.passwordFile}\nca-file=${sim.ready.caFile}\ncache-dir=${join(root, 'cache')}\n` +
        `[system]\nurl=${api.httpsUrl}\nuser=${api.providerUser}\norg=System\npassword-file=${api.passwordFile}\nca-file=${sim.ready.caFile}\ncache-dir=${join(root, 'cache')}\n`,
    );
    const reload = join(root, 'reload');
    writeFileSync(reload, `#!/bin/sh\necho "$*" >> ${reloadsFile}\n`, { mode: 0o755 });
    writeFileSync(
      conf,
      [
        '# the test: the plugins of dist/, the copies of the stock configurations, reloads counted',
        `run-as ${userInfo().username}`,
        `plugins ${DIST}`,
        `validate-icinga2 icinga2 daemon -C ${icinga.args().join(' ')}`,
        `reload-icinga2 ${reload} icinga2`,
        `validate-nagios nagios4 -v ${nagios.main}`,
        `reload-nagios ${reload} nagios4`,
        `lock ${join(root, 'lock')}`,
        `acme  icinga2  vms,vdcs  ${icingaDir()}  acme@${ini}`,
        `acme  nagios   vms       ${nagiosDir()}  acme@${ini}   # one organisation in both engines`,
        `system  icinga2  pvdcs  ${icingaDir()}  system@${ini}   # the provider VDCs, a System account`,
        '',
      ].join('\n'),
    );
  }, 30_000);
  afterAll(async () => {
    await sim.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('the first run writes every inventory, validates and reloads each engine once, and says so in one line each', () => {
    const r = run();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(icingaDir(), 'vcd-acme-vms.conf'), 'utf8')).toMatch(/^object Host "vm-[0-9a-f-]{36}" \{/m);
    expect(readFileSync(join(icingaDir(), 'vcd-acme-vdcs.conf'), 'utf8')).toMatch(/^object Host "vdc-[0-9a-f-]{36}" \{/m);
    expect(readFileSync(join(nagiosDir(), 'vcd-acme-vms.cfg'), 'utf8')).toMatch(/^ {4}host_name\s+vm-[0-9a-f-]{36}$/m);
    expect(readFileSync(join(icingaDir(), 'vcd-system-pvdcs.conf'), 'utf8')).toMatch(/^object Host "pvdc-[0-9a-f-]{36}" \{\n\timport "cloudchecks-vcd-pvdc"$/m);
    expect(reloads()).toEqual(['icinga2', 'nagios4']);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^cloudchecks-inventory: icinga2 reloaded for .*vcd-acme-vms\.conf .*vcd-acme-vdcs\.conf .*vcd-system-pvdcs\.conf$/),
      expect.stringMatching(/^cloudchecks-inventory: nagios reloaded for .*vcd-acme-vms\.cfg$/),
    ]);
  }, 120_000);

  it('nothing changed: silent on stdout and stderr, files untouched, no reload', () => {
    const before = statSync(join(icingaDir(), 'vcd-acme-vms.conf')).mtimeMs;
    const r = run();
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(statSync(join(icingaDir(), 'vcd-acme-vms.conf')).mtimeMs).toBe(before);
    expect(reloads()).toHaveLength(2);
  }, 120_000);

  it('vCD failing: each file kept, one line per file naming the cause on stderr, no reload, exit 1', async () => {
    const before = readFileSync(join(icingaDir(), 'vcd-acme-vms.conf'), 'utf8');
    await faults([{ kind: 'status', status: 503 }]);
    try {
      const r = run();
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(4);
      for (const l of lines)
        expect(l).toMatch(
          /^cloudchecks-inventory: \S+vcd-(acme-vms|acme-vdcs|system-pvdcs)\.(conf|cfg) kept as it was: (VM_CPU|VDC|PVDC) UNKNOWN - .*HTTP 503/,
        );
      expect(readFileSync(join(icingaDir(), 'vcd-acme-vms.conf'), 'utf8')).toBe(before);
      expect(reloads()).toHaveLength(2);
    } finally {
      await faults([]);
    }
  }, 120_000);

  it("a new inventory the engine refuses is put back, named with the engine's reason, and no reload", () => {
    const file = join(icingaDir(), 'vcd-acme-vms.conf');
    const good = readFileSync(file, 'utf8');
    // A changed inventory (a VM less) that Icinga refuses: its host template is gone.
    rmSync(join(icinga.etc, 'conf.d', 'cloudchecks-vm-discovery.conf'));
    const changed = good.replace(/\nobject Host [^]*?\n\}\n/, '\n');
    writeFileSync(file, changed);
    try {
      const r = run();
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^cloudchecks-inventory: 'icinga2 daemon -C .*' refused the new \S+vcd-acme-vms\.conf: each is put back as it was, icinga2 not reloaded: .*cloudchecks-vcd-vm/,
      );
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(readFileSync(file, 'utf8')).toBe(changed);
      expect(reloads()).toHaveLength(2);
    } finally {
      writeFileSync(join(icinga.etc, 'conf.d', 'cloudchecks-vm-discovery.conf'), readFileSync(join(REPO, 'contrib/icinga2/vm-discovery.conf')));
    }
  }, 120_000);

  it('a broken configuration line is named with its line number', () => {
    const good = readFileSync(conf, 'utf8');
    writeFileSync(conf, `${good}globex  zabbix  vms  /nowhere  globex@/nowhere.ini\n`);
    try {
      const r = run();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^cloudchecks-inventory: \S+inventory\.conf:12: FORMAT 'zabbix' is icinga2 or nagios$/m);
    } finally {
      writeFileSync(conf, good);
    }
  }, 120_000);

  (asRoot ? describe : describe.skip)("the engine's user against the refresher: a real nagios account attacks, root refreshes as cron does", () => {
    // The default run-as (nagios) and the default lock: the refresher as installed. The
    // sandbox is traversable (0711), so the nagios account reaches its directory, the ini file,
    // its password and its cache, and root's files beside them, which it may not read.
    const box = join(root, 'box');
    const dir = join(box, 'vcd-inventory');
    const boxConf = join(box, 'inventory.conf');
    const SECRET = 'root-only secret 5f1c\n';
    /** A file of root's that the nagios account may not read: each attack aims at its own. */
    const rootOnly = (name: string) => {
      const file = join(box, name);
      writeFileSync(file, SECRET, { mode: 0o600 });
      return file;
    };
    const inventory = join(dir, 'vcd-acme-vms.conf');
    const calls = join(box, 'calls');
    const nagiosUser = 'nagios';
    /** A command as a local user who is not root, as that user's own shell would run it. */
    const as = (user: string, script: string, ...args: string[]) =>
      spawnSync('runuser', ['-u', user, '--', '/bin/sh', '-c', script, 'sh', ...args], { encoding: 'utf8', timeout: 30_000 });
    /** The refresher as cron runs a root job: cron's environment, root's HOME. */
    const refresh = () => {
      const r = spawnSync('/usr/bin/env', ['-i', 'PATH=/usr/bin:/bin', 'HOME=/root', 'LOGNAME=root', 'SHELL=/bin/sh', REFRESHER, '-c', boxConf], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const secretIntact = (secret: string) => {
      const st = lstatSync(secret);
      expect({ content: readFileSync(secret, 'utf8'), uid: st.uid, mode: st.mode & 0o7777, link: st.isSymbolicLink() }).toEqual({
        content: SECRET,
        uid: 0,
        mode: 0o600,
        link: false,
      });
    };
    let nagiosUid = -1;

    beforeAll(() => {
      nagiosUid = Number(execFileSync('id', ['-u', nagiosUser], { encoding: 'utf8' }).trim());
      chmodSync(root, 0o711);
      mkdirSync(box, { mode: 0o711 });
      chmodSync(box, 0o711);
      mkdirSync(dir, { mode: 0o755 });
      chownSync(dir, nagiosUid, nagiosUid);
      const api = sim.ready.apis.vcd;
      const password = join(box, 'acme.password');
      writeFileSync(password, readFileSync(api.passwordFile), { mode: 0o600 });
      chownSync(password, nagiosUid, nagiosUid);
      const ca = join(box, 'ca.pem');
      writeFileSync(ca, readFileSync(sim.ready.caFile), { mode: 0o644 });
      const cache = join(box, 'cache');
      mkdirSync(cache, { mode: 0o700 });
      chownSync(cache, nagiosUid, nagiosUid);
      const ini = join(box, 'cloudchecks.ini');
      writeFileSync(ini, `[acme]\nurl=${api.httpsUrl}\nuser=${api.user}\norg=${api.org}\npassword-file=${password}\nca-file=${ca}\ncache-dir=${cache}\n`, {
        mode: 0o644,
      });
      const record = join(box, 'record');
      writeFileSync(record, `#!/bin/sh\necho "$*" >> ${calls}\n`, { mode: 0o755 });
      // No run-as and no lock: the defaults (nagios, /run/cloudchecks-inventory.lock).
      writeFileSync(
        boxConf,
        [`plugins ${DIST}`, `validate-icinga2 ${record} validate`, `reload-icinga2 ${record} reload`, `acme  icinga2  vms  ${dir}  acme@${ini}`, ''].join('\n'),
        { mode: 0o644 },
      );
      const first = refresh();
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const st = lstatSync(inventory);
      expect({ uid: st.uid, file: st.isFile() }).toEqual({ uid: nagiosUid, file: true });
    }, 120_000);

    it("<inventory>.last planted as a link to a root-only file: the file's content, owner and mode are unchanged", () => {
      const secret = rootOnly('root-only-file');
      const planted = as(nagiosUser, 'ln -sf "$1" "$2"', secret, `${inventory}.last`);
      expect(planted.status, planted.stderr).toBe(0);
      try {
        const r = refresh();
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        secretIntact(secret);
        expect(readlinkSync(`${inventory}.last`)).toBe(secret);
      } finally {
        rmSync(`${inventory}.last`, { force: true });
      }
    }, 120_000);

    it('<inventory> planted as a link to a root-only secret: refused and named on stderr; the secret never reaches the user, even through a file it holds open', async () => {
      // The user's own file, held open for reading, behind <inventory>.last: whatever root
      // writes into it, and whatever owner or mode root then gives it, the open descriptor reads.
      const secret = rootOnly('root-only-secret');
      const held = join(dir, 'held');
      const go = join(box, `go-${process.pid}`);
      const planted = as(nagiosUser, 'mv -f "$1" "$1.keep" && ln -s "$2" "$1" && : >"$3" && ln -sf "$3" "$1.last"', inventory, secret, held);
      expect(planted.status, planted.stderr).toBe(0);
      const holder = holdOpenAs(nagiosUser, held, go);
      try {
        const r = refresh();
        const seen = await holder.release();
        expect(seen, 'what the held descriptor reads').not.toContain('5f1c');
        for (const f of readdirSync(dir)) {
          const read = as(nagiosUser, 'cat "$1"', join(dir, f));
          expect(read.stdout, f).not.toContain('5f1c');
        }
        secretIntact(secret);
        expect(r.stderr).toBe(
          `cloudchecks-inventory: ${inventory} is a symbolic link: refused, not refreshed, left as it is (remove it: the next run writes the inventory)\n`,
        );
        expect(r.code).toBe(1);
        expect(readlinkSync(inventory)).toBe(secret);
      } finally {
        holder.stop();
        for (const f of [inventory, `${inventory}.last`, held, go]) rmSync(f, { force: true });
        as(nagiosUser, 'mv -f "$1.keep" "$1"', inventory);
      }
    }, 120_000);

    it("another user's file in place of <inventory>: refused and named, left as it was (owner, content)", () => {
      const before = readFileSync(inventory, 'utf8');
      const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
      const foreign = `# nobody's\n${before}`.replace(/^object Host "vm-[^]*?\n\}\n/m, '');
      writeFileSync(inventory, foreign);
      chownSync(inventory, nobody, nobody);
      try {
        const r = refresh();
        expect(readFileSync(inventory, 'utf8')).toBe(foreign);
        expect(lstatSync(inventory).uid).toBe(nobody);
        expect(r.stderr).toBe(
          `cloudchecks-inventory: ${inventory} belongs to nobody, not to nagios: refused, not refreshed, left as it is (chown nagios: it, or remove it)\n`,
        );
        expect(r.code).toBe(1);
      } finally {
        writeFileSync(inventory, before);
        chownSync(inventory, nagiosUid, nagiosUid);
      }
    }, 120_000);

    it('the lock: another local user can neither create nor open it, and one held at the old place (/run/lock) stops nothing', async () => {
      // Root's earlier runs made /run/cloudchecks-inventory.lock; no one else may take it.
      const taken = as('nobody', 'flock -n -E 9 "$1" true', '/run/cloudchecks-inventory.lock');
      expect(taken.status, taken.stderr).not.toBe(0);
      expect(taken.status).not.toBe(9);
      expect(taken.stderr).toMatch(/Permission denied/);
      // The world-writable /run/lock, where the lock used to be: held there, it changes nothing.
      const old = '/run/lock/cloudchecks-inventory.lock';
      const oldExisted = existsSync(old);
      // Held there, by whoever holds it, it must stop nothing: the refresher no longer looks there.
      // The holder waits for the lock (the probe below takes it for an instant), in its own
      // process group, stopped whole by the test (flock and its sleep).
      const holder = spawn('flock', ['-w', '10', old, 'sleep', '30'], { detached: true, stdio: 'ignore' });
      const gone = new Promise((resolve) => holder.on('exit', resolve));
      try {
        await until(
          `a holder of ${old}`,
          async () => spawnSync('flock', ['-n', '-E', '9', old, 'true']).status,
          (status) => status === 9,
          10_000,
        );
        writeFileSync(inventory, readFileSync(inventory, 'utf8').replace(/^object Host "vm-[^]*?\n\}\n/m, ''));
        const r = refresh();
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^cloudchecks-inventory: icinga2 reloaded for /);
      } finally {
        if (holder.exitCode === null && holder.signalCode === null) {
          process.kill(-holder.pid!, 'SIGTERM');
          await gone;
        }
        await until(
          `${old} free again`,
          async () => spawnSync('flock', ['-n', '-E', '9', old, 'true']).status,
          (status) => status === 0,
          10_000,
        );
        if (!oldExisted) rmSync(old, { force: true });
      }
    }, 120_000);
  });
});

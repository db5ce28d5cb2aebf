// The shipped inventory refresher (contrib/inventory/cloudchecks-inventory, installed as
// /usr/sbin/cloudchecks-inventory with its cron job and timer) run as cron runs it: an empty
// environment but PATH=/usr/bin:/bin (`env -i`), against the simulator, a copy of the stock
// /etc/icinga2 and one of the stock /etc/nagios4. Its configuration names one Icinga 2 and one
// Nagios inventory; the engines' validation commands are given by their bare names, as the
// defaults are, so that the refresher must find them in /usr/sbin itself. Only the reload is a
// script of the test's, which counts the reloads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceSkip, findExecutable } from './support/engines';
import { hasStockIcingaConfig, StockIcinga } from './support/icinga2';
import { hasStockNagiosConfig, StockNagios } from './support/nagios';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const icinga2 = findExecutable('icinga2');
const nagios4 = findExecutable('nagios4');
const ready = !!icinga2 && hasStockIcingaConfig() && !!nagios4 && hasStockNagiosConfig();
if (!ready) announceSkip('icinga2 and nagios4', 'icinga2-bin icinga2-common nagios4-core (their stock configurations)');
const REFRESHER = join(REPO, 'contrib/inventory/cloudchecks-inventory');

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
    for (const f of ['commands.conf', 'vm-discovery.conf', 'vdc-discovery.conf'])
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
      `[acme]\nurl=${api.httpsUrl}\nuser=${api.user}\norg=${api.org}\npassword-file=${api.passwordFile}\nca-file=${sim.ready.caFile}\ncache-dir=${join(root, 'cache')}\n`,
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
    expect(reloads()).toEqual(['icinga2', 'nagios4']);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^cloudchecks-inventory: icinga2 reloaded for .*vcd-acme-vms\.conf .*vcd-acme-vdcs\.conf$/),
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
      expect(lines).toHaveLength(3);
      for (const l of lines) expect(l).toMatch(/^cloudchecks-inventory: \S+vcd-acme-(vms|vdcs)\.(conf|cfg) kept as it was: (VM_CPU|VDC) UNKNOWN - .*HTTP 503/);
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
      expect(r.stderr).toMatch(/^cloudchecks-inventory: \S+inventory\.conf:11: FORMAT 'zabbix' is icinga2 or nagios$/m);
    } finally {
      writeFileSync(conf, good);
    }
  }, 120_000);
});

// One host group per organisation with a provider account, in the real engines. The
// inventories are written per organisation, kind and format, several to one directory: each
// group must be defined once whatever files name it (both engines refuse a second object of a
// name). The shipped refresher writes a provider account's inventories (VMs and VDCs) of two
// organisations into one directory per engine, under cron's environment, and each engine
// validates them, on the first run and on a re-run; organisations
// with hostile names (quotes, backslashes, newlines, $, a very long name, names that look
// alike) are written as discovery writes them and validated too.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverInventory } from '../../lib/vcd/inventory/inventory-delivery';
import { icingaDiscovery, icingaVdcDiscovery, inventoryGroupOrgs, nagiosDiscovery, type DiscoverySource } from '../../lib/vcd/inventory/discovery';
import { orgGroupName } from '../../lib/vcd/inventory/org-group';
import type { VmRecord } from '../../lib/vcd/inventory/vm-query';
import { announceSkip, findExecutable } from './support/engines';
import { hasStockIcingaConfig, StockIcinga } from './support/icinga2';
import { hasStockNagiosConfig, StockNagios } from './support/nagios';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const icinga2 = findExecutable('icinga2');
const nagios4 = findExecutable('nagios4');
const ready = !!icinga2 && hasStockIcingaConfig() && !!nagios4 && hasStockNagiosConfig();
if (!ready) announceSkip('icinga2 and nagios4', 'icinga2-bin icinga2-common nagios4-core (their stock configurations)');
const REFRESHER = join(REPO, 'contrib/inventory/cloudchecks-inventory');

/** The stock configurations with the shipped VM and VDC rules, and an empty inventory directory each. */
function engines(root: string): { icinga: StockIcinga; nagios: StockNagios; icingaDir: string; nagiosDir: string } {
  const icinga = new StockIcinga(icinga2!, join(root, 'icinga'), { skipContrib: /^cloudchecks/ });
  for (const f of ['commands.conf', 'vm-discovery.conf', 'vdc-discovery.conf'])
    writeFileSync(join(icinga.etc, 'conf.d', `cloudchecks-${f}`), readFileSync(join(REPO, 'contrib/icinga2', f)));
  const nagios = new StockNagios(nagios4!, join(root, 'nagios'), { skipPluginConfig: /^cloudchecks/ });
  nagios.addToConfD(join(REPO, 'contrib/nagios/commands.cfg'), 'cloudchecks.cfg');
  nagios.addToConfD(join(REPO, 'contrib/nagios/vm-discovery.cfg'), 'cloudchecks-vm-discovery.cfg');
  nagios.addToConfD(join(REPO, 'contrib/nagios/vdc-discovery.cfg'), 'cloudchecks-vdc-discovery.cfg');
  const icingaDir = join(icinga.etc, 'conf.d', 'vcd-inventory');
  const nagiosDir = join(nagios.etc, 'conf.d', 'vcd-inventory');
  mkdirSync(icingaDir);
  mkdirSync(nagiosDir);
  return { icinga, nagios, icingaDir, nagiosDir };
}

/** The HostGroups Icinga instantiated (its "Instantiated N HostGroups" line). */
const icingaGroups = (output: string) => Number(/Instantiated (\d+) HostGroups?\./.exec(output)?.[1] ?? 0);

(ready ? describe : describe.skip)('a provider account: one host group per organisation', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-org-groups-'));
  const sim = new BuiltSimulator([]);
  afterAll(async () => {
    await sim.stop();
    rmSync(root, { recursive: true, force: true });
  });
  beforeAll(async () => {
    assertBuilt();
    await sim.start();
  }, 30_000);

  it('cloudchecks-inventory writes the VMs and VDCs of two organisations to one directory per engine; both engines validate, first run and re-run', () => {
    const { icinga, nagios, icingaDir, nagiosDir } = engines(join(root, 'refresher'));
    const stockIcinga = icingaGroups(icinga.validate().output);
    const stockNagios = nagios.verify(60_000).checked['host groups'];
    const api = sim.ready.apis.vcd;
    const ini = join(root, 'cloudchecks.ini');
    const provider = `url=${api.httpsUrl}\nuser=provider\norg=System\npassword-file=${api.passwordFile}\nca-file=${sim.ready.caFile}\ncache-dir=${join(root, 'cache')}\n`;
    writeFileSync(ini, `[acme]\n${provider}tenant-org=acme\n[globex]\n${provider}tenant-org=globex\n`);
    const reloads = join(root, 'reloads');
    const reload = join(root, 'reload');
    writeFileSync(reload, `#!/bin/sh\necho "$*" >> ${reloads}\n`, { mode: 0o755 });
    const conf = join(root, 'inventory.conf');
    writeFileSync(
      conf,
      [
        `run-as ${userInfo().username}`,
        `plugins ${DIST}`,
        `validate-icinga2 icinga2 daemon -C ${icinga.args().join(' ')}`,
        `reload-icinga2 ${reload} icinga2`,
        `validate-nagios nagios4 -v ${nagios.main}`,
        `reload-nagios ${reload} nagios4`,
        `lock ${join(root, 'lock')}`,
        ...['acme', 'globex'].flatMap((name) => [
          `${name}  icinga2  vms,vdcs  ${icingaDir}  ${name}@${ini}`,
          `${name}  nagios   vms,vdcs  ${nagiosDir}  ${name}@${ini}`,
        ]),
        '',
      ].join('\n'),
    );
    const run = () => spawnSync('/usr/bin/env', ['-i', 'PATH=/usr/bin:/bin', REFRESHER, '-c', conf], { encoding: 'utf8', timeout: 240_000 });

    const first = run();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^cloudchecks-inventory: icinga2 reloaded for /),
      expect.stringMatching(/^cloudchecks-inventory: nagios reloaded for /),
    ]);
    // acme's group is named by two Icinga files (its VMs and its VDCs) and defined once.
    const icingaFiles = readdirSync(icingaDir).filter((f) => f.endsWith('.conf'));
    expect(icingaFiles.filter((f) => readFileSync(join(icingaDir, f), 'utf8').includes('object HostGroup "vcd-org-acme"')).length).toBeGreaterThan(1);
    const validation = icinga.validate();
    expect(validation.code, validation.output).toBe(0);
    expect(icingaGroups(validation.output)).toBe(stockIcinga + 2);
    // Nagios: one file per group beside the inventories, the hosts join theirs.
    expect(
      readdirSync(nagiosDir)
        .filter((f) => f.startsWith('cloudchecks-group-'))
        .sort(),
    ).toEqual(['cloudchecks-group-vcd-org-acme.cfg', 'cloudchecks-group-vcd-org-globex.cfg']);
    expect(readFileSync(join(nagiosDir, 'vcd-globex-vms.cfg'), 'utf8')).toMatch(/^ {4}hostgroups\s+\+vcd-org-globex$/m);
    const verified = nagios.verify(60_000);
    expect(verified.errors, verified.output).toBe(0);
    expect(verified.checked['host groups']).toBe(stockNagios + 2);

    const again = run();
    expect({ status: again.status, stdout: again.stdout, stderr: again.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(readFileSync(reloads, 'utf8').split('\n').filter(Boolean)).toEqual(['icinga2', 'nagios4']);
    expect(icinga.validate().code).toBe(0);
    expect(nagios.verify(60_000).errors).toBe(0);
  }, 300_000);

  it('hostile organisation names, in several files each: both engines validate, one group per organisation', () => {
    const { icinga, nagios, icingaDir, nagiosDir } = engines(join(root, 'hostile'));
    const stockIcinga = icingaGroups(icinga.validate().output);
    const stockNagios = nagios.verify(60_000).checked['host groups'];
    const orgs = ['ac"me\\', 'glo\nbex $HOSTNAME$ $$ $(id) `id`; x', 'a b', 'a_b', 'o'.repeat(4000)];
    const src: DiscoverySource = {
      url: 'https://vcd.example.com',
      org: 'System',
      user: 'provider',
      passwordFile: '/etc/icinga2/secrets/vcd.password',
      command: 'check_vm_cpu',
    };
    let n = 0;
    const vm = (org: string): VmRecord => ({
      id: `vm-00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
      name: `web-01 ${org}`,
      vapp: 'shop',
      status: 'POWERED_ON',
      template: false,
      org,
    });
    // Per organisation: its VMs and its VDCs; and every organisation in one more file.
    orgs.forEach((org, i) => {
      const vms = [vm(org), vm(org)];
      writeFileSync(join(icingaDir, `vcd-${i}-vms.conf`), icingaDiscovery(vms, src));
      writeFileSync(
        join(icingaDir, `vcd-${i}-vdcs.conf`),
        icingaVdcDiscovery([{ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name: 'vdc', org }], src),
      );
      deliverInventory(
        nagiosDiscovery(vms, src),
        'nagios',
        { file: join(nagiosDir, `vcd-${i}-vms.cfg`), allowShrink: false },
        2,
        'VM',
        inventoryGroupOrgs(vms, src),
        src.url,
      );
    });
    const all = orgs.map(vm);
    writeFileSync(join(icingaDir, 'vcd-all-vms.conf'), icingaDiscovery(all, src));
    deliverInventory(
      nagiosDiscovery(all, src),
      'nagios',
      { file: join(nagiosDir, 'vcd-all-vms.cfg'), allowShrink: false },
      all.length,
      'VM',
      inventoryGroupOrgs(all, src),
      src.url,
    );

    const validation = icinga.validate();
    expect(validation.code, validation.output.slice(-3000)).toBe(0);
    expect(icingaGroups(validation.output)).toBe(stockIcinga + orgs.length);
    const verified = nagios.verify(60_000);
    expect(verified.errors, verified.output.slice(-3000)).toBe(0);
    expect(verified.checked['host groups']).toBe(stockNagios + orgs.length);
    expect(
      readdirSync(nagiosDir)
        .filter((f) => f.startsWith('cloudchecks-group-'))
        .sort(),
    ).toEqual(orgs.map((o) => `cloudchecks-group-${orgGroupName(o)}.cfg`).sort());
  }, 180_000);
});

// The 2,000-VM fleet (the simulator's `fleet` scenario: 40 vApps of 50 VMs, 80 powered off) in a
// real Zabbix server, sized as docs/zabbix.md and docs/scaling.md say, both fleet templates at
// once (28,000 discovered items and 24,000 triggers): the master item with --compact, which
// Zabbix 6.0 refuses whole (its 512 KB output limit) and takes split per vApp, and 7.0 takes
// whole under the item's own timeout; the trapper fed by check_vm_fleet --submit zabbix. Every
// VM's states as the plugin says them; powered-off VMs OK in both templates by their macro; the
// caches' use read from the server's internal items (printed, for the docs' sizing); then a
// broken password: one problem per runner and none for the 2,000 VMs (trigger dependencies).
// Minutes long (tens of minutes on a loaded 2-core host), so it runs only when asked
// (CLOUDCHECKS_ZABBIX_FLEET=1), not within CI's time budget.
import { spawnSync } from 'node:child_process';
import { chownSync, copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';
import { findZabbix, PrivateZabbix, sleep, type ZabbixInstall } from './support/zabbix';

const found = findZabbix();
const install = 'missing' in found ? undefined : found;
const asked = process.env.CLOUDCHECKS_ZABBIX_FLEET === '1';
const why = !install
  ? `${(found as { missing: string }).missing} is not installed`
  : !asked
    ? 'not asked for (CLOUDCHECKS_ZABBIX_FLEET=1 runs it: tens of minutes)'
    : '';
if (why) console.warn(`\n${'!'.repeat(78)}\nSKIPPED: the 2,000-VM Zabbix fleet test did not run: ${why}\n${'!'.repeat(78)}\n`);
const suite = why ? describe.skip : describe;

const SEVEN = install?.version.startsWith('7.') === true;
const TEMPLATE = join(REPO, SEVEN ? 'contrib/zabbix/cloudchecks_templates_7.0.yaml' : 'contrib/zabbix/cloudchecks_templates.yaml');
const rule = () => ({ updateExisting: true, createMissing: true, deleteMissing: false });
const IMPORT_RULES = {
  [SEVEN ? 'template_groups' : 'groups']: { updateExisting: true, createMissing: true },
  templates: { updateExisting: true, createMissing: true },
  valueMaps: rule(),
  templateLinkage: { createMissing: true, deleteMissing: false },
  items: rule(),
  discoveryRules: rule(),
  triggers: rule(),
};
const VAPPS = Array.from({ length: 40 }, (_, i) => (i === 2 ? 'Sales & Marketing' : `vapp-${String(i + 1).padStart(2, '0')}`));
/** docs/zabbix.md's sizing for this fleet (both templates, 28,000 items). */
const SERVER_SETTINGS = {
  CacheSize: '256M',
  ValueCacheSize: '128M',
  HistoryCacheSize: '64M',
  HistoryIndexCacheSize: '16M',
  StartPreprocessors: '2',
  StartPollers: '4',
  // 6.0: the external check timeout is the server's (at most 30 s); 7.0: each item's own.
  Timeout: '30',
};
const INTERNAL = {
  'zabbix[rcache,buffer,used]': 'configuration cache (CacheSize), bytes used',
  'zabbix[vcache,buffer,used]': 'value cache (ValueCacheSize), bytes used',
  'zabbix[wcache,history,pused]': 'history cache (HistoryCacheSize), % used',
  'zabbix[wcache,index,pused]': 'history index cache (HistoryIndexCacheSize), % used',
};

suite(`Zabbix ${install?.version ?? ''}: the 2,000-VM fleet through both fleet templates`, () => {
  const sim = new BuiltSimulator(['--vcd-scenario', 'fleet']);
  let zabbix: PrivateZabbix;
  let ini = '';
  let password = '';
  let cacheDir = '';
  const hostIds: Record<string, string> = {};
  /** The VMs as the plugin lists them: id -> status. */
  const expected = new Map<string, { status: string }>();
  const figures: string[] = [];
  const masterHosts = SEVEN ? ['fleet-acme'] : VAPPS.map((_, i) => `fleet-vapp-${String(i + 1).padStart(2, '0')}`);
  const runners = [...masterHosts, 'fleet-acme-trapper'];
  const api = <T>(method: string, params: unknown) => zabbix.call(method, params) as Promise<T>;

  /** What a timer runs for the trapper template. */
  function submit(extra: string[] = []): { status: number | null; stdout: string } {
    const argv = ['--extra-opts', `fleet@${ini}`, '--compact', '--submit', 'zabbix', '--zabbix-server', '127.0.0.1'];
    argv.push('--zabbix-port', String(zabbix.serverPort), '--zabbix-host', 'fleet-acme-trapper', '-t', '60', ...extra);
    const r = spawnSync(join(DIST, 'check_vm_fleet'), argv, { encoding: 'utf8', timeout: 90_000, uid: zabbix.runAs?.uid, gid: zabbix.runAs?.gid });
    return { status: r.status, stdout: r.stdout + r.stderr };
  }
  async function executeNow(hosts: string[]): Promise<void> {
    const ids = hosts.map((h) => hostIds[h]);
    const items = await api<Array<{ itemid: string }>>('item.get', { hostids: ids, filter: { type: '10' }, output: ['itemid'] });
    await api(
      'task.create',
      items.map((i) => ({ type: 6, request: { itemid: i.itemid } })),
    );
  }
  async function vmItems(key: string): Promise<Array<{ key_: string; lastvalue: string; lastclock: string; hosts: Array<{ host: string }> }>> {
    return api('item.get', {
      hostids: Object.values(hostIds),
      search: { key_: `cloudchecks.fleet.vm.${key}[` },
      startSearch: true,
      output: ['key_', 'lastvalue', 'lastclock'],
      selectHosts: ['host'],
    });
  }
  async function until(what: string, done: () => Promise<boolean>, ms: number, nudge?: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + ms;
    let next = Date.now() + 60_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`${what} not reached within ${ms / 1000}s\n${zabbix.serverLog.split('\n').slice(-30).join('\n')}`);
      if (nudge && Date.now() > next) {
        await nudge();
        next = Date.now() + 60_000;
      }
      await sleep(3000);
    }
  }
  const internal = async () =>
    Object.fromEntries(
      (
        await api<Array<{ key_: string; lastvalue: string }>>('item.get', {
          hostids: [hostIds['fleet-acme-trapper']],
          filter: { type: '5' },
          output: ['key_', 'lastvalue'],
        })
      ).map((i) => [i.key_, Number(i.lastvalue)]),
    );

  beforeAll(async () => {
    assertBuilt();
    await sim.start();
    zabbix = new PrivateZabbix(install as ZabbixInstall);
    const owner = zabbix.runAs;
    const own = (path: string) => owner && chownSync(path, owner.uid, owner.gid);
    const scripts = join(zabbix.root, 'externalscripts');
    mkdirSync(scripts);
    symlinkSync(join(DIST, 'check_vm_fleet'), join(scripts, 'check_vm_fleet'));
    const secrets = join(zabbix.root, 'secrets');
    mkdirSync(secrets, { mode: 0o750 });
    own(secrets);
    const { vcd } = sim.ready.apis;
    password = join(secrets, 'vcd.password');
    const ca = join(secrets, 'ca.pem');
    copyFileSync(vcd.passwordFile, password);
    copyFileSync(sim.ready.caFile, ca);
    own(password);
    own(ca);
    cacheDir = join(zabbix.root, 'cache');
    mkdirSync(cacheDir, { mode: 0o700 });
    own(cacheDir);
    const common = [`url=${vcd.httpsUrl}`, `user=${vcd.user}`, `org=${vcd.org}`, `password-file=${password}`, `ca-file=${ca}`, `cache-dir=${cacheDir}`];
    // 6.0: per vApp, within Timeout=30 (timeout=25) and the 512 KB output limit; 7.0: the whole organisation.
    const sections = ['[fleet]', ...common, 'timeout=55', '', '[fleet-6]', ...common, 'timeout=25', ''];
    VAPPS.forEach((v, i) => sections.push(`[vapp-${String(i + 1).padStart(2, '0')}]`, ...common, `vapp=${v}`, 'timeout=25', ''));
    ini = join(zabbix.root, 'cloudchecks.ini');
    writeFileSync(ini, sections.join('\n'), { mode: 0o640 });
    own(ini);
    await zabbix.start(scripts, SERVER_SETTINGS);

    // The VMs, and the document's size in both forms.
    const r = spawnSync(join(DIST, 'check_vm_fleet'), ['--extra-opts', `fleet@${ini}`, '--output', 'json', '-t', '60'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      uid: owner?.uid,
      gid: owner?.gid,
    });
    const full = JSON.parse(r.stdout) as { summary: string; vms: Record<string, { status: string }> };
    for (const [id, vm] of Object.entries(full.vms)) expected.set(id, { status: vm.status });
    const compact = spawnSync(join(DIST, 'check_vm_fleet'), ['--extra-opts', `fleet@${ini}`, '--output', 'json', '--compact', '-t', '60'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      uid: owner?.uid,
      gid: owner?.gid,
    });
    figures.push(
      `${full.summary}; --output json: ${r.stdout.length} bytes for ${expected.size} VMs (${Math.round(r.stdout.length / expected.size)} per VM); --compact: ${compact.stdout.length} bytes (${Math.round(compact.stdout.length / expected.size)} per VM)`,
    );
  }, 900_000);

  afterAll(async () => {
    console.log(`\nZabbix ${install?.version} fleet figures:\n  ${figures.join('\n  ')}\n`);
    await zabbix?.stop();
    await sim.stop();
  }, 60_000);

  it('takes the templates, and a host per runner: the master item (7.0: whole, 6.0: per vApp) and the trapper', async () => {
    expect(await api('configuration.import', { format: 'yaml', source: readFileSync(TEMPLATE, 'utf8'), rules: IMPORT_RULES })).toBe(true);
    const templates = Object.fromEntries(
      (await api<Array<{ templateid: string; host: string }>>('template.get', { search: { host: 'cloudchecks' }, output: ['host'] })).map((t) => [
        t.host,
        t.templateid,
      ]),
    );
    const group = (await api<{ groupids: string[] }>('hostgroup.create', { name: 'fleet test' })).groupids[0];
    const host = async (name: string, template: string, macros: Record<string, string>) => {
      const r = await api<{ hostids: string[] }>('host.create', {
        host: name,
        groups: [{ groupid: group }],
        interfaces: [{ type: 1, main: 1, useip: 1, ip: '127.0.0.1', dns: '', port: '10050' }],
        templates: [{ templateid: templates[template] }],
        macros: Object.entries({ '{$CLOUDCHECKS.INI}': ini, ...macros }).map(([macro, value]) => ({ macro, value })),
      });
      hostIds[name] = r.hostids[0];
    };
    if (SEVEN) await host('fleet-acme', 'cloudchecks Cloud Director VM fleet', { '{$CLOUDCHECKS.SECTION}': 'fleet', '{$CLOUDCHECKS.FLEET.TIMEOUT}': '60s' });
    else
      for (const [i, name] of masterHosts.entries())
        await host(name, 'cloudchecks Cloud Director VM fleet', { '{$CLOUDCHECKS.SECTION}': `vapp-${String(i + 1).padStart(2, '0')}` });
    await host('fleet-acme-trapper', 'cloudchecks Cloud Director VM fleet trapper', {});
    if (!SEVEN) {
      // What 6.0 does with the whole organisation in one item: refused, over the output limit.
      await host('fleet-acme-whole', 'cloudchecks Cloud Director VM fleet', { '{$CLOUDCHECKS.SECTION}': 'fleet-6' });
    }
    for (const [key, name] of Object.entries(INTERNAL))
      await api('item.create', { hostid: hostIds['fleet-acme-trapper'], name, key_: key, type: 5, value_type: key.includes('pused') ? 0 : 3, delay: '10s' });
    zabbix.reloadConfig();
  }, 600_000);

  it('discovers all 2,000 VMs in each template, every VM OK as the plugin judges it, powered-off ones OK by the macro', async () => {
    const started = Date.now();
    await until('the internal items have values', async () => (await internal())['zabbix[rcache,buffer,used]'] > 0, 120_000);
    const before = await internal();
    figures.push(`configuration cache before discovery: ${before['zabbix[rcache,buffer,used]']} bytes`);
    const feed = async () => {
      await executeNow(masterHosts);
      const s = submit();
      if (s.status !== 0) console.warn(`check_vm_fleet --submit zabbix: ${s.stdout}`);
    };
    await feed();
    // Discovery makes the items; the next values fill them.
    await until(
      '2,000 VMs discovered in both templates',
      async () => (await vmItems('cpu.code')).length === 2 * expected.size,
      600_000,
      async () => {
        zabbix.reloadConfig();
        await feed();
      },
    );
    figures.push(`discovery of ${2 * expected.size} VMs (${14 * expected.size} items): ${Math.round((Date.now() - started) / 1000)} s`);
    zabbix.reloadConfig();
    await sleep(5000);
    const fed = Date.now() / 1000;
    await feed();
    await until(
      'every VM state item has a value from after discovery',
      async () => (await Promise.all(['cpu.code', 'mem.code', 'disk.code'].map(vmItems))).flat().every((i) => Number(i.lastclock) >= fed - 1),
      600_000,
      feed,
    );
    // Every VM of the scenario is within the thresholds; the 80 powered-off ones, UNKNOWN by the
    // runner's default --powered-off-state, are OK by both templates' macro.
    for (const key of ['cpu.code', 'mem.code', 'disk.code']) {
      const items = await vmItems(key);
      expect(new Set(items.map((i) => i.key_.slice(i.key_.indexOf('[') + 1, -1)))).toEqual(new Set(expected.keys()));
      expect(
        items.filter((i) => i.lastvalue !== '0').map((i) => `${i.hosts[0].host} ${i.key_}=${i.lastvalue}`),
        key,
      ).toEqual([]);
    }
    const status = await vmItems('status');
    expect(status.filter((i) => i.lastvalue === 'POWERED_OFF')).toHaveLength(2 * [...expected.values()].filter((v) => v.status === 'POWERED_OFF').length);
    const problems = await api<unknown[]>('problem.get', { hostids: Object.values(hostIds), output: ['name'] });
    expect(problems.filter((p) => !String((p as { name: string }).name).startsWith('VM fleet'))).toEqual([]);
    await sleep(15_000);
    const after = await internal();
    const used = after['zabbix[rcache,buffer,used]'] - before['zabbix[rcache,buffer,used]'];
    figures.push(
      `configuration cache for ${2 * expected.size} VMs in both templates: ${used} bytes, ${Math.round(used / ((2 * expected.size) / 1000) / 1024 / 1024)} MiB per 1,000 VMs per template`,
      `value cache used: ${after['zabbix[vcache,buffer,used]']} bytes; history cache ${after['zabbix[wcache,history,pused]'].toFixed(1)}% of ${SERVER_SETTINGS.HistoryCacheSize}, history index cache ${after['zabbix[wcache,index,pused]'].toFixed(1)}% of ${SERVER_SETTINGS.HistoryIndexCacheSize}`,
    );
  }, 1_800_000);

  it.skipIf(SEVEN)('6.0: the whole organisation in one master item is refused by the 512 KB output limit, and says so', async () => {
    const [item] = await api<Array<{ state: string; error: string }>>('item.get', {
      hostids: [hostIds['fleet-acme-whole']],
      filter: { type: '10' },
      output: ['state', 'error'],
    });
    expect(item.state).toBe('1');
    expect(item.error).toMatch(/exceeded limit of 512 KB/);
    await api('host.delete', [hostIds['fleet-acme-whole']]);
    delete hostIds['fleet-acme-whole'];
  });

  it('a broken password: one problem per runner ("VM fleet cannot be collected"), none for the 2,000 VMs', async () => {
    const since = Math.floor(Date.now() / 1000);
    writeFileSync(password, 'rotated-elsewhere\n');
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { mode: 0o700 });
    if (zabbix.runAs) chownSync(cacheDir, zabbix.runAs.uid, zabbix.runAs.gid);
    await executeNow(masterHosts);
    const s = submit(['--no-cache']);
    expect(s.status).toBe(3);
    expect(s.stdout).toMatch(/^VM_FLEET UNKNOWN - login to .* rejected/);
    const events = async () =>
      api<Array<{ name: string }>>('event.get', { hostids: Object.values(hostIds), source: 0, object: 0, value: 1, time_from: since, output: ['name'] });
    await until(
      'a problem for each runner',
      async () => (await events()).length >= runners.length,
      420_000,
      async () => executeNow(masterHosts),
    );
    await sleep(20_000); // anything else it would raise has come by now
    const raised = await events();
    figures.push(`broken password: ${raised.length} problem events for ${runners.length} runner(s) and ${expected.size} VMs`);
    expect(raised.map((e) => e.name).sort()).toEqual(runners.map(() => 'VM fleet cannot be collected'));
  }, 600_000);
});

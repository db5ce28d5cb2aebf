// contrib/zabbix/cloudchecks_templates.yaml in a real Zabbix server (Debian's zabbix-server-pgsql
// and frontend, PostgreSQL), as a new user sets it up from docs/zabbix.md: the template imported
// through the API with the Import dialog's default rules, hosts with an interface and the
// macros, the plugins as external checks (run as the zabbix user when the test runs as root)
// against the simulator, "Execute now", and everything read back through the API: values, no
// unsupported item, node and VM discovery, and a problem for every UNKNOWN and every sick thing.
// Zabbix 7.0 LTS is not in Debian 12's archive; the template's export format (6.0) is what 7.0
// imports through its converter, and this test runs the 6.0 LTS that Debian ships.
import { execFileSync } from 'node:child_process';
import { chownSync, copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';
import { findZabbix, PrivateZabbix, sleep, type ZabbixInstall } from './support/zabbix';

const found = findZabbix();
const install = 'missing' in found ? undefined : found;
if (!install) {
  const bar = '!'.repeat(78);
  console.warn(
    `\n${bar}\nSKIPPED: the Zabbix integration test did not run: ${(found as { missing: string }).missing} is not installed.\n` +
      'Install with: apt-get install --no-install-recommends zabbix-server-pgsql zabbix-frontend-php php8.2-pgsql php8.2-cli php8.2-cgi postgresql\n' +
      "(or run 'make integration-deps CLOUDCHECKS_INSTALL_DEPS=1' as root). Zabbix 7.0 LTS is not tested: it is not in Debian 12's archive.\n" +
      `${bar}\n`,
  );
}
const suite = install ? describe : describe.skip;

const TEMPLATE = join(REPO, 'contrib/zabbix/cloudchecks_templates.yaml');
const PLUGINS = ['check_nodes', 'check_cluster_monitoring', 'check_vm_cpu', 'check_vm_disk', 'check_vm_mem'];

/** The Import dialog's default rules for templates (CControllerPopupImport, preset "template"). */
const rule = () => ({ updateExisting: true, createMissing: true, deleteMissing: false });
const IMPORT_RULES = {
  groups: { updateExisting: true, createMissing: true },
  templates: { updateExisting: true, createMissing: true },
  valueMaps: rule(),
  templateDashboards: rule(),
  templateLinkage: { createMissing: true, deleteMissing: false },
  items: rule(),
  discoveryRules: rule(),
  triggers: rule(),
  graphs: rule(),
  httptests: rule(),
};

interface ZItem {
  itemid: string;
  key_: string;
  name: string;
  type: string;
  state: string;
  error: string;
  lastvalue: string;
  lastclock: string;
  hosts: Array<{ host: string }>;
}
interface ZTrigger {
  triggerid: string;
  description: string;
  expression: string;
  value: string;
  state: string;
  error: string;
  items: Array<{ itemid: string }>;
}

const EXTERNAL = '10';

suite(`Zabbix ${install?.version ?? ''} runs contrib/zabbix/cloudchecks_templates.yaml (7.0 LTS: not installable on Debian 12, not tested)`, () => {
  const sim = new BuiltSimulator(['--cluster-scenario', 'sick', '--vcd-scenario', 'default']);
  let zabbix: PrivateZabbix;
  let vms: Record<string, string>;
  let items: ZItem[] = [];
  const hostIds: Record<string, string> = {};
  let loginsBefore = 0;
  let logoutsBefore = 0;

  const api = <T>(method: string, params: unknown) => zabbix.call(method, params) as Promise<T>;
  const vcdStats = async () => (await (await fetch(`${sim.ready.apis.vcd.httpUrl}/_sim/stats`)).json()) as Record<string, number>;

  async function readItems(): Promise<ZItem[]> {
    return api<ZItem[]>('item.get', { hostids: Object.values(hostIds), output: ['itemid', 'key_', 'name', 'type', 'state', 'error', 'lastvalue', 'lastclock'], selectHosts: ['host'] });
  }
  /** "Execute now" on every external check and discovery rule of the test hosts. */
  async function executeNow(): Promise<void> {
    const checks = await api<Array<{ itemid: string }>>('item.get', { hostids: Object.values(hostIds), filter: { type: EXTERNAL }, output: ['itemid'] });
    const rules = await api<Array<{ itemid: string }>>('discoveryrule.get', { hostids: Object.values(hostIds), output: ['itemid'] });
    await api('task.create', [...checks, ...rules].map((i) => ({ type: 6, request: { itemid: i.itemid } })));
  }
  /** Polls (bounded) until `done` holds for the items read back. */
  async function waitItems(what: string, done: (items: ZItem[]) => boolean, ms: number): Promise<ZItem[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const now = await readItems();
      if (done(now)) return now;
      if (Date.now() > deadline) {
        const pending = now.filter((i) => i.type === EXTERNAL && i.lastclock === '0').map((i) => `${i.hosts[0].host}: ${i.key_}`);
        throw new Error(`${what} not reached within ${ms / 1000}s; external checks without a value: ${pending.join(', ') || 'none'}\n${zabbix.serverLog.split('\n').slice(-40).join('\n')}`);
      }
      await sleep(1000);
    }
  }
  const item = (host: string, key: string) => {
    const i = items.find((x) => x.hosts[0].host === host && x.key_ === key);
    if (!i) throw new Error(`no item ${key} on ${host}; items: ${items.filter((x) => x.hosts[0].host === host).map((x) => x.key_).join(', ')}`);
    return i;
  };

  beforeAll(async () => {
    assertBuilt();
    await sim.start();
    vms = sim.vms();
    zabbix = new PrivateZabbix(install as ZabbixInstall);
    const dir = zabbix.root;
    const owner = zabbix.runAs;
    const own = (path: string) => owner && chownSync(path, owner.uid, owner.gid);

    // docs/zabbix.md steps 1 and 3: the plugins in the external scripts directory, the secrets
    // in files only the zabbix user reads, the ini file with a writable cache-dir.
    const scripts = join(dir, 'externalscripts');
    mkdirSync(scripts);
    for (const p of PLUGINS) symlinkSync(join(DIST, p), join(scripts, p));
    const secrets = join(dir, 'secrets');
    mkdirSync(secrets, { mode: 0o750 });
    own(secrets);
    const { cluster, vcd } = sim.ready.apis;
    const files = { token: join(secrets, 'cluster.token'), password: join(secrets, 'vcd.password'), ca: join(secrets, 'ca.pem') };
    copyFileSync(cluster.tokenFile, files.token);
    copyFileSync(vcd.passwordFile, files.password);
    copyFileSync(sim.ready.caFile, files.ca);
    for (const f of Object.values(files)) own(f);
    const cacheDir = join(dir, 'cache');
    mkdirSync(cacheDir, { mode: 0o700 });
    own(cacheDir);
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, '');
    const ini = join(dir, 'cloudchecks.ini');
    writeFileSync(
      ini,
      [
        '[cluster]',
        `url=${cluster.httpsUrl}`,
        `token-file=${files.token}`,
        `ca-file=${files.ca}`,
        'timeout=8',
        '',
        '[vcd]',
        `url=${vcd.httpsUrl}`,
        `user=${vcd.user}`,
        `org=${vcd.org}`,
        `password-file=${files.password}`,
        `ca-file=${files.ca}`,
        `cache-dir=${cacheDir}`,
        'timeout=8',
        '',
        // The mistake the issue found: a cache directory the checks cannot write.
        '[vcd-nocache]',
        `url=${vcd.httpsUrl}`,
        `user=${vcd.user}`,
        `org=${vcd.org}`,
        `password-file=${files.password}`,
        `ca-file=${files.ca}`,
        `cache-dir=${join(blocker, 'cache')}`,
        'timeout=8',
        '',
      ].join('\n'),
      { mode: 0o640 },
    );
    own(ini);
    await zabbix.start(scripts);
    const stats = await vcdStats();
    loginsBefore = stats.login ?? 0;
    logoutsBefore = stats.logout ?? 0;
  }, 240_000);

  afterAll(async () => {
    await zabbix?.stop();
    await sim.stop();
  }, 60_000);

  it('imports the template as shipped with the Import dialog default rules, twice (create, then update)', async () => {
    const source = readFileSync(TEMPLATE, 'utf8');
    expect(await api('configuration.import', { format: 'yaml', source, rules: IMPORT_RULES })).toBe(true);
    expect(await api('configuration.import', { format: 'yaml', source, rules: IMPORT_RULES })).toBe(true);
    const templates = await api<Array<{ host: string }>>('template.get', { search: { host: 'cloudchecks' }, output: ['host'] });
    expect(templates.map((t) => t.host).sort()).toEqual(['cloudchecks Cloud Director VM', 'cloudchecks Cloud Director VMs', 'cloudchecks Kubernetes nodes', 'cloudchecks cluster monitoring']);
  }, 60_000);

  it('refuses a host without an interface (docs/zabbix.md says to add one)', async () => {
    const [t] = await api<Array<{ templateid: string }>>('template.get', { filter: { host: ['cloudchecks Cloud Director VM'] }, output: ['templateid'] });
    const [g] = await api<Array<{ groupid: string }>>('hostgroup.get', { filter: { name: ['Templates/Cloud'] }, output: ['groupid'] });
    await expect(api('host.create', { host: 'no-interface', groups: [{ groupid: g.groupid }], templates: [{ templateid: t.templateid }] })).rejects.toThrow(/Cannot find host interface/);
  });

  it('runs every check through the server: values for every item, none unsupported', async () => {
    const templateIds = Object.fromEntries(
      (await api<Array<{ templateid: string; host: string }>>('template.get', { search: { host: 'cloudchecks' }, output: ['host'] })).map((t) => [t.host, t.templateid]),
    );
    const group = ((await api<{ groupids: string[] }>('hostgroup.create', { name: 'cloudchecks test' })).groupids)[0];
    const ini = join(zabbix.root, 'cloudchecks.ini');
    const host = async (name: string, templates: string[], macros: Record<string, string>) => {
      const r = await api<{ hostids: string[] }>('host.create', {
        host: name,
        groups: [{ groupid: group }],
        // Any interface will do: external checks run on the server and never contact it.
        interfaces: [{ type: 1, main: 1, useip: 1, ip: '127.0.0.1', dns: '', port: '10050' }],
        templates: templates.map((t) => ({ templateid: templateIds[t] })),
        macros: Object.entries({ '{$CLOUDCHECKS.INI}': ini, ...macros }).map(([macro, value]) => ({ macro, value })),
      });
      hostIds[name] = r.hostids[0];
    };
    await host('cluster', ['cloudchecks Kubernetes nodes', 'cloudchecks cluster monitoring'], { '{$CLOUDCHECKS.SECTION}': 'cluster', '{$CLOUDCHECKS.MONITORING.SECTION}': 'cluster' });
    await host('vcd-acme', ['cloudchecks Cloud Director VMs'], { '{$CLOUDCHECKS.SECTION}': 'vcd' });
    await host('vm-busy', ['cloudchecks Cloud Director VM'], { '{$CLOUDCHECKS.SECTION}': 'vcd', '{$CLOUDCHECKS.VM}': vms.busy });
    await host('vm-full-disk', ['cloudchecks Cloud Director VM'], { '{$CLOUDCHECKS.SECTION}': 'vcd', '{$CLOUDCHECKS.VM}': vms['full-disk'] });
    await host('vm-powered-off', ['cloudchecks Cloud Director VM'], { '{$CLOUDCHECKS.SECTION}': 'vcd', '{$CLOUDCHECKS.VM}': vms['powered-off'] });
    // By name, as issue 10 allows: the VM without VMware Tools.
    await host('vm-legacy-07', ['cloudchecks Cloud Director VM'], { '{$CLOUDCHECKS.SECTION}': 'vcd', '{$CLOUDCHECKS.VM}': 'legacy-07' });
    await host('vm-nocache', ['cloudchecks Cloud Director VM'], { '{$CLOUDCHECKS.SECTION}': 'vcd-nocache', '{$CLOUDCHECKS.VM}': vms.healthy });

    zabbix.reloadConfig();
    await sleep(1000);
    await executeNow();
    // The discovery rules create items; they need the configuration again and their own run.
    await waitItems('discovery of nodes and VMs', (now) => now.some((i) => i.key_.startsWith('cloudchecks.node.state[')) && now.some((i) => i.key_.startsWith('check_vm_disk[') && i.hosts[0].host === 'vcd-acme'), 120_000);
    zabbix.reloadConfig();
    await sleep(2000);
    await executeNow();
    items = await waitItems(
      'a value for every external check and every state item',
      (now) => now.filter((i) => i.type === EXTERNAL || /\.code(\[|$)|node\.state\[/.test(i.key_)).every((i) => i.lastclock !== '0'),
      150_000,
    );
    const unsupported = items.filter((i) => i.state !== '0').map((i) => `${i.hosts[0].host}: ${i.key_}: ${i.error}`);
    expect(unsupported).toEqual([]);
    for (const i of items.filter((x) => x.type === EXTERNAL)) expect(() => JSON.parse(i.lastvalue), `${i.hosts[0].host}: ${i.key_}`).not.toThrow();
  }, 330_000);

  it('reads the expected values: nodes, monitoring stack, VMs', () => {
    expect(item('cluster', 'cloudchecks.nodes.code').lastvalue).toBe('2');
    expect(item('cluster', 'cloudchecks.nodes.total').lastvalue).toBe('10');
    expect(item('cluster', 'cloudchecks.nodes.failing').lastvalue).toBe('4');
    expect(item('cluster', 'cloudchecks.nodes.summary').lastvalue).toMatch(/^4 of 10 nodes failing: worker-2\.prod-eu1\.example\.com /);
    expect(item('cluster', 'cloudchecks.monitoring.code').lastvalue).toBe('2');
    expect(item('cluster', 'cloudchecks.monitoring.pods').lastvalue).toBe('26');
    expect(item('cluster', 'cloudchecks.monitoring.pods_ready').lastvalue).toBe('25');
    expect(item('cluster', 'cloudchecks.monitoring.user_workload').lastvalue).toBe('1');
    expect(item('cluster', 'cloudchecks.monitoring.summary').lastvalue).toMatch(/Degraded=True/);
    expect(item('vm-busy', 'cloudchecks.vm.cpu.code').lastvalue).toBe('1');
    expect(Number(item('vm-busy', 'cloudchecks.vm.cpu.usage').lastvalue)).toBeGreaterThan(80);
    expect(item('vm-full-disk', 'cloudchecks.vm.disk.code').lastvalue).toBe('2');
    expect(Number(item('vm-full-disk', 'cloudchecks.vm.disk.used_pct').lastvalue)).toBeGreaterThan(90);
    expect(Number(item('vm-full-disk', 'cloudchecks.vm.disk.provisioned').lastvalue)).toBeGreaterThan(0);
    for (const c of ['cpu', 'mem', 'disk']) expect(item('vm-powered-off', `cloudchecks.vm.${c}.code`).lastvalue, c).toBe('3');
    expect(item('vm-powered-off', 'cloudchecks.vm.cpu.summary').lastvalue).toMatch(/powered off/);
    expect(item('vm-legacy-07', 'cloudchecks.vm.mem.code').lastvalue).toBe('3');
    expect(item('vm-legacy-07', 'cloudchecks.vm.cpu.code').lastvalue).toBe('0');
  });

  it('discovers every node, with each node state from the one cluster check', () => {
    const states = Object.fromEntries(items.filter((i) => i.key_.startsWith('cloudchecks.node.state[')).map((i) => [i.key_.slice('cloudchecks.node.state['.length, -1), i.lastvalue]));
    expect(Object.keys(states)).toHaveLength(10);
    expect(states['worker-2.prod-eu1.example.com']).toBe('2');
    expect(states['master-0.prod-eu1.example.com']).toBe('0');
    expect(Object.values(states).filter((s) => s === '2')).toHaveLength(4);
    expect(item('cluster', 'cloudchecks.node.text[worker-2.prod-eu1.example.com]').lastvalue).toMatch(/Ready=Unknown/);
  });

  it('discovers the powered-on VMs (the status filter leaves the powered-off one out), three checks each', () => {
    const discovered = items.filter((i) => i.hosts[0].host === 'vcd-acme' && i.type === EXTERNAL);
    const ids = new Set(discovered.map((i) => /"--vm","(vm-[^"]+)"/.exec(i.key_)![1]));
    // What the plugin lists, less what the rule's default filter ({#VM.STATUS} ^POWERED_ON$) drops.
    const { vcd } = sim.ready.apis;
    const listed = JSON.parse(
      execFileSync(join(DIST, 'check_vm_cpu'), ['--url', vcd.httpsUrl, '--user', vcd.user, '--org', vcd.org, '--password-file', vcd.passwordFile, '--ca-file', sim.ready.caFile, '--no-cache', '--discovery'], { encoding: 'utf8' }),
    ) as Array<Record<string, string>>;
    const poweredOn = listed.filter((v) => v['{#VM.STATUS}'] === 'POWERED_ON').map((v) => v['{#VM.ID}']);
    expect(poweredOn.length).toBeLessThan(listed.length);
    expect([...ids].sort()).toEqual(poweredOn.sort());
    expect(ids.has(vms.healthy)).toBe(true);
    expect(ids.has(vms['powered-off'])).toBe(false);
    expect(discovered).toHaveLength(ids.size * 3);
    expect(item('vcd-acme', `cloudchecks.vm.cpu.code[${vms.busy}]`).lastvalue).toBe('1');
    expect(item('vcd-acme', `cloudchecks.vm.disk.code[${vms['full-disk']}]`).lastvalue).toBe('2');
    expect(item('vcd-acme', `cloudchecks.vm.mem.code[${vms['no-tools']}]`).lastvalue).toBe('3');
    expect(item('vcd-acme', `cloudchecks.vm.disk.code[${vms['no-disk']}]`).lastvalue).toBe('3');
    expect(Number(item('vcd-acme', `cloudchecks.vm.mem.usage[${vms.healthy}]`).lastvalue)).toBeGreaterThan(0);
  });

  it('raises a problem for every UNKNOWN, every sick node, the degraded monitoring stack and the unusable session cache', async () => {
    const codes = items.filter((i) => /\.code(\[|$)|node\.state\[/.test(i.key_));
    const unknown = codes.filter((i) => i.lastvalue === '3');
    // At least: powered-off (cpu, mem, disk), legacy-07 (mem), and the discovered no-tools (mem)
    // and no-disk (disk) VMs; the simulator's odder VMs add more.
    const unknownKeys = unknown.map((i) => `${i.hosts[0].host}: ${i.key_}`);
    for (const k of ['vm-powered-off: cloudchecks.vm.cpu.code', 'vm-legacy-07: cloudchecks.vm.mem.code', `vcd-acme: cloudchecks.vm.mem.code[${vms['no-tools']}]`, `vcd-acme: cloudchecks.vm.disk.code[${vms['no-disk']}]`]) {
      expect(unknownKeys).toContain(k);
    }
    const wanted = new Map<string, string>(); // itemid -> what must be a problem
    for (const i of unknown) wanted.set(i.itemid, `${i.hosts[0].host}: ${i.key_} is UNKNOWN`);
    for (const k of ['cloudchecks.nodes.code', 'cloudchecks.monitoring.code', 'cloudchecks.node.state[worker-2.prod-eu1.example.com]']) wanted.set(item('cluster', k).itemid, `cluster: ${k}`);
    wanted.set(item('vm-nocache', 'cloudchecks.vm.session_cache_unusable').itemid, 'vm-nocache: session cache unusable');
    expect(item('vm-nocache', 'cloudchecks.vm.session_cache_unusable').lastvalue).toBe('1');
    expect(item('vm-busy', 'cloudchecks.vm.session_cache_unusable').lastvalue).toBe('0');

    // Triggers are computed as values arrive: wait (bounded) until each wanted item has a problem.
    const deadline = Date.now() + 60_000;
    let missing: string[] = [];
    let triggers: ZTrigger[] = [];
    for (;;) {
      triggers = await api<ZTrigger[]>('trigger.get', { hostids: Object.values(hostIds), output: ['description', 'expression', 'value', 'state', 'error'], selectItems: ['itemid'], expandDescription: true, expandExpression: true });
      const problemItems = new Set(triggers.filter((t) => t.value === '1').flatMap((t) => t.items.map((i) => i.itemid)));
      missing = [...wanted].filter(([id]) => !problemItems.has(id)).map(([, what]) => what);
      if (missing.length === 0 || Date.now() > deadline) break;
      await sleep(1000);
    }
    expect(missing, 'states that raise no problem').toEqual([]);
    expect(triggers.filter((t) => t.state !== '0').map((t) => `${t.description}: ${t.error}`), 'triggers in an unknown state').toEqual([]);
    const names = triggers.filter((t) => t.value === '1').map((t) => t.description);
    expect(names).toContain('Cluster cluster: nodes failing');
    expect(names).toContain('Cluster cluster: monitoring stack down or degraded');
    expect(names).toContain('VM legacy-07: memory cannot be checked');
    expect(names).toContain('VM appliance-06: disk cannot be checked');
    expect(names).toContain(`VM ${vms['full-disk']}: disks 90% full`);
    expect(names).toContain('Cloud Director session cache unusable: every check logs in');
    // Healthy things raise nothing.
    expect(names.filter((n) => /web-01|vm-4f2c/.test(n))).toEqual([]);
  }, 90_000);

  it('shares one Cloud Director session among all checks with the ini file cache-dir; the unusable one logs out each time', async () => {
    const stats = await vcdStats();
    const logins = (stats.login ?? 0) - loginsBefore;
    const logouts = (stats.logout ?? 0) - logoutsBefore;
    // vm-nocache: each of its runs logs in and out; everything else shares one cached login.
    expect(logouts).toBeGreaterThanOrEqual(3);
    expect(logins - logouts).toBe(1);
  });
});

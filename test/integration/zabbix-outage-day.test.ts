// One vCD outage and its recovery in the real Zabbix server (6.0 here, 7.0 in the Debian 13 root),
// with the shipped templates and only the documented steps, over the real intervals scaled: every
// interval of the templates (the items' delays and the *.INTERVAL, *.NODATA and *.SETTLE macros)
// divided by SCALE, nothing else changed, no check forced. One host per vCD with check_vcd (the
// service template) and the provider VDCs, in the host group the organisation hosts' templates
// read it from ({$CLOUDCHECKS.VCD.GROUP}, "Cloud Director" as shipped); three organisation hosts
// beneath it, the VM fleet on one, the VDCs on another, and three VMs on hosts of their own (the
// template for one VM per host: CPU, memory, disk, snapshots, VMware Tools, lease): one healthy,
// one powered off (its checks UNKNOWN), one with a snapshot 10 days old; and the VDC over its
// warning limit of memory (the simulator's control): problems open before the outage, cannot be
// checked and measured (over a threshold) ones. The day: first start (every VM
// discovered from the fleet's runs, every VDC and provider VDC discovered, all with values), vCD
// stopped for twice the fleet's no-result window (a TCP relay in front of the simulator, closed:
// connections refused), vCD back until every VM, VDC and provider VDC item holds a fresh value and
// the settle window is over; then the password rejected (rotated elsewhere, the sessions gone)
// and back, the same. Counted from the server's events: one problem per break, check_vcd's on the
// vCD's host, and at most its recovery; nothing on first start but the problems set up to be
// there (the powered-off VM's cannot-be-checked ones, the old snapshot, the VDC's warning), which
// stay open through each break, each its one event, neither closed nor raised again; none for a
// VM, a VDC, a provider VDC or the runner, over the whole day. Then the VDC's WARNING becomes
// CRITICAL and WARNING again: the critical problem and its recovery, the warning open throughout
// (it depends on the critical one). The simulator's fleet scenario, 50 VMs (the 50th: the old
// snapshot, powered off in the scenario, powered on here so that its other checks are OK).
import { execFile } from 'node:child_process';
import { chownSync, copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { askedSuite } from './support/engines';
import { Relay } from './support/relay';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';
import { findZabbix, PrivateZabbix, sleep, type ZabbixInstall } from './support/zabbix';

const found = findZabbix();
const install = 'missing' in found ? undefined : found;
const suite = askedSuite({
  env: 'CLOUDCHECKS_ZABBIX_OUTAGE',
  what: 'the Zabbix outage-day test',
  takes: 'about 20 minutes per Zabbix version',
  missing: 'missing' in found ? found.missing : undefined,
  fix: "Install with: apt-get install --no-install-recommends zabbix-server-pgsql zabbix-frontend-php php8.2-pgsql php8.2-cli php8.2-cgi postgresql (or run 'make integration-deps CLOUDCHECKS_INSTALL_DEPS=1' as root).",
});
const SEVEN = install?.version.startsWith('7.') === true;
const TEMPLATE = join(REPO, SEVEN ? 'contrib/zabbix/cloudchecks_templates_7.0.yaml' : 'contrib/zabbix/cloudchecks_templates.yaml');
const VMS = 50;
/** Every interval of the templates is divided by this (Zabbix's nodata() takes 30 s at least: 15m / 30). */
const SCALE = 30;
const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
const seconds = (d: string) => Number(d.slice(0, -1)) * UNIT[d.slice(-1)];
const run = promisify(execFile);
const DOWN = 'Cloud Director: down, silent or refusing the login';
/** The longest interval of the checks beneath check_vcd (the one-VM template's snapshots and lease, 1h), scaled. */
const LONGEST = 3600 / SCALE;
/** The scenario's VM with a snapshot 10 days old (its 50th): CRITICAL by check_vm_snapshot's defaults (7 days). */
const SNAPSHOT_VM = 'node-0150';
/** The fleet scenario's one VDC, set over its warning limit of memory (80 %) before the first start. */
const VDC = 'acme-fleet';
const VDC_WARNING = `VDC ${VDC} (org acme): near a limit, or VMs in failed states`;
const VDC_CRITICAL = `VDC ${VDC} (org acme): disabled, not ready or over a critical limit`;
/** The checks of the template for one VM per host. */
const ONE_VM = ['check_vm_cpu', 'check_vm_mem', 'check_vm_disk', 'check_vm_snapshot', 'check_vm_tools', 'check_vm_lease'];

/** The shipped export with its intervals divided by SCALE, and nothing else changed. */
function scaledTemplates(source: string): { text: string; macros: Record<string, number> } {
  const macros: Record<string, number> = {};
  const lines = source.split('\n');
  let scaled = 0;
  for (let i = 0; i < lines.length; i++) {
    const delay = /^( +delay: )'?(\d+[smhd])'?$/.exec(lines[i]);
    if (delay && delay[2] !== '0') {
      lines[i] = `${delay[1]}${Math.max(1, Math.round(seconds(delay[2]) / SCALE))}s`;
      scaled++;
    }
    const macro = /^ +- macro: '(\{\$CLOUDCHECKS\.[A-Z.]*(INTERVAL|NODATA|SETTLE)\})'$/.exec(lines[i]);
    const value = /^( +value: )'?(\d+[smhd])'?$/.exec(lines[i + 1] ?? '');
    if (macro && value) {
      const s = Math.max(1, Math.round(seconds(value[2]) / SCALE));
      // The longest where templates differ ({$CLOUDCHECKS.VCD.SETTLE}: 75m for one VM per host, else 30m).
      macros[macro[1]] = Math.max(macros[macro[1]] ?? 0, s);
      lines[i + 1] = `${value[1]}${s}s`;
      scaled++;
    }
  }
  expect(scaled).toBeGreaterThan(20);
  return { text: lines.join('\n'), macros };
}

suite(`Zabbix ${install?.version ?? ''}: one vCD outage and a rejected password, through the recovery, over the shipped intervals scaled`, () => {
  const sim = new BuiltSimulator(['--vcd-scenario', 'fleet', '--vcd-fleet-vms', String(VMS)]);
  let zabbix: PrivateZabbix;
  let relay: Relay;
  let password = '';
  let secret = '';
  let cacheDir = '';
  let macros: Record<string, number> = {};
  const hostIds: Record<string, string> = {};
  const figures: string[] = [];
  let vmCount = 0;
  /** The VM on a host of its own: one every check of the one-VM template finds OK. */
  let oneVm = '';
  /** A powered-off VM on a host of its own: its checks UNKNOWN, its problems open before the outage. */
  let offVm = '';
  /** Those problems, open since the first start. */
  let offProblems: string[] = [];
  /** A VM on a host of its own with a snapshot too old: its snapshot problem open before the outage. */
  let snapVm = '';
  /** Every problem open before the outages (set up to be there), as "eventid host: name". */
  let openBefore: string[] = [];
  /** When the day began (the templates imported). */
  let dayStart = 0;
  const api = <T>(method: string, params: unknown) => zabbix.call(method, params) as Promise<T>;
  const own = (path: string) => zabbix.runAs && chownSync(path, zabbix.runAs.uid, zabbix.runAs.gid);

  /** The problem (value 1) or recovery (value 0) events of the checks' triggers since `from`, as "host: name". */
  async function events(from: number, value: 0 | 1): Promise<string[]> {
    const list = await api<Array<{ name: string; hosts: Array<{ host: string }> }>>('event.get', {
      hostids: Object.values(hostIds),
      source: 0,
      object: 0,
      value,
      time_from: from,
      output: ['name'],
      selectHosts: ['host'],
    });
    return list.map((e) => `${e.hosts[0]?.host}: ${e.name}`).sort();
  }
  /** Every open problem of the checks' hosts, as "eventid host: name", sorted. */
  async function allOpen(): Promise<string[]> {
    const list = await api<Array<{ eventid: string; name: string; objectid: string }>>('problem.get', {
      hostids: Object.values(hostIds),
      source: 0,
      object: 0,
      output: ['eventid', 'name', 'objectid'],
    });
    const triggers = await api<Array<{ triggerid: string; hosts: Array<{ host: string }> }>>('trigger.get', {
      triggerids: list.map((p) => p.objectid),
      selectHosts: ['host'],
      output: ['triggerid'],
    });
    const hostOf = Object.fromEntries(triggers.map((t) => [t.triggerid, t.hosts[0]?.host]));
    return list.map((p) => `${p.eventid} ${hostOf[p.objectid]}: ${p.name}`).sort();
  }
  /** A simulator control call (PUT /_sim/vcd/...). */
  async function simControl(path: string): Promise<void> {
    const r = await fetch(`${sim.ready.apis.vcd.httpUrl}${path}`, { method: 'PUT' });
    expect(r.status, await r.text()).toBeLessThan(300);
  }
  /** The names of a host's open problems, sorted. */
  async function openProblems(name: string): Promise<string[]> {
    return (await api<Array<{ name: string }>>('problem.get', { hostids: [hostIds[name]], output: ['name'] })).map((p) => p.name).sort();
  }
  /** The state items of every VM, VDC and provider VDC (discovered), with their last values' times. */
  async function stateItems(): Promise<Array<{ key_: string; lastclock: string; lastvalue: string; hosts: Array<{ host: string }> }>> {
    const items = await api<Array<{ key_: string; lastclock: string; lastvalue: string; hosts: Array<{ host: string }> }>>('item.get', {
      hostids: Object.values(hostIds),
      output: ['key_', 'lastclock', 'lastvalue'],
      selectHosts: ['host'],
    });
    return items.filter((i) => /^cloudchecks\.((fleet\.vm\.(cpu|mem|disk)\.code|vdc\.code|pvdc\.code)\[|vm\.[a-z]+\.code$)/.test(i.key_));
  }
  /** Waits until every VM, VDC and provider VDC state item has a value from `after` on, and the settle window is over. */
  async function freshAgain(what: string, after: number, settle = true): Promise<number> {
    const deadline = Date.now() + 300_000;
    let fresh = 0;
    for (;;) {
      const items = await stateItems();
      const stale = items.filter((i) => Number(i.lastclock) < after);
      if (stale.length === 0 && items.length >= 3 * vmCount + 2 + 3 * ONE_VM.length) {
        fresh = Math.floor(Date.now() / 1000);
        break;
      }
      if (Date.now() > deadline)
        throw new Error(
          `${what}: ${stale.length} of ${items.length} items not fresh within 300 s: ${stale
            .map((i) => i.key_)
            .slice(0, 10)
            .join(', ')}`,
        );
      await sleep(2000);
    }
    // The cannot-be-checked triggers listen again {$CLOUDCHECKS.VCD.SETTLE} after check_vcd's last
    // CRITICAL: anything they would raise comes by then (and the next runs after it).
    const until = (settle ? after + macros['{$CLOUDCHECKS.VCD.SETTLE}'] : fresh) + LONGEST + 5;
    while (Date.now() / 1000 < until) await sleep(2000);
    return fresh - after;
  }

  beforeAll(async () => {
    assertBuilt();
    await sim.start();
    const { vcd } = sim.ready.apis;
    relay = new Relay(Number(new URL(vcd.httpsUrl).port));
    await relay.open();
    zabbix = new PrivateZabbix(install as ZabbixInstall);
    // docs/zabbix.md steps 1-3: the plugins in the external scripts directory, the secrets in
    // files only the zabbix user reads, the ini file with a writable cache-dir.
    const scripts = join(zabbix.root, 'externalscripts');
    mkdirSync(scripts);
    for (const plugin of ['check_vcd', 'check_vm_fleet', 'check_vdc', 'check_pvdc', ...ONE_VM]) symlinkSync(join(DIST, plugin), join(scripts, plugin));
    const secrets = join(zabbix.root, 'secrets');
    mkdirSync(secrets, { mode: 0o750 });
    own(secrets);
    password = join(secrets, 'vcd.password');
    const ca = join(secrets, 'ca.pem');
    copyFileSync(vcd.passwordFile, password);
    secret = readFileSync(password, 'utf8');
    copyFileSync(sim.ready.caFile, ca);
    own(password);
    own(ca);
    cacheDir = join(zabbix.root, 'cache');
    mkdirSync(cacheDir, { mode: 0o700 });
    own(cacheDir);
    const section = (name: string, user: string, org: string) => [
      `[${name}]`,
      `url=https://127.0.0.1:${relay.port}`,
      `user=${user}`,
      `org=${org}`,
      `password-file=${password}`,
      `ca-file=${ca}`,
      `cache-dir=${cacheDir}`,
      'timeout=8',
      '',
    ];
    const ini = join(zabbix.root, 'cloudchecks.ini');
    // check_vcd and the provider VDCs with the provider's System account; the organisation's
    // checks with the tenant's. One password file: a rotation reaches every check.
    writeFileSync(ini, [...section('vcd-system', vcd.providerUser, 'System'), ...section('vcd', vcd.user, vcd.org)].join('\n'), { mode: 0o640 });
    own(ini);
    // Step 2: 6.0's external checks get 15 s; 7.0's items carry their own timeout.
    await zabbix.start(scripts, SEVEN ? {} : { Timeout: '15' });
    // Problems measured before the outage: the VDC over its warning limit of memory, and the
    // scenario's VM with the old snapshot powered on (its other checks OK).
    await simControl(`/_sim/vcd/vdc?vdc=${VDC}&memory=85`);
    await simControl(`/_sim/vcd/power?vm=${SNAPSHOT_VM}&state=on`);
    // The VMs the fleet's runs will name.
    // (Not spawnSync: the relay runs in this process.)
    const r = await run(join(DIST, 'check_vm_fleet'), ['--extra-opts', `vcd@${ini}`, '--output', 'json', '--compact', '-t', '60'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      uid: zabbix.runAs?.uid,
      gid: zabbix.runAs?.gid,
    }).catch((error: { stdout: string }) => error);
    const vms = (JSON.parse(r.stdout) as { vms: Record<string, { status: string; name: string }> }).vms;
    vmCount = Object.keys(vms).length;
    expect(vmCount).toBeGreaterThanOrEqual(Math.min(VMS, 40));
    // The VM for the host of its own: the first powered-on one every check of that template finds OK.
    const as = { encoding: 'utf8' as const, uid: zabbix.runAs?.uid, gid: zabbix.runAs?.gid };
    for (const id of Object.keys(vms)
      .filter((id) => vms[id].status === 'POWERED_ON')
      .slice(0, 5)) {
      const codes = await Promise.all(
        ONE_VM.map((p) =>
          run(join(DIST, p), ['--extra-opts', `vcd@${ini}`, '--vm', id, '-t', '30'], as).then(
            () => 0,
            (e: { code?: number }) => e.code ?? 3,
          ),
        ),
      );
      if (codes.every((c) => c === 0)) {
        oneVm = id;
        break;
      }
    }
    expect(oneVm, 'a powered-on VM that every check of the one-VM template finds OK').not.toBe('');
    offVm = Object.keys(vms).find((id) => vms[id].status === 'POWERED_OFF') ?? '';
    expect(offVm, 'a powered-off VM in the fleet scenario').not.toBe('');
    snapVm = Object.keys(vms).find((id) => vms[id].name === SNAPSHOT_VM) ?? '';
    const snapCodes = await Promise.all(
      ONE_VM.map((p) =>
        run(join(DIST, p), ['--extra-opts', `vcd@${ini}`, '--vm', snapVm, '-t', '30'], as).then(
          () => `${p} 0`,
          (e: { code?: number }) => `${p} ${e.code ?? 3}`,
        ),
      ),
    );
    expect(snapCodes, `${SNAPSHOT_VM} (${snapVm}): CRITICAL by its snapshot only`).toEqual(ONE_VM.map((p) => `${p} ${p === 'check_vm_snapshot' ? 2 : 0}`));
  }, 240_000);

  afterAll(async () => {
    console.log(`\nZabbix ${install?.version} outage day (${vmCount} VMs, intervals / ${SCALE}):\n  ${figures.join('\n  ')}\n`);
    await zabbix?.stop();
    await relay?.close();
    await sim.stop();
  }, 60_000);

  it('first start: the vCD host and the organisation hosts as docs/zabbix.md sets them up; every VM, VDC and provider VDC discovered with values, and nothing raised but the problems set up to be there', async () => {
    const started = Math.floor(Date.now() / 1000);
    dayStart = started;
    const scaled = scaledTemplates(readFileSync(TEMPLATE, 'utf8'));
    macros = scaled.macros;
    expect(await zabbix.importTemplates(scaled.text)).toBe(true);
    const templates = Object.fromEntries(
      (await api<Array<{ templateid: string; host: string }>>('template.get', { search: { host: 'cloudchecks' }, output: ['host'] })).map((t) => [
        t.host,
        t.templateid,
      ]),
    );
    // Step 6: the vCD's host in the host group the organisation hosts read check_vcd from (the
    // templates' {$CLOUDCHECKS.VCD.GROUP}, as shipped), then the organisation hosts.
    const vcdGroup = (await api<{ groupids: string[] }>('hostgroup.create', { name: 'Cloud Director' })).groupids[0];
    const orgGroup = (await api<{ groupids: string[] }>('hostgroup.create', { name: 'Cloud Director organisations' })).groupids[0];
    const ini = join(zabbix.root, 'cloudchecks.ini');
    const host = async (name: string, group: string, names: string[], hostMacros: Record<string, string>) => {
      const r = await api<{ hostids: string[] }>('host.create', {
        host: name,
        groups: [{ groupid: group }],
        interfaces: [{ type: 1, main: 1, useip: 1, ip: '127.0.0.1', dns: '', port: '10050' }],
        templates: names.map((n) => ({ templateid: templates[n] })),
        macros: Object.entries({ '{$CLOUDCHECKS.INI}': ini, ...hostMacros }).map(([macro, value]) => ({ macro, value })),
      });
      hostIds[name] = r.hostids[0];
    };
    await host('vcd-eu1', vcdGroup, ['cloudchecks Cloud Director service', 'cloudchecks Cloud Director provider VDCs'], {
      '{$CLOUDCHECKS.VCD.SECTION}': 'vcd-system',
      '{$CLOUDCHECKS.PVDC.SECTION}': 'vcd-system',
    });
    await host('acme', orgGroup, ['cloudchecks Cloud Director VM fleet'], { '{$CLOUDCHECKS.SECTION}': 'vcd' });
    await host('acme-vdcs', orgGroup, ['cloudchecks Cloud Director VDCs'], { '{$CLOUDCHECKS.VDC.SECTION}': 'vcd' });
    await host('acme-vm', orgGroup, ['cloudchecks Cloud Director VM'], { '{$CLOUDCHECKS.SECTION}': 'vcd', '{$CLOUDCHECKS.VM}': oneVm });
    await host('acme-vm-off', orgGroup, ['cloudchecks Cloud Director VM'], { '{$CLOUDCHECKS.SECTION}': 'vcd', '{$CLOUDCHECKS.VM}': offVm });
    await host('acme-vm-snap', orgGroup, ['cloudchecks Cloud Director VM'], { '{$CLOUDCHECKS.SECTION}': 'vcd', '{$CLOUDCHECKS.VM}': snapVm });
    zabbix.reloadConfig();
    // Discovery as scheduled (the VDCs' and provider VDCs' rules every 1h / SCALE; the VMs from each fleet run).
    const took = await freshAgain('first start', started, false);
    figures.push(`first start: every VM (${vmCount}, and ${oneVm} on a host of its own), VDC and provider VDC item with a value after ${took} s`);
    const gates = await api<Array<{ key_: string; lastvalue: string }>>('item.get', {
      hostids: [hostIds.acme, hostIds['acme-vdcs'], hostIds['acme-vm']],
      search: { key_: '.vcd.code' },
      output: ['key_', 'lastvalue'],
    });
    expect(gates.map((g) => `${g.key_}=${g.lastvalue}`).sort()).toEqual([
      'cloudchecks.fleet.vcd.code=0',
      'cloudchecks.vdc.vcd.code=0',
      'cloudchecks.vm.vcd.code=0',
    ]);
    // The powered-off VM's checks that say UNKNOWN raise their problems on their second run: wait for each.
    let unknownChecks = 0;
    const deadline = Date.now() + 300_000;
    for (;;) {
      unknownChecks = (await stateItems()).filter((i) => i.hosts[0]?.host === 'acme-vm-off' && i.lastvalue === '3').length;
      offProblems = await openProblems('acme-vm-off');
      if ((unknownChecks > 0 && offProblems.length === unknownChecks) || Date.now() > deadline) break;
      await sleep(2000);
    }
    expect(offProblems.length, `${unknownChecks} UNKNOWN checks of the powered-off VM, problems ${JSON.stringify(offProblems)}`).toBe(unknownChecks);
    expect(offProblems.every((p) => p.endsWith(' cannot be checked'))).toBe(true);
    // The measured ones: the old snapshot (its check every 1h / SCALE) and the VDC's warning.
    const measured = [`acme-vdcs: ${VDC_WARNING}`, `acme-vm-snap: VM ${snapVm}: snapshot problem`];
    const wanted = [...offProblems.map((p) => `acme-vm-off: ${p}`), ...measured].sort();
    let raised: string[] = [];
    const measuredBy = Date.now() + 2 * LONGEST * 1000;
    while (Date.now() < measuredBy) {
      raised = await events(started, 1);
      if (measured.every((m) => raised.includes(m))) break;
      await sleep(2000);
    }
    figures.push(`first start: ${raised.length} problems ${JSON.stringify(raised)}`);
    expect(raised).toEqual(wanted);
    openBefore = await allOpen();
    expect(openBefore.map((p) => p.replace(/^\d+ /, '')).sort()).toEqual(wanted);
  }, 600_000);

  /** The runner's, the VDCs', the provider VDCs', the one VM's and the snapshots' state values from `from` to `to`: how often each was UNKNOWN (the most of a key's items). */
  async function unknownRuns(from: number, to: number): Promise<Record<string, number>> {
    const items = await api<Array<{ itemid: string; key_: string }>>('item.get', {
      hostids: [hostIds.acme, hostIds['acme-vdcs'], hostIds['acme-vm'], hostIds['acme-vm-snap'], hostIds['vcd-eu1']],
      output: ['itemid', 'key_'],
    });
    const wanted = items.filter((i) => /^cloudchecks\.(fleet\.code|vdc\.code\[|pvdc\.code\[|vm\.(cpu|mem|disk|snapshot)\.code$)/.test(i.key_));
    const history = await api<Array<{ itemid: string; value: string }>>('history.get', {
      itemids: wanted.map((i) => i.itemid),
      history: 3,
      time_from: from,
      time_till: to,
      output: 'extend',
    });
    const runs: Record<string, number> = {};
    for (const i of wanted) {
      const key = i.key_.replace(/\[.*/, '');
      runs[key] = Math.max(runs[key] ?? 0, history.filter((h) => h.itemid === i.itemid && h.value === '3').length);
    }
    return runs;
  }

  async function breakAndBack(what: string, brk: () => Promise<void>, mend: () => Promise<void>): Promise<void> {
    const from = Math.floor(Date.now() / 1000);
    await brk();
    // Down for twice the fleet's no-result window (15m as shipped) and two runs of the VDCs' 15m
    // checks: each check beneath fails twice in a row or more; and longer than the longest
    // interval (snapshots and lease, 1h): the old snapshot's check fails too.
    await sleep(Math.max(2 * macros['{$CLOUDCHECKS.FLEET.NODATA}'], LONGEST + 30) * 1000);
    const back = Math.floor(Date.now() / 1000);
    await mend();
    const took = await freshAgain(`${what}: recovery`, back);
    const unknown = await unknownRuns(from, back);
    const problems = await events(from, 1);
    const recoveries = await events(from, 0);
    figures.push(
      `${what}: down ${back - from} s; UNKNOWN runs beneath check_vcd meanwhile ${JSON.stringify(unknown)}; every VM, VDC and provider VDC item fresh ${took} s after; problems ${JSON.stringify(problems)}; recoveries ${JSON.stringify(recoveries)}`,
    );
    // Without the templates' gate, two UNKNOWN runs in a row raise the runner's and each VDC's problem.
    expect(unknown['cloudchecks.fleet.code']).toBeGreaterThanOrEqual(2);
    expect(unknown['cloudchecks.vdc.code']).toBeGreaterThanOrEqual(2);
    expect(unknown['cloudchecks.vm.cpu.code']).toBeGreaterThanOrEqual(2);
    // The measured problems' items went UNKNOWN too: without a recovery expression their triggers close here.
    expect(unknown['cloudchecks.vm.snapshot.code']).toBeGreaterThanOrEqual(1);
    expect(problems).toEqual([`vcd-eu1: ${DOWN}`]);
    // The problems of before (cannot be checked, and measured: the snapshot, the VDC's warning):
    // open all along, each its one event, neither closed nor raised again.
    expect(await openProblems('acme-vm-off')).toEqual(offProblems);
    expect((await allOpen()).filter((p) => !p.endsWith(`vcd-eu1: ${DOWN}`))).toEqual(openBefore);
    expect(recoveries.length).toBeLessThanOrEqual(1);
    expect(recoveries.every((r) => r === `vcd-eu1: ${DOWN}`)).toBe(true);
  }

  it('vCD stopped past the no-result window and back: one problem (check_vcd on the vCD host), at most its recovery, none beneath it', async () => {
    await breakAndBack(
      'vCD down',
      () => relay.close(),
      () => relay.open(),
    );
  }, 600_000);

  it('the password rejected (rotated elsewhere, the sessions gone) and back: the same', async () => {
    await breakAndBack(
      'password rejected',
      async () => {
        writeFileSync(password, 'rotated-elsewhere\n');
        rmSync(cacheDir, { recursive: true, force: true });
        mkdirSync(cacheDir, { mode: 0o700 });
        own(cacheDir);
      },
      async () => {
        writeFileSync(password, secret);
      },
    );
  }, 600_000);

  it("the whole day: check_vcd's problem per break and at most its recovery; the problems of before each their one event, still open", async () => {
    const problems = await events(dayStart, 1);
    const recoveries = await events(dayStart, 0);
    figures.push(`the whole day: ${problems.length} problems, ${recoveries.length} recoveries ${JSON.stringify(recoveries)}`);
    expect(problems).toEqual([...openBefore.map((p) => p.replace(/^\d+ /, '')), `vcd-eu1: ${DOWN}`, `vcd-eu1: ${DOWN}`].sort());
    expect(recoveries.length).toBeLessThanOrEqual(2);
    expect(recoveries.every((r) => r === `vcd-eu1: ${DOWN}`)).toBe(true);
    expect((await allOpen()).filter((p) => !p.endsWith(`vcd-eu1: ${DOWN}`))).toEqual(openBefore);
  }, 60_000);

  /** Waits until the VDC's state item (its check every 15m, scaled) holds `want` from a run after `after`. */
  async function vdcCode(want: string, after: number): Promise<void> {
    const deadline = Date.now() + (4 * 900 * 1000) / SCALE + 60_000;
    for (;;) {
      const item = (await stateItems()).find((i) => i.hosts[0]?.host === 'acme-vdcs' && i.key_.startsWith('cloudchecks.vdc.code['));
      if (item && Number(item.lastclock) > after && item.lastvalue === want) return;
      if (Date.now() > deadline) throw new Error(`the VDC's state: not ${want} since ${after} (${item?.lastvalue} at ${item?.lastclock})`);
      await sleep(2000);
    }
  }

  it("the VDC's WARNING becomes CRITICAL and WARNING again: the critical problem and its recovery; the warning's problem open throughout (it depends on the critical one)", async () => {
    const from = Math.floor(Date.now() / 1000);
    const warning = openBefore.find((p) => p.endsWith(`acme-vdcs: ${VDC_WARNING}`));
    await simControl(`/_sim/vcd/vdc?vdc=${VDC}&memory=95`);
    await vdcCode('2', from);
    await sleep(5000);
    const during = (await allOpen()).filter((p) => p.includes(' acme-vdcs: '));
    const back = Math.floor(Date.now() / 1000);
    await simControl(`/_sim/vcd/vdc?vdc=${VDC}&memory=85`);
    await vdcCode('1', back);
    await sleep(5000);
    const problems = await events(from, 1);
    const recoveries = await events(from, 0);
    figures.push(
      `WARNING, CRITICAL, WARNING: open at CRITICAL ${JSON.stringify(during)}; problems ${JSON.stringify(problems)}; recoveries ${JSON.stringify(recoveries)}`,
    );
    expect(during.map((p) => p.replace(/^\d+ /, '')).sort()).toEqual([`acme-vdcs: ${VDC_CRITICAL}`, `acme-vdcs: ${VDC_WARNING}`].sort());
    expect(problems).toEqual([`acme-vdcs: ${VDC_CRITICAL}`]);
    expect(recoveries).toEqual([`acme-vdcs: ${VDC_CRITICAL}`]);
    expect((await allOpen()).filter((p) => p.includes(' acme-vdcs: '))).toEqual([warning]);
  }, 300_000);
});

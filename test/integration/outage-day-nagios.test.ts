// One vCD outage and its recovery, then a refused password of check_vcd's own account and its
// recovery, in the real Nagios 4 on a copy of Debian's stock configuration, with the shipped
// files and only the documented steps: commands.cfg, vcd-service.cfg (its per-vCD block
// uncommented: the vcd host, the vcd service, the tasks, edge gateways and backends services
// and the servicedependency), vdc-discovery.cfg, vm-fleet.cfg (its runner block uncommented),
// and the hosts the discoveries write. Over the real intervals scaled: interval_length (the
// length of Nagios's interval unit, 60 s) and every figure in seconds (freshness_threshold, the
// stale text, the freshness check interval of nagios.cfg) divided by SCALE, nothing else changed,
// no check forced. nagios.cfg's additional_freshness_latency stays the stock 15 s: it is Nagios's
// allowance for time that does not shrink with the test's clock (a check's run, a reload). One
// runner run late or lost leaves the VM services a gap of two intervals, which the shipped window
// (twice the interval) plus that latency covers; scaled to 1 s, it left a loaded host no room.
// The day: first start (new VM services wait for their first fleet result), a VM added by the
// refresher's discovery long after the start and Nagios reloaded (its services page nothing
// before their first fleet result), vCD stopped for longer than the VM services' staleness
// window, vCD back, on until every VM, VDC
// and provider VDC service holds a fresh result; then check_vcd's password refused while the
// other checks' accounts work, on until every service was checked again, and the password
// right again. Each incident: check_vcd's problem notification and at most its recovery; none
// for a VM, a VDC, a provider VDC, the fleet runner or the other vCD services. vCD is
// "stopped" by closing the port the checks use (a TCP relay in front of the simulator).
// Then the layout docs/nagios.md offers against a refused password silencing the dependents
// (the dependents, and check_vcd, beneath a "vcd reachable" service that needs no login): an
// outage pages "vcd reachable" alone, and a refused password pages check_vcd and lets a real
// problem of a dependent page too. Then two vCDs on one Nagios, as docs/nagios.md's "Several
// vCDs" has them (each vcd service in the parent servicegroup the discoveries of its vCD wrote):
// an outage of one pages its vcd service once and its recovery, holds back its own dependents,
// and the other vCD's dependent still pages its real problem. The first day with problems measured
// before the outage (a VDC and a provider VDC over the admin's memory warning limit, a VM's
// snapshot too old, WARNING and notified): none is paged again, the engine's reminders of the
// same unchanged problem aside. The dependents are not checked while their parent fails.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { runExecutable } from '../support/spawn';
import { announceSkip, findExecutable, sleep, until } from './support/engines';
import { hasStockNagiosConfig, PrivateNagios, StockNagios, uncommentedExample, type NagiosServiceStatus } from './support/nagios';
import { closeWhileCellsRead, relayTo, type Relay } from './support/relay';
import { assertBuilt, BuiltSimulator, DIST, PLUGINS, REPO } from './support/simulator';

const nagios4 = findExecutable('nagios4');
if (!nagios4 || !hasStockNagiosConfig()) announceSkip('nagios4', 'nagios4-core (its stock /etc/nagios4)');
const suite = nagios4 && hasStockNagiosConfig() ? describe : describe.skip;

/** Where Debian's monitoring-plugins are (the stock $USER1$). */
const STOCK_PLUGINS = '/usr/lib/nagios/plugins';
/** Every interval is divided by this. */
const SCALE = 30;
/** The shipped intervals (minutes) the test waits on. */
const MINUTES = { vcd: 1, fleet: 5, vdc: 15 } as const;
const scaled = (minutes: number) => (minutes * 60) / SCALE;
/** The VM services' staleness window as vm-fleet.cfg ships it (s): twice the runner's interval. */
const STALENESS = 600;
/** nagios.cfg's additional_freshness_latency (s), stock and not scaled (see the head of the file). */
const FRESHNESS_LATENCY = 15;

/** A shipped file with its figures in seconds divided by SCALE (its intervals are in Nagios's unit, scaled by interval_length). */
function scaledShipped(file: string): string {
  const text = readFileSync(join(REPO, 'contrib/nagios', file), 'utf8');
  if (file !== 'vm-fleet.cfg') return text;
  // The shipped window is twice the runner's interval; held here, as the test's unscaled latency would hide a narrower one.
  expect(text).toMatch(new RegExp(`name\\s+cloudchecks-vm-fleet-runner\\n[^}]*\\n\\s+check_interval\\s+${MINUTES.fleet}\\n`));
  expect(STALENESS).toBe(2 * MINUTES.fleet * 60);
  expect(text).toMatch(new RegExp(`freshness_threshold\\s+${STALENESS}\\n`));
  expect(text).toMatch(new RegExp(`cloudchecks_vm_fleet_stale!${STALENESS}\\n`));
  return text
    .replace(new RegExp(`(freshness_threshold\\s+)${STALENESS}\\n`), `$1${STALENESS / SCALE}\n`)
    .replace(new RegExp(`(cloudchecks_vm_fleet_stale!)${STALENESS}\\n`), `$1${STALENESS / SCALE}\n`);
}

/**
 * A stock Nagios copy in `dir` as a package host has it: $USER1$ holding the plugins beside the
 * stock ones, commands.cfg in conf.d, the interval unit and nagios.cfg's freshness check interval
 * (s) divided by `scale` (its additional_freshness_latency stock), and the stock contact
 * nagiosadmin (group admins, which the shipped templates page) appending every notification to a
 * file, one line each: host!service TYPE STATE. The stock localhost services (HTTP, SSH: nothing
 * listens here) are left out of the count.
 */
function oncallNagios(dir: string, scale: number) {
  const stock = new StockNagios(nagios4!, join(dir, 'nagios'), { skipPluginConfig: /^cloudchecks/ });
  const plugins = join(dir, 'plugins');
  mkdirSync(plugins);
  for (const p of PLUGINS) symlinkSync(join(DIST, p), join(plugins, p));
  for (const p of readdirSync(STOCK_PLUGINS)) if (!PLUGINS.includes(p)) symlinkSync(join(STOCK_PLUGINS, p), join(plugins, p));
  stock.addToConfD(join(REPO, 'contrib/nagios/commands.cfg'), 'cloudchecks-commands.cfg');
  const notes = join(dir, 'notes.log');
  writeFileSync(notes, '');
  // The same notifications with the service's last state change (s): a reminder of an unchanged
  // problem (notification_interval) keeps it, a page for a new state has a new one.
  const details = join(dir, 'notes-changes.log');
  writeFileSync(details, '');
  const contacts = join(stock.etc, 'objects', 'contacts.cfg');
  const stockContacts = readFileSync(contacts, 'utf8');
  expect(stockContacts).toMatch(/contact_name\s+nagiosadmin/);
  writeFileSync(
    contacts,
    stockContacts.replace(
      /(contact_name\s+nagiosadmin.*\n)/,
      '$1    service_notification_commands   cc-note-service\n    host_notification_commands      cc-note-host\n',
    ),
  );
  writeFileSync(
    join(stock.etc, 'conf.d', 'test-oncall.cfg'),
    [
      `define command {\n    command_name cc-note-service\n    command_line /usr/bin/printf '%s\\n' '$HOSTNAME$!$SERVICEDESC$ $NOTIFICATIONTYPE$ $SERVICESTATE$' >> ${notes} && /usr/bin/printf '%s\\n' '$HOSTNAME$!$SERVICEDESC$ $NOTIFICATIONTYPE$ $SERVICESTATE$ $LASTSERVICESTATECHANGE$' >> ${details}\n}`,
      `define command {\n    command_name cc-note-host\n    command_line /usr/bin/printf '%s\\n' '$HOSTNAME$ $NOTIFICATIONTYPE$ $HOSTSTATE$' >> ${notes}\n}`,
      '',
    ].join('\n'),
  );
  let main = readFileSync(stock.main, 'utf8');
  for (const [key, stockValue, value] of [
    ['interval_length', 60, 60 / scale],
    ['service_freshness_check_interval', 60, 60 / scale],
    ['additional_freshness_latency', FRESHNESS_LATENCY, FRESHNESS_LATENCY],
  ] as const) {
    expect(main, key).toMatch(new RegExp(`^${key}=${stockValue}$`, 'm'));
    main = main.replace(new RegExp(`^${key}=.*$`, 'm'), `${key}=${value}`);
  }
  writeFileSync(stock.main, main);
  const notified = () =>
    readFileSync(notes, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('localhost'));
  const changes = () =>
    readFileSync(details, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('localhost'))
      .map((l) => {
        const [, what, since] = /^(.*) (\d+)$/.exec(l)!;
        return { what, since: Number(since) };
      });
  return { stock, plugins, notified, changes };
}

/** A dependent service on `host` whose own check says what its state file holds: a real problem when that is 2. */
function realService(dir: string, name: string, host: string) {
  const state = join(dir, `${name}.state`);
  writeFileSync(state, '0\n');
  writeFileSync(join(dir, `${name}.sh`), `#!/bin/sh\nread s < ${state}\necho "REAL $s"\nexit $s\n`, { mode: 0o755 });
  return {
    state,
    key: `${host}!real`,
    config: [
      `define command {\n    command_name cc-${name}\n    command_line ${join(dir, `${name}.sh`)}\n}`,
      `define service {\n    use cloudchecks-vcd-dependent\n    host_name ${host}\n    service_description real\n    check_command cc-${name}\n    check_interval 1\n    retry_interval 1\n}`,
    ],
  };
}

/**
 * The daemon of the copy (not started), once nagios4 -v finds no error and no warning in it. It
 * is stopped when the test ends: a daemon left running would go on checking the shared simulator
 * every second or two through the later tests, and on a loaded host its load delays their checks.
 */
function verifiedDaemon(stock: StockNagios, plugins: string, daemons: PrivateNagios[], retainState = false): PrivateNagios {
  const verify = stock.verify(60_000);
  expect([verify.errors, verify.warnings], verify.output).toEqual([0, 0]);
  const nagios = new PrivateNagios(nagios4!, stock, { USER1: plugins }, retainState);
  daemons.push(nagios);
  onTestFinished(() => nagios.stop());
  return nagios;
}

/** The daemon log's last alerts and notifications (with each check's output), and its errors and warnings. */
function alertLog(nagios: PrivateNagios): string {
  return readFileSync(nagios.setting('log_file'), 'utf8')
    .split('\n')
    .filter((l) => /SERVICE (ALERT|NOTIFICATION)|Error|Warning/.test(l))
    .slice(-40)
    .join('\n');
}

/** Waits (bounded) on the daemon's service states; a timeout names the notifications and the log's last alerts. */
function waitOn(nagios: PrivateNagios, notified: () => string[], ms: number) {
  return (what: string, done: (now: Map<string, NagiosServiceStatus>) => boolean) =>
    until(what, () => Promise.resolve(nagios.services()), done, ms).catch((e: Error) => {
      throw new Error(`${e.message.slice(0, 200)}\n${notified().join('\n')}\n${alertLog(nagios)}`);
    });
}

suite('Nagios 4: one vCD outage and one refused password, through the recovery, over the shipped intervals scaled', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-outage-day-nagios-'));
  const sim = new BuiltSimulator(['--vcd-scenario', 'healthy']);
  const relays: Relay[] = [];
  const daemons: PrivateNagios[] = [];
  let started: ReturnType<BuiltSimulator['start']> | undefined;
  const simulator = () => (started ??= sim.start());
  const xdg = process.env.XDG_CACHE_HOME;
  afterAll(async () => {
    for (const d of daemons) await d.stop();
    for (const r of relays) await r.close();
    await sim.stop();
    if (xdg === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = xdg;
    rmSync(root, { recursive: true, force: true });
  });

  it('each incident: check_vcd notifies its problem and at most its recovery, nothing else notifies', { timeout: 600_000 }, async () => {
    assertBuilt();
    const ready = await simulator();
    const api = ready.apis.vcd;
    const { relay, url } = await relayTo(api.httpsUrl);
    relays.push(relay);
    const caFile = join(root, 'ca.pem');
    copyFileSync(ready.caFile, caFile);
    // check_vcd's own account file (vcd-service.cfg's vcd-system.password); the discovered
    // checks and the runner keep theirs.
    const vcdPasswordFile = join(root, 'vcd-system.password');
    copyFileSync(api.passwordFile, vcdPasswordFile);
    const password = readFileSync(vcdPasswordFile, 'utf8');
    // The checks' sessions, in the daemon user's cache (the default place, inside the test's root).
    mkdirSync(join(root, 'xdg'), { mode: 0o700 });
    process.env.XDG_CACHE_HOME = join(root, 'xdg');

    const { stock, plugins, notified, changes } = oncallNagios(root, SCALE);
    // The admin's limits, through the documented $ARG1$ of the discovered services: the
    // simulator's acme-prod VDC (47 % of its memory) and provider VDC (42 %) are WARNING, a
    // problem measured and notified long before the outage.
    const limits: Record<string, [RegExp, string]> = {
      'vdc-discovery.cfg': [/(check_command\s+cloudchecks_vdc_discovered!)\n/, '$1--memory-warning 40\n'],
      'vcd-service.cfg': [/(check_command\s+cloudchecks_pvdc_discovered)\n/, '$1!--memory-warning 40\n'],
    };
    for (const file of ['vcd-service.cfg', 'vdc-discovery.cfg', 'vm-fleet.cfg']) {
      const [shipped, limited] = limits[file] ?? [/^$/, ''];
      const text = scaledShipped(file);
      if (limits[file]) expect(text).toMatch(shipped);
      writeFileSync(join(stock.etc, 'conf.d', `cloudchecks-${file}`), limits[file] ? text.replace(shipped, limited) : text);
    }

    // The documented discoveries, into the inventory directory.
    const inventory = join(stock.etc, 'conf.d', 'vcd-inventory');
    mkdirSync(inventory);
    const discover = async (plugin: string, user: string, org: string, file: string, ...more: string[]) => {
      const r = await runExecutable(
        join(DIST, plugin),
        [
          '--discovery',
          '--discovery-format',
          'nagios',
          ...['--url', url, '--user', user, '--org', org, '--password-file', api.passwordFile, '--ca-file', caFile],
          ...more,
          '--discovery-file',
          join(inventory, file),
        ],
        { env: { PATH: process.env.PATH, XDG_CACHE_HOME: join(root, 'xdg') } },
      );
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return [...readFileSync(join(inventory, file), 'utf8').matchAll(/^\s+host_name\s+(\S+)$/gm)].map((m) => m[1]);
    };
    // One VM is created after the first start: the first inventory leaves it out, the
    // refresher's run (the same discovery into the same file) adds it later.
    const all = await discover('check_vm_cpu', api.user, api.org, 'vcd-acme-vms.cfg');
    const newVmName = [...readFileSync(join(inventory, 'vcd-acme-vms.cfg'), 'utf8').matchAll(/^\s+alias\s+(\S+)$/gm)].map((m) => m[1]).at(-1)!;
    expect(newVmName).toMatch(/^[\w.-]+$/);
    const vms = await discover('check_vm_cpu', api.user, api.org, 'vcd-acme-vms.cfg', '--exclude', `^${newVmName}$`);
    const newVm = all.find((h) => !vms.includes(h))!;
    expect(vms.length).toBe(all.length - 1);
    const vdcs = await discover('check_vdc', api.user, api.org, 'vcd-acme-vdcs.cfg');
    const pvdcs = await discover('check_pvdc', api.providerUser, 'System', 'vcd-pvdcs.cfg');
    for (const list of [vms, vdcs, pvdcs]) expect(list.length).toBeGreaterThan(0);

    // vcd-service.cfg's per-vCD block, with this vCD's URL, check_vcd's account and the CA file.
    const shippedVcd = readFileSync(join(REPO, 'contrib/nagios/vcd-service.cfg'), 'utf8');
    const vcdBlock = uncommentedExample(shippedVcd, '# One vCD:')
      .replace(/(address\s+)vcd\.example\.com/, '$1127.0.0.1')
      .replace(/(check_command\s+)check-host-alive/, '$1return-ok')
      .replaceAll(
        /^(\s+check_command\s+cloudchecks_\w+)!https:\/\/vcd\.example\.com!provider-monitor!System!\/etc\/nagios4\/secrets\/vcd-system\.password!(.*)$/gm,
        `$1!${url}!${api.providerUser}!System!${vcdPasswordFile}!$2 --ca-file ${caFile}`,
      );
    expect(vcdBlock.match(/--ca-file/g)?.length, vcdBlock).toBe(4);
    expect(vcdBlock).toMatch(/define servicedependency \{/);
    // vm-fleet.cfg's runner block, with the organisation's account and its inventory, and its
    // snapshot service enabled as the file says (the runner's --services and its dependency):
    // the simulator's db-03 has a 10-day-old snapshot, WARNING under a 30-day critical limit.
    const shippedFleet = readFileSync(join(REPO, 'contrib/nagios/vm-fleet.cfg'), 'utf8');
    const snapshotService = /^# define service \{\n#\s+use\s+cloudchecks-vm-fleet-snapshot\n[\s\S]*?\n# \}$/m.exec(shippedFleet)![0].replaceAll(/^# ?/gm, '');
    const fleetBlock = uncommentedExample(shippedFleet, '# The runner: cloudchecks_vm_fleet')
      .replace(
        /cloudchecks_vm_fleet!https:\/\/vcd\.example\.com!monitoring!acme!\/etc\/nagios4\/secrets\/vcd-acme\.password!--powered-off-state OK --inventory \/etc\/nagios4\/conf\.d\/vcd-inventory\/vcd-acme-billing\.cfg -t 60/,
        `cloudchecks_vm_fleet!${url}!${api.user}!${api.org}!${api.passwordFile}!--powered-off-state OK --inventory ${join(inventory, 'vcd-acme-vms.cfg')} -t 60 --ca-file ${caFile} --services cpu,mem,disk,snapshot --snapshot-age-critical 30d`,
      )
      .replace(/(dependent_service_description\s+)vm-cpu,vm-memory,vm-disk\n/, '$1vm-cpu,vm-memory,vm-disk,vm-snapshot\n');
    expect(fleetBlock).toContain(`--ca-file ${caFile}`);
    expect(fleetBlock).toContain('vm-cpu,vm-memory,vm-disk,vm-snapshot\n');
    writeFileSync(join(stock.etc, 'conf.d', 'test-vcd.cfg'), `${vcdBlock}\n${fleetBlock}\n${snapshotService}\n`);
    // The stock retain_state_information=1: a reload keeps every service's state, as on a real host.
    const nagios = verifiedDaemon(stock, plugins, daemons, true);
    const vmServices = (h: string) => ['vm-cpu', 'vm-memory', 'vm-disk', 'vm-snapshot'].map((s) => `${h}!${s}`);
    const measured = [...vms.flatMap(vmServices), ...vdcs.map((h) => `${h}!vdc`), ...pvdcs.map((h) => `${h}!provider VDC`)];
    const services = () => Promise.resolve(nagios.services());
    const isVm = (key: string) => key.startsWith('vm-');
    /** Every VM, VDC and provider VDC service holds a result of its own check (a VM service: the fleet's) after `since`. */
    const allFresh = (all: Map<string, NagiosServiceStatus>, since: number) =>
      measured.every((k) => {
        const s = all.get(k);
        return s !== undefined && s.lastCheck > since && (!isVm(k) || s.passive);
      });
    const dump = () => {
      const log = readFileSync(nagios.setting('log_file'), 'utf8')
        .split('\n')
        .filter((l) => /NOTIFICATION|vcd;vcd;|vm-fleet;/.test(l))
        .slice(-60)
        .join('\n');
      const all = [...nagios.services()].map(([k, s]) => `${k} ${s.state}${s.hard ? 'H' : 'S'}${s.passive ? 'P' : ''} ${s.output.slice(0, 90)}`);
      return `${notified().join('\n')}\n--- log\n${log}\n--- status\n${all.filter((l) => !l.startsWith('vm-') || !/ 0H/.test(l)).join('\n')}`;
    };
    const wait = (what: string, done: (all: Map<string, NagiosServiceStatus>) => boolean, ms: number) =>
      until(what, services, done, ms).catch((e: Error) => {
        throw new Error(`${e.message.slice(0, 200)}\n${dump()}`);
      });

    const started = Math.floor(Date.now() / 1000);
    await nagios.start();
    // First start: every service gets its first own result, and a problem its hard state (and
    // its page); the new VM services wait for the fleet's.
    await wait(
      'every service checked after the first start',
      (all) => allFresh(all, started) && all.get('vcd!vcd')?.state === 0 && measured.every((k) => all.get(k)!.hard),
      4 * scaled(MINUTES.vdc) * 1000,
    );
    const afterStart = notified();

    // The refresher adds the new VM, long after the start (past the VM services' staleness
    // window), and Nagios is reloaded as the refresher does: nothing may page for its services
    // before the runner's next run gives them their first result.
    await sleep(Math.max(0, (started + 2 * (STALENESS / SCALE + FRESHNESS_LATENCY)) * 1000 - Date.now()));
    expect(await discover('check_vm_cpu', api.user, api.org, 'vcd-acme-vms.cfg')).toEqual(all);
    const verifyNew = stock.verify(60_000);
    expect([verifyNew.errors, verifyNew.warnings], verifyNew.output).toEqual([0, 0]);
    const reloaded = Math.floor(Date.now() / 1000);
    const addedAt = Date.now();
    await nagios.reload();
    measured.push(...vmServices(newVm));
    await wait(
      "the new VM's first results from the fleet",
      (now) => vmServices(newVm).every((k) => now.get(k)?.passive === true && now.get(k)!.lastCheck >= reloaded),
      3 * scaled(MINUTES.fleet) * 1000,
    );
    await sleep(2_000);
    // Since the start: at most a page for a problem the new VM's first fleet result measured
    // (and a reminder of a problem paged at the start).
    const sinceStart = notified()
      .slice(afterStart.length)
      .filter((l) => !afterStart.includes(l));
    const firstResults = nagios.services();
    const names = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'];
    expect(
      sinceStart.filter((l) => {
        const k = vmServices(newVm).find((v) => l.startsWith(`${v} PROBLEM `));
        return !k || !/^VM_/.test(firstResults.get(k)!.output) || l !== `${k} PROBLEM ${names[firstResults.get(k)!.state]}`;
      }),
      dump(),
    ).toEqual([]);
    // Not even a state of its own before that result: no stale UNKNOWN for the new VM in the log.
    const newVmAlerts = readFileSync(nagios.setting('log_file'), 'utf8')
      .split('\n')
      .filter((l) => l.includes(`SERVICE ALERT: ${newVm};`) && l.includes('no result from check_vm_fleet'));
    expect(newVmAlerts).toEqual([]);
    console.log(
      `Nagios 4 outage day: the VM added by the refresher had its first fleet result ${Math.round((Date.now() - addedAt) / 1000)} s after the reload, ` +
        `${sinceStart.length} notification(s) since the start, each for a problem that result measured`,
    );

    // The problems measured before the outage, each notified: a VDC, a provider VDC and a VM's snapshot, WARNING.
    const before = nagios.services();
    const preexisting = [...before].filter(([k, s]) => measured.includes(k) && s.hard && s.state === 1).map(([k]) => k);
    for (const kind of ['!vdc', '!provider VDC', '!vm-snapshot'])
      expect(
        preexisting.filter((k) => k.endsWith(kind)),
        dump(),
      ).not.toEqual([]);
    await wait(
      'the problems measured before the outage notified',
      () => preexisting.every((k) => changes().some((c) => c.what === `${k} PROBLEM WARNING`)),
      scaled(MINUTES.fleet) * 1000,
    );
    // vCD stops for longer than the VM services' staleness window, while check_vcd is half-way
    // through the cells answer (the relay resets the connection): CRITICAL in that run.
    await closeWhileCellsRead(relay, api.httpUrl, 10 * scaled(MINUTES.vcd) * 1000);
    const broken = Date.now() / 1000;
    const staleness = STALENESS / SCALE;
    await wait(
      'every VM service stale while vCD is down',
      (all) => measured.filter(isVm).every((k) => all.get(k)?.output.includes('no result from check_vm_fleet') === true),
      6 * staleness * 1000,
    );
    // ... the runner with a hard problem of its own (it would page without its dependency; it
    // goes on running), and every other dependent (the VDCs, the provider VDCs, the other vCD
    // services) not checked while vcd fails, for longer than their interval: each holds the
    // state it had before the break (at most a soft failure of a run before check_vcd's).
    const runner = 'vcd-acme-fleet!vm-fleet';
    await wait(
      'the runner with a hard problem while vCD is down',
      (all) => all.get(runner)?.hard === true && all.get(runner)?.state !== 0,
      4 * scaled(MINUTES.fleet) * 1000,
    );
    await sleep(Math.max(0, (broken + 1.5 * Math.max(staleness, scaled(MINUTES.vdc))) * 1000 - Date.now()));
    const paused = [...measured.filter((k) => !isVm(k)), 'vcd!vcd tasks', 'vcd!edge gateways', 'vcd!vcd backends'];
    const during = nagios.services();
    // (Judged at the end, after the day's notifications are counted.)
    const changedWhileDown = paused.filter((k) => during.get(k)!.hard && during.get(k)!.state !== before.get(k)!.state);
    expect(nagios.services().get('vcd!vcd')?.state, dump()).toBe(2);

    // vCD is back: on until every VM, VDC and provider VDC service holds a fresh result, then one more runner interval.
    await relay.open();
    const back = Math.ceil(Date.now() / 1000);
    await wait('every service fresh after vCD came back', (all) => allFresh(all, back), 4 * scaled(MINUTES.vdc) * 1000);
    await sleep(scaled(MINUTES.fleet) * 1000);
    const afterOutage = notified();

    // check_vcd's password refused (changed in vCD, not in its file); the other accounts work.
    writeFileSync(vcdPasswordFile, 'not-the-password\n');
    const refused = Math.ceil(Date.now() / 1000);
    await wait('check_vcd CRITICAL for the refused login', (all) => all.get('vcd!vcd')?.state === 2, 10 * scaled(MINUTES.vcd) * 1000);
    // The runner's account works: every VM service gets fresh results while check_vcd's is refused.
    await wait(
      'every VM service checked again while the password is refused',
      (all) => measured.filter(isVm).every((k) => all.get(k)?.passive === true && all.get(k)!.lastCheck > refused),
      4 * scaled(MINUTES.fleet) * 1000,
    );
    await sleep(Math.max(0, (refused + scaled(MINUTES.vdc)) * 1000 - Date.now()));
    writeFileSync(vcdPasswordFile, password);
    const right = Math.ceil(Date.now() / 1000);
    await wait('check_vcd OK again', (all) => all.get('vcd!vcd')?.state === 0, 10 * scaled(MINUTES.vcd) * 1000);
    await wait('every service fresh after the password is right again', (all) => allFresh(all, right), 4 * scaled(MINUTES.vdc) * 1000);
    await sleep(3 * scaled(MINUTES.vcd) * 1000);

    const lines = notified();
    const text = dump();
    // A problem measured before the outage: its one page, then at most the engine's reminders
    // of the same problem (generic-service's notification_interval, scaled), each with the
    // state change of that first page; never a page for a state of the outage or its end.
    const day = changes();
    const pages = preexisting.map((k) => day.filter((c) => c.what.startsWith(`${k} `)));
    const isPreexisting = (l: string) => preexisting.some((k) => l.startsWith(`${k} `));
    console.log(
      `Nagios 4 outage day: ${afterStart.filter((l) => !isPreexisting(l)).length} notification(s) at the first start and for the VM added then, ` +
        `${afterOutage.slice(afterStart.length).filter((l) => !isPreexisting(l)).length} for the outage, ` +
        `${lines.slice(afterOutage.length).filter((l) => !isPreexisting(l)).length} for the refused password; ` +
        `the ${preexisting.length} problems measured before it: ${pages.map((p) => p.length).join(', ')} notification(s) each, ` +
        `${pages.reduce((n, p) => n + p.filter((c) => c.since !== p[0].since).length, 0)} for a new state ` +
        `(${Math.round(Date.now() / 1000 - started)} s)`,
    );
    for (const p of pages) {
      expect(
        p.map((c) => c.what.slice(c.what.indexOf(' PROBLEM ') + 1)),
        text,
      ).toEqual(p.map(() => 'PROBLEM WARNING'));
      expect(
        p.map((c) => c.since),
        text,
      ).toEqual(p.map(() => p[0].since));
    }
    expect(changedWhileDown, 'dependents with a hard state change of their own while vCD was down').toEqual([]);
    const end = nagios.services();
    for (const k of preexisting) expect([k, end.get(k)?.state, end.get(k)?.hard], text).toEqual([k, 1, true]);
    expect(
      afterStart.filter((l) => !isPreexisting(l)),
      text,
    ).toEqual([]);
    for (const incident of [afterOutage.slice(afterStart.length), lines.slice(afterOutage.length)].map((i) => i.filter((l) => !isPreexisting(l)))) {
      expect(
        incident.filter((l) => / PROBLEM /.test(l)),
        text,
      ).toEqual(['vcd!vcd PROBLEM CRITICAL']);
      expect(
        incident.filter((l) => !/ PROBLEM /.test(l)),
        text,
      ).toEqual(incident.some((l) => / RECOVERY /.test(l)) ? ['vcd!vcd RECOVERY OK'] : []);
    }
    // The inventories and the parent group of their vCD (one vCD: its vcd service joins none, the block's dependency does the work).
    expect(readdirSync(inventory).sort()).toEqual([
      `cloudchecks-vcd-parent-127.0.0.1_3a${relay.port}.cfg`,
      'vcd-acme-vdcs.cfg',
      'vcd-acme-vms.cfg',
      'vcd-pvdcs.cfg',
    ]);
  });
  it(
    'docs/nagios.md\'s layout on "vcd reachable": an outage pages once, a refused password pages check_vcd and holds nothing back',
    { timeout: 200_000 },
    async () => {
      assertBuilt();
      const ready = await simulator();
      const api = ready.apis.vcd;
      const { relay, url } = await relayTo(api.httpsUrl);
      relays.push(relay);
      const dir = join(root, 'reachable');
      mkdirSync(join(dir, 'xdg'), { recursive: true, mode: 0o700 });
      process.env.XDG_CACHE_HOME = join(dir, 'xdg');
      const caFile = join(dir, 'ca.pem');
      copyFileSync(ready.caFile, caFile);
      const vcdPasswordFile = join(dir, 'vcd-system.password');
      copyFileSync(api.passwordFile, vcdPasswordFile);
      const password = readFileSync(vcdPasswordFile, 'utf8');
      // Every interval in 1-second units: this day has only minute-long checks.
      const scale = 60;
      const { stock, plugins, notified } = oncallNagios(dir, scale);
      stock.addToConfD(join(REPO, 'contrib/nagios/vcd-service.cfg'), 'cloudchecks-vcd-service.cfg');
      // The vcd host and the vcd tasks service of the per-vCD block (the tasks with an account
      // of their own), and the layout of docs/nagios.md in place of its vcd service and dependency.
      const objects = [
        ...uncommentedExample(readFileSync(join(REPO, 'contrib/nagios/vcd-service.cfg'), 'utf8'), '# One vCD:').matchAll(/define \w+ \{[\s\S]*?\n\}/g),
      ].map((m) => m[0]);
      const host = objects.find((o) => o.startsWith('define host'))!;
      const tasks = objects.find((o) => /service_description\s+vcd tasks\n/.test(o))!;
      const doc = readFileSync(join(REPO, 'docs/nagios.md'), 'utf8');
      const layout = /### What the parent's login means[\s\S]*?\n```\n([\s\S]*?)\n```/.exec(doc)![1];
      expect(layout).toMatch(/cloudchecks_vcd_reachable!443/);
      const connection = (file: string) => (o: string) =>
        o.replace(
          /^(\s+check_command\s+cloudchecks_\w+)!https:\/\/vcd\.example\.com!provider-monitor!System!\/etc\/nagios4\/secrets\/vcd-system\.password!(.*)$/m,
          `$1!${url}!${api.providerUser}!System!${file}!$2 --ca-file ${caFile}`,
        );
      // A dependent whose own check measures a real problem while the password is refused.
      const real = realService(dir, 'real', 'vcd');
      writeFileSync(
        join(stock.etc, 'conf.d', 'test-vcd.cfg'),
        [
          host.replace(/(address\s+)vcd\.example\.com/, '$1127.0.0.1').replace(/(check_command\s+)check-host-alive/, '$1return-ok'),
          connection(api.passwordFile)(tasks),
          connection(vcdPasswordFile)(layout.replace('cloudchecks_vcd_reachable!443', `cloudchecks_vcd_reachable!${relay.port}`)),
          ...real.config,
          '',
        ].join('\n'),
      );
      const nagios = verifiedDaemon(stock, plugins, daemons);
      const all = ['vcd!vcd reachable', 'vcd!vcd', 'vcd!vcd tasks', 'vcd!real'];
      const states = (want: Record<string, (s: NagiosServiceStatus) => boolean>) => (now: Map<string, NagiosServiceStatus>) =>
        Object.entries(want).every(([k, ok]) => now.get(k) !== undefined && ok(now.get(k)!));
      const wait = waitOn(nagios, notified, 60_000);
      const okAfter = (since: number) => (s: NagiosServiceStatus) => s.state === 0 && s.lastCheck >= since;
      const hardProblem = (s: NagiosServiceStatus) => s.hard && s.state !== 0;

      const started = Math.floor(Date.now() / 1000);
      await nagios.start();
      await wait('every service OK after the first start', states(Object.fromEntries(all.map((k) => [k, okAfter(started)]))));
      expect(notified(), alertLog(nagios)).toEqual([]);

      await relay.close();
      await wait('vcd reachable and vcd hard problems while vCD is down', states({ 'vcd!vcd': hardProblem, 'vcd!vcd reachable': hardProblem }));
      // The dependents are not checked while vcd reachable fails, for longer than their interval
      // (vcd tasks: 5 s here): no new result, no hard problem.
      const tasksThen = nagios.services().get('vcd!vcd tasks')!;
      await sleep(7_000);
      const tasksNow = nagios.services().get('vcd!vcd tasks')!;
      expect([tasksNow.lastCheck, hardProblem(tasksNow)]).toEqual([tasksThen.lastCheck, false]);
      await relay.open();
      const back = Math.ceil(Date.now() / 1000) + 1;
      await wait('every service OK after vCD came back', states(Object.fromEntries(all.map((k) => [k, okAfter(back)]))));
      const outage = notified();

      writeFileSync(vcdPasswordFile, 'not-the-password\n');
      writeFileSync(real.state, '2\n');
      await wait('check_vcd and the real problem hard while the password is refused', states({ 'vcd!vcd': hardProblem, 'vcd!real': hardProblem }));
      await sleep(3_000);
      writeFileSync(vcdPasswordFile, password);
      writeFileSync(real.state, '0\n');
      const right = Math.ceil(Date.now() / 1000) + 1;
      await wait('every service OK after the password is right again', states(Object.fromEntries(all.map((k) => [k, okAfter(right)]))));
      await sleep(2_000);
      const refusal = notified().slice(outage.length);
      console.log(`Nagios 4, vcd reachable layout: ${outage.length} notification(s) for the outage, ${refusal.length} for the refused password`);
      expect(
        outage.filter((l) => / PROBLEM /.test(l)),
        outage.join('\n'),
      ).toEqual(['vcd!vcd reachable PROBLEM CRITICAL']);
      expect(
        outage.filter((l) => !/ PROBLEM /.test(l) && l !== 'vcd!vcd reachable RECOVERY OK'),
        outage.join('\n'),
      ).toEqual([]);
      expect(refusal.filter((l) => / PROBLEM /.test(l)).sort(), refusal.join('\n')).toEqual(['vcd!real PROBLEM CRITICAL', 'vcd!vcd PROBLEM CRITICAL']);
    },
  );
  it(
    'two vCDs, docs/nagios.md\'s "Several vCDs": an outage of one pages its vcd once and holds back its own dependents only',
    { timeout: 200_000 },
    async () => {
      assertBuilt();
      const ready = await simulator();
      const api = ready.apis.vcd;
      const dir = join(root, 'two');
      mkdirSync(join(dir, 'xdg'), { recursive: true, mode: 0o700 });
      process.env.XDG_CACHE_HOME = join(dir, 'xdg');
      const caFile = join(dir, 'ca.pem');
      copyFileSync(ready.caFile, caFile);
      // Two vCDs: two addresses (relays) of the simulator. vCD a holds the tenant's VDCs, vCD b
      // the provider VDCs, so that their discovered hosts are distinct.
      const vcds = await Promise.all(
        (['a', 'b'] as const).map(async (name) => {
          const { relay, url } = await relayTo(api.httpsUrl);
          relays.push(relay);
          const passwordFile = join(dir, `vcd-${name}-system.password`);
          copyFileSync(api.passwordFile, passwordFile);
          return { name, relay, url, passwordFile, host: `vcd-${name}`, group: `cloudchecks-vcd-parent-127.0.0.1_3a${relay.port}` };
        }),
      );
      // Two check_vcd runs every 2 s (a start of Node each) rather than every second: on a CI
      // host loaded by the other lanes, one of them failed at the first start.
      const scale = 30;
      const { stock, plugins, notified } = oncallNagios(dir, scale);
      for (const file of ['vcd-service.cfg', 'vdc-discovery.cfg']) stock.addToConfD(join(REPO, 'contrib/nagios', file), `cloudchecks-${file}`);
      const inventory = join(stock.etc, 'conf.d', 'vcd-inventory');
      mkdirSync(inventory);
      const discover = async (plugin: string, url: string, user: string, org: string, file: string) => {
        const r = await runExecutable(
          join(DIST, plugin),
          [
            ...['--discovery', '--discovery-format', 'nagios', '--url', url, '--user', user, '--org', org],
            ...['--password-file', api.passwordFile, '--ca-file', caFile, '--discovery-file', join(inventory, file)],
          ],
          { env: { PATH: process.env.PATH, XDG_CACHE_HOME: join(dir, 'xdg') } },
        );
        expect(r.code, r.stdout + r.stderr).toBe(0);
        return [...readFileSync(join(inventory, file), 'utf8').matchAll(/^\s+host_name\s+(\S+)$/gm)].map((m) => m[1]);
      };
      const [vdcs, pvdcs] = [
        await discover('check_vdc', vcds[0].url, api.user, api.org, 'vcd-a-vdcs.cfg'),
        await discover('check_pvdc', vcds[1].url, api.providerUser, 'System', 'vcd-b-pvdcs.cfg'),
      ];
      expect(readdirSync(inventory).sort()).toEqual([...vcds.map((v) => `${v.group}.cfg`).sort(), 'vcd-a-vdcs.cfg', 'vcd-b-pvdcs.cfg']);

      // Per vCD: the block's vcd host and its tasks, edge gateways and backends services, and
      // the layout of docs/nagios.md in place of its vcd service and dependency.
      const objects = [
        ...uncommentedExample(readFileSync(join(REPO, 'contrib/nagios/vcd-service.cfg'), 'utf8'), '# One vCD:').matchAll(/define \w+ \{[\s\S]*?\n\}/g),
      ].map((m) => m[0]);
      const host = objects.find((o) => o.startsWith('define host'))!;
      const others = objects.filter((o) => /service_description\s+(vcd tasks|edge gateways|vcd backends)\n/.test(o));
      expect(others).toHaveLength(3);
      const doc = readFileSync(join(REPO, 'docs/nagios.md'), 'utf8');
      const layout = /### Several vCDs[\s\S]*?\n```\n([\s\S]*?)\n```/.exec(doc)![1];
      expect(layout).toContain('servicegroups           cloudchecks-vcd-parent-vcd-eu1.example.com\n');
      const connection = (v: (typeof vcds)[number]) => (o: string) =>
        o.replace(
          /^(\s+check_command\s+cloudchecks_\w+)!https:\/\/vcd(?:-eu1)?\.example\.com!provider-monitor!System!\/etc\/nagios4\/secrets\/vcd(?:-eu1)?-system\.password!(.*)$/m,
          `$1!${v.url}!${api.providerUser}!System!${v.passwordFile}!$2 --ca-file ${caFile}`,
        );
      // A dependent of each vCD whose own check measures a real problem: on a host its discovery wrote.
      const reals = [realService(dir, 'real-a', vdcs[0]), realService(dir, 'real-b', pvdcs[0])];
      writeFileSync(
        join(stock.etc, 'conf.d', 'test-vcd.cfg'),
        [
          ...vcds.flatMap((v) =>
            [
              host.replace(/(address\s+)vcd\.example\.com/, '$1127.0.0.1').replace(/(check_command\s+)check-host-alive/, '$1return-ok'),
              ...others.map(connection(v)),
              connection(v)(layout),
            ].map((o) =>
              o.replaceAll(/^(\s+(?:dependent_)?host_name\s+)vcd(?:-eu1)?$/gm, `$1${v.host}`).replace('cloudchecks-vcd-parent-vcd-eu1.example.com', v.group),
            ),
          ),
          ...reals.flatMap((r) => r.config),
          '',
        ].join('\n'),
      );
      const nagios = verifiedDaemon(stock, plugins, daemons);
      const wait = waitOn(nagios, notified, 90_000);
      const keys = [
        ...vcds.flatMap((v) => ['vcd', 'vcd tasks', 'edge gateways', 'vcd backends'].map((s) => `${v.host}!${s}`)),
        ...vdcs.map((h) => `${h}!vdc`),
        ...pvdcs.map((h) => `${h}!provider VDC`),
        ...reals.map((r) => r.key),
      ];
      const allOk = (since: number) => (now: Map<string, NagiosServiceStatus>) => keys.every((k) => now.get(k)?.state === 0 && now.get(k)!.lastCheck >= since);
      const hardProblem = (k: string) => (now: Map<string, NagiosServiceStatus>) => now.get(k)?.hard === true && now.get(k)!.state !== 0;

      const started = Math.floor(Date.now() / 1000);
      await nagios.start();
      await wait('every service of both vCDs OK after the first start', allOk(started));
      expect(notified(), alertLog(nagios)).toEqual([]);

      // vCD a stops; once its vcd knows it, a real problem on each vCD's dependent. (A problem
      // that comes before the parent's failure is known pages, as it should: on a loaded host
      // the dependent's three 1-s attempts can end before vcd's first run since the stop.)
      await vcds[0].relay.close();
      await wait('vcd a hard', hardProblem('vcd-a!vcd'));
      for (const r of reals) writeFileSync(r.state, '2\n');
      await wait('vcd a and the real problem of vCD b hard', (now) => ['vcd-a!vcd', reals[1].key].every((k) => hardProblem(k)(now)));
      await sleep(3_000);
      // vCD a's dependents are not checked while its vcd fails (they keep their OK, at most a soft failure).
      const during = nagios.services();
      expect(during.get('vcd-b!vcd')?.state).toBe(0);
      expect(['vcd-a!vcd tasks', reals[0].key].filter((k) => hardProblem(k)(during))).toEqual([]);
      // vCD a back, the real problems gone.
      for (const r of reals) writeFileSync(r.state, '0\n');
      await vcds[0].relay.open();
      const back = Math.ceil(Date.now() / 1000) + 1;
      await wait('every service of both vCDs OK after vCD a came back', allOk(back));
      await sleep(2_000);
      const lines = notified();
      console.log(`Nagios 4, two vCDs: ${lines.length} notification(s) for vCD a's outage: ${lines.join(', ')}`);
      // vCD a: its vcd once and its recovery; its own real problem held back. vCD b: its real problem pages.
      expect(lines.filter((l) => / PROBLEM /.test(l)).sort(), lines.join('\n')).toEqual([`${reals[1].key} PROBLEM CRITICAL`, 'vcd-a!vcd PROBLEM CRITICAL']);
      expect(lines.filter((l) => !/ PROBLEM /.test(l)).sort(), lines.join('\n')).toEqual([`${reals[1].key} RECOVERY OK`, 'vcd-a!vcd RECOVERY OK']);
    },
  );
});

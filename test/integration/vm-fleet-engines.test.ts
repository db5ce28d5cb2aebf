// check_vm_fleet's fan-out into the real engines, run by the engines as the shipped configs
// have it: a private Icinga 2 runs the vm-fleet service of contrib/icinga2/vm-fleet.conf,
// whose check_vm_fleet --submit icinga2 posts every VM's results to the same daemon's API as
// an ApiUser with only the permissions the docs name; the passive VM services take them, and
// turn UNKNOWN when results stop (a master and a satellite: icinga2-satellite.test.ts runs
// docs/scaling.md's walk-through). A private Nagios runs cloudchecks_vm_fleet of
// contrib/nagios/commands.cfg, which writes to its command file; the passive services of
// vm-fleet.cfg take them and go stale.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecutable } from '../support/spawn';
import { announceSkip, findExecutable, sleep, until } from './support/engines';
import { PrivateIcinga, StockIcinga, hasStockIcingaConfig, type CheckResult } from './support/icinga2';
import { documentedSteps, shimCalls } from './support/documented-steps';
import { fleetRunnerConfig, hasStockNagiosConfig, PrivateNagios, StockNagios } from './support/nagios';
import { DIST, REPO } from './support/simulator';
import {
  API_PASSWORD,
  expectOnlyTheRunnerNotifies,
  FLEET_SERVICE_ATTRS,
  fleetStates,
  NotificationLog,
  type FleetServiceAttrs,
  fleetWorkspace,
} from './support/vm-fleet';

const icinga2 = findExecutable('icinga2');
const nagios4 = findExecutable('nagios4');
if (!icinga2) announceSkip('icinga2', 'icinga2-bin icinga2-common');
if (!nagios4 || !hasStockNagiosConfig()) announceSkip('nagios4', 'nagios4-core (its stock /etc/nagios4)');

const { sim, work, apiPasswordFile } = fleetWorkspace('cc-int-fleet-');

/** The discovery output for the simulator's VMs, as the docs have users generate it. */
async function discover(format: 'icinga2' | 'nagios'): Promise<string> {
  const r = await runExecutable(
    join(DIST, 'check_vm_cpu'),
    ['--discovery', '--discovery-format', format, ...sim.vcdArgs(), '--cache-dir', join(work, 'cache')],
    {
      env: { PATH: process.env.PATH, HOME: work },
    },
  );
  expect(r.code, r.stdout).toBe(0);
  return r.stdout;
}

/** What a fleet run says of each VM service, read from --output json: host!service -> state. */
function expectedStates(): Promise<Map<string, number>> {
  return fleetStates(sim.vcdArgs(), join(work, 'cache'), work);
}

/** contrib/icinga2/vm-fleet.conf with its interval made seconds, and the runner run only when the test asks. */
function fleetConf(interval: string): string {
  const text = readFileSync(join(REPO, 'contrib/icinga2/vm-fleet.conf'), 'utf8');
  const out = text
    .replace('const CloudchecksFleetInterval = 5m', `const CloudchecksFleetInterval = ${interval}`)
    .replace(/(apply Service "vm-fleet" \{[^}]*?)check_interval = CloudchecksFleetInterval\n/, '$1check_interval = 1h\n')
    .replace(/(apply Service "vm-fleet" \{[^}]*?)retry_interval = CloudchecksFleetInterval \/ 5\n/, '$1retry_interval = 1h\n');
  expect(out).not.toBe(text);
  expect(out).toContain('check_interval = 1h');
  expect(out).toContain('retry_interval = 1h');
  return out;
}

const RESTRICTED_USER = `object ApiUser "cloudchecks-fleet" {
  password = ${JSON.stringify(API_PASSWORD)}
  permissions = [ "actions/process-check-result", "objects/query/Host", "objects/query/Service" ]
}
object ApiUser "cloudchecks-readonly" {
  password = ${JSON.stringify(API_PASSWORD)}
  permissions = [ "objects/query/Host", "objects/query/Service" ]
}`;

/**
 * The runner host of the docs, on the simulator's organisation, submitting to the API of the
 * daemon that runs it; a password file and session cache of its own when the test breaks the password.
 */
function runnerHost(caFile: string, own?: { passwordFile: string; cacheDir: string }, services?: string): string {
  const api = sim.ready.apis.vcd;
  const passwordFile = own?.passwordFile;
  const cache = `\n  vars.cloudchecks_vcd_cache_dir = ${JSON.stringify(own?.cacheDir ?? join(work, 'cache'))}`;
  return `object Host "vcd-acme-fleet" {
  check_command = "dummy"
  vars.cloudchecks_fleet = true
  vars.cloudchecks_vcd_url = ${JSON.stringify(api.httpsUrl)}
  vars.cloudchecks_vcd_user = ${JSON.stringify(api.user)}
  vars.cloudchecks_vcd_org = ${JSON.stringify(api.org)}
  vars.cloudchecks_vcd_password_file = ${JSON.stringify(passwordFile ?? api.passwordFile)}
  vars.cloudchecks_ca_file = ${JSON.stringify(sim.ready.caFile)}${cache}
  vars.cloudchecks_icinga_user = "cloudchecks-fleet"
  vars.cloudchecks_icinga_password_file = ${JSON.stringify(apiPasswordFile)}
  vars.cloudchecks_icinga_ca_file = ${JSON.stringify(caFile)}
  /* The test's daemons listen on ports of their own. */
  vars.cloudchecks_icinga_url = {{ "https://127.0.0.1:" + get_object(ApiListener, "api").bind_port }}${
    services
      ? `
  vars.cloudchecks_vm_fleet_services = ${JSON.stringify(services)}`
      : ''
  }
}`;
}

(icinga2 ? describe : describe.skip)('Icinga 2: check_vm_fleet --submit icinga2 feeds the passive services of vm-fleet.conf', () => {
  let icinga: PrivateIcinga;
  let vmIds: string[];
  /** A VM created since the last discovery: the simulator has it, the daemon not yet. */
  let newVm: string;

  beforeAll(async () => {
    const discovered = await discover('icinga2');
    const last = [...discovered.matchAll(/^object Host "(vm-[^"]+)" \{\n[\s\S]*?^\}\n/gm)].at(-1)!;
    newVm = last[1];
    const hosts = discovered.replace(last[0], '');
    vmIds = [...hosts.matchAll(/^object Host "(vm-[^"]+)"/gm)].map((m) => m[1]);
    expect(vmIds).not.toContain(newVm);
    icinga = new PrivateIcinga({
      icinga2: icinga2!,
      pluginDir: DIST,
      objects: [`include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`, fleetConf('20s'), hosts, RESTRICTED_USER, '__RUNNER__'].join('\n'),
    });
    // The runner needs the daemon's CA, written at start: its path is known before.
    (icinga as unknown as { options: { objects: string } }).options.objects = (icinga as unknown as { options: { objects: string } }).options.objects.replace(
      '__RUNNER__',
      runnerHost(join(icinga.root, 'data', 'certs', 'ca.crt')),
    );
    await icinga.start();
  }, 90_000);
  afterAll(() => icinga?.stop());

  const passive = async (host: string, service: string) => {
    const r = (await icinga.api(
      'GET',
      `/v1/objects/services?attrs=last_check_result&filter=${encodeURIComponent(`host.name==${JSON.stringify(host)} && service.name==${JSON.stringify(service)}`)}`,
    )) as {
      results: Array<{ attrs: { last_check_result: (CheckResult & { active: boolean; check_source: string }) | null } }>;
    };
    return r.results[0]?.attrs.last_check_result ?? null;
  };

  it('the runner submits every VM read, as the restricted ApiUser, and names once the VM Icinga does not know yet; each service shows what the single check says, then goes stale', async () => {
    const all = await expectedStates();
    const expected = new Map([...all].filter(([name]) => !name.startsWith(`${newVm}!`)));
    const runner = await icinga.check('vcd-acme-fleet', 'vm-fleet', 60_000);
    // Icinga answers HTTP 500 to a result for an object it does not have: that VM's results
    // only are lost, every other one is submitted, and the VM is named once.
    expect(runner.output, runner.output).toMatch(
      /^VM_FLEET WARNING - \d+ VMs? read in .*, (\d+) results submitted to Icinga 2, 3 not: Icinga 2 has no services for 1 VM \(rerun the discovery\)/,
    );
    expect(runner.output.match(/rerun the discovery to add the VM/g), runner.output).toHaveLength(1);
    expect(runner.output).toMatch(
      new RegExp(`${newVm}: no (vm-cpu|vm-memory|vm-disk)(, (vm-cpu|vm-memory|vm-disk)){2} in Icinga 2[;,] rerun the discovery to add the VM`),
    );
    const submitted = Number(/(\d+) results submitted/.exec(runner.output)![1]);
    expect(submitted).toBe(expected.size);
    expect(all.size - expected.size).toBe(3);
    expect(runner.performance_data).toContain(`submitted=${submitted};;;0`);
    expect(runner.output).not.toContain(API_PASSWORD);

    for (const [name, state] of expected) {
      const [host, service] = name.split('!');
      // The submitted result, or vm-fleet.conf's dummy repeating it while it is fresh (an
      // active run at the service's interval, which a loaded host may reach first).
      const r = await until(
        name,
        () => passive(host, service),
        (x) => x !== null && /^VM_/.test(x.output),
      );
      expect(r!.state, `${name}: ${r!.output}`).toBe(state);
      expect(r!.output).toMatch(new RegExp(`^VM_${{ 'vm-cpu': 'CPU', 'vm-memory': 'MEM', 'vm-disk': 'DISK' }[service]} `));
    }
    const cpu = await passive(vmIds[0], 'vm-cpu');
    expect(cpu!.performance_data.some((p) => p.startsWith('cpu_usage='))).toBe(true);

    // No result for two intervals (40 s: time to read the 45 results one by one before any ages,
    // also on a CI host running other suites beside this one): the dummy says since when.
    const stale = await until(
      'staleness',
      () => passive(vmIds[0], 'vm-cpu'),
      (x) => x?.active === true,
      80_000,
    );
    expect(stale!.state).toBe(3);
    expect(stale!.output).toMatch(
      /^no result from check_vm_fleet since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}; runner vcd-acme-fleet!vm-fleet WARNING: VM_FLEET WARNING - /,
    );
  }, 150_000);

  it('an ApiUser without the permission ends the run UNKNOWN naming the permissions, without the password', async () => {
    const r = await runExecutable(
      join(DIST, 'check_vm_fleet'),
      [
        ...sim.vcdArgs(),
        '--cache-dir',
        join(work, 'cache'),
        '--submit',
        'icinga2',
        '--icinga2-url',
        `https://127.0.0.1:${icinga.apiPort}`,
        '--icinga2-server-name',
        icinga.nodeName,
        '--icinga2-ca-file',
        join(icinga.root, 'data', 'certs', 'ca.crt'),
        '--icinga2-user',
        'cloudchecks-readonly',
        '--icinga2-password-file',
        apiPasswordFile,
        '-t',
        '20',
      ],
      { env: { PATH: process.env.PATH, HOME: work } },
    );
    expect(r.code, r.stdout).toBe(3);
    // Icinga answers a missing action permission as it answers a missing object: 404.
    expect(r.stdout).toMatch(
      /^VM_FLEET UNKNOWN - \d+ VMs read, results not submitted: Icinga 2 has none of the \d+ VM services .*, or user cloudchecks-readonly may not see them or submit results to them/,
    );
    expect(r.stdout).toContain('permissions = [ "actions/process-check-result", "objects/query/Host", "objects/query/Service" ]');
    expect(r.stdout + r.stderr).not.toContain(API_PASSWORD);
  }, 40_000);
});

(icinga2 && hasStockIcingaConfig() ? describe : describe.skip)(
  'Icinga 2 with its stock configuration accepts vm-fleet.conf as docs/scaling.md sets it up',
  () => {
    it('docs/scaling.md "icinga2-fleet", run as written: icinga2 daemon -C validates, only the unmatched apply rules warn', () => {
      const root = join(work, 'stock-icinga');
      const icinga = new StockIcinga(icinga2!, root, { skipContrib: /^cloudchecks/ });
      const { runs, validation } = icinga.runSteps(documentedSteps('docs/scaling.md', 'icinga2-fleet'), REPO, join(root, 'sandbox'));
      for (const run of runs) expect(run.code, `${run.line}\n${run.output}`).toBe(0);
      expect(validation.output).toMatch(/Finished validating the configuration file/);
      // No VM host yet (discovery makes them): the apply rules match nothing, which Icinga says.
      const warnings = validation.output.split('\n').filter((l) => /warning\/|critical\//.test(l));
      expect(
        warnings.every((l) =>
          /Apply rule '(vm-cpu|vm-memory|vm-disk|vm-snapshot|vm-tools|vm-lease|vm-fleet|vm-fleet-runner:)' .* does not match anywhere/.test(l),
        ),
        warnings.join('\n'),
      ).toBe(true);
      expect(shimCalls(join(root, 'sandbox'))).toContain('systemctl reload icinga2');
    }, 60_000);
  },
);

(nagios4 && hasStockNagiosConfig() ? describe : describe.skip)(
  'Nagios 4: cloudchecks_vm_fleet writes to the command file, vm-fleet.cfg takes and ages the results',
  () => {
    let nagios: PrivateNagios;

    beforeAll(async () => {
      const stock = new StockNagios(nagios4!, join(work, 'nagios'), { skipPluginConfig: /^cloudchecks/ });
      // $USER1$ as the package makes it: the plugins beside the stock ones.
      const plugins = stock.addFleetPlugins(join(work, 'plugins'));
      // Stale after 10 s instead of 600 s, looked at every second, without the 15 s of extra latency: 10 s
      // leaves a loaded host time to reap the results and write status.dat before they age.
      const fleetCfg = readFileSync(join(REPO, 'contrib/nagios/vm-fleet.cfg'), 'utf8')
        .replace(/freshness_threshold\s+600/, 'freshness_threshold     10')
        .replace('cloudchecks_vm_fleet_stale!600', 'cloudchecks_vm_fleet_stale!10');
      writeFileSync(join(stock.etc, 'conf.d', 'cloudchecks-vm-fleet.cfg'), fleetCfg);
      writeFileSync(join(stock.etc, 'conf.d', 'vcd-acme-vms.cfg'), await discover('nagios'));
      const api = sim.ready.apis.vcd;
      writeFileSync(
        join(stock.etc, 'conf.d', 'vcd-acme-fleet.cfg'),
        fleetRunnerConfig(api, `--powered-off-state OK --ca-file ${sim.ready.caFile} --cache-dir ${join(work, 'cache')} -t 30`),
      );
      let main = readFileSync(stock.main, 'utf8');
      main = main.replace(/^service_freshness_check_interval=.*$/m, 'service_freshness_check_interval=1');
      main += 'additional_freshness_latency=0\n';
      writeFileSync(stock.main, main);
      nagios = new PrivateNagios(nagios4!, stock, { USER1: plugins });
      await nagios.start();
    }, 60_000);
    afterAll(() => nagios?.stop());

    it('every VM read gets its results through $COMMANDFILE$, then UNKNOWN when they stop', async () => {
      const expected = await expectedStates();
      const started = Math.floor(Date.now() / 1000);
      const runner = (await nagios.checkHost('vcd-acme-fleet', ['vm-fleet'])).get('vcd-acme-fleet!vm-fleet')!;
      expect(runner.output).toMatch(new RegExp(`, ${expected.size} results submitted to Nagios`));
      // Each result as first seen: under load, the first may go stale before the last arrives.
      const results = new Map<string, { state: number; output: string; longOutput: string }>();
      await until(
        'the VM results in status.dat',
        async () => {
          for (const [k, v] of nagios.services()) if (!results.has(k) && v.lastCheck >= started && /^VM_/.test(v.output)) results.set(k, v);
          return [...expected.keys()].filter((k) => !results.has(k));
        },
        (missing) => missing.length === 0,
      );
      for (const [name, state] of expected) expect(results.get(name)!.state, `${name}: ${results.get(name)!.output}`).toBe(state);
      // The long output travels as escaped \n, which Nagios turns back into lines.
      const [first] = expected.keys();
      expect(results.get(first.replace(/!.*/, '!vm-cpu'))!.longOutput).toMatch(/cpu\.usage\.average = /);
      const stale = await until(
        'staleness',
        async () => nagios.services().get(first),
        (s) => /no result from check_vm_fleet/.test(s?.output ?? ''),
        30_000,
      );
      expect(stale!.state).toBe(3);
      expect(stale!.output).toBe('UNKNOWN: no result from check_vm_fleet for more than 10 s: see the vm-fleet service of its runner');
    }, 90_000);
  },
);

/**
 * The password changed at vCD and the runner's session ended (it expired, or the admin ended
 * it): the file holds a password vCD refuses, and no cached session is left to hide it.
 */
function breakPassword(passwordFile: string, cacheDir: string): void {
  writeFileSync(passwordFile, 'rotated-elsewhere\n');
  rmSync(cacheDir, { recursive: true, force: true });
}

(icinga2 ? describe : describe.skip)("Icinga 2: a broken password is one problem, the runner's, with the shipped Dependency rules", () => {
  let icinga: PrivateIcinga;
  let vmIds: string[];
  const notes = new NotificationLog(join(work, 'icinga-notifications.log'));
  const passwordFile = join(work, 'icinga-runner.password');
  const cacheDir = join(work, 'icinga-runner-cache');
  // The shipped intervals scaled from 5 minutes to 10 s: the runner's retries and attempts are as shipped.
  const INTERVAL_S = 10;

  beforeAll(async () => {
    writeFileSync(passwordFile, readFileSync(sim.ready.apis.vcd.passwordFile), { mode: 0o600 });
    const hosts = await discover('icinga2');
    vmIds = [...hosts.matchAll(/^object Host "(vm-[^"]+)"/gm)].map((m) => m[1]);
    const fleet = readFileSync(join(REPO, 'contrib/icinga2/vm-fleet.conf'), 'utf8').replace(
      'const CloudchecksFleetInterval = 5m',
      `const CloudchecksFleetInterval = ${INTERVAL_S}s`,
    );
    // Every state change of every service notifies a user at once, into the log file.
    const notifications = `object NotificationComponent "notification" {}\n${notes.icingaConfig()}`;
    icinga = new PrivateIcinga({
      icinga2: icinga2!,
      pluginDir: DIST,
      objects: [`include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`, fleet, hosts, RESTRICTED_USER, notifications, '__RUNNER__'].join(
        '\n',
      ),
    });
    (icinga as unknown as { options: { objects: string } }).options.objects = (icinga as unknown as { options: { objects: string } }).options.objects.replace(
      '__RUNNER__',
      runnerHost(join(icinga.root, 'data', 'certs', 'ca.crt'), { passwordFile, cacheDir }),
    );
    await icinga.start();
  }, 90_000);
  afterAll(() => icinga?.stop());

  const services = async (): Promise<Map<string, FleetServiceAttrs>> => {
    const r = (await icinga.api('GET', FLEET_SERVICE_ATTRS)) as unknown as { results: Array<{ name: string; attrs: FleetServiceAttrs }> };
    return new Map(r.results.map((x) => [x.name, x.attrs]));
  };

  it('the runner is HARD UNKNOWN naming the login before any VM service is stale; the VM services go stale naming it; only the runner notifies', async () => {
    const vmServices = vmIds.flatMap((id) => ['vm-cpu', 'vm-memory', 'vm-disk'].map((s) => `${id}!${s}`));
    // Healthy first: every VM service has a result from the runner.
    await until('passive results for every VM service', services, (all) => vmServices.every((k) => all.get(k)?.last_check_result?.active === false), 60_000);
    // Whatever the healthy VMs notified (the simulator has busy and full VMs) is history.
    await sleep(2000);
    const before = notes.lines().length;
    breakPassword(passwordFile, cacheDir);
    const broken = Date.now() / 1000;

    await expectOnlyTheRunnerNotifies(services, {
      runner: 'vcd-acme-fleet',
      vmServices,
      broken,
      intervalS: INTERVAL_S,
      notes,
      before,
      log: () => icinga.log.slice(-3000),
    });
  }, 180_000);
});

(nagios4 && hasStockNagiosConfig() ? describe : describe.skip)(
  "Nagios 4: a broken password is one problem, the runner's, with the shipped runner template and servicedependency",
  () => {
    let nagios: PrivateNagios;
    let vmServices: string[];
    const notes = new NotificationLog(join(work, 'nagios-notifications.log'));
    const passwordFile = join(work, 'nagios-runner.password');
    const cacheDir = join(work, 'nagios-runner-cache');
    // The shipped minutes made 2 s (interval_length=2): the runner every 10 s, retried after 2 s,
    // the VM services stale after 20 s instead of 600.
    const UNIT_S = 2;

    beforeAll(async () => {
      writeFileSync(passwordFile, readFileSync(sim.ready.apis.vcd.passwordFile), { mode: 0o600 });
      const stock = new StockNagios(nagios4!, join(work, 'nagios-notify'), { skipPluginConfig: /^cloudchecks/ });
      const plugins = stock.addFleetPlugins(join(work, 'plugins-notify'));
      const threshold = (600 / 60) * UNIT_S;
      const shipped = readFileSync(join(REPO, 'contrib/nagios/vm-fleet.cfg'), 'utf8');
      const fleetCfg = shipped
        .replace(/freshness_threshold\s+600/, `freshness_threshold     ${threshold}`)
        .replace('cloudchecks_vm_fleet_stale!600', `cloudchecks_vm_fleet_stale!${threshold}`);
      writeFileSync(join(stock.etc, 'conf.d', 'cloudchecks-vm-fleet.cfg'), fleetCfg);
      const hosts = await discover('nagios');
      vmServices = [...hosts.matchAll(/^ {4}host_name\s+(vm-\S+)$/gm)].flatMap((m) => ['vm-cpu', 'vm-memory', 'vm-disk'].map((s) => `${m[1]}!${s}`));
      writeFileSync(join(stock.etc, 'conf.d', 'vcd-acme-vms.cfg'), hosts);
      // The runner exactly as the end of vm-fleet.cfg shows it, on the simulator.
      const example = /^# define host \{\n[\s\S]*?^# \}\n(?=#\n# dependent_hostgroup_name)/m.exec(shipped)![0].replace(/^# ?/gm, '');
      const api = sim.ready.apis.vcd;
      const runner = example.replace(
        'cloudchecks_vm_fleet!https://vcd.example.com!monitoring!acme!/etc/nagios4/secrets/vcd-acme.password!--powered-off-state OK --inventory /etc/nagios4/conf.d/vcd-inventory/vcd-acme-billing.cfg -t 60',
        `cloudchecks_vm_fleet!${api.httpsUrl}!${api.user}!${api.org}!${passwordFile}!--powered-off-state OK --ca-file ${sim.ready.caFile} --cache-dir ${cacheDir} -t 30`,
      );
      expect(runner).not.toBe(example);
      writeFileSync(join(stock.etc, 'conf.d', 'vcd-acme-fleet.cfg'), runner);
      // Every notification of the stock contact goes to the log file instead of mail.
      const commands = join(stock.etc, 'objects', 'commands.cfg');
      writeFileSync(
        commands,
        readFileSync(commands, 'utf8').replace(
          /(command_name\s+notify-service-by-email\n\s+command_line\s+).*/,
          `$1/usr/bin/printf "%s\\n" "$HOSTNAME$!$SERVICEDESC$ $NOTIFICATIONTYPE$ $SERVICESTATE$ $SERVICEOUTPUT$" >> ${notes.file}`,
        ),
      );
      let main = readFileSync(stock.main, 'utf8');
      main = main.replace(/^service_freshness_check_interval=.*$/m, 'service_freshness_check_interval=1');
      main = main.replace(/^interval_length=.*$/m, `interval_length=${UNIT_S}`);
      main += 'additional_freshness_latency=0\nmax_service_check_spread=1\n';
      writeFileSync(stock.main, main);
      nagios = new PrivateNagios(nagios4!, stock, { USER1: plugins });
      await nagios.start();
    }, 60_000);
    afterAll(() => nagios?.stop());

    it('the runner is HARD UNKNOWN before any VM service is stale; they go stale pointing at it; only the runner notifies', async () => {
      nagios.command(`SCHEDULE_FORCED_SVC_CHECK;vcd-acme-fleet;vm-fleet;${Math.floor(Date.now() / 1000)}`);
      const started = Math.floor(Date.now() / 1000);
      await until(
        'passive results for every VM service',
        async () => nagios.services(),
        (all) => vmServices.every((k) => /^VM_/.test(all.get(k)?.output ?? '') && all.get(k)!.lastCheck >= started),
        60_000,
      );
      await sleep(2000);
      const before = notes.lines().length;
      breakPassword(passwordFile, cacheDir);
      const stale = await until(
        'every VM service stale',
        async () => nagios.services(),
        (all) => vmServices.every((k) => /no result from check_vm_fleet/.test(all.get(k)?.output ?? '')),
        30 * UNIT_S * 1000,
      );
      await sleep(5 * UNIT_S * 1000);
      const runner = nagios.services().get('vcd-acme-fleet!vm-fleet')!;
      expect(runner.state).toBe(3);
      expect(runner.output).toMatch(/^VM_FLEET UNKNOWN - /);
      const one = stale.get(vmServices[0])!;
      expect(one.state).toBe(3);
      expect(one.output).toBe(`UNKNOWN: no result from check_vm_fleet for more than ${(600 / 60) * UNIT_S} s: see the vm-fleet service of its runner`);
      const counts = notes.countsSince(before);
      expect(Object.fromEntries(counts), notes.lines().slice(before).join('\n')).toEqual({ 'vcd-acme-fleet!vm-fleet': 1 });
      console.log(
        `Nagios 4: ${counts.get('vcd-acme-fleet!vm-fleet')} notification(s) for ${vmServices.length} VM services and their runner after a broken password`,
      );
    }, 180_000);
  },
);

/** The simulator's VM db-03: a snapshot 10 days old (docs/vm-hygiene.md: CRITICAL beyond 7d by default). */
const DB_03 = 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';
const ALL_SERVICES = 'cpu,mem,disk,snapshot,tools,lease';
const SNAPSHOT_10D = /^VM_SNAPSHOT CRITICAL - 1 snapshot on vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f, oldest 10d( \d+h)? old /;

(icinga2 ? describe : describe.skip)('Icinga 2: the fleet with the hygiene services raises the snapshot 10 days old', () => {
  let icinga: PrivateIcinga;

  beforeAll(async () => {
    const hosts = await discover('icinga2');
    icinga = new PrivateIcinga({
      icinga2: icinga2!,
      pluginDir: DIST,
      objects: [`include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`, fleetConf('1m'), hosts, RESTRICTED_USER, '__RUNNER__'].join('\n'),
    });
    (icinga as unknown as { options: { objects: string } }).options.objects = (icinga as unknown as { options: { objects: string } }).options.objects.replace(
      '__RUNNER__',
      runnerHost(join(icinga.root, 'data', 'certs', 'ca.crt'), undefined, ALL_SERVICES),
    );
    await icinga.start();
  }, 90_000);
  afterAll(() => icinga?.stop());

  it('vm-snapshot of db-03 CRITICAL through the runner, vm-tools and vm-lease beside it, as vm-fleet.conf applies them', async () => {
    const runner = await icinga.check('vcd-acme-fleet', 'vm-fleet', 60_000);
    expect(runner.output, runner.output).toMatch(/^VM_FLEET (OK|WARNING) - \d+ VMs? read in .*, \d+ results submitted to Icinga 2/);
    const result = async (service: string) => {
      const r = (await icinga.api(
        'GET',
        `/v1/objects/services?attrs=last_check_result&filter=${encodeURIComponent(`host.name==${JSON.stringify(DB_03)} && service.name==${JSON.stringify(service)}`)}`,
      )) as { results: Array<{ attrs: { last_check_result: (CheckResult & { active: boolean }) | null } }> };
      return r.results[0]?.attrs.last_check_result ?? null;
    };
    const snapshot = await until(
      'vm-snapshot of db-03',
      () => result('vm-snapshot'),
      (x) => x !== null && !x.active,
    );
    expect(snapshot!.state, snapshot!.output).toBe(2);
    expect(snapshot!.output).toMatch(SNAPSHOT_10D);
    expect(snapshot!.performance_data).toContain('snapshots=1;;;0');
    const tools = await until(
      'vm-tools of db-03',
      () => result('vm-tools'),
      (x) => x !== null && !x.active,
    );
    expect(tools!.output).toMatch(/^VM_TOOLS OK - VMware Tools running and current/);
    const lease = await until(
      'vm-lease of db-03',
      () => result('vm-lease'),
      (x) => x !== null && !x.active,
    );
    expect(lease!.output).toMatch(/^VM_LEASE OK - no expiry on vm-c3d4e5f6/);
  }, 90_000);
});

(nagios4 && hasStockNagiosConfig() ? describe : describe.skip)('Nagios 4: the fleet with the hygiene services raises the snapshot 10 days old', () => {
  let nagios: PrivateNagios;

  beforeAll(async () => {
    const stock = new StockNagios(nagios4!, join(work, 'nagios-hygiene'), { skipPluginConfig: /^cloudchecks/ });
    const plugins = stock.addFleetPlugins(join(work, 'plugins-hygiene'));
    // The hygiene services enabled as vm-fleet.cfg says, for the runner's VMs.
    const enable = ['snapshot', 'tools', 'lease']
      .map((s) => `define service {\n    use                     cloudchecks-vm-fleet-${s}\n    hostgroup_name          cloudchecks-vcd-vms\n}\n`)
      .join('');
    writeFileSync(join(stock.etc, 'conf.d', 'cloudchecks-vm-fleet.cfg'), readFileSync(join(REPO, 'contrib/nagios/vm-fleet.cfg'), 'utf8') + enable);
    writeFileSync(join(stock.etc, 'conf.d', 'vcd-acme-vms.cfg'), await discover('nagios'));
    const api = sim.ready.apis.vcd;
    writeFileSync(
      join(stock.etc, 'conf.d', 'vcd-acme-fleet.cfg'),
      fleetRunnerConfig(api, `--ca-file ${sim.ready.caFile} --cache-dir ${join(work, 'cache')} -t 30 --services ${ALL_SERVICES}`) +
        `define servicedependency {
    host_name                       vcd-acme-fleet
    service_description             vm-fleet
    dependent_hostgroup_name        cloudchecks-vcd-vms
    dependent_service_description   vm-cpu,vm-memory,vm-disk,vm-snapshot,vm-tools,vm-lease
    notification_failure_criteria   u,c
    execution_failure_criteria      n
}
`,
    );
    nagios = new PrivateNagios(nagios4!, stock, { USER1: plugins });
    await nagios.start();
  }, 60_000);
  afterAll(() => nagios?.stop());

  it('vm-snapshot of db-03 CRITICAL through $COMMANDFILE$, with vm-tools and vm-lease', async () => {
    const started = Math.floor(Date.now() / 1000);
    const runner = (await nagios.checkHost('vcd-acme-fleet', ['vm-fleet'])).get('vcd-acme-fleet!vm-fleet')!;
    expect(runner.output).toMatch(/, \d+ results submitted to Nagios/);
    const fresh = await until(
      'the hygiene results of db-03 in status.dat',
      async () => ['vm-snapshot', 'vm-tools', 'vm-lease'].map((s) => nagios.services().get(`${DB_03}!${s}`)),
      (all) => all.every((r) => r !== undefined && r.lastCheck >= started && /^VM_/.test(r.output)),
    );
    const [snapshot, tools, lease] = fresh;
    expect(snapshot!.state, snapshot!.output).toBe(2);
    expect(snapshot!.output).toMatch(SNAPSHOT_10D);
    expect(tools!.output).toMatch(/^VM_TOOLS OK - /);
    expect(lease!.output).toMatch(/^VM_LEASE OK - no expiry/);
  }, 90_000);
});

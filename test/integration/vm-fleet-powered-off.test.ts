// A VM's powered-off choice made by its discovery reaches what the fleet submits for it, in the
// real engines as the shipped configs set them up: the discovery of the powered-off VM old-04
// runs with --powered-off-state CRITICAL into a file of its own, the other VMs' discovery with
// none (the VM host template's choice, OK); the runner, as contrib has it, reads the first
// file back (--inventory). old-04's services are then CRITICAL and the suspended paused-14's
// OK, as vm-discovery's active checks would have them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecutable } from '../support/spawn';
import { announceSkip, findExecutable, until } from './support/engines';
import { PrivateIcinga, type CheckResult } from './support/icinga2';
import { hasStockNagiosConfig, PrivateNagios, StockNagios } from './support/nagios';
import { DIST, REPO } from './support/simulator';
import { API_PASSWORD, fleetWorkspace } from './support/vm-fleet';

const icinga2 = findExecutable('icinga2');
const nagios4 = findExecutable('nagios4');
if (!icinga2) announceSkip('icinga2', 'icinga2-bin icinga2-common');
if (!nagios4 || !hasStockNagiosConfig()) announceSkip('nagios4', 'nagios4-core (its stock /etc/nagios4)');

const OFF = 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e'; // old-04, powered off
const SUSPENDED = 'vm-8e9f0a1b-2c3d-4e4f-8a5b-6c7d8e9f0a1b'; // paused-14
const SERVICES = ['vm-cpu', 'vm-memory', 'vm-disk'];

const { sim, work, apiPasswordFile } = fleetWorkspace('cc-int-off-');

/** The two discoveries of the docs: old-04 with its own choice, the rest with the template's. */
async function discoverInto(format: 'icinga2' | 'nagios', own: string, rest: string): Promise<void> {
  for (const [file, selection] of [
    [own, ['--include', '^old-04$', '--powered-off-state', 'CRITICAL']],
    [rest, ['--exclude', '^old-04$']],
  ] as const) {
    const r = await runExecutable(
      join(DIST, 'check_vm_cpu'),
      ['--discovery', '--discovery-format', format, ...sim.vcdArgs(), ...selection, '--discovery-file', file, '--cache-dir', join(work, 'cache')],
      { env: { PATH: process.env.PATH, HOME: work } },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }
}

(icinga2 ? describe : describe.skip)("Icinga 2: the VM host's powered-off choice reaches the fleet runner", () => {
  let icinga: PrivateIcinga;

  beforeAll(async () => {
    const own = join(work, 'vcd-acme-old.conf');
    const rest = join(work, 'vcd-acme-vms.conf');
    await discoverInto('icinga2', own, rest);
    const api = sim.ready.apis.vcd;
    const runner = (ca: string) => `object Host "vcd-acme-fleet" {
  check_command = "dummy"
  vars.cloudchecks_fleet = true
  vars.cloudchecks_vcd_url = ${JSON.stringify(api.httpsUrl)}
  vars.cloudchecks_vcd_user = ${JSON.stringify(api.user)}
  vars.cloudchecks_vcd_org = ${JSON.stringify(api.org)}
  vars.cloudchecks_vcd_password_file = ${JSON.stringify(api.passwordFile)}
  vars.cloudchecks_ca_file = ${JSON.stringify(sim.ready.caFile)}
  vars.cloudchecks_vcd_cache_dir = ${JSON.stringify(join(work, 'cache'))}
  vars.cloudchecks_vm_fleet_inventory = [ ${JSON.stringify(own)} ]
  vars.cloudchecks_icinga_user = "cloudchecks-fleet"
  vars.cloudchecks_icinga_password_file = ${JSON.stringify(apiPasswordFile)}
  vars.cloudchecks_icinga_ca_file = ${JSON.stringify(ca)}
  vars.cloudchecks_icinga_url = {{ "https://127.0.0.1:" + get_object(ApiListener, "api").bind_port }}
}
object ApiUser "cloudchecks-fleet" {
  password = ${JSON.stringify(API_PASSWORD)}
  permissions = [ "actions/process-check-result", "objects/query/Host", "objects/query/Service" ]
}`;
    // The runner checks only when the test asks.
    const fleet = readFileSync(join(REPO, 'contrib/icinga2/vm-fleet.conf'), 'utf8').replace(
      /(apply Service "vm-fleet" \{[^}]*?)check_interval = CloudchecksFleetInterval\n/,
      '$1check_interval = 1h\n',
    );
    icinga = new PrivateIcinga({
      icinga2: icinga2!,
      pluginDir: DIST,
      objects: [
        `include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`,
        fleet,
        `include ${JSON.stringify(own)}`,
        `include ${JSON.stringify(rest)}`,
        '__RUNNER__',
      ].join('\n'),
    });
    const options = (icinga as unknown as { options: { objects: string } }).options;
    options.objects = options.objects.replace('__RUNNER__', runner(join(icinga.root, 'data', 'certs', 'ca.crt')));
    await icinga.start();
  }, 90_000);
  afterAll(() => icinga?.stop());

  const passive = async (host: string, service: string) => {
    const r = (await icinga.api(
      'GET',
      `/v1/objects/services?attrs=last_check_result&filter=${encodeURIComponent(`host.name==${JSON.stringify(host)} && service.name==${JSON.stringify(service)}`)}`,
    )) as { results: Array<{ attrs: { last_check_result: (CheckResult & { active: boolean }) | null } }> };
    return r.results[0]?.attrs.last_check_result ?? null;
  };

  it('old-04 (its discovery: CRITICAL) is CRITICAL, paused-14 (the template: OK) is OK, in all three services', async () => {
    const runner = await icinga.check('vcd-acme-fleet', 'vm-fleet', 60_000);
    expect(runner.output).toMatch(/results submitted to Icinga 2/);
    for (const [host, state] of [
      [OFF, 2],
      [SUSPENDED, 0],
    ] as const) {
      for (const service of SERVICES) {
        const r = await until(
          `${host}!${service}`,
          () => passive(host, service),
          // The runner's result, or the dummy repeating it: Icinga reruns the dummy of a VM service
          // that is a problem when its parent, the runner, recovers (vm-fleet.conf), and the dummy
          // then repeats the runner's fresh result as it is.
          (x) => x !== null && (!x.active || [x.command].flat().join(' ') === 'dummy') && / is (powered off|suspended)/.test(x.output),
        );
        expect(r!.state, `${host}!${service}: ${r!.output}`).toBe(state);
        expect(r!.output).toMatch(/ is (powered off|suspended)/);
      }
    }
  }, 120_000);
});

(nagios4 && hasStockNagiosConfig() ? describe : describe.skip)("Nagios 4: the VM host's powered-off choice reaches the fleet runner", () => {
  let nagios: PrivateNagios;

  beforeAll(async () => {
    const stock = new StockNagios(nagios4!, join(work, 'nagios'), { skipPluginConfig: /^cloudchecks/ });
    const plugins = stock.addFleetPlugins(join(work, 'plugins'));
    stock.addToConfD(join(REPO, 'contrib/nagios/vm-fleet.cfg'), 'cloudchecks-vm-fleet.cfg');
    const own = join(stock.etc, 'conf.d', 'vcd-acme-old.cfg');
    await discoverInto('nagios', own, join(stock.etc, 'conf.d', 'vcd-acme-vms.cfg'));
    // The runner exactly as the end of vm-fleet.cfg shows it, on the simulator and old-04's file, run only when the test asks.
    const shipped = readFileSync(join(REPO, 'contrib/nagios/vm-fleet.cfg'), 'utf8');
    const example = /^# define host \{\n[\s\S]*?^# \}\n(?=#\n# dependent_hostgroup_name)/m.exec(shipped)![0].replace(/^# ?/gm, '');
    const api = sim.ready.apis.vcd;
    const runner = example
      .replace('https://vcd.example.com!monitoring!acme!/etc/nagios4/secrets/vcd-acme.password!', `${api.httpsUrl}!${api.user}!${api.org}!${api.passwordFile}!`)
      .replace('/etc/nagios4/conf.d/vcd-inventory/vcd-acme-billing.cfg -t 60', `${own} --ca-file ${sim.ready.caFile} --cache-dir ${join(work, 'cache')} -t 30`)
      .replace(/(use\s+cloudchecks-vm-fleet-runner\n)/, '$1    active_checks_enabled   0\n');
    expect(runner).toContain(`--powered-off-state OK --inventory ${own} `);
    expect(runner).toContain('active_checks_enabled');
    writeFileSync(join(stock.etc, 'conf.d', 'vcd-acme-fleet.cfg'), runner);
    nagios = new PrivateNagios(nagios4!, stock, { USER1: plugins });
    await nagios.start();
  }, 60_000);
  afterAll(() => nagios?.stop());

  it('old-04 (its discovery: CRITICAL) is CRITICAL, paused-14 (the template: OK) is OK, in all three services', async () => {
    const started = Math.floor(Date.now() / 1000);
    const runner = (await nagios.checkHost('vcd-acme-fleet', ['vm-fleet'])).get('vcd-acme-fleet!vm-fleet')!;
    expect(runner.output).toMatch(/results submitted to Nagios/);
    const wanted = [OFF, SUSPENDED].flatMap((h) => SERVICES.map((s) => `${h}!${s}`));
    const seen = await until(
      'the results in status.dat',
      async () => new Map([...nagios.services()].filter(([k, v]) => wanted.includes(k) && v.lastCheck >= started && /^VM_/.test(v.output))),
      (m) => m.size === wanted.length,
    );
    for (const name of wanted) {
      const r = seen.get(name)!;
      expect(r.state, `${name}: ${r.output}`).toBe(name.startsWith(OFF) ? 2 : 0);
      expect(r.output).toMatch(/ is (powered off|suspended)/);
    }
  }, 90_000);
});

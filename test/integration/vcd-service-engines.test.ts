// One root cause, one page, in the real Nagios 4 and Icinga 2: the shipped vcd-service files
// make check_vcd the parent of every other Cloud Director service. With the simulator's vCD
// killed, check_vcd is CRITICAL and pages; the VDC check, the provider VDC check of a
// discovered host, the fleet runner and the failed-tasks check beneath it reach hard UNKNOWN
// and page nobody; a VDC already WARNING keeps it (--last-state, the engine's state id).
// Notifications are counted as each engine sends them (a contact whose command appends a line).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { announceSkip, findExecutable, sleep } from './support/engines';
import { PrivateIcinga } from './support/icinga2';
import { hasStockNagiosConfig, PrivateNagios, StockNagios, uncommentedExample } from './support/nagios';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const icinga2 = findExecutable('icinga2');
if (!icinga2) announceSkip('icinga2', 'icinga2-bin');
const icingaSuite = icinga2 ? describe : describe.skip;
const nagios4 = findExecutable('nagios4');
if (!nagios4 || !hasStockNagiosConfig()) announceSkip('nagios4', 'nagios4-core (its stock /etc/nagios4)');
const suite = nagios4 && hasStockNagiosConfig() ? describe : describe.skip;

/** Status fields of every service, by "host!service". */
function statusOf(file: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  for (const m of text.matchAll(/^servicestatus \{\n([\s\S]*?)\n\t\}/gm)) {
    const f = Object.fromEntries([...m[1].matchAll(/^\t(\w+)=(.*)$/gm)].map((x) => [x[1], x[2]]));
    out.set(`${f.host_name}!${f.service_description}`, f);
  }
  return out;
}

suite('Nagios 4: with vCD stopped, check_vcd is the one problem that pages', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-vcd-service-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('pages once for vCD down: the VDC check, the provider VDC check and the fleet runner stay silent', { timeout: 240_000 }, async () => {
    assertBuilt();
    const sim = new BuiltSimulator(['--vcd-scenario', 'healthy']);
    const ready = await sim.start();
    // The password file outlives the simulator (stopping it removes its state directory).
    const vcd: Record<string, string> = { ...ready.apis.vcd, passwordFile: join(root, 'vcd-password') };
    copyFileSync(ready.apis.vcd.passwordFile, vcd.passwordFile);
    const caFile = join(root, 'ca.pem');
    copyFileSync(ready.caFile, caFile);
    const stock = new StockNagios(nagios4!, join(root, 'nagios'), { skipPluginConfig: /^cloudchecks/ });
    stock.addToConfD(join(REPO, 'contrib/nagios/commands.cfg'), 'cloudchecks-commands.cfg');
    const shipped = readFileSync(join(REPO, 'contrib/nagios/vcd-service.cfg'), 'utf8');
    stock.addToConfD(join(REPO, 'contrib/nagios/vcd-service.cfg'), 'cloudchecks-vcd-service.cfg');
    const pages = join(root, 'pages.log');
    const ca = `--ca-file ${caFile}`;
    const cache = `--cache-dir ${join(root, 'cache')}`;
    // The per-vCD block as shipped, with this vCD's URL, the System account and its password file.
    const vcdBlock = uncommentedExample(shipped, '# One vCD:')
      .replace('address                 vcd.example.com', 'address                 127.0.0.1')
      .replace('check-host-alive', 'cc-up')
      .replace(/(contact_groups\s+)admins/, '$1cc-pagers')
      .replace(
        /cloudchecks_vcd!https:\/\/vcd\.example\.com!provider-monitor!System!\/etc\/nagios4\/secrets\/vcd-system\.password!/,
        `cloudchecks_vcd!${vcd.httpsUrl}!${vcd.providerUser}!System!${vcd.passwordFile}!${ca} -t 20`,
      )
      // The block's tasks service, beneath vcd on the same host.
      .replace(
        /cloudchecks_vcd_tasks!https:\/\/vcd\.example\.com!provider-monitor!System!\/etc\/nagios4\/secrets\/vcd-system\.password!--window 15m/,
        `cloudchecks_vcd_tasks!${vcd.httpsUrl}!${vcd.providerUser}!System!${vcd.passwordFile}!--window 15m ${ca} ${cache} -t 20`,
      );
    expect(vcdBlock).toMatch(/service_description\s+vcd tasks/);
    const edgeBlock = vcdBlock.replace(
      /cloudchecks_edge_gateways!https:\/\/vcd\.example\.com!provider-monitor!System!\/etc\/nagios4\/secrets\/vcd-system\.password!/,
      `cloudchecks_edge_gateways!${vcd.httpsUrl}!${vcd.providerUser}!System!${vcd.passwordFile}!${ca} ${cache} -t 20`,
    );
    expect(edgeBlock).not.toBe(vcdBlock);
    // The block's vCenter and datastore service, beneath vcd on the same host.
    const backendsBlock = edgeBlock.replace(
      /cloudchecks_vcd_backends!https:\/\/vcd\.example\.com!provider-monitor!System!\/etc\/nagios4\/secrets\/vcd-system\.password!/,
      `cloudchecks_vcd_backends!${vcd.httpsUrl}!${vcd.providerUser}!System!${vcd.passwordFile}!${ca} ${cache} -t 20`,
    );
    expect(backendsBlock).not.toBe(edgeBlock);
    expect(vcdBlock).toMatch(/define servicedependency \{/);
    // A provider VDC host as check_pvdc --discovery writes it.
    const discovered = execFileSync(
      join(DIST, 'check_pvdc'),
      [
        '--discovery',
        '--discovery-format',
        'nagios',
        '--url',
        vcd.httpsUrl,
        '--user',
        vcd.providerUser,
        '--org',
        'System',
        '--password-file',
        vcd.passwordFile,
        '--ca-file',
        caFile,
        '--no-cache',
      ],
      { encoding: 'utf8' },
    );
    const pvdcHost = /host_name\s+(pvdc-\S+)/.exec(discovered)![1];
    writeFileSync(
      join(stock.etc, 'conf.d', 'test-vcd.cfg'),
      [
        backendsBlock,
        discovered.replace(/^(define host \{)$/m, '$1\n    contact_groups  cc-pagers'),
        `define command {\n    command_name cc-up\n    command_line /bin/true\n}`,
        `define command {\n    command_name cc-page\n    command_line /usr/bin/printf '%s,%s,%s,%s\\n' '$NOTIFICATIONTYPE$' '$HOSTNAME$' '$SERVICEDESC$' '$SERVICESTATE$' >> ${pages}\n}`,
        `define contact {\n    contact_name cc-pager\n    use generic-contact\n    service_notification_commands cc-page\n    host_notification_commands cc-page\n}`,
        `define contactgroup {\n    contactgroup_name cc-pagers\n    members cc-pager\n}`,
        `define host {\n    use generic-host\n    host_name acme\n    address 127.0.0.1\n    check_command cc-up\n    max_check_attempts 3\n    contact_groups cc-pagers\n}`,
        `define service {\n    use cloudchecks-vcd-dependent\n    host_name acme\n    service_description vdc\n    contact_groups cc-pagers\n    check_command cloudchecks_vdc!${vcd.httpsUrl}!${vcd.user}!${vcd.org}!${vcd.passwordFile}!${ca} ${cache} -t 20\n}`,
        `define service {\n    use cloudchecks-vcd-dependent\n    host_name acme\n    service_description vm-fleet\n    contact_groups cc-pagers\n    check_command cloudchecks_vm_fleet!${vcd.httpsUrl}!${vcd.user}!${vcd.org}!${vcd.passwordFile}!${ca} ${cache} -t 20\n}`,
        '',
      ].join('\n'),
    );
    // The pvdc services and the vcd service page the test's contact too.
    const conf = join(stock.etc, 'conf.d', 'cloudchecks-vcd-service.cfg');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace(/(name\s+cloudchecks-vcd-(?:service|dependent)\n)/g, '$1    contact_groups          cc-pagers\n'));
    const verify = stock.verify(30_000);
    expect(verify.errors, verify.output).toBe(0);

    const nagios = new PrivateNagios(nagios4!, stock, { USER1: DIST });
    const statusFile = /^status_file=(.*)$/m.exec(readFileSync(stock.main, 'utf8'))![1];
    const services = [
      ['vcd', 'vcd'],
      ['acme', 'vdc'],
      ['acme', 'vm-fleet'],
      [pvdcHost, 'provider VDC'],
      ['vcd', 'vcd tasks'],
      ['vcd', 'edge gateways'],
      ['vcd', 'vcd backends'],
    ] as const;
    /** Forces one check of each service (the vcd service first) and waits until Nagios has them all. */
    const round = async () => {
      const before = Math.floor(Date.now() / 1000);
      for (const [host, service] of services) nagios.command(`SCHEDULE_FORCED_SVC_CHECK;${host};${service};${before}`);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const all = statusOf(statusFile);
        const done = services.filter(([h, s]) => Number(all.get(`${h}!${s}`)?.last_check ?? 0) >= before);
        if (done.length === services.length) return all;
        if (Date.now() > deadline) throw new Error(`Nagios checked ${done.length} of ${services.length} services:\n${nagios.log}`);
        await sleep(250);
      }
    };
    await nagios.start();
    try {
      await sleep(1100);
      let all = await round();
      // vCD answers: no service is UNKNOWN or CRITICAL (the fleet runner may be WARNING about a VM of its own).
      for (const [h, s] of services) expect(['0', '1'], `${h}!${s}: ${all.get(`${h}!${s}`)?.plugin_output}`).toContain(all.get(`${h}!${s}`)?.current_state);
      expect(existsSync(pages) ? readFileSync(pages, 'utf8') : '').toBe('');
      // The VDC is already a problem (WARNING): its command passes '$SERVICESTATEID$' to --last-state.
      nagios.command('PROCESS_SERVICE_CHECK_RESULT;acme;vdc;1;VDC WARNING - acme-prod memory 85%');
      await sleep(1100);

      await sim.stop(); // vCD is down
      for (let n = 0; n < 4; n++) {
        await sleep(1100);
        all = await round();
      }
      const vcdState = all.get('vcd!vcd')!;
      expect(vcdState.current_state, vcdState.plugin_output).toBe('2');
      expect(vcdState.plugin_output).toMatch(/^VCD CRITICAL - vCD at \S+ is not answering: connection refused/);
      for (const [h, s] of services.slice(1)) {
        const st = all.get(`${h}!${s}`)!;
        // Hard problems of their own: without the dependency each would have paged. The VDC keeps its WARNING.
        if (`${h}!${s}` === 'acme!vdc') {
          expect([st.current_state, st.state_type], st.plugin_output).toEqual(['1', '1']);
          expect(st.plugin_output).toMatch(/^VDC WARNING - vCD at \S+ is not answering: connection refused .*the last result's state is kept/);
        } else expect([st.current_state, st.state_type], `${h}!${s}: ${st.plugin_output}`).toEqual(['3', '1']);
      }
      await sleep(2000);
      const logFile = /^log_file=(.*)$/m.exec(readFileSync(stock.main, 'utf8'))![1];
      const log = readFileSync(logFile, 'utf8');
      const sent = (existsSync(pages) ? readFileSync(pages, 'utf8') : '').trim().split('\n');
      const notified = log.split('\n').filter((l) => / SERVICE NOTIFICATION: /.test(l));
      const alerts = log
        .split('\n')
        .filter((l) => /NOTIFICATION|ALERT/.test(l))
        .join('\n');
      // Nagios's own record of what it sent, and what the contact's command received.
      expect(
        notified.map((l) =>
          l
            .replace(/^\[\d+\] SERVICE NOTIFICATION: /, '')
            .split(';')
            .slice(0, 4)
            .join(';'),
        ),
        alerts,
      ).toEqual(['cc-pager;vcd;vcd;CRITICAL']);
      expect(sent, alerts).toEqual(['PROBLEM,vcd,vcd,CRITICAL']);
    } finally {
      await nagios.stop();
      await sim.stop();
    }
  });
});

/** Icinga 2 values as a config literal. */
const icingaValue = (v: string | boolean | string[]) => (typeof v === 'boolean' ? String(v) : JSON.stringify(v));

icingaSuite('Icinga 2: with vCD stopped, check_vcd is the one problem that notifies', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-vcd-service-icinga-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('notifies once for vCD down: the VDC check and the discovered provider VDC stay silent', { timeout: 240_000 }, async () => {
    assertBuilt();
    const sim = new BuiltSimulator(['--vcd-scenario', 'healthy']);
    const ready = await sim.start();
    const passwordFile = join(root, 'vcd-password');
    copyFileSync(ready.apis.vcd.passwordFile, passwordFile);
    const caFile = join(root, 'ca.pem');
    copyFileSync(ready.caFile, caFile);
    const vcd = ready.apis.vcd;
    const pages = join(root, 'pages.log');
    const connection = (user: string, org: string): Record<string, string | boolean> => ({
      cloudchecks_vcd_url: vcd.httpsUrl,
      cloudchecks_vcd_user: user,
      cloudchecks_vcd_org: org,
      cloudchecks_vcd_password_file: passwordFile,
      cloudchecks_ca_file: caFile,
      cloudchecks_vcd_cache_dir: join(root, 'cache'),
    });
    const host = (name: string, vars: Record<string, string | boolean | string[]>, extra = '') =>
      `object Host ${JSON.stringify(name)} {\n  check_command = "dummy"\n${Object.entries(vars)
        .map(([k, v]) => `  vars.${k} = ${icingaValue(v)}`)
        .join('\n')}\n${extra}}`;
    const discovered = execFileSync(
      join(DIST, 'check_pvdc'),
      [
        '--discovery',
        '--discovery-format',
        'icinga2',
        '--url',
        vcd.httpsUrl,
        '--user',
        vcd.providerUser,
        '--org',
        'System',
        '--password-file',
        passwordFile,
        '--ca-file',
        caFile,
        '--no-cache',
      ],
      { encoding: 'utf8' },
    );
    // What vcd-service.conf tells a user to do: the discovered hosts' template names their vCD's host.
    const shipped = readFileSync(join(REPO, 'contrib/icinga2/vcd-service.conf'), 'utf8').replace(
      'template Host "cloudchecks-vcd-pvdc" {',
      'template Host "cloudchecks-vcd-pvdc" {\n\tvars.cloudchecks_vcd_parent = "vcd"',
    );
    writeFileSync(join(root, 'vcd-service.conf'), shipped);
    writeFileSync(join(root, 'pvdcs.conf'), discovered);
    const icinga = new PrivateIcinga({
      icinga2: icinga2!,
      pluginDir: DIST,
      objects: [
        `include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`,
        `include ${JSON.stringify(join(root, 'vcd-service.conf'))}`,
        `include ${JSON.stringify(join(root, 'pvdcs.conf'))}`,
        'object NotificationComponent "notification" {}',
        'object User "cc-pager" { }',
        `object NotificationCommand "cc-page" {\n  command = [ "/bin/sh", "-c", "printf '%s,%s,%s,%s\\\\n' \\"$$1\\" \\"$$2\\" \\"$$3\\" \\"$$4\\" >> ${pages}", "page", "$notification.type$", "$host.name$", "$service.name$", "$service.state$" ]\n}`,
        'apply Notification "page" to Service {\n  command = "cc-page"\n  users = [ "cc-pager" ]\n  interval = 0\n  assign where true\n}',
        // The vCD's own host carries vcd-tasks beneath vcd, as vcd-service.conf says.
        host('vcd', {
          ...connection(vcd.providerUser, 'System'),
          cloudchecks_vcd_service: true,
          cloudchecks_vcd_tasks: true,
          cloudchecks_edge_gateways: true,
          cloudchecks_edges: ['acme-edge-01'],
          cloudchecks_vcd_backends: true,
          cloudchecks_vcd_parent: 'vcd',
        }),
        host('acme', { ...connection(vcd.user, vcd.org), cloudchecks_vcd_parent: 'vcd' }),
        host('vdc-as-host', connection(vcd.user, vcd.org), '  check_command = "cloudchecks-vdc"\n'),
        'object Service "vdc" {\n  host_name = "acme"\n  check_command = "cloudchecks-vdc"\n  max_check_attempts = 3\n}',
      ].join('\n'),
    });
    const pvdcHost = /object Host "(pvdc-[^"]+)"/.exec(discovered)![1];
    const services = [
      ['vcd', 'vcd'],
      ['acme', 'vdc'],
      [pvdcHost, 'pvdc'],
      ['vcd', 'vcd-tasks'],
      ['vcd', 'edge-gateways'],
      ['vcd', 'edge acme-edge-01'],
      ['vcd', 'vcd-backends'],
    ] as const;
    await icinga.start();
    try {
      for (const [h, s] of services) expect((await icinga.check(h, s)).exit_status, `${h}!${s}`).toBe(0);
      // The VDC is already a problem (WARNING): cloudchecks-vdc passes $service.state_id$ to --last-state.
      await icinga.api('POST', '/v1/actions/process-check-result', {
        type: 'Service',
        filter: 'host.name=="acme" && service.name=="vdc"',
        exit_status: 1,
        plugin_output: 'VDC WARNING - acme-prod memory 85%',
      });
      await sim.stop(); // vCD is down
      for (let n = 0; n < 3; n++) for (const [h, s] of services) await icinga.check(h, s);
      const states = await icinga.api('GET', '/v1/objects/services?attrs=state&attrs=state_type&attrs=name&attrs=host_name');
      const byName = new Map(
        ((states?.results ?? []) as unknown as Array<{ attrs: { host_name: string; name: string; state: number; state_type: number } }>).map((r) => [
          `${r.attrs.host_name}!${r.attrs.name}`,
          [r.attrs.state, r.attrs.state_type],
        ]),
      );
      expect(byName.get('vcd!vcd')).toEqual([2, 1]);
      // Hard problems of their own: without the Dependency each would have notified. The VDC keeps its WARNING.
      for (const [h, s] of services.slice(1)) expect(byName.get(`${h}!${s}`), `${h}!${s}`).toEqual([`${h}!${s}` === 'acme!vdc' ? 1 : 3, 1]);
      expect((await icinga.check('acme', 'vdc')).output).toMatch(
        /^VDC WARNING - vCD at \S+ is not answering: connection refused .*the last result's state is kept/,
      );
      // A host check has no $service.state_id$: the option is left out and the check runs as ever.
      expect((await icinga.checkHost('vdc-as-host')).output).toMatch(/^VDC UNKNOWN - connection refused/);
      await sleep(3000);
      const sent = (existsSync(pages) ? readFileSync(pages, 'utf8') : '').trim().split('\n');
      expect(
        sent,
        icinga.log
          .split('\n')
          .filter((l) => /otification|ependenc/.test(l))
          .slice(-30)
          .join('\n'),
      ).toEqual(['PROBLEM,vcd,vcd,CRITICAL']);
    } finally {
      await icinga.stop();
      await sim.stop();
    }
  });
});

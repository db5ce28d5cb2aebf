// One root cause, one page, in the real Nagios 4: the shipped contrib/nagios/vcd-service.cfg
// makes check_vcd the master of every other Cloud Director service. With the simulator's vCD
// killed, check_vcd is CRITICAL and pages; the VDC check, the provider VDC check of a
// discovered host and the fleet runner beneath it reach hard UNKNOWN and page nobody.
// Notifications are counted as Nagios sends them (a contact whose command appends a line).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { announceSkip, findExecutable, sleep } from './support/engines';
import { hasStockNagiosConfig, PrivateNagios, StockNagios } from './support/nagios';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const nagios4 = findExecutable('nagios4');
if (!nagios4 || !hasStockNagiosConfig()) announceSkip('nagios4', 'nagios4-core (its stock /etc/nagios4)');
const suite = nagios4 && hasStockNagiosConfig() ? describe : describe.skip;

/** The commented per-vCD block of vcd-service.cfg, uncommented: what a user does with it. */
function perVcdBlock(text: string): string {
  const start = text.indexOf('# One vCD:');
  return text
    .slice(start)
    .split('\n')
    .filter((l) => /^# (define | {4}|\})/.test(l))
    .map((l) => l.replace(/^# ?/, ''))
    .join('\n');
}

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
    const vcdBlock = perVcdBlock(shipped)
      .replace('address                 vcd.example.com', 'address                 127.0.0.1')
      .replace('check-host-alive', 'cc-up')
      .replace(/(contact_groups\s+)admins/, '$1cc-pagers')
      .replace(
        /cloudchecks_vcd!https:\/\/vcd\.example\.com!provider-monitor!System!\/etc\/nagios4\/secrets\/vcd-system\.password!/,
        `cloudchecks_vcd!${vcd.httpsUrl}!${vcd.providerUser}!System!${vcd.passwordFile}!${ca} -t 5`,
      );
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
        vcdBlock,
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

      await sim.stop(); // vCD is down
      for (let n = 0; n < 4; n++) {
        await sleep(1100);
        all = await round();
      }
      const vcdState = all.get('vcd!vcd')!;
      expect(vcdState.current_state, vcdState.plugin_output).toBe('2');
      expect(vcdState.plugin_output).toMatch(/^VCD CRITICAL - connection refused/);
      for (const [h, s] of services.slice(1)) {
        const st = all.get(`${h}!${s}`)!;
        // Hard problems of their own: without the dependency each would have paged.
        expect([st.current_state, st.state_type], `${h}!${s}: ${st.plugin_output}`).toEqual(['3', '1']);
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

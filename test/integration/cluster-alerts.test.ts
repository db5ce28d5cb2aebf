// check_cluster_alerts against a real monitoring stack: Debian's Prometheus (rules that fire,
// evaluated every second) sending to Debian's Alertmanager (a silence made through its API, an
// inhibition from its configuration, alerts posted to it), both run by the test on 127.0.0.1.
// Then the per-rule services in the real engines, as contrib ships them: a private Icinga 2 runs
// the cluster-alerts service of contrib/icinga2/cluster-alerts.conf, whose --submit icinga2
// posts each rule's verdict to the generated passive services (and the Dependency makes them
// unreachable when the runner cannot read the alerts); a private Nagios runs
// cloudchecks_cluster_alerts_submit, and the generated services take the results.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecutable, type RunResult } from '../support/spawn';
import { ALERTMANAGER, AlertStack, post, PROMETHEUS } from './support/alert-stack';
import { announceSkip, findExecutable, until } from './support/engines';
import { PrivateIcinga, type CheckResult } from './support/icinga2';
import { hasStockNagiosConfig, PrivateNagios, StockNagios } from './support/nagios';
import { DIST, REPO } from './support/simulator';

const PLUGIN = join(DIST, 'check_cluster_alerts');
const icinga2 = findExecutable('icinga2');
const nagios4 = findExecutable('nagios4');
const haveStack = PROMETHEUS !== undefined && ALERTMANAGER !== undefined;
if (!haveStack) announceSkip('prometheus and prometheus-alertmanager', 'prometheus prometheus-alertmanager');
if (!icinga2) announceSkip('icinga2', 'icinga2-bin icinga2-common');
if (!nagios4 || !hasStockNagiosConfig()) announceSkip('nagios4', 'nagios4-core (its stock /etc/nagios4)');

const stack = new AlertStack();
const work = mkdtempSync(join(tmpdir(), 'cc-int-alerts-'));
const API_PASSWORD = 'alerts-api-Pa55word';
const apiPasswordFile = join(work, 'api.password');
const ENV = { PATH: process.env.PATH, HOME: work };
const run = (args: string[]): Promise<RunResult> => runExecutable(PLUGIN, [...args, '--allow-http', '--cache-dir', join(work, 'cache')], { env: ENV });
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];

(haveStack ? describe : describe.skip)('a real Prometheus and Alertmanager', () => {
  beforeAll(async () => {
    writeFileSync(apiPasswordFile, `${API_PASSWORD}\n`, { mode: 0o600 });
    await stack.start();
    // A silence for etcd's maintenance, through Alertmanager's API v2.
    const now = Date.now();
    const silence = await post(`${stack.amUrl}/api/v2/silences`, {
      matchers: [{ name: 'alertname', value: 'etcdMembersDown', isRegex: false, isEqual: true }],
      startsAt: new Date(now - 60_000).toISOString(),
      endsAt: new Date(now + 3_600_000).toISOString(),
      createdBy: 'cloudchecks tests',
      comment: 'etcd maintenance',
    });
    expect(silence.status, silence.text).toBe(200);
    // A node down, whose kubelet alert the configuration's inhibit rule mutes.
    const posted = await post(`${stack.amUrl}/api/v2/alerts`, [
      { labels: { alertname: 'NodeDown', node: 'worker-2', severity: 'critical' }, annotations: { summary: 'Node worker-2 is down.' } },
      { labels: { alertname: 'KubeletDown', node: 'worker-2', severity: 'critical' } },
    ]);
    expect(posted.status, posted.text).toBe(200);
    await until(
      'the silence and the inhibition applied',
      async () => (await run(['--alertmanager-url', stack.amUrl])).stdout,
      (out) => /1 silenced, 1 inhibited/.test(out),
      30_000,
    );
  }, 90_000);
  afterAll(async () => {
    await stack.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("Alertmanager: the platform's firing alerts by severity; the silenced and the inhibited counted, not judged; the tenant's left out", async () => {
    const r = await run(['--alertmanager-url', stack.amUrl, '-v']);
    expect(r.code, r.stdout).toBe(2);
    expect(firstLine(r)).toMatch(
      /^ALERTS CRITICAL - 1 critical, 1 warning alerts firing: NodeDown worker-2 for \d+s \(since .*\), KubePodCrashLooping openshift-ingress\/router-default-5d8f7c9b4-x2kqp for \d+s \(since .*\), 1 silenced, 1 inhibited \[\d+ alerts read from --alertmanager-url http:\/\/127\.0\.0\.1:\d+\/, .*1 tenant alert left out/,
    );
    expect(firstLine(r)).toMatch(/\| alerts_critical=1;;;0 alerts_warning=1;;;0 alerts_info=0;;;0 alerts_suppressed=2;;;0$/);
    expect(r.stdout).toMatch(/^\[OK\] etcdMembersDown openshift-etcd \(critical, silenced for /m);
    expect(r.stdout).toMatch(/^\[OK\] KubeletDown worker-2 \(critical, inhibited for /m);
    // --all-alerts counts the tenant's; --exclude leaves NodeDown out.
    expect(firstLine(await run(['--alertmanager-url', stack.amUrl, '--all-alerts']))).toMatch(/^ALERTS CRITICAL - 2 critical, 1 warning alerts firing: /);
    const excluded = await run(['--alertmanager-url', stack.amUrl, '--exclude', 'alertname=~"Node.*"']);
    expect(excluded.code).toBe(1);
  });

  it('Prometheus: the same rules firing, with no silence known; its rules for --discovery', async () => {
    const r = await run(['--prometheus-url', stack.promUrl]);
    expect(r.code, r.stdout).toBe(2);
    expect(firstLine(r)).toMatch(/^ALERTS CRITICAL - 1 critical, 1 warning alerts firing: etcdMembersDown openshift-etcd for \d+s/);
    const discovery = await run(['--prometheus-url', stack.promUrl, '--discovery']);
    expect(JSON.parse(discovery.stdout)).toEqual([
      { '{#ALERTNAME}': 'KubePodCrashLooping', '{#SEVERITY}': 'warning' },
      { '{#ALERTNAME}': 'ShopCheckoutErrors', '{#SEVERITY}': 'critical' },
      { '{#ALERTNAME}': 'TargetDown', '{#SEVERITY}': 'warning' },
      { '{#ALERTNAME}': 'etcdMembersDown', '{#SEVERITY}': 'critical' },
    ]);
    // --min-active: nothing has fired for an hour.
    expect((await run(['--prometheus-url', stack.promUrl, '--min-active', '1h'])).code).toBe(0);
  });

  it('--output json: the firing rules under rules, as the Zabbix items read them', async () => {
    const doc = JSON.parse((await run(['--alertmanager-url', stack.amUrl, '--output', 'json'])).stdout) as { rules: Record<string, { code: number }> };
    expect(Object.fromEntries(Object.entries(doc.rules).map(([k, v]) => [k, v.code]))).toEqual({ KubePodCrashLooping: 1, NodeDown: 2 });
  });

  /** The rule services as the docs have users generate them, from the Alertmanager (which holds the posted alerts too). */
  async function ruleServices(format: 'icinga2' | 'nagios'): Promise<string> {
    const r = await run(['--alertmanager-url', stack.amUrl, '--discovery', '--discovery-format', format, '--submit-host', 'ocp-test']);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  }

  /** The verdicts the rule services must show: rule → state. */
  const EXPECTED = { KubePodCrashLooping: 1, NodeDown: 2, KubeletDown: 0, etcdMembersDown: 0, ShopCheckoutErrors: 0 };

  (icinga2 ? describe : describe.skip)('Icinga 2: contrib/icinga2/cluster-alerts.conf', () => {
    let icinga: PrivateIcinga;

    beforeAll(async () => {
      const conf = readFileSync(join(REPO, 'contrib/icinga2/cluster-alerts.conf'), 'utf8')
        .replace(/(apply Service "cluster-alerts" \{[^}]*?)check_interval = CloudchecksAlertsInterval\n/, '$1check_interval = 1h\n')
        .replace(/(apply Service "cluster-alerts" \{[^}]*?)retry_interval = CloudchecksAlertsInterval \/ 5\n/, '$1retry_interval = 1h\n');
      expect(conf).toContain('check_interval = 1h');
      icinga = new PrivateIcinga({
        icinga2: icinga2!,
        pluginDir: DIST,
        objects: [
          `include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`,
          conf,
          await ruleServices('icinga2'),
          `object ApiUser "cloudchecks-alerts" {\n  password = ${JSON.stringify(API_PASSWORD)}\n  permissions = [ "actions/process-check-result", "objects/query/Host", "objects/query/Service" ]\n}`,
          '__HOST__',
        ].join('\n'),
      });
      const host = `object Host "ocp-test" {
  check_command = "dummy"
  vars.cloudchecks_alerts = true
  vars.cloudchecks_alerts_alertmanager_url = ${JSON.stringify(stack.amUrl)}
  vars.cloudchecks_allow_http = true
  vars.cloudchecks_nodes_cache_dir = ${JSON.stringify(join(work, 'icinga-cache'))}
  vars.cloudchecks_icinga_user = "cloudchecks-alerts"
  vars.cloudchecks_icinga_password_file = ${JSON.stringify(apiPasswordFile)}
  vars.cloudchecks_icinga_ca_file = ${JSON.stringify(join(icinga.root, 'data', 'certs', 'ca.crt'))}
  vars.cloudchecks_icinga_url = {{ "https://127.0.0.1:" + get_object(ApiListener, "api").bind_port }}
}`;
      const options = (icinga as unknown as { options: { objects: string } }).options;
      options.objects = options.objects.replace('__HOST__', host);
      await icinga.start();
    }, 90_000);
    afterAll(() => icinga?.stop());

    const service = async (name: string) => {
      const r = (await icinga.api(
        'GET',
        `/v1/objects/services?attrs=last_check_result&attrs=last_reachable&filter=${encodeURIComponent(`host.name=="ocp-test" && service.name==${JSON.stringify(name)}`)}`,
      )) as { results: Array<{ attrs: { last_check_result: (CheckResult & { active: boolean }) | null; last_reachable: boolean } }> };
      return r.results[0]?.attrs;
    };

    it('the runner posts each rule its verdict; a rule not firing, silenced or inhibited is OK; the runner itself is OK', async () => {
      const runner = await icinga.check('ocp-test', 'cluster-alerts', 60_000);
      expect(runner.state, runner.output).toBe(0);
      expect(runner.output).toMatch(/^ALERTS OK - 1 critical, 1 warning alerts firing: NodeDown worker-2 .*, 5 rule results submitted to Icinga 2/);
      // The verdict as the runner posted it, or as the rule service's own dummy repeats a fresh
      // posted result (Icinga rechecks the children when the runner's state changes; on a loaded
      // host that can come after the post). The dummy's own text never starts ALERT_RULE.
      for (const [rule, state] of Object.entries(EXPECTED)) {
        const r = await until(
          `alert-${rule}`,
          () => service(`alert-${rule}`),
          (x) => x?.last_check_result?.active === false || /^ALERT_RULE /.test(x?.last_check_result?.output ?? ''),
        );
        expect(r!.last_check_result!.state, `${rule}: ${r!.last_check_result!.output}`).toBe(state);
        expect(r!.last_check_result!.output).toMatch(new RegExp(`^ALERT_RULE (OK|WARNING|CRITICAL) - ${rule}: `));
      }
      expect((await service('alert-NodeDown'))!.last_check_result!.output).toMatch(
        /^ALERT_RULE CRITICAL - NodeDown: 1 alert firing \(critical\): worker-2 for \d+s/,
      );
    }, 90_000);

    it('the alerts cannot be read: the runner is UNKNOWN and, once HARD, its rule services are unreachable (one problem)', async () => {
      await icinga.api('POST', '/v1/objects/hosts/ocp-test', { attrs: { 'vars.cloudchecks_alerts_alertmanager_url': 'http://127.0.0.1:9' } });
      for (let attempt = 0; attempt < 2; attempt++) {
        const runner = await icinga.check('ocp-test', 'cluster-alerts', 60_000);
        expect(runner.state, runner.output).toBe(3);
        expect(runner.output).toMatch(/^ALERTS UNKNOWN - connection refused by 127\.0\.0\.1:9/);
      }
      // Reachability is judged when the rule service is checked next (its freshness dummy): now.
      await icinga.check('ocp-test', 'alert-KubePodCrashLooping', 60_000);
      const child = await until(
        'the rule service unreachable',
        () => service('alert-KubePodCrashLooping'),
        (x) => x?.last_reachable === false,
        30_000,
      );
      expect(child!.last_reachable).toBe(false);
    }, 90_000);
  });

  (nagios4 && hasStockNagiosConfig() ? describe : describe.skip)('Nagios 4: contrib/nagios/cluster-alerts.cfg', () => {
    let nagios: PrivateNagios;

    beforeAll(async () => {
      const stock = new StockNagios(nagios4!, join(work, 'nagios'), { skipPluginConfig: /^cloudchecks/ });
      // $USER1$ as the package makes it: the plugins beside the stock ones.
      const plugins = join(work, 'plugins');
      mkdirSync(plugins);
      symlinkSync(PLUGIN, join(plugins, 'check_cluster_alerts'));
      symlinkSync('/usr/lib/nagios/plugins/check_dummy', join(plugins, 'check_dummy'));
      stock.addToConfD(join(REPO, 'contrib/nagios/commands.cfg'), 'cloudchecks.cfg');
      stock.addToConfD(join(REPO, 'contrib/nagios/cluster-alerts.cfg'), 'cloudchecks-cluster-alerts.cfg');
      writeFileSync(join(stock.etc, 'conf.d', 'cloudchecks-alert-rules-ocp-test.cfg'), await ruleServices('nagios'));
      const tokenFile = join(work, 'token');
      writeFileSync(tokenFile, 'not-needed-by-this-alertmanager\n', { mode: 0o600 });
      writeFileSync(
        join(stock.etc, 'conf.d', 'ocp-test.cfg'),
        `define host {
    use                     generic-host
    host_name               ocp-test
    check_command           return-ok
    contact_groups          admins
    max_check_attempts      3
}
define service {
    use                     cloudchecks-cluster-alerts-runner
    host_name               ocp-test
    check_command           cloudchecks_cluster_alerts_submit!${stack.amUrl}!${tokenFile}!--alertmanager-url ${stack.amUrl} --allow-http --cache-dir ${join(work, 'nagios-cache')}
    active_checks_enabled   0
}
`,
      );
      nagios = new PrivateNagios(nagios4!, stock, { USER1: plugins });
      await nagios.start();
    }, 60_000);
    afterAll(() => nagios?.stop());

    it('the runner writes each rule its verdict to the command file; the generated services take them', async () => {
      const started = Math.floor(Date.now() / 1000);
      const runner = (await nagios.checkHost('ocp-test', ['cluster-alerts'])).get('ocp-test!cluster-alerts')!;
      expect(runner.state, runner.output).toBe(0);
      expect(runner.output).toMatch(/, 5 rule results submitted to Nagios/);
      const results = await until(
        'the rule results in status.dat',
        async () => nagios.services(),
        (all) => Object.keys(EXPECTED).every((rule) => (all.get(`ocp-test!alert-${rule}`)?.lastCheck ?? 0) >= started),
        30_000,
      );
      for (const [rule, state] of Object.entries(EXPECTED)) {
        const r = results.get(`ocp-test!alert-${rule}`)!;
        expect(r.state, `${rule}: ${r.output}`).toBe(state);
        expect(r.output).toMatch(new RegExp(`^ALERT_RULE (OK|WARNING|CRITICAL) - ${rule}: `));
      }
    }, 90_000);
  });
});

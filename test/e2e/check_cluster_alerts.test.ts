// check_cluster_alerts as a monitoring engine runs it: the built dist/check_cluster_alerts against
// the simulator's Alertmanager and Thanos Querier (served on its cluster API listener) over
// HTTPS, and on the OpenShift way, through the Route alertmanager-main, which names the host
// "localhost": a CONNECT proxy sends localhost:443 to the simulator. Run `node build.mjs dist` first.
import { existsSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import type * as net from 'node:net';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_SCENARIOS, type AlertScenario } from '../../sim/cluster/alerts';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { openTunnel } from '../support/connect-tunnel';
import { parsePluginOutput } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_cluster_alerts');
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
const sims = new Map<AlertScenario, Simulator>();
let proxy: http.Server;
let proxyUrl: string;
const tunnels = new Set<net.Socket>();

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_cluster_alerts is missing: run `node build.mjs dist` first');
  const started = await Promise.all(ALERT_SCENARIOS.map((s) => startSimulatorFromArgs(['--cluster-alerts', s], [CLUSTER_MODULE])));
  ALERT_SCENARIOS.forEach((s, i) => sims.set(s, started[i]));
  // The router of the Routes: localhost:443 is the simulator of the scenario under test.
  const routed = sim('critical');
  proxy = http.createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
    if (req.url === 'localhost:443') req.url = `127.0.0.1:${new URL(routed.apis.cluster.httpsUrl).port}`;
    openTunnel(req, socket, head, (upstream) => tunnels.add(upstream));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
});
afterEach(() => {
  for (const s of sims.values()) s.apis.cluster.faults.set([]);
});
afterAll(async () => {
  for (const s of tunnels) s.destroy();
  await new Promise((r) => proxy?.close(r));
  await Promise.all([...sims.values()].map((s) => s.close()));
});

const sim = (s: AlertScenario) => sims.get(s)!;
const cluster = (s: AlertScenario, token = sim(s).apis.cluster.info.tokenFile) => [
  '--url',
  sim(s).apis.cluster.httpsUrl,
  '--ca-file',
  sim(s).caFile,
  '--token-file',
  token,
];
const am = (s: AlertScenario, extra: string[] = []) => [...cluster(s), '--alertmanager-url', sim(s).apis.cluster.httpsUrl, ...extra];
const prom = (s: AlertScenario, extra: string[] = []) => [...cluster(s), '--prometheus-url', sim(s).apis.cluster.httpsUrl, ...extra];
const run = (argv: string[], env: NodeJS.ProcessEnv = ENV): Promise<RunResult> => runExecutable(PLUGIN, argv, { env });
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];
const SINCE = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

describe('scenarios over HTTPS: exit code, first line, strict perfdata', () => {
  it('healthy (Watchdog firing, one info alert): OK; -v lists the info alert', async () => {
    const r = await run(am('healthy', ['-v']));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toMatch(
      /^ALERTS OK - no critical or warning alert firing \(1 other alert\) \[2 alerts read from --alertmanager-url https:\/\/127\.0\.0\.1:\d+\/\]/,
    );
    expect(parsePluginOutput(r.stdout).perfdata.map((m) => [m.label, m.value])).toEqual([
      ['alerts_critical', 0],
      ['alerts_warning', 0],
      ['alerts_info', 1],
      ['alerts_suppressed', 0],
    ]);
    expect(r.stdout).toContain('[OK] ClusterMonitoringOperatorDeprecatedConfig openshift-monitoring (info, firing for 6d');
    expect(r.stderr).toBe('');
  });

  it('a critical platform alert: CRITICAL, the worst first with its object and since when; the same from Thanos Querier', async () => {
    for (const args of [am('critical'), prom('critical')]) {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(firstLine(r)).toMatch(
        new RegExp(
          `^ALERTS CRITICAL - 1 critical, 1 warning alerts firing: etcdMembersDown openshift-etcd for 25m \\(since ${SINCE}\\), KubePodCrashLooping openshift-ingress/router-default-5d8f7c9b4-x2kqp for 2h \\(since ${SINCE}\\) \\| alerts_critical=1;;;0 alerts_warning=1;;;0 alerts_info=1;;;0 alerts_suppressed=0;;;0$`,
        ),
      );
    }
    const young = await run(prom('critical', ['--min-active', '1h']));
    expect(young.code).toBe(1);
    const excluded = await run(am('critical', ['--exclude', 'alertname=~"etcd.*"', '--exclude', 'namespace="openshift-ingress"']));
    expect(excluded.code).toBe(0);
    const mapped = await run(am('critical', ['--severity-map', 'critical=WARNING']));
    expect(mapped.code).toBe(1);
  });

  it('silenced and inhibited: counted, never judged (Alertmanager); Prometheus knows no silences', async () => {
    const r = await run(am('silenced'));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toMatch(/^ALERTS OK - no critical or warning alert firing, 1 silenced, 1 inhibited \| .* alerts_suppressed=2;;;0$/);
    expect((await run(prom('silenced'))).code).toBe(2);
  });

  it("a tenant namespace's alert: not the platform's by default; --all-alerts counts it", async () => {
    const r = await run(am('tenant', ['-v']));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toContain("1 tenant alert left out (user workload or namespaces outside the platform's, --all-alerts counts them)");
    const all = await run(am('tenant', ['--all-alerts']));
    expect(all.code).toBe(2);
    expect(firstLine(all)).toMatch(/^ALERTS CRITICAL - 1 critical alert firing: ShopCheckoutErrors shop-prod\/checkout for 15m/);
  });

  it('the Watchdog missing: CRITICAL, the pipeline is broken; --no-watchdog: the alerts alone', async () => {
    const r = await run(am('no-watchdog'));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(/^ALERTS CRITICAL - no Watchdog alert firing: the alerting pipeline is broken, 1 warning alert firing: KubePodCrashLooping/);
    expect(r.stdout.split('\n')[1]).toMatch(/^\[CRITICAL\] Watchdog is not firing at --alertmanager-url/);
    expect((await run(am('no-watchdog', ['--no-watchdog']))).code).toBe(1);
  });
});

describe('alert text is inert', () => {
  it('labels and a summary that try to break the status line, perfdata, long output and a shell stay one line each', async () => {
    const evil = [
      { labels: { alertname: 'Watchdog', severity: 'none' }, status: { state: 'active' } },
      {
        labels: { alertname: 'Evil|x=1\n ALERTS OK', namespace: 'kube-x', pod: 'p;$(touch /tmp/cloudchecks-injected)\u2028[OK] forged', severity: 'critical' },
        annotations: { summary: `${'\u001b[2J'.repeat(20)}${'long '.repeat(100_000)}` },
        status: { state: 'active' },
      },
    ];
    sim('healthy').apis.cluster.faults.set([{ path: '/api/v2/alerts$', kind: 'body', contentType: 'application/json', body: JSON.stringify(evil) }]);
    const r = await run(am('healthy'));
    expect(r.code).toBe(2);
    const lines = r.stdout.replace(/\n$/, '').split('\n');
    expect(lines[0]).toBe(
      'ALERTS CRITICAL - 1 critical alert firing: Evil/x=1 ALERTS OK kube-x/p, $(touch /tmp/cloudchecks-injected) [OK] forged | alerts_critical=1;;;0 alerts_warning=0;;;0 alerts_info=0;;;0 alerts_suppressed=0;;;0',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^\[CRITICAL\] Evil\/x=1 ALERTS OK .*long long/);
    expect(lines[1].length).toBeLessThanOrEqual(420);
    expect(r.stdout).not.toMatch(/\u001b|\u2028/);
    expect(existsSync('/tmp/cloudchecks-injected')).toBe(false);
  });
});

describe('secrets', () => {
  it('the token appears nowhere at any verbosity, through the Route and straight, nor on a refusal', async () => {
    const token = readFileSync(sim('critical').apis.cluster.info.tokenFile, 'utf8').trim();
    const proxied = { ...ENV, HTTPS_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' };
    for (const [args, env] of [
      [[...cluster('critical'), '-vvv'], proxied],
      [am('critical', ['-vvv']), ENV],
      [am('critical', ['-vvv', '--submit', 'nagios', '--submit-host', 'h', '--nagios-command-file', '/nonexistent/nagios.cmd']), ENV],
    ] as const) {
      const r = await run([...args], env);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(token);
      expect(r.stderr).toMatch(/authorization: <redacted>/);
    }
  });
});

describe('OpenShift: the Route of the monitoring stack', () => {
  it('with only the cluster options it finds the Route alertmanager-main and says so', async () => {
    const r = await run([...cluster('critical'), '-v'], { ...ENV, HTTPS_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' });
    expect(r.code).toBe(2);
    expect(firstLine(r)).toContain('alerts read from Route openshift-monitoring/alertmanager-main (https://localhost)');
    expect(r.stdout).toContain('[OK] alerts read from Route openshift-monitoring/alertmanager-main (https://localhost)');
  });

  it("an account without the role: one UNKNOWN naming OpenShift's role", async () => {
    const r = await run(am('critical', []).map((a, i, all) => (all[i - 1] === '--token-file' ? sim('critical').apis.cluster.info.noReaderTokenFile : a)));
    expect(r.code).toBe(3);
    expect(firstLine(r)).toMatch(/^ALERTS UNKNOWN - HTTP 403 from .*\/api\/v2\/alerts: the account may not read alerts \(server says: Forbidden/);
    expect(r.stdout).not.toContain(readFileSync(sim('critical').apis.cluster.info.tokenFile, 'utf8').trim());
  });
});

describe('per-rule services', () => {
  it("--discovery: Zabbix LLD of the rules from /api/v1/rules (Watchdog is the check's own)", async () => {
    const r = await run(prom('healthy', ['--discovery']));
    expect(r.code).toBe(0);
    const rules = (JSON.parse(r.stdout) as Record<string, string>[]).map((x) => x['{#ALERTNAME}']);
    expect(rules).toContain('TargetDown');
    expect(rules).not.toContain('Watchdog');
  });

  it('--discovery-format icinga2 and nagios: one passive service per rule on --submit-host', async () => {
    const icinga = await run(am('critical', ['--discovery', '--discovery-format', 'icinga2', '--submit-host', 'ocp-prod']));
    expect(icinga.stdout).toContain('object Service "alert-etcdMembersDown" {\n\timport "cloudchecks-cluster-alert-rule"\n\thost_name = "ocp-prod"');
    const nagios = await run(am('critical', ['--discovery', '--discovery-format', 'nagios', '--submit-host', 'ocp-prod']));
    expect(nagios.stdout).toContain(
      'define service {\n    use                  cloudchecks-cluster-alert-rule\n    host_name            ocp-prod\n    service_description  alert-KubePodCrashLooping\n}',
    );
    // A failure writes nothing the engine would load: its line goes to stderr.
    const missing = await run(am('critical', ['--discovery', '--discovery-format', 'nagios']));
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('needs --submit-host');
  });

  it('--output json: one object for the Zabbix master item, every alert an item', async () => {
    const r = await run(am('critical', ['--output', 'json']));
    const doc = JSON.parse(r.stdout) as { state: string; items: { name: string; state: string }[]; metrics: { label: string; value: number }[] };
    expect(doc.state).toBe('CRITICAL');
    expect(doc.items.map((i) => i.name)).toContain('KubePodCrashLooping openshift-ingress/router-default-5d8f7c9b4-x2kqp');
    expect(doc.metrics.find((m) => m.label === 'alerts_critical')?.value).toBe(1);
  });
});

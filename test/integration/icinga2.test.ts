// The shipped contrib/icinga2/commands.conf, run by a real Icinga 2 daemon against the
// simulator: Icinga builds each command line from the custom variables, runs the built
// plugin, computes the state, and parses every perfdata item (its GraphiteWriter sends one
// line per value it could parse and logs "Ignoring invalid perfdata" for any it could not).
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCarbon, PrivateCarbon } from './support/carbon';
import { announceSkip, findExecutable } from './support/engines';
import { documentedSteps, shimCalls } from './support/documented-steps';
import { hasStockIcingaConfig, PrivateIcinga, sleep, StockIcinga, validateConfig, type CheckResult } from './support/icinga2';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';
import { openTunnel } from '../support/connect-tunnel';

const icinga2 = findExecutable('icinga2');
if (!icinga2) announceSkip('icinga2', 'icinga2-bin icinga2-common');
const suite = icinga2 ? describe : describe.skip;
/** Debian's graphite-carbon: where installed, Icinga's GraphiteWriter also feeds a real carbon-cache. */
const carbonCache = findCarbon();
if (icinga2 && !carbonCache) {
  const bar = '!'.repeat(78);
  console.warn(
    `\n${bar}\nSKIPPED: the graph templates were not checked against a real Graphite: carbon-cache (graphite-carbon) is not installed.\n` +
      "Install with: apt-get install --no-install-recommends graphite-carbon (or run 'make integration-deps CLOUDCHECKS_INSTALL_DEPS=1' as root).\n" +
      `${bar}\n`,
  );
}

const COMMANDS = join(REPO, 'contrib/icinga2/commands.conf');
const EXAMPLES = join(REPO, 'contrib/icinga2/example-services.conf');

/** A service of the test config and what Icinga must make of it. */
interface Case {
  host: 'healthy' | 'sick';
  service: string;
  command: string;
  vars: Record<string, string | number | boolean | string[] | null>;
  state: number;
  firstLine: RegExp;
  /** Options the command line Icinga built must hold (built from the vars). */
  argv: string[];
  /** Options it must not hold (an empty custom variable leaves its option out). */
  absent?: string[];
}

function icingaValue(v: string | number | boolean | string[] | null): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[ ${v.map((x) => JSON.stringify(x)).join(', ')} ]`;
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

suite('Icinga 2 runs the plugins through contrib/icinga2/commands.conf', () => {
  const healthy = new BuiltSimulator(['--cluster-scenario', 'healthy', '--vcd-scenario', 'healthy']);
  const sick = new BuiltSimulator(['--cluster-scenario', 'sick', '--vcd-scenario', 'default']);
  let icinga: PrivateIcinga;
  let carbon: PrivateCarbon | undefined;
  let cases: Case[] = [];
  const results = new Map<string, CheckResult>();
  // The proxy of vars.cloudchecks_proxy: a CONNECT proxy on 127.0.0.1 that records where each tunnel went.
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const proxy = http.createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, socket: net.Socket, head) => {
    tunnels.push(req.url ?? '');
    sockets.add(socket);
    openTunnel(req, socket, head, (upstream) => sockets.add(upstream));
  });

  beforeAll(async () => {
    assertBuilt();
    // The daemon's own environment has no proxy: the one of the custom variable is the only one.
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy']) delete process.env[name];
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    await Promise.all([healthy.start(), sick.start()]);
    const vms = { healthy: healthy.vms(), sick: sick.vms() };
    const token = readFileSync(healthy.ready.apis.cluster.tokenFile, 'utf8').trim();
    cases = [
      {
        host: 'healthy',
        service: 'nodes',
        command: 'cloudchecks-nodes',
        vars: {},
        state: 0,
        firstLine: /^NODES OK - 6 of 6 nodes healthy/,
        argv: ['--url', '--token-file', '--ca-file'],
      },
      {
        host: 'sick',
        service: 'nodes',
        command: 'cloudchecks-nodes',
        vars: {},
        state: 2,
        firstLine: /^NODES CRITICAL - 4 of 10 nodes failing: worker-2\.prod-eu1\.example\.com /,
        argv: ['--url'],
      },
      {
        host: 'sick',
        service: 'nodes-percent',
        command: 'cloudchecks-nodes',
        vars: { cloudchecks_nodes_percent: true, cloudchecks_nodes_warning: '10', cloudchecks_nodes_critical: '50', cloudchecks_nodes_ignore_cordoned: true },
        state: 1,
        firstLine: /^NODES WARNING - /,
        argv: ['--percent', '--warning', '10', '--critical', '50', '--ignore-cordoned'],
      },
      {
        // Arrays become repeated options; the selection leaves two failing nodes, made healthy by
        // ignoring their conditions. A $ in a custom variable is written $$ (Icinga macro syntax).
        host: 'sick',
        service: 'nodes-selected',
        command: 'cloudchecks-nodes',
        vars: {
          cloudchecks_nodes_include: '^worker-[45]$$',
          cloudchecks_nodes_ignore_condition: ['KernelDeadlock', 'DiskPressure'],
          cloudchecks_nodes_min_nodes: 2,
        },
        state: 0,
        firstLine: /^NODES OK - 2 of 2 nodes healthy/,
        argv: ['--include', '^worker-[45]$', '--ignore-condition', 'KernelDeadlock', '--ignore-condition', 'DiskPressure', '--min-nodes', '2'],
      },
      {
        // The token through the environment, not the command line.
        host: 'healthy',
        service: 'nodes-env-token',
        command: 'cloudchecks-nodes',
        vars: { cloudchecks_nodes_token_file: null, cloudchecks_nodes_token: token },
        state: 0,
        firstLine: /^NODES OK - 6 of 6 nodes healthy/,
        argv: ['--url'],
      },
      {
        // Empty custom variables (a template's "" or a service blanking a host's value) leave
        // their options out instead of passing `--timeout ''`; a 0 is a value, not empty.
        host: 'healthy',
        service: 'nodes-empty-vars',
        command: 'cloudchecks-nodes',
        vars: {
          cloudchecks_timeout: '',
          cloudchecks_extra_opts: '',
          cloudchecks_max_bytes: '',
          cloudchecks_nodes_selector: '',
          cloudchecks_nodes_include: '',
          cloudchecks_nodes_node: '',
          cloudchecks_nodes_warning: '',
          cloudchecks_nodes_critical: '',
          cloudchecks_nodes_min_nodes: 0,
        },
        state: 0,
        firstLine: /^NODES OK - 6 of 6 nodes healthy/,
        argv: ['--url', '--min-nodes', '0'],
        absent: ['--timeout', '--extra-opts', '--max-bytes', '--selector', '--include', '--node', '--warning', '--critical', ''],
      },
      {
        host: 'healthy',
        service: 'mem-empty-vars',
        command: 'cloudchecks-vm-mem',
        vars: {
          cloudchecks_vm: vms.healthy.healthy,
          cloudchecks_timeout: '',
          cloudchecks_extra_opts: null,
          cloudchecks_vm_window: '',
          cloudchecks_vm_aggregate: '',
          cloudchecks_vm_max_age: '',
          cloudchecks_vm_mem_warning: '',
          cloudchecks_vm_mem_critical: '',
          cloudchecks_vm_powered_off_state: '',
          cloudchecks_vcd_api_version: '',
        },
        state: 0,
        firstLine: /^VM_MEM OK - memory usage [\d.]+% \(current\)/,
        argv: ['--vm', '--ca-file'],
        absent: ['--timeout', '--extra-opts', '--window', '--aggregate', '--max-age', '--warning', '--critical', '--powered-off-state', '--api-version', ''],
      },
      {
        host: 'healthy',
        service: 'cluster-monitoring',
        command: 'cloudchecks-cluster-monitoring',
        vars: { cloudchecks_monitoring_expect_user_workload: true, cloudchecks_monitoring_warning: '' },
        state: 0,
        firstLine: /^MONITORING OK - ClusterOperator monitoring 4\.14\.12 available, 28 of 28 pods ready, workload monitoring on/,
        argv: ['--url', '--token-file', '--ca-file', '--expect-user-workload'],
        absent: ['--warning', '--monitoring-namespace'],
      },
      {
        // A number in a variable is passed too (0 is not "empty").
        host: 'sick',
        service: 'cluster-monitoring',
        command: 'cloudchecks-cluster-monitoring',
        vars: { cloudchecks_monitoring_warning: 0, cloudchecks_monitoring_critical: '5', cloudchecks_monitoring_namespace: 'openshift-monitoring' },
        state: 2,
        firstLine: /^MONITORING CRITICAL - ClusterOperator monitoring 4\.14\.12 Degraded=True \(UpdatingPrometheusK8SFailed\)/,
        argv: ['--warning', '0', '--critical', '5', '--monitoring-namespace', 'openshift-monitoring'],
      },
      {
        host: 'healthy',
        service: 'cluster-operators',
        command: 'cloudchecks-cluster-operators',
        vars: { cloudchecks_operators_grace: '' },
        state: 0,
        firstLine: /^OPERATORS OK - 33 of 33 operators available, none degraded, version 4\.16\.27 \(stable-4\.16\)/,
        argv: ['--url', '--token-file', '--ca-file'],
        absent: ['--grace', '--operator', '--ignore'],
      },
      {
        // An array of names becomes repeated --ignore; within --grace etcd is only WARNING.
        host: 'sick',
        service: 'cluster-operators',
        command: 'cloudchecks-cluster-operators',
        vars: { cloudchecks_operators_grace: '3h', cloudchecks_operators_progressing_grace: '4h', cloudchecks_operators_ignore: ['ingress', 'insights'] },
        state: 1,
        firstLine: /^OPERATORS WARNING - 1 of 31 operators failing: etcd Degraded=True for 2h .*\(within --grace\)/,
        argv: ['--grace', '3h', '--progressing-grace', '4h', '--ignore', 'ingress', '--ignore', 'insights'],
      },
      {
        host: 'sick',
        service: 'operator-etcd',
        command: 'cloudchecks-cluster-operators',
        vars: { cloudchecks_operators_operator: 'etcd' },
        state: 2,
        firstLine: /^OPERATORS CRITICAL - 1 of 1 operator failing: etcd Degraded=True for 2h /,
        argv: ['--operator', 'etcd'],
      },
      {
        host: 'sick',
        service: 'apiserver',
        command: 'cloudchecks-apiserver',
        vars: { cloudchecks_apiserver_warning: '5', cloudchecks_apiserver_critical: '' },
        state: 2,
        firstLine: /^APISERVER CRITICAL - API server v1\.27\.10\+28ed2d7: readyz failed: etcd \(reason withheld\)/,
        argv: ['--url', '--token-file', '--ca-file', '--warning', '5'],
        absent: ['--critical'],
      },
      {
        host: 'sick',
        service: 'cluster-certs',
        command: 'cloudchecks-cluster-certs',
        vars: { cloudchecks_certs_csr_grace: '2h', cloudchecks_certs_skip_csrs: false, cloudchecks_certs_warning: '' },
        state: 1,
        firstLine: /^CERTS WARNING - nearest expiry: .*2 kubelet CSRs pending over 2h: csr-n2x7k/,
        argv: ['--csr-grace', '2h'],
        absent: ['--skip-csrs', '--warning'],
      },
      {
        host: 'sick',
        service: 'nodes-control-plane',
        command: 'cloudchecks-nodes',
        vars: { cloudchecks_nodes_pods: true, cloudchecks_nodes_version_skew: true, cloudchecks_nodes_critical: '10', cloudchecks_nodes_warning: '10' },
        state: 2,
        firstLine: /near the pod limit: worker-4\.prod-eu1\.example\.com 240\/250 pods \(96%\).*kubelet v1\.24\.17\+3f4e5a8 is 3 minors behind/,
        argv: ['--pods', '--version-skew'],
        absent: ['--max-skew', '--pods-warning'],
      },
      {
        // The failing nodes' VMs in Cloud Director: the sick cluster's nodes have no vCD
        // providerID and no VM of their names, and a third is beyond --vcd-max-nodes.
        host: 'sick',
        service: 'nodes-vcd',
        command: 'cloudchecks-nodes',
        vars: {
          cloudchecks_nodes_vcd_url: sick.ready.apis.vcd.httpsUrl,
          cloudchecks_nodes_vcd_user: sick.ready.apis.vcd.user,
          cloudchecks_nodes_vcd_org: sick.ready.apis.vcd.org,
          cloudchecks_nodes_vcd_password_file: sick.ready.apis.vcd.passwordFile,
          cloudchecks_nodes_vcd_ca_file: sick.ready.caFile,
          cloudchecks_nodes_vcd_max_nodes: 3,
        },
        state: 2,
        firstLine: /^NODES CRITICAL - 4 of 10 nodes failing: .*VMs: worker-2\.prod-eu1\.example\.com no VM found.*1 failing node not looked up in vCD/,
        argv: ['--vcd-url', '--vcd-user', '--vcd-org', '--vcd-password-file', '--vcd-ca-file', '--vcd-max-nodes', '3'],
        absent: ['--vcd-extra-opts', '--vcd-vapp'],
      },
      // Through the host's (or service's) proxy: the plugin's HTTPS_PROXY, not an option.
      {
        host: 'healthy',
        service: 'nodes-proxy',
        command: 'cloudchecks-nodes',
        vars: { cloudchecks_proxy: proxyUrl },
        state: 0,
        firstLine: /^NODES OK - 6 of 6 nodes healthy/,
        argv: ['--url'],
        absent: [proxyUrl],
      },
      {
        host: 'healthy',
        service: 'cpu',
        command: 'cloudchecks-vm-cpu',
        vars: { cloudchecks_vm: vms.healthy.healthy },
        state: 0,
        firstLine: /^VM_CPU OK - cpu usage [\d.]+% \(current\)/,
        argv: ['--url', '--user', '--org', '--password-file', '--vm', '--cache-dir'],
      },
      {
        host: 'healthy',
        service: 'cpu-window',
        command: 'cloudchecks-vm-cpu',
        vars: { cloudchecks_vm: vms.healthy.healthy, cloudchecks_vm_window: '1h', cloudchecks_vm_aggregate: 'max' },
        state: 0,
        firstLine: /^VM_CPU OK - cpu usage [\d.]+% \(max 1h\)/,
        argv: ['--window', '1h', '--aggregate', 'max'],
      },
      {
        host: 'healthy',
        service: 'vdc',
        command: 'cloudchecks-vdc',
        vars: { cloudchecks_vdc: 'acme-prod' },
        state: 0,
        firstLine: /^VDC OK - acme-prod: cpu 42% \(8400 MHz of 20000 MHz\)/,
        argv: ['--url', '--user', '--org', '--password-file', '--cache-dir', '--vdc', 'acme-prod'],
      },
      {
        host: 'sick',
        service: 'vdc-all',
        command: 'cloudchecks-vdc',
        vars: { cloudchecks_vdc_memory_warning: '90', cloudchecks_vdc_critical: '95' },
        state: 2,
        firstLine: /^VDC CRITICAL - 5 VDCs: acme-archive disabled, acme-dev 1 VM failed: staging-15 \(FAILED_CREATION\)/,
        argv: ['--memory-warning', '90', '--critical', '95'],
        absent: ['--vdc'],
      },
      {
        host: 'sick',
        service: 'cpu-busy',
        command: 'cloudchecks-vm-cpu',
        vars: { cloudchecks_vm: vms.sick.busy },
        state: 1,
        firstLine: /^VM_CPU WARNING - cpu usage/,
        argv: ['--vm', vms.sick.busy],
      },
      {
        host: 'sick',
        service: 'cpu-busy-mhz',
        command: 'cloudchecks-vm-cpu',
        vars: { cloudchecks_vm: vms.sick.busy, cloudchecks_vm_cpu_metric: 'mhz', cloudchecks_vm_cpu_warning: '100000', cloudchecks_vm_cpu_critical: '200000' },
        state: 0,
        firstLine: /^VM_CPU OK - /,
        argv: ['--metric', 'mhz', '--warning', '100000'],
      },
      {
        host: 'healthy',
        service: 'disk',
        command: 'cloudchecks-vm-disk',
        vars: { cloudchecks_vm: vms.healthy.healthy },
        state: 0,
        firstLine: /^VM_DISK OK - disk used/,
        argv: ['--vm'],
      },
      {
        host: 'sick',
        service: 'disk-full',
        command: 'cloudchecks-vm-disk',
        vars: { cloudchecks_vm: vms.sick['full-disk'] },
        state: 2,
        firstLine: /^VM_DISK CRITICAL - disk used 9\d/,
        argv: ['--vm'],
      },
      {
        host: 'sick',
        service: 'disk-used-bytes',
        command: 'cloudchecks-vm-disk',
        vars: {
          cloudchecks_vm: vms.sick['full-disk'],
          cloudchecks_vm_disk_metric: 'used',
          cloudchecks_vm_disk_warning: '400G',
          cloudchecks_vm_disk_critical: '490G',
        },
        state: 1,
        firstLine: /^VM_DISK WARNING - /,
        argv: ['--metric', 'used', '--warning', '400G', '--critical', '490G'],
      },
      {
        host: 'sick',
        service: 'snapshot-old',
        command: 'cloudchecks-vm-snapshot',
        vars: { cloudchecks_vm: vms.sick['full-disk'] },
        state: 2,
        firstLine: /^VM_SNAPSHOT CRITICAL - 1 snapshot on vm-[0-9a-f-]+, oldest 10d( \d+h)? old /,
        argv: ['--vm'],
      },
      {
        host: 'sick',
        service: 'tools-outdated',
        command: 'cloudchecks-vm-tools',
        vars: { cloudchecks_vm: vms.sick.busy, cloudchecks_vm_tools_outdated_state: 'CRITICAL' },
        state: 2,
        firstLine: /^VM_TOOLS CRITICAL - VMware Tools running but out of date/,
        argv: ['--outdated-state', 'CRITICAL'],
      },
      {
        host: 'sick',
        service: 'lease-soon',
        command: 'cloudchecks-vm-lease',
        vars: { cloudchecks_vm: vms.sick.busy, cloudchecks_vm_lease_warning: '14d' },
        state: 2,
        firstLine: /^VM_LEASE CRITICAL - runtime lease expires in 1d/,
        argv: ['--warning', '14d'],
      },
      {
        host: 'healthy',
        service: 'mem',
        command: 'cloudchecks-vm-mem',
        vars: { cloudchecks_vm: vms.healthy.healthy },
        state: 0,
        firstLine: /^VM_MEM OK - memory usage/,
        argv: ['--vm'],
      },
      {
        host: 'healthy',
        service: 'mem-window',
        command: 'cloudchecks-vm-mem',
        vars: { cloudchecks_vm: vms.healthy.healthy, cloudchecks_vm_window: '1h' },
        state: 0,
        firstLine: /^VM_MEM OK - memory usage [\d.]+% \(avg 1h\)/,
        argv: ['--window', '1h'],
      },
      {
        host: 'sick',
        service: 'mem-off',
        command: 'cloudchecks-vm-mem',
        vars: { cloudchecks_vm: vms.sick['powered-off'], cloudchecks_vm_powered_off_state: 'CRITICAL' },
        state: 2,
        firstLine: /^VM_MEM CRITICAL - .*powered off/,
        argv: ['--powered-off-state', 'CRITICAL'],
      },
      {
        // The password through the environment; and an API token file instead of a password.
        host: 'healthy',
        service: 'mem-env-password',
        command: 'cloudchecks-vm-mem',
        vars: {
          cloudchecks_vm: vms.healthy.healthy,
          cloudchecks_vcd_password_file: null,
          cloudchecks_vcd_password: readFileSync(healthy.ready.apis.vcd.passwordFile, 'utf8').trim(),
          cloudchecks_vcd_no_cache: true,
        },
        state: 0,
        firstLine: /^VM_MEM OK - /,
        argv: ['--no-cache'],
      },
      {
        host: 'healthy',
        service: 'mem-api-token',
        command: 'cloudchecks-vm-mem',
        vars: { cloudchecks_vm: vms.healthy.healthy, cloudchecks_vcd_password_file: null, cloudchecks_vcd_api_token_file: healthy.ready.apis.vcd.apiTokenFile },
        state: 0,
        firstLine: /^VM_MEM OK - /,
        argv: ['--api-token-file'],
      },
    ];

    const cacheDir = mkdtempSync(join(tmpdir(), 'cc-int-cache-'));
    const hostConfig = (name: 'healthy' | 'sick', sim: BuiltSimulator) => `
object Host "sim-${name}" {
  check_command = "dummy"
  enable_active_checks = false
  vars.cloudchecks_ca_file = ${JSON.stringify(sim.ready.caFile)}
  vars.cloudchecks_timeout = "20"
  vars.cloudchecks_nodes_url = ${JSON.stringify(sim.ready.apis.cluster.httpsUrl)}
  vars.cloudchecks_nodes_token_file = ${JSON.stringify(sim.ready.apis.cluster.tokenFile)}
  vars.cloudchecks_vcd_url = ${JSON.stringify(sim.ready.apis.vcd.httpsUrl)}
  vars.cloudchecks_vcd_user = ${JSON.stringify(sim.ready.apis.vcd.user)}
  vars.cloudchecks_vcd_org = ${JSON.stringify(sim.ready.apis.vcd.org)}
  vars.cloudchecks_vcd_password_file = ${JSON.stringify(sim.ready.apis.vcd.passwordFile)}
  vars.cloudchecks_vcd_cache_dir = ${JSON.stringify(cacheDir)}
}`;
    const services = cases
      .map(
        (c) => `
object Service ${JSON.stringify(c.service)} {
  host_name = "sim-${c.host}"
  check_command = ${JSON.stringify(c.command)}
  enable_active_checks = false
  check_interval = 1h
${Object.entries(c.vars)
  .map(([k, v]) => `  vars.${k} = ${icingaValue(v)}`)
  .join('\n')}
}`,
      )
      .join('\n');
    if (carbonCache) {
      carbon = new PrivateCarbon(carbonCache);
      await carbon.start();
    }
    icinga = new PrivateIcinga({
      icinga2: icinga2!,
      pluginDir: DIST,
      objects: [
        `include ${JSON.stringify(COMMANDS)}`,
        // A second GraphiteWriter, to a real carbon-cache: the paths Graphite stores.
        carbon ? `object GraphiteWriter "carbon" { host = "127.0.0.1"; port = ${carbon.port} }` : '',
        hostConfig('healthy', healthy),
        hostConfig('sick', sick),
        services,
        // The control: perfdata Icinga must reject, so that the check for its warning means something.
        'object CheckCommand "perfdata-control" { command = [ "/bin/echo", "CONTROL OK - fine | good=1;2;3;0;4 bad=@1:2" ] }',
        'object Service "perfdata-control" { host_name = "sim-healthy"; check_command = "perfdata-control"; enable_active_checks = false }',
      ].join('\n'),
    });
    await icinga.start();
  }, 90_000);

  afterAll(async () => {
    await icinga?.stop();
    await carbon?.stop();
    await Promise.all([healthy.stop(), sick.stop()]);
    for (const s of sockets) s.destroy();
    await new Promise((r) => proxy.close(r));
  });

  it('validates commands.conf with example-services.conf (icinga2 daemon -C)', () => {
    const r = validateConfig(
      icinga2!,
      [
        'const NodeName = "cloudchecks-test"',
        'const ZoneName = NodeName',
        `const PluginDir = ${JSON.stringify(DIST)}`,
        'include <itl>',
        `include ${JSON.stringify(COMMANDS)}`,
        `include ${JSON.stringify(EXAMPLES)}`,
        '',
      ].join('\n'),
    );
    expect(r.output).toMatch(/Finished validating the configuration file/);
    expect(r.output).not.toMatch(/warning\/|critical\//);
    expect(r.code).toBe(0);
  });

  it('computes the expected state for every plugin and mode', async () => {
    // One at a time: each case's result, command line and perfdata is checked below.
    for (const c of cases) {
      const r = await icinga.check(`sim-${c.host}`, c.service);
      results.set(`${c.host}!${c.service}`, r);
      expect.soft(r.output, `${c.host}!${c.service}`).toMatch(c.firstLine);
      expect
        .soft({ service: `${c.host}!${c.service}`, state: r.state, exit: r.exit_status })
        .toEqual({ service: `${c.host}!${c.service}`, state: c.state, exit: c.state });
      const argv = r.command.slice(1);
      for (const a of c.argv) expect.soft(argv, `${c.host}!${c.service} command line`).toContain(a);
      for (const a of c.absent ?? []) expect.soft(argv, `${c.host}!${c.service} command line`).not.toContain(a);
      expect.soft(r.command[0]).toBe(join(DIST, c.command.replace('cloudchecks-', 'check_').replace(/-/g, '_')));
    }
  }, 120_000);

  it('sends the checks of cloudchecks_proxy, and only those, through that proxy', () => {
    expect(results.get('healthy!nodes-proxy')?.state).toBe(0);
    expect(tunnels).toEqual([new URL(healthy.ready.apis.cluster.httpsUrl).host]);
  });

  it('never puts a secret on the command line', () => {
    const secrets = [readFileSync(healthy.ready.apis.cluster.tokenFile, 'utf8').trim(), readFileSync(healthy.ready.apis.vcd.passwordFile, 'utf8').trim()];
    for (const r of results.values()) for (const s of secrets) expect(r.command.join(' ')).not.toContain(s);
  });

  it('parses every perfdata item of every plugin (GraphiteWriter got each one, no "Ignoring invalid perfdata")', async () => {
    expect(results.size).toBe(cases.length);
    await icinga.check('sim-healthy', 'perfdata-control');
    const expected = new Map<string, string[]>();
    for (const c of cases) {
      const r = results.get(`${c.host}!${c.service}`)!;
      // A powered-off VM's memory and VMware Tools (a state, no figure) have no perfdata.
      if (!['mem-off', 'tools-outdated'].includes(c.service)) expect(r.performance_data.length, `${c.host}!${c.service} has perfdata`).toBeGreaterThan(0);
      expected.set(
        `${c.host}!${c.service}`,
        r.performance_data.map((p) => p.replace(/^'?([^'=]+)'?=.*$/, '$1')),
      );
    }
    // The writer sends, and Icinga logs, asynchronously: wait (bounded) for the control's line, sent
    // last, and for the warning on its bad item (the log comes through a pipe of its own, and came
    // after the line in a loaded run).
    const controlDone = () =>
      icinga.perfdataSent('sim-healthy', 'perfdata-control').has('perfdata-control.perfdata.good.value') &&
      /Ignoring invalid perfdata.*'sim-healthy!perfdata-control'/.test(icinga.log);
    const deadline = Date.now() + 20_000;
    while (!controlDone() && Date.now() < deadline) await sleep(200);
    for (const c of cases) {
      const sent = icinga.perfdataSent(`sim-${c.host}`, c.service);
      for (const label of expected.get(`${c.host}!${c.service}`)!) {
        expect.soft(sent.has(`${c.command}.perfdata.${label}.value`), `${c.host}!${c.service}: ${label} reached the GraphiteWriter`).toBe(true);
      }
    }
    const invalid = icinga.log.split('\n').filter((l) => /Ignoring invalid perfdata/.test(l));
    // The control proves the warning is logged when perfdata is bad; nothing else may be.
    expect(invalid.some((l) => l.includes("'sim-healthy!perfdata-control'"))).toBe(true);
    expect(invalid.filter((l) => !l.includes('perfdata-control'))).toEqual([]);
  }, 60_000);

  // The pictures (scripts/icinga-graphs.mjs) against what Icinga's own writers made of the same
  // results: each graphite module curve a path the GraphiteWriter sent, each Grafana query a
  // series the Influxdb2Writer wrote, for every check command this suite runs (the fleet, the
  // provider VDCs and check_vcd have theirs checked against the plugins in
  // test/e2e/icinga-graphs.test.ts).
  it("draws from what Icinga's writers send: every graphite template curve a path the GraphiteWriter sent (and carbon stored), every Grafana query a series the Influxdb2Writer wrote", async () => {
    const commands = [...new Set(cases.map((c) => c.command))];
    const ini = readFileSync(join(REPO, 'contrib/icinga2/graphite/cloudchecks.ini'), 'utf8');
    const influxSeries = () =>
      icinga.influx.lines.map((line) => {
        const [head, fields] = line.split(/(?<!\\) /);
        const [measurement, ...tags] = head.split(/(?<!\\),/);
        const tag = Object.fromEntries(tags.map((t) => t.split(/(?<!\\)=/) as [string, string]));
        return { measurement, metric: tag.metric, hasValue: /(^|,)value=/.test(fields) };
      });
    const deadline = Date.now() + 20_000;
    // The writer flushes each second: wait (bounded) for a line of every command that printed perfdata.
    const withPerfdata = commands.filter((command) => cases.some((c) => c.command === command && icinga.perfdataSent(`sim-${c.host}`, c.service).size > 0));
    while (withPerfdata.some((c) => !influxSeries().some((l) => l.measurement === c)) && Date.now() < deadline) await sleep(250);
    expect(icinga.influx.writes[0]).toMatch(/org=monitoring&bucket=icinga2/);
    // What the GraphiteWriter sent, and (with graphite-carbon) what carbon stored: a whisper file per path.
    const stored = async () => {
      if (!carbon) return [];
      // Carbon creates a service's files one by one: wait (bounded) until every service has one
      // and no new file has come for 5 s, not only for the first file of each.
      const until = Date.now() + 120_000;
      const graphed = cases.filter((c) => !['mem-off', 'tools-outdated'].includes(c.service));
      const want = graphed.map((c) => `icinga2.sim-${c.host}.services.${c.service}.`);
      // The carbon writer connects on its own, up to its 10 s retry after Icinga starts, and
      // drops the results made before (start() waits for the test's writer only): on a loaded
      // host the first checks came before it. Once it has stored anything it is connected:
      // check again each service it has nothing of, so that each result reaches it.
      while (carbon.storedPaths().length === 0 && Date.now() < until) await sleep(500);
      const first = carbon.storedPaths();
      for (const [i, c] of graphed.entries()) if (!first.some((p) => p.startsWith(want[i]))) await icinga.check(`sim-${c.host}`, c.service);
      let seen = -1;
      let steadySince = Date.now();
      for (;;) {
        const paths = carbon.storedPaths();
        if (paths.length !== seen) [seen, steadySince] = [paths.length, Date.now()];
        const all = want.every((w) => paths.some((p) => p.startsWith(w)));
        if ((all && Date.now() - steadySince >= 5000) || Date.now() > until) return paths;
        await sleep(500);
      }
    };
    const inCarbon = await stored();
    if (carbon) expect(inCarbon.length).toBeGreaterThan(50);
    const sentBy = (command: string) =>
      cases.filter((c) => c.command === command).flatMap((c) => [...icinga.perfdataSent(`sim-${c.host}`, c.service).keys()].map((k) => `P.${k}`));
    const storedBy = (command: string) =>
      cases
        .filter((c) => c.command === command)
        .flatMap((c) => {
          const prefix = `icinga2.sim-${c.host}.services.${c.service}.`;
          return inCarbon.filter((p) => p.startsWith(prefix)).map((p) => `P.${p.slice(prefix.length)}`);
        });
    let curves = 0;
    for (const m of ini.matchAll(/^\[([^\]]+)\.graph\]\ncheck_command = "([^"]+)"$/gm)) {
      const [, name, command] = m;
      if (!commands.includes(command)) continue;
      const block = new RegExp(`^\\[${name.replace(/[.-]/g, '\\$&')}\\.metrics_filters\\]\\n((?:.+\\n)+)`, 'm').exec(ini)![1];
      const sent = sentBy(command);
      for (const [, path] of block.matchAll(/^\S+ = "(.+)"$/gm)) {
        const glob = path.replace('$service_name_template$', `P.${command}`).replace(/\$label(?::([^$]*))?\$/g, (_, p: string | undefined) => p ?? '*');
        const re = new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.]*')}$`);
        expect
          .soft(
            sent.some((p) => re.test(p)),
            `${name}: ${path} among ${sent.join(' ')}`,
          )
          .toBe(true);
        if (carbon)
          expect
            .soft(
              storedBy(command).some((p) => re.test(p)),
              `${name}: ${path} stored by carbon`,
            )
            .toBe(true);
        curves++;
      }
    }
    expect(curves).toBeGreaterThan(20);
    const dashboard = JSON.parse(readFileSync(join(REPO, 'contrib/grafana/cloudchecks-icinga2-influxdb2.json'), 'utf8')) as {
      panels: Array<{ title: string; targets?: Array<{ query: string }> }>;
    };
    const series = influxSeries();
    let queries = 0;
    for (const p of dashboard.panels)
      for (const t of p.targets ?? []) {
        const measurement = /r\._measurement == "([^"]+)"/.exec(t.query)![1];
        if (!commands.includes(measurement)) continue;
        const exact = /r\.metric == "([^"]+)"/.exec(t.query)?.[1];
        const suffix = /r\.metric =~ \/(.+)\//.exec(t.query)?.[1];
        const found = series.some(
          (l) => l.measurement === measurement && l.hasValue && (exact !== undefined ? l.metric === exact : new RegExp(suffix!).test(l.metric)),
        );
        expect.soft(found, `${p.title}: ${measurement} ${exact ?? suffix}`).toBe(true);
        queries++;
      }
    expect(queries).toBeGreaterThan(20);
  }, 180_000);
});

(icinga2 && hasStockIcingaConfig() ? describe : describe.skip)('docs/icinga2.md on the stock configuration', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-icinga-stock-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('"From a checkout", run as written on a copy of /etc/icinga2: icinga2 daemon -C without a warning', () => {
    // A checkout's user has no package: no cloudchecks file among the ITL's plugins-contrib.d.
    const icinga = new StockIcinga(icinga2!, join(root, 'icinga'), { skipContrib: /^cloudchecks/ });
    const stock = icinga.validate();
    expect(stock.output).not.toMatch(/warning\/|critical\//);
    const sandbox = join(root, 'sandbox');
    const { runs, validation } = icinga.runSteps(documentedSteps('docs/icinga2.md', 'icinga2-checkout'), REPO, sandbox);
    for (const run of runs) expect(run.code, `${run.line}\n${run.output}`).toBe(0);
    expect(validation.output).toMatch(/Finished validating the configuration file/);
    expect(validation.output).not.toMatch(/warning\/|critical\//);
    expect(
      Number(/Instantiated (\d+) Services?\./.exec(validation.output)?.[1]) - Number(/Instantiated (\d+) Services?\./.exec(stock.output)?.[1] ?? 0),
    ).toBeGreaterThan(3);
    expect(shimCalls(sandbox)).toContain('systemctl reload icinga2');
  }, 60_000);
});

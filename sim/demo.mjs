#!/usr/bin/env node
// `make demo` / `npm run demo`: starts the simulator (dist/cloudchecks-sim) with a healthy, a
// sick and (for the cluster's monitoring stack) an "off" scenario, runs every plugin in its main
// modes against them, prints each command line with its output and exit code, and stops the
// simulators by their pids (on Ctrl-C too).
// Plain JavaScript on purpose: it needs only Node.js and the committed dist/, no npm install.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { get } from 'node:http';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.CLOUDCHECKS_DIST ? resolve(process.env.CLOUDCHECKS_DIST) : join(repo, 'dist');
const work = mkdtempSync(join(tmpdir(), 'cloudchecks-demo-'));
// The plugins' #!/usr/bin/env node must find this same node, wherever it is installed.
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
delete env.KUBE_TOKEN;
delete env.VCD_PASSWORD;
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = (t) => (color ? `\x1b[1m${t}\x1b[0m` : t);
const STATE_COLORS = { OK: 32, WARNING: 33, CRITICAL: 31, UNKNOWN: 35 };
const paint = (line) => (color ? line.replace(/\b(OK|WARNING|CRITICAL|UNKNOWN)\b/, (s) => `\x1b[${STATE_COLORS[s]}m${s}\x1b[0m`) : line);

/** Every simulator this demo started, by pid: stopped on exit, error, Ctrl-C. */
const simulators = new Map();

function stopAll() {
  for (const [pid, child] of simulators) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
}

async function stopAndWait() {
  stopAll();
  await Promise.all(
    [...simulators.values()].map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const hard = setTimeout(() => {
            try {
              process.kill(child.pid, 'SIGKILL');
            } catch {
              // already gone
            }
          }, 3000);
          child.once('exit', () => {
            clearTimeout(hard);
            done();
          });
        }),
    ),
  );
  simulators.clear();
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    process.stdout.write(`\n${signal}: stopping the simulators\n`);
    void stopAndWait().then(() => {
      rmSync(work, { recursive: true, force: true });
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  });
}
// Last resort (an exception, process.exit elsewhere): no simulator may outlive the demo.
process.once('exit', stopAll);

/** Shortens paths in printed command lines: dist/ relative to the repository, temp dirs kept. */
function show(file) {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/** Options the simulator has: the demo uses a module's scenario only if the module exists. */
function simulatorOptions() {
  return new Promise((done, fail) => {
    execFile(join(dist, 'cloudchecks-sim'), ['--help'], { env }, (error, stdout) => (error && !stdout ? fail(error) : done(stdout)));
  });
}

/** Starts one simulator and waits (bounded) for its ready file. */
async function startSimulator(name, args) {
  const readyFile = join(work, `${name}.json`);
  const stateDir = join(work, `sim-${name}`);
  const child = spawn(join(dist, 'cloudchecks-sim'), ['--ready-file', readyFile, '--state-dir', stateDir, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  simulators.set(child.pid, child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  process.stdout.write(`${bold(`Simulator "${name}"`)} (pid ${child.pid}): ${show(join(dist, 'cloudchecks-sim'))} ${args.join(' ')}\n`);
  const deadline = Date.now() + 15_000;
  while (!existsSync(readyFile)) {
    if (child.exitCode !== null) throw new Error(`the simulator exited with ${child.exitCode}: ${stderr.trim()}`);
    if (Date.now() > deadline) throw new Error(`the simulator did not start within 15 s: ${stderr.trim()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // The file is written in one call once all listeners are up; retry a read that races it.
  for (;;) {
    try {
      return JSON.parse(readFileSync(readyFile, 'utf8'));
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Runs one plugin like a monitoring engine would and prints command, output and exit code. */
function runPlugin(title, plugin, args) {
  return new Promise((done) => {
    const file = join(dist, plugin);
    process.stdout.write(`\n${bold(`# ${title}`)}\n$ ${[show(file), ...args].join(' ')}\n`);
    if (!existsSync(file)) {
      process.stdout.write(`(${show(file)} is missing: run 'make' to build it)\n`);
      return done(undefined);
    }
    execFile(file, args, { env, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : `${error.signal ?? error.code}`) : 0;
      const lines = `${stdout}${stderr}`.replace(/\n$/, '').split('\n');
      process.stdout.write(lines.map((l, i) => (i === 0 ? paint(l) : l)).join('\n') + `\n(exit ${code})\n`);
      done(code);
    });
  });
}

/** The VM ids of the vcd module, by role (from its ready-file line "healthy=vm-… busy=vm-…"). */
function vmsByRole(api) {
  return Object.fromEntries(
    String(api.vms ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split('=')),
  );
}

function clusterArgs(sim) {
  const api = sim.apis.cluster;
  return ['--url', api.httpsUrl, '--token-file', api.tokenFile, '--ca-file', sim.caFile];
}

function vcdArgs(sim, vm) {
  const api = sim.apis.vcd;
  return [
    '--url',
    api.httpsUrl,
    '--user',
    api.user,
    '--org',
    api.org,
    '--password-file',
    api.passwordFile,
    '--ca-file',
    sim.caFile,
    '--cache-dir',
    join(work, 'session-cache'),
    '--vm',
    vm,
  ];
}

/** Switches the alerts a simulator serves (its control request, over plain HTTP on 127.0.0.1). */
function serveAlerts(sim, scenario) {
  return new Promise((done, fail) => {
    get(`${sim.apis.cluster.httpUrl}/_sim/cluster/alerts?scenario=${scenario}`, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`the simulator refused alerts scenario ${scenario}: ${text.trim()}`))));
    }).on('error', fail);
  });
}

/** check_cluster_alerts: the monitoring stack's alerts, each scenario of the simulator's Alertmanager and Thanos Querier in turn. */
async function alertsDemo(sim) {
  const am = [...clusterArgs(sim), '--alertmanager-url', sim.apis.cluster.httpsUrl];
  process.stdout.write(`\n${bold("=== check_cluster_alerts: the cluster's own alerts (Alertmanager, Thanos Querier) ===")}\n`);
  await serveAlerts(sim, 'healthy');
  await runPlugin('Watchdog firing and one info alert: OK (-v lists the info alert)', 'check_cluster_alerts', [...am, '-v']);
  await serveAlerts(sim, 'critical');
  await runPlugin('A critical and a warning platform alert: the worst named with its object and since when', 'check_cluster_alerts', am);
  await runPlugin('The same from Thanos Querier (Prometheus API), counted once firing 1h (--min-active)', 'check_cluster_alerts', [
    ...clusterArgs(sim),
    '--prometheus-url',
    sim.apis.cluster.httpsUrl,
    '--min-active',
    '1h',
  ]);
  await serveAlerts(sim, 'silenced');
  await runPlugin('etcd silenced for maintenance, a PV alert inhibited by it: counted, not judged', 'check_cluster_alerts', [...am, '-v']);
  await serveAlerts(sim, 'tenant');
  await runPlugin("A tenant namespace's alert (user-workload stack): not the platform's, OK", 'check_cluster_alerts', [...am, '-v']);
  await runPlugin('... counted with --all-alerts', 'check_cluster_alerts', [...am, '--all-alerts']);
  await serveAlerts(sim, 'no-watchdog');
  await runPlugin('No Watchdog: the alerting pipeline is broken', 'check_cluster_alerts', am);
  await runPlugin('Zabbix low-level discovery of the rules (Thanos Querier /api/v1/rules)', 'check_cluster_alerts', [
    ...clusterArgs(sim),
    '--prometheus-url',
    sim.apis.cluster.httpsUrl,
    '--discovery',
  ]);
  await serveAlerts(sim, 'healthy');
}

/** check_nodes --vcd-*: a cluster whose nodes are VMs of the simulated Cloud Director, each failing node's line naming its VM. */
async function nodeVmDemo() {
  const sim = await startSimulator('nodes-on-vcd', ['--cluster-scenario', 'vcd', '--vcd-scenario', 'nodes']);
  const vcd = sim.apis.vcd;
  const connection = [
    '--vcd-url',
    vcd.httpsUrl,
    '--vcd-user',
    vcd.user,
    '--vcd-org',
    vcd.org,
    '--vcd-password-file',
    vcd.passwordFile,
    '--vcd-ca-file',
    sim.caFile,
    '--cache-dir',
    join(work, 'session-cache'),
  ];
  process.stdout.write(`\n${bold("=== check_nodes --vcd-*: the failing nodes' VMs in Cloud Director ===")}\n`);
  await runPlugin("Each failing node names its VM: powered off, at 100% CPU, none at all (the state stays the nodes')", 'check_nodes', [
    ...clusterArgs(sim),
    ...connection,
  ]);
  await runPlugin('Only the healthy nodes: no vCD request at all', 'check_nodes', [...clusterArgs(sim), ...connection, '--include', '^(master-0|worker-1)\\.']);
  const down = connection.map((a, i, all) => (all[i - 1] === '--vcd-url' ? 'https://127.0.0.1:9' : a));
  await runPlugin('vCD unreachable: the same verdict, and one phrase saying the VM facts are missing', 'check_nodes', [...clusterArgs(sim), ...down]);
}

/** A fleet without GUIDs: a VM checked by its name, and the VM list for Zabbix, Icinga 2 and Nagios. */
async function fleetDemo(sim) {
  const vcd = vcdArgs(sim, 'unused').slice(0, -2);
  process.stdout.write(`\n${bold('=== Fleets: VMs by name, and discovery of every VM ===')}\n`);
  await runPlugin('A VM by its name (resolved once through the query service, then cached)', 'check_vm_disk', [...vcd, '--vm', 'db-03', '-v']);
  await runPlugin('Every VM the account sees, as Zabbix low-level discovery', 'check_vm_cpu', [...vcd, '--discovery']);
  await runPlugin('The same list as Icinga 2 hosts for contrib/icinga2/vm-discovery.conf (one vApp)', 'check_vm_cpu', [
    ...vcd,
    '--discovery',
    '--discovery-format',
    'icinga2',
    '--vapp',
    'shop',
  ]);
  const provider = sim.apis.vcd.providerUser;
  if (!provider) return;
  const system = vcd.map((a, i) => (vcd[i - 1] === '--user' ? provider : vcd[i - 1] === '--org' ? 'System' : a));
  await runPlugin('One provider (System) account: every organisation, each VM with its organisation', 'check_vm_cpu', [
    ...system,
    '--discovery',
    '--include',
    '^web-',
  ]);
  await runPlugin('A name two organisations use is never picked silently: --tenant-org or the id', 'check_vm_cpu', [...system, '--vm', 'web-01']);
}

/** check_vdc: the organisation's VDCs, one near its memory limit, and the discovery of them. */
async function hygieneDemo(sick, bad) {
  process.stdout.write(`\n${bold('=== check_vm_snapshot, check_vm_tools, check_vm_lease: VM hygiene ===')}\n`);
  await runPlugin('A VM without snapshots: read from its query record, no other request', 'check_vm_snapshot', vcdArgs(sick, bad.healthy));
  await runPlugin('A snapshot 10 days old (the default: WARNING at 3 days, CRITICAL at 7)', 'check_vm_snapshot', vcdArgs(sick, bad['full-disk']));
  await runPlugin('Twelve snapshots, none old enough to alarm, but more than --count-warning 10', 'check_vm_snapshot', [
    ...vcdArgs(sick, bad.stale),
    '--count-warning',
    '10',
  ]);
  await runPlugin('VMware Tools running and current', 'check_vm_tools', vcdArgs(sick, bad.healthy));
  await runPlugin('VMware Tools out of date', 'check_vm_tools', vcdArgs(sick, bad.busy));
  await runPlugin('VMware Tools not installed', 'check_vm_tools', vcdArgs(sick, bad['no-tools']));
  await runPlugin('Guest-managed open-vm-tools: never out of date', 'check_vm_tools', vcdArgs(sick, bad['no-disk']));
  await runPlugin('A vApp whose leases never expire (its section read once, as the record has no date)', 'check_vm_lease', vcdArgs(sick, bad.healthy));
  await runPlugin('A runtime lease that ends in a day: vCD will stop the vApp', 'check_vm_lease', vcdArgs(sick, bad.busy));
}

async function vdcDemo(healthy, sick) {
  const args = (sim) => vcdArgs(sim, 'unused').slice(0, -2);
  process.stdout.write(`\n${bold('=== check_vdc: organisation VDC quotas and health ===')}\n`);
  await runPlugin('A healthy VDC', 'check_vdc', [...args(healthy), '--vdc', 'acme-prod']);
  await runPlugin('A pay-as-you-go VDC: no limits, so the use is shown and never judged', 'check_vdc', [...args(healthy), '--vdc', 'acme-payg']);
  await runPlugin('Every VDC: one near its memory limit, one disabled, one with a failed VM', 'check_vdc', args(sick));
  await runPlugin('The VDCs as Zabbix low-level discovery', 'check_vdc', [...args(sick), '--discovery']);
}

/** check_pvdc and check_vcd: the provider's own estate, and the service every vCD check depends on. */
async function providerDemo(healthy, sick) {
  const args = (sim) => vcdArgs(sim, 'unused').slice(0, -2);
  const system = (sim) => args(sim).map((a, i, all) => (all[i - 1] === '--user' ? sim.apis.vcd.providerUser : all[i - 1] === '--org' ? 'System' : a));
  process.stdout.write(`\n${bold("=== check_pvdc: the provider's capacity (System account) ===")}\n`);
  await runPlugin('Every provider VDC: one near its memory, one disabled', 'check_pvdc', system(sick));
  await runPlugin('The same judged on what the org VDCs were allocated', 'check_pvdc', [...system(sick), '--basis', 'allocated']);
  await runPlugin('One provider VDC, on its reservations (its document, one request)', 'check_pvdc', [
    ...system(sick),
    '--pvdc',
    'pvdc-gold-01',
    '--basis',
    'reserved',
  ]);
  await runPlugin('A tenant account cannot see provider VDCs', 'check_pvdc', args(sick));
  await runPlugin('The provider VDCs as Zabbix low-level discovery', 'check_pvdc', [...system(sick), '--discovery']);
  process.stdout.write(`\n${bold('=== check_vcd: the Cloud Director service, parent of every vCD service ===')}\n`);
  await runPlugin('A tenant account: versions, a fresh login, the session (cells need System)', 'check_vcd', args(healthy));
  await runPlugin('A System account: the cells too, one of them down', 'check_vcd', system(sick));
  const closed = await new Promise((resolvePort) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
  const down = args(healthy).map((a, i, all) => (all[i - 1] === '--url' ? `https://127.0.0.1:${closed}` : a));
  await runPlugin('vCD down: CRITICAL here (every other vCD check is UNKNOWN, and depends on this one)', 'check_vcd', down);
  process.stdout.write(`\n${bold('=== check_vcd_tasks: the tasks that failed in the last 15 minutes ===')}\n`);
  await runPlugin('A System account: every organisation, grouped by operation and organisation', 'check_vcd_tasks', system(sick));
  await runPlugin("A tenant account: its own organisation's tasks, --operation narrowing", 'check_vcd_tasks', [...args(sick), '--operation', '^vdc']);
  process.stdout.write(`\n${bold("=== check_edge_gateways: the tenants' edge gateways ===")}\n`);
  await runPlugin('A System account: every organisation, one edge gateway failed', 'check_edge_gateways', system(sick));
  await runPlugin('The edge gateways as Zabbix low-level discovery', 'check_edge_gateways', [...system(sick), '--discovery']);
  process.stdout.write(`\n${bold('=== check_vcd_backends: the vCenter servers and datastores vCD stands on ===')}\n`);
  await runPlugin('A System account: vc-prod-02 disconnected, ds-silver-02 at 93%', 'check_vcd_backends', system(sick));
  await runPlugin('The datastores as Zabbix low-level discovery', 'check_vcd_backends', [...system(sick), '--discovery', 'datastores']);
}

async function main() {
  if (!existsSync(join(dist, 'cloudchecks-sim'))) throw new Error(`${join(dist, 'cloudchecks-sim')} is missing: run 'make' (or 'node build.mjs dist') first`);
  const help = await simulatorOptions();
  const hasCluster = help.includes('--cluster-scenario');
  const hasVcd = help.includes('--vcd-scenario');
  process.stdout.write(`cloudchecks demo: every plugin against the built-in simulator (${show(dist)}/cloudchecks-sim).\n`);
  process.stdout.write('Secrets are passed as file paths, as in production. Exit codes: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.\n\n');

  const scenario = (which) => [
    ...(hasCluster ? ['--cluster-scenario', which] : []),
    ...(hasVcd ? ['--vcd-scenario', which === 'healthy' ? 'healthy' : 'default'] : []),
  ];
  const healthy = await startSimulator('healthy', scenario('healthy'));
  const sick = await startSimulator('sick', scenario('sick'));
  // A cluster whose workload monitoring was never switched on (no cluster-monitoring-config).
  const hasMonitoring = help.includes('--cluster-monitoring');
  const off = hasCluster && hasMonitoring ? await startSimulator('off', ['--cluster-scenario', 'off']) : undefined;
  // A cluster in the middle of an update, for check_cluster_operators.
  const hasOperators = help.includes('--cluster-operators');
  const updating = hasCluster && hasOperators ? await startSimulator('updating', ['--cluster-operators', 'updating']) : undefined;

  if (hasCluster) {
    process.stdout.write(`\n${bold('=== check_nodes: Kubernetes/OpenShift node health ===')}\n`);
    await runPlugin('A healthy cluster', 'check_nodes', clusterArgs(healthy));
    await runPlugin('A cluster with failing nodes (default: CRITICAL on any failing node)', 'check_nodes', clusterArgs(sick));
    await runPlugin('Percentages: WARNING above 10% failing, CRITICAL above 50%', 'check_nodes', [...clusterArgs(sick), '--percent', '-w', '10', '-c', '50']);
    await runPlugin('One node, with the details of -v', 'check_nodes', [...clusterArgs(sick), '--node', 'worker-1', '-v']);
    await runPlugin('Zabbix low-level discovery', 'check_nodes', [...clusterArgs(sick), '--discovery']);
    await runPlugin('JSON for scripts and Zabbix dependent items', 'check_nodes', [...clusterArgs(sick), '--output', 'json']);
    if (off) {
      process.stdout.write(`\n${bold("=== check_cluster_monitoring: the cluster's own monitoring stack ===")}\n`);
      await runPlugin('Monitoring healthy, workload monitoring on with its three components', 'check_cluster_monitoring', clusterArgs(healthy));
      await runPlugin('Operator degraded, prometheus-k8s-0 crash-looping, thanos-ruler-user-workload missing', 'check_cluster_monitoring', clusterArgs(sick));
      await runPlugin('Workload monitoring off (no ConfigMap cluster-monitoring-config): fine by default, -v says why', 'check_cluster_monitoring', [
        ...clusterArgs(off),
        '-v',
      ]);
      await runPlugin('... but CRITICAL where workload monitoring is expected', 'check_cluster_monitoring', [...clusterArgs(off), '--expect-user-workload']);
    }
    if (updating) {
      process.stdout.write(`\n${bold('=== check_cluster_operators: every OpenShift cluster operator and the cluster version ===')}\n`);
      await runPlugin('A healthy OpenShift 4.16 cluster: 33 operators', 'check_cluster_operators', clusterArgs(healthy));
      await runPlugin(
        'etcd Degraded for 2h, ingress unavailable, network rolling out for 3h, update graph unreachable',
        'check_cluster_operators',
        clusterArgs(sick),
      );
      await runPlugin('The same with --grace 3h (WARNING while a problem is younger) and ingress ignored', 'check_cluster_operators', [
        ...clusterArgs(sick),
        '--grace',
        '3h',
        '--ignore',
        'ingress',
      ]);
      await runPlugin('An update in progress: OK with its target and progress', 'check_cluster_operators', clusterArgs(updating));
      await runPlugin('One operator, for a per-operator service', 'check_cluster_operators', [...clusterArgs(sick), '--operator', 'etcd']);
      await runPlugin('Zabbix low-level discovery of the operators', 'check_cluster_operators', [...clusterArgs(healthy), '--discovery']);
    }
    if (help.includes('--cluster-control-plane')) {
      process.stdout.write(`\n${bold("=== check_apiserver: the API server's own health ===")}\n`);
      await runPlugin('Every /readyz and /livez check passes, each answer within 0.8 s', 'check_apiserver', [...clusterArgs(healthy), '-w', '0.8', '-c', '2']);
      await runPlugin('etcd failing: CRITICAL, naming the checks', 'check_apiserver', clusterArgs(sick));
      process.stdout.write(`\n${bold('=== check_cluster_certs: certificates that expire, kubelet CSRs left pending ===')}\n`);
      await runPlugin('The simulator CA and certificate have a century left; no CSR waits', 'check_cluster_certs', clusterArgs(healthy));
      await runPlugin("A node's kubelet CSRs pending for 3h (after a long shutdown)", 'check_cluster_certs', clusterArgs(sick));
      await runPlugin('-w 36600d: a certificate with less than that left is WARNING, named by its CN', 'check_cluster_certs', [
        ...clusterArgs(healthy),
        '-w',
        '36600d',
        '-c',
        '7d',
      ]);
      if (help.includes('--cluster-alerts')) await alertsDemo(healthy);
      process.stdout.write(`\n${bold('=== check_nodes --pods and --version-skew ===')}\n`);
      await runPlugin("Pods per node against each node's limit (-c 10: the failing nodes aside): worker-4 at 96%", 'check_nodes', [
        ...clusterArgs(sick),
        '--pods',
        '-c',
        '10',
      ]);
      await runPlugin('Kubelets against the API server: one three minors behind', 'check_nodes', [...clusterArgs(sick), '--version-skew', '-c', '10']);
    }
    if (hasVcd && help.includes('nodes the VMs of --cluster-scenario vcd')) await nodeVmDemo();
  } else {
    process.stdout.write('\n(this simulator has no cluster API: check_nodes skipped)\n');
  }

  if (hasVcd) {
    const ok = vmsByRole(healthy.apis.vcd);
    const bad = vmsByRole(sick.apis.vcd);
    const calm = ok.healthy ?? Object.values(ok)[0];
    process.stdout.write(`\n${bold('=== check_vm_cpu, check_vm_disk, check_vm_mem: Cloud Director VM metrics ===')}\n`);
    for (const plugin of ['check_vm_cpu', 'check_vm_disk', 'check_vm_mem']) {
      await runPlugin(`${plugin}: a calm VM, current values`, plugin, vcdArgs(healthy, calm));
      await runPlugin(`${plugin}: the same VM, average of the last hour`, plugin, [...vcdArgs(healthy, calm), '--window', '1h']);
    }
    await runPlugin('A busy VM: current CPU', 'check_vm_cpu', vcdArgs(sick, bad.busy));
    await runPlugin('The busy VM: peak of the last hour', 'check_vm_cpu', [...vcdArgs(sick, bad.busy), '--window', '1h', '--aggregate', 'max']);
    await runPlugin('A VM whose disks are almost full', 'check_vm_disk', vcdArgs(sick, bad['full-disk']));
    await runPlugin('A powered-off VM: no current metrics', 'check_vm_mem', vcdArgs(sick, bad['powered-off']));
    await runPlugin('A VM whose metrics stopped an hour ago', 'check_vm_cpu', [...vcdArgs(sick, bad.stale), '--window', '1h']);
    await runPlugin('JSON for scripts and Zabbix dependent items', 'check_vm_mem', [...vcdArgs(healthy, calm), '--output', 'json']);
    await hygieneDemo(sick, bad);
    await fleetDemo(sick);
    process.stdout.write(`\n${bold('=== check_vm_fleet: every VM in one process, each judged as the single checks do ===')}\n`);
    await runPlugin('Every VM the account sees: the collection, and the VMs that are not OK', 'check_vm_fleet', vcdArgs(sick, 'unused').slice(0, -2));
    await runPlugin(
      'With the hygiene services: snapshots, Tools and leases judged as the single checks do (one request per VM with a snapshot, per vApp for leases)',
      'check_vm_fleet',
      [...vcdArgs(sick, 'unused').slice(0, -2), '--services', 'cpu,mem,disk,snapshot,tools,lease'],
    );
    await vdcDemo(healthy, sick);
    await providerDemo(healthy, sick);
  } else {
    process.stdout.write('\n(this simulator has no cloud-director API: VM checks skipped)\n');
  }
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  process.stderr.write(`demo: ${error.message}\n`);
}
await stopAndWait();
rmSync(work, { recursive: true, force: true });
process.stdout.write(failed ? '' : `\nDone: simulators stopped. Next: docs/icinga2.md to run these checks from Icinga 2.\n`);
process.exit(failed ? 1 : 0);

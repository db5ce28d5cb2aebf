// `make demo`, as a newcomer runs it on a fresh clone: real results for every plugin, exit 0,
// and no simulator left behind (also when interrupted with Ctrl-C).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import PLUGINS from '../../plugins/registry.json';

const REPO = resolve(__dirname, '../..');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the repository, bounded; `onOutput` may act on the output so far. */
function run(file: string, args: string[], onOutput?: (stdout: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
      onOutput?.(stdout, child);
    });
    child.stderr!.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.once('error', fail);
    child.once('close', (code, signal) => {
      clearTimeout(killer);
      done({ code, signal, stdout, stderr });
    });
  });
}

/** The simulators' pids the demo printed ("Simulator "healthy" (pid 123)"). */
function simulatorPids(stdout: string): number[] {
  return [...stdout.matchAll(/^Simulator "[^"]+" \(pid (\d+)\)/gm)].map((m) => Number(m[1]));
}

/** Running, i.e. present and not a zombie waiting for its parent. */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (existsSync('/proc/self/stat')) {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + 5_000;
  while (pids.some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(running);
}

describe('make demo', () => {
  it('runs every plugin against healthy, sick, off, updating and nodes-on-vcd simulators, exits 0, leaves no process', async () => {
    const r = await run('make', ['-s', 'demo']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const first of [
      /^NODES OK - 6 of 6 nodes healthy \|/m,
      /^NODES CRITICAL - \d+ of \d+ nodes failing: /m,
      /^NODES WARNING - /m,
      /^\[\{"\{#NODE\}":"/m,
      /^\{"name":"NODES","state":"CRITICAL","code":2,/m,
      /^MONITORING OK - ClusterOperator monitoring [\d.]+ available, \d+ of \d+ pods ready, workload monitoring on \|/m,
      /^MONITORING CRITICAL - ClusterOperator monitoring [\d.]+ Degraded=True .*prometheus-k8s-0 .*CrashLoopBackOff.*thanos-ruler-user-workload has no ready pod/m,
      /^MONITORING OK - .*workload monitoring off \(no ConfigMap openshift-monitoring\/cluster-monitoring-config\)/m,
      /^MONITORING CRITICAL - workload monitoring off .* but expected on, /m,
      /^OPERATORS OK - 33 of 33 operators available, none degraded, version 4\.16\.27 /m,
      /^OPERATORS CRITICAL - 2 of 33 operators failing: etcd Degraded=True for 2h /m,
      /^OPERATORS OK - 33 of 33 operators available, none degraded, updating to 4\.16\.28 /m,
      /^\[\{"\{#OPERATOR\}":"authentication"\}/m,
      // The control plane: a failing readyz check, kubelet CSRs left pending, a full node, a skewed kubelet.
      /^APISERVER CRITICAL - API server v1\.27\.10\+28ed2d7: readyz failed: etcd \(reason withheld\)/m,
      /^CERTS WARNING - nearest expiry: .*2 kubelet CSRs pending over 1h: /m,
      // The monitoring stack's alerts: each scenario of the simulator's Alertmanager and Thanos Querier.
      /^ALERTS OK - no critical or warning alert firing \(1 other alert\) \[/m,
      /^ALERTS CRITICAL - 1 critical, 1 warning alerts firing: etcdMembersDown openshift-etcd for 25m /m,
      /^ALERTS OK - no critical or warning alert firing, 1 silenced, 1 inhibited /m,
      /^ALERTS CRITICAL - 1 critical alert firing: ShopCheckoutErrors shop-prod\/checkout /m,
      /^ALERTS CRITICAL - no Watchdog alert firing: the alerting pipeline is broken, /m,
      /^\[\{"\{#ALERTNAME\}":"ClusterMonitoringOperatorDeprecatedConfig","\{#SEVERITY\}":"info"\}/m,
      /^NODES CRITICAL - .*near the pod limit: worker-4\.prod-eu1\.example\.com 240\/250 pods \(96%\)/m,
      /^NODES WARNING - .*kubelet v1\.24\.17\+3f4e5a8 is 3 minors behind/m,
      /^VM_CPU OK - cpu usage [\d.]+% \(current\)/m,
      /^VM_CPU OK - cpu usage [\d.]+% \(avg 1h\)/m,
      /^VM_CPU WARNING - /m,
      /^VM_CPU UNKNOWN - no sample /m,
      /^VM_DISK OK - disk used /m,
      /^VM_DISK CRITICAL - disk used /m,
      /^VM_MEM OK - memory usage [\d.]+% \(current\)/m,
      /^VM_MEM OK - memory usage [\d.]+% \(avg 1h\)/m,
      /^VM_MEM UNKNOWN - .*powered off/m,
      /^\{"name":"VM_MEM","state":"OK","code":0,/m,
      // Fleets: a VM by name, and discovery.
      /^VM_DISK CRITICAL - disk used .* on db-03 \(vm-[0-9a-f-]{36}\) \[/m,
      /^\[\{"\{#VM\.ID\}":"vm-[0-9a-f-]{36}","\{#VM\.NAME\}":"/m,
      // The fleet with the hygiene services: the snapshot 10 days old beside the full disk.
      /^\[CRITICAL\] db-03 \(vm-[0-9a-f-]{36}, vApp shop, org acme\): disk CRITICAL, snapshot CRITICAL: /m,
      /^object Host "vm-[0-9a-f-]{36}" \{$/m,
      // One provider account over every organisation.
      /"\{#VM\.NAME\}":"web-01","\{#VM\.VAPP\}":"portal","\{#VM\.STATUS\}":"POWERED_ON","\{#VM\.ORG\}":"globex"/m,
      /^VM_CPU UNKNOWN - 2 VMs named "web-01" in 2 organisations: org "acme" .*, add --tenant-org ORG/m,
      /^VDC OK - acme-prod: cpu 42% /m,
      /^VDC OK - acme-payg: cpu 2000 MHz used, unlimited/m,
      /^VDC CRITICAL - 5 VDCs: acme-analytics memory 88% .*acme-archive disabled.*staging-15 \(FAILED_CREATION\)/m,
      /^\[\{"\{#VDC\.ID\}":"[0-9a-f-]{36}","\{#VDC\.NAME\}":"acme-analytics","\{#VDC\.ORG\}":"acme"\}/m,
    ]) {
      expect(r.stdout).toMatch(first);
    }
    // Every run shows its command line and exit code; secrets appear only as file paths.
    const commands = r.stdout.match(/^\$ \S*(check_\w+) /gm) ?? [];
    expect(commands.length).toBeGreaterThanOrEqual(18);
    expect(new Set(commands.map((c) => /check_\w+/.exec(c)![0]))).toEqual(new Set(PLUGINS));
    expect((r.stdout.match(/^\(exit [0-3]\)$/gm) ?? []).length).toBe(commands.length);
    expect(r.stdout).not.toMatch(/Sim-vcd-Passw0rd/);
    expect(r.stdout).not.toMatch(/--token /);
    // healthy, sick, off, updating, and nodes-on-vcd (check_nodes --vcd-*).
    const pids = simulatorPids(r.stdout);
    expect(pids).toHaveLength(5);
    expect(await gone(pids)).toEqual([]);
  }, 120_000);

  it('stops its simulators by pid on Ctrl-C', async () => {
    let interrupted = false;
    const r = await run(process.execPath, [join(REPO, 'sim/demo.mjs')], (stdout, child) => {
      if (!interrupted && simulatorPids(stdout).length >= 2 && /^# /m.test(stdout)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    expect(interrupted).toBe(true);
    expect(r.stdout).toMatch(/SIGINT: stopping the simulators/);
    expect(r.code).toBe(130);
    expect(await gone(simulatorPids(r.stdout))).toEqual([]);
  }, 120_000);
});

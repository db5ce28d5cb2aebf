// A real monitoring stack on 127.0.0.1 for check_cluster_alerts: Debian's Prometheus and
// Alertmanager, run as the test's own processes (no systemd) with temporary configuration and
// data, Prometheus evaluating its rules every second and sending to that Alertmanager.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable, stopDaemon, until } from './engines';
import { freePort } from './icinga2';

export const PROMETHEUS = findExecutable('prometheus');
export const ALERTMANAGER = findExecutable('prometheus-alertmanager') ?? findExecutable('alertmanager');

/** The platform's rules (as OpenShift labels them) and a tenant's, firing at once (`vector(1)`). */
const RULES = `groups:
- name: platform
  interval: 1s
  rules:
  - alert: Watchdog
    expr: vector(1)
    labels: {severity: none, namespace: openshift-monitoring}
    annotations: {summary: An alert that should always be firing to certify that Alertmanager is working properly.}
  - alert: KubePodCrashLooping
    expr: vector(1)
    labels: {severity: warning, namespace: openshift-ingress, pod: router-default-5d8f7c9b4-x2kqp, container: router}
    annotations: {summary: Pod is crash looping.}
  - alert: etcdMembersDown
    expr: vector(1)
    labels: {severity: critical, namespace: openshift-etcd, job: etcd}
    annotations: {summary: etcd cluster members are down.}
  - alert: TargetDown
    expr: vector(0) > 1
    labels: {severity: warning}
- name: tenant
  interval: 1s
  rules:
  - alert: ShopCheckoutErrors
    expr: vector(1)
    labels: {severity: critical, namespace: shop-prod, service: checkout}
`;

/** Alertmanager: one null receiver, quick grouping, and NodeDown inhibiting KubeletDown on the same node. */
const AM_CONFIG = `route:
  receiver: 'null'
  group_wait: 1s
  group_interval: 1s
receivers:
- name: 'null'
inhibit_rules:
- source_matchers: ['alertname="NodeDown"']
  target_matchers: ['alertname="KubeletDown"']
  equal: ['node']
`;

/** POSTs JSON to the stack; resolves with the status and body. */
export function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function get(url: string): Promise<string> {
  return new Promise((resolve) => {
    http
      .get(url, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(res.statusCode === 200 ? text : ''));
      })
      .on('error', () => resolve(''));
  });
}

/** The two daemons, their URLs, and stopping them. */
export class AlertStack {
  readonly root = mkdtempSync(join(tmpdir(), 'cc-alert-stack-'));
  amUrl = '';
  promUrl = '';
  log = '';
  private daemons: Array<{ child: ChildProcess; exited: Promise<void> }> = [];

  private run(file: string, args: string[]): void {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout!.on('data', (d) => (this.log += d));
    child.stderr!.on('data', (d) => (this.log += d));
    this.daemons.push({ child, exited: new Promise((resolve) => child.once('exit', () => resolve())) });
  }

  /** Starts Alertmanager, then Prometheus sending to it; resolves once Prometheus fires its rules and Alertmanager holds them. */
  async start(): Promise<void> {
    const [amPort, promPort] = [await freePort(), await freePort()];
    this.amUrl = `http://127.0.0.1:${amPort}`;
    this.promUrl = `http://127.0.0.1:${promPort}`;
    writeFileSync(join(this.root, 'am.yml'), AM_CONFIG);
    writeFileSync(join(this.root, 'rules.yml'), RULES);
    writeFileSync(
      join(this.root, 'prometheus.yml'),
      `global: {evaluation_interval: 1s}\nrule_files: [${JSON.stringify(join(this.root, 'rules.yml'))}]\nalerting:\n  alertmanagers:\n  - static_configs:\n    - targets: ['127.0.0.1:${amPort}']\n`,
    );
    this.run(ALERTMANAGER!, [
      `--config.file=${join(this.root, 'am.yml')}`,
      `--storage.path=${join(this.root, 'am')}`,
      `--web.listen-address=127.0.0.1:${amPort}`,
      '--cluster.listen-address=',
    ]);
    this.run(PROMETHEUS!, [
      `--config.file=${join(this.root, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(this.root, 'prometheus')}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
      // Alerts fired before Alertmanager is discovered are dropped, and sent again only after
      // this delay (default 1m).
      '--rules.alert.resend-delay=1s',
    ]);
    await until(
      'Alertmanager holding the alerts Prometheus fires',
      () => get(`${this.amUrl}/api/v2/alerts`),
      (t) => t.includes('"Watchdog"') && t.includes('"etcdMembersDown"') && t.includes('"ShopCheckoutErrors"'),
      60_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${this.log.slice(-4000)}`);
    });
  }

  async stop(): Promise<void> {
    for (const d of this.daemons.reverse()) await stopDaemon(d.child, d.exited);
    this.daemons = [];
    rmSync(this.root, { recursive: true, force: true });
  }
}

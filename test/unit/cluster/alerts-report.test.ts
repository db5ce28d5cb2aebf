import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMatcher } from '../../../lib/cluster/alert-matchers';
import { readGettableAlerts, type ClusterAlert } from '../../../lib/cluster/alerts';
import {
  alertTitle,
  DEFAULT_PLATFORM_NAMESPACES,
  DEFAULT_SEVERITY_MAP,
  evaluateAlerts,
  isTenantAlert,
  judgeRules,
  ruleDiscovery,
  type AlertRules,
} from '../../../lib/cluster/alerts-report';
import { formatPerfdata } from '../../../lib/plugin/perfdata';
import { renderNagios } from '../../../lib/plugin/result';
import { State } from '../../../lib/plugin/state';

const FIXTURES = join(__dirname, '../../fixtures/cluster/alerts');
const NOW = Date.parse('2026-11-23T12:00:00Z');
const platform = new RegExp(`^(?:${DEFAULT_PLATFORM_NAMESPACES})$`);
const rules = (over: Partial<AlertRules> = {}): AlertRules => ({
  severityMap: DEFAULT_SEVERITY_MAP,
  include: [],
  exclude: [],
  allAlerts: false,
  platformNamespaces: platform,
  watchdog: true,
  listAll: false,
  now: NOW,
  ...over,
});
const alert = (name: string, labels: Record<string, string>, status: ClusterAlert['status'] = 'firing', since = '2026-11-23T10:00:00Z'): ClusterAlert => ({
  name,
  labels: { alertname: name, ...labels },
  status,
  since,
});
const WATCHDOG = alert('Watchdog', { namespace: 'openshift-monitoring', severity: 'none' });
const CRASH = alert('KubePodCrashLooping', { namespace: 'openshift-ingress', pod: 'router-default-5d8f', severity: 'warning', container: 'router' });
const ETCD = alert('etcdMembersDown', { job: 'etcd', severity: 'critical' }, 'firing', '2026-11-23T11:30:00Z');

describe('platform or tenant', () => {
  it("OpenShift's labels (a CRC notification): the user-workload stack's alert and a tenant namespace's are the tenants'", () => {
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'openshift-crc-webhook-alerts.json'), 'utf8')) as { alerts: { labels: Record<string, string> }[] };
    expect(doc.alerts.map((a) => isTenantAlert(a.labels, platform))).toEqual([true, true]);
    expect(isTenantAlert({ ...doc.alerts[0].labels, namespace: 'openshift-ingress' }, platform)).toBe(false);
    expect(isTenantAlert({ ...doc.alerts[1].labels, namespace: 'openshift-ingress' }, platform)).toBe(true);
    expect(isTenantAlert({ alertname: 'etcdMembersDown' }, platform)).toBe(false);
    expect(isTenantAlert({ namespace: 'kube-system' }, platform)).toBe(false);
    expect(isTenantAlert({ namespace: 'default' }, platform)).toBe(false);
    expect(isTenantAlert({ namespace: 'defaults' }, platform)).toBe(true);
  });
});

describe('evaluateAlerts', () => {
  it('healthy: Watchdog alone is OK, counted nowhere', () => {
    const r = evaluateAlerts([WATCHDOG], rules(), 'src');
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('no critical or warning alert firing');
    expect(formatPerfdata(r.metrics!)).toBe('alerts_critical=0;;;0 alerts_warning=0;;;0 alerts_info=0;;;0 alerts_suppressed=0;;;0');
  });

  it('the worst first with its object and since when, counts by severity', () => {
    const r = evaluateAlerts([WATCHDOG, CRASH, ETCD], rules(), 'src');
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe(
      '1 critical, 1 warning alerts firing: etcdMembersDown for 30m (since 2026-11-23T11:30:00Z), KubePodCrashLooping openshift-ingress/router-default-5d8f for 2h (since 2026-11-23T10:00:00Z)',
    );
    expect(r.items!.map((i) => i.text)).toEqual([
      'etcdMembersDown (critical, firing for 30m (since 2026-11-23T11:30:00Z)) [job=etcd]',
      'KubePodCrashLooping openshift-ingress/router-default-5d8f (warning, firing for 2h (since 2026-11-23T10:00:00Z)) [container=router]',
    ]);
  });

  it('no Watchdog: CRITICAL, the pipeline is broken; --no-watchdog: not', () => {
    const r = evaluateAlerts([], rules(), 'Route openshift-monitoring/alertmanager-main');
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(/^no Watchdog alert firing: the alerting pipeline is broken/);
    expect(evaluateAlerts([], rules({ watchdog: false }), 'x').state).toBe(State.OK);
  });

  it('silenced and inhibited: counted and said, never judged; listed with -v', () => {
    const silenced = { ...ETCD, status: 'silenced' as const };
    const inhibited = { ...CRASH, status: 'inhibited' as const };
    const r = evaluateAlerts([WATCHDOG, silenced, inhibited], rules(), 'src');
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('no critical or warning alert firing; 1 silenced, 1 inhibited');
    expect(formatPerfdata(r.metrics!)).toContain('alerts_suppressed=1;;;0'.replace('1', '2'));
    expect(r.items!.map((i) => i.text)).toEqual(['2 more alerts (info or none severity, silenced or inhibited): -v lists them']);
    expect(evaluateAlerts([WATCHDOG, silenced, inhibited], rules({ listAll: true }), 'src').items!.map((i) => i.name)).toEqual([
      'etcdMembersDown',
      'KubePodCrashLooping openshift-ingress/router-default-5d8f',
    ]);
  });

  it('real suppressed alerts (SAP): neither is judged', () => {
    const alerts = readGettableAlerts(JSON.parse(readFileSync(join(FIXTURES, 'alertmanager-gettable-alerts-sapcc-juno.json'), 'utf8')), 100);
    const r = evaluateAlerts(alerts, rules({ watchdog: false }), 'src');
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('no critical or warning alert firing; 1 silenced, 1 inhibited');
  });

  it('--severity-map: major CRITICAL, minor WARNING; info and none are OK (alerts_info)', () => {
    const map = new Map([...DEFAULT_SEVERITY_MAP, ['major', State.CRITICAL], ['minor', State.WARNING]]);
    const r = evaluateAlerts(
      [WATCHDOG, alert('A', { severity: 'Major' }), alert('B', { severity: 'minor' }), alert('C', { severity: 'info' }), alert('D', {})],
      rules({ severityMap: map }),
      'src',
    );
    expect(r.state).toBe(State.CRITICAL);
    expect(formatPerfdata(r.metrics!)).toBe('alerts_critical=1;;;0 alerts_warning=1;;;0 alerts_info=2;;;0 alerts_suppressed=0;;;0');
  });

  it("tenants' alerts are left out by default (said at -v), counted with --all-alerts", () => {
    const tenant = alert('KubePodCrashLooping', { namespace: 'shop', pod: 'web-1', severity: 'critical' });
    const r = evaluateAlerts([WATCHDOG, tenant], rules(), 'src');
    expect(r.state).toBe(State.OK);
    expect(r.notes).toContain("1 tenant alert left out (user workload or namespaces outside the platform's; --all-alerts counts them)");
    expect(evaluateAlerts([WATCHDOG, tenant], rules({ allAlerts: true }), 'src').state).toBe(State.CRITICAL);
  });

  it('--include/--exclude and --min-active', () => {
    const all = [WATCHDOG, CRASH, ETCD];
    expect(evaluateAlerts(all, rules({ exclude: [parseMatcher('alertname=~"etcd.*"', '--exclude')] }), 's').state).toBe(State.WARNING);
    expect(evaluateAlerts(all, rules({ include: [parseMatcher('namespace="openshift-ingress"', '--include')] }), 's').state).toBe(State.WARNING);
    // etcd fires for 30m: not yet an hour.
    const young = evaluateAlerts(all, rules({ minActive: 3600 }), 's');
    expect(young.state).toBe(State.WARNING);
    expect(young.notes).toContain('1 alert firing for less than --min-active');
  });

  it('alert text is inert on the status line and in perfdata labels', () => {
    const evil = alert('Evil|x=1', { namespace: 'openshift-x', pod: 'a;b\u2028c', severity: 'critical' });
    const out = renderNagios('ALERTS', evaluateAlerts([WATCHDOG, evil], rules(), 'src'));
    const [first] = out.split('\n');
    expect(first.split('|')).toHaveLength(2);
    expect(first).toContain('Evil/x=1 openshift-x/a, b c');
    expect(out.split('\n')).toHaveLength(3);
  });

  it('a title names the object the alert is about', () => {
    expect(alertTitle(alert('ClusterOperatorDown', { name: 'etcd', namespace: 'openshift-cluster-version' }))).toBe(
      'ClusterOperatorDown openshift-cluster-version/etcd',
    );
    expect(alertTitle(alert('KubeNodeNotReady', { node: 'worker-2' }))).toBe('KubeNodeNotReady worker-2');
    expect(alertTitle(alert('AlertmanagerReceiversNotConfigured', { namespace: 'openshift-monitoring' }))).toBe(
      'AlertmanagerReceiversNotConfigured openshift-monitoring',
    );
  });
});

describe('per-rule verdicts and discovery', () => {
  it('each rule its worst counted alert; a rule not firing is OK; Watchdog has none', () => {
    const verdicts = judgeRules([WATCHDOG, CRASH, { ...ETCD, status: 'silenced' }], [{ name: 'TargetDown', severity: 'warning' }], rules());
    expect(verdicts.map((v) => [v.rule, v.state, v.summary])).toEqual([
      ['KubePodCrashLooping', State.WARNING, '1 alert firing (warning): openshift-ingress/router-default-5d8f for 2h (since 2026-11-23T10:00:00Z)'],
      ['TargetDown', State.OK, 'not firing'],
      ['etcdMembersDown', State.OK, 'not firing (1 silenced or inhibited)'],
    ]);
  });

  it('Zabbix LLD JSON', () => {
    expect(ruleDiscovery([{ name: 'TargetDown', severity: 'warning' }, { name: 'X' }])).toBe(
      '[{"{#ALERTNAME}":"TargetDown","{#SEVERITY}":"warning"},{"{#ALERTNAME}":"X","{#SEVERITY}":""}]\n',
    );
  });
});

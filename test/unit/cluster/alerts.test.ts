// The readers of check_cluster_alerts on documents real stacks published (test/fixtures/cluster/alerts/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readGettableAlerts, readPrometheusAlerts, readPrometheusRules } from '../../../lib/cluster/alerts';
import { ShapeError } from '../../../lib/cluster/shape-error';

const FIXTURES = join(__dirname, '../../fixtures/cluster/alerts');
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

describe('readGettableAlerts (Alertmanager API v2)', () => {
  it('a silenced and an inhibited alert as SAP recorded them: suppressed, told apart by silencedBy and inhibitedBy', () => {
    const alerts = readGettableAlerts(fixture('alertmanager-gettable-alerts-sapcc-juno.json'), 1000);
    expect(alerts.map((a) => [a.name, a.status, a.since])).toEqual([
      ['HostStoragePathCheck', 'silenced', '2023-10-23T09:29:40.787Z'],
      ['CertificateExpiresIn30Days', 'inhibited', '2023-10-04T09:49:52.979Z'],
    ]);
    expect(alerts[1].summary).toBe('Certificate expires');
    expect(alerts[1].labels.severity).toBe('info');
  });

  it('active and unprocessed are firing; an alert without status is firing; mutedBy alone is inhibited', () => {
    const alerts = readGettableAlerts(
      [
        { labels: { alertname: 'A' }, status: { state: 'active', silencedBy: [], inhibitedBy: [] } },
        { labels: { alertname: 'B' }, status: { state: 'unprocessed' } },
        { labels: { alertname: 'C' } },
        { labels: { alertname: 'D' }, status: { state: 'suppressed', silencedBy: [], inhibitedBy: [], mutedBy: ['weekend'] } },
      ],
      10,
    );
    expect(alerts.map((a) => a.status)).toEqual(['firing', 'firing', 'firing', 'inhibited']);
  });

  it('refuses what is not the API shape, naming the field; bounds the count and every string', () => {
    expect(() => readGettableAlerts({ kind: 'NodeList' }, 10)).toThrow(new ShapeError('the answer', 'is an object, not an array'));
    expect(() => readGettableAlerts([[]], 10)).toThrow(new ShapeError('[0]', 'is an array, not an object'));
    expect(() => readGettableAlerts([{ annotations: {} }], 10)).toThrow(new ShapeError('[0].labels', 'is missing'));
    expect(() => readGettableAlerts([{ labels: {} }, { labels: {} }], 1)).toThrow(/holds 2 alerts, more than --max-alerts 1/);
    const [a] = readGettableAlerts([{ labels: { alertname: 'X\u2028\u001b[31mred', pod: 'p'.repeat(10_000), n: 5 }, annotations: { summary: 's\nline' } }], 1);
    expect(a.name).toBe('X [31mred');
    expect(a.labels.pod.length).toBeLessThan(400);
    expect(a.labels).not.toHaveProperty('n');
    expect(a.summary).toBe('s line');
  });
});

describe('readPrometheusAlerts and readPrometheusRules (Prometheus API v1, Thanos Querier)', () => {
  it("the documentation's /api/v1/alerts example: one firing alert since activeAt", () => {
    const alerts = readPrometheusAlerts(fixture('prometheus-api-alerts-docs.json') as Record<string, unknown>, 10);
    expect(alerts).toEqual([{ name: 'my-alert', labels: { alertname: 'my-alert' }, since: '2018-07-04T20:27:12.60602144+02:00', status: 'firing' }]);
  });

  it("the documentation's /api/v1/rules example: the alerting rule with its severity, not the recording rule", () => {
    expect(readPrometheusRules(fixture('prometheus-api-rules-docs.json') as Record<string, unknown>, 10)).toEqual([
      { name: 'HighRequestLatency', severity: 'page' },
    ]);
  });

  it("OpenShift's own alert set (cluster-monitoring-operator's PrometheusRule) as /api/v1/rules serves it: every alerting rule once, by name", () => {
    const rule = parse(readFileSync(join(FIXTURES, 'openshift-cmo-prometheus-rule-alerts.yaml'), 'utf8')) as {
      spec: { groups: { name: string; rules: { alert: string; labels?: Record<string, string> }[] }[] };
    };
    // Prometheus serves each rule file group with its rules as `name`, `labels` and `type`.
    const doc = {
      status: 'success',
      data: {
        groups: rule.spec.groups.map((g) => ({ name: g.name, rules: g.rules.map((r) => ({ name: r.alert, labels: r.labels ?? {}, type: 'alerting' })) })),
      },
    };
    const rules = readPrometheusRules(doc, 1000);
    expect(rules.map((r) => r.name)).toEqual([
      'AlertmanagerReceiversNotConfigured',
      'ClusterMonitoringOperatorDeprecatedConfig',
      'ClusterMonitoringOperatorReconciliationErrors',
      'KubeDeploymentReplicasMismatch',
      'KubePodNotScheduled',
      'NodeNetworkInterfaceFlapping',
      'TargetDown',
      'Watchdog',
    ]);
    expect(rules.find((r) => r.name === 'Watchdog')?.severity).toBe('none');
  });

  it('pending is kept as pending, inactive dropped; status "error" is the server\'s refusal in its words', () => {
    const doc = {
      status: 'success',
      data: {
        alerts: [
          { labels: { alertname: 'P' }, state: 'pending' },
          { labels: { alertname: 'I' }, state: 'inactive' },
        ],
      },
    };
    expect(readPrometheusAlerts(doc, 10).map((a) => [a.name, a.status])).toEqual([['P', 'pending']]);
    expect(() => readPrometheusAlerts({ status: 'error', errorType: 'bad_data', error: 'query timed out' }, 10)).toThrow(
      'status is "error" (bad_data: query timed out)',
    );
    expect(() => readPrometheusAlerts({ status: 'success', data: { alerts: {} } }, 10)).toThrow('data.alerts is an object, not an array');
  });
});

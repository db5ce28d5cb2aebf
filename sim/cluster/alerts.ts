// The monitoring stack's alerts, as an OpenShift 4.16 cluster serves them: Alertmanager's API v2
// (GET /api/v2/alerts), the Prometheus API of Thanos Querier (GET /api/v1/alerts and
// /api/v1/rules?type=alert), and the two Routes of openshift-monitoring that publish them.
// The simulator serves all of them on the cluster API's own listener (the Routes' host is
// --cluster-route-host, "localhost" by default: a test reaches it through a proxy that sends
// port 443 to the simulator).
//
// Where the shapes come from: Alertmanager's OpenAPI spec (GettableAlert: labels, annotations,
// startsAt, endsAt, updatedAt, fingerprint, receivers, status {state, silencedBy, inhibitedBy}),
// Prometheus' HTTP API documentation, and OpenShift's own rules (cluster-monitoring-operator's
// PrometheusRule, test/fixtures/cluster/alerts): Watchdog with namespace openshift-monitoring
// and severity none, labels prometheus="openshift-monitoring/k8s" on platform alerts and
// "openshift-user-workload-monitoring/user-workload" on the tenants'. Times are set when a
// request is answered, so that "firing for 2h" stays 2 h old.
import { createHash } from 'node:crypto';
import type { ResourceApi } from './resource-api';
import { send } from '../faults';
import type { Stats } from '../server';

export const ALERT_SCENARIOS = ['healthy', 'critical', 'silenced', 'tenant', 'no-watchdog'] as const;
export type AlertScenario = (typeof ALERT_SCENARIOS)[number];

const ROUTES = '/apis/route.openshift.io/v1/namespaces/openshift-monitoring/routes/';
const PLATFORM = 'openshift-monitoring/k8s';
const USER_WORKLOAD = 'openshift-user-workload-monitoring/user-workload';

/** One alert of a scenario: labels, annotations, how long ago it began, and Alertmanager's suppression. */
interface SimAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  agoSeconds: number;
  silencedBy?: string;
  inhibitedBy?: string;
}

const WATCHDOG: SimAlert = {
  labels: { alertname: 'Watchdog', namespace: 'openshift-monitoring', prometheus: PLATFORM, severity: 'none' },
  annotations: { summary: 'An alert that should always be firing to certify that Alertmanager is working properly.' },
  agoSeconds: 40 * 86400,
};
const DEPRECATED_CONFIG: SimAlert = {
  labels: {
    alertname: 'ClusterMonitoringOperatorDeprecatedConfig',
    configmap: 'openshift-monitoring/cluster-monitoring-config',
    field: 'k8sPrometheusAdapter',
    namespace: 'openshift-monitoring',
    prometheus: PLATFORM,
    severity: 'info',
  },
  annotations: { summary: 'Cluster Monitoring Operator is being used with deprecated configuration.' },
  agoSeconds: 6 * 86400,
};
const CRASH_LOOP: SimAlert = {
  labels: {
    alertname: 'KubePodCrashLooping',
    container: 'router',
    job: 'kube-state-metrics',
    namespace: 'openshift-ingress',
    pod: 'router-default-5d8f7c9b4-x2kqp',
    prometheus: PLATFORM,
    severity: 'warning',
  },
  annotations: {
    summary: 'Pod is crash looping.',
    description: 'Pod openshift-ingress/router-default-5d8f7c9b4-x2kqp (router) is in waiting state (reason: "CrashLoopBackOff").',
  },
  agoSeconds: 2 * 3600,
};
const ETCD_DOWN: SimAlert = {
  labels: { alertname: 'etcdMembersDown', job: 'etcd', namespace: 'openshift-etcd', prometheus: PLATFORM, severity: 'critical' },
  annotations: { summary: 'etcd cluster members are down.', description: 'etcd cluster "etcd": members are down (1).' },
  agoSeconds: 25 * 60,
};
const PV_FILLING: SimAlert = {
  labels: {
    alertname: 'KubePersistentVolumeFillingUp',
    namespace: 'openshift-monitoring',
    persistentvolumeclaim: 'prometheus-data-prometheus-k8s-0',
    prometheus: PLATFORM,
    severity: 'critical',
  },
  annotations: { summary: 'PersistentVolume is filling up.' },
  agoSeconds: 50 * 60,
};
const TENANT: SimAlert = {
  labels: {
    alertname: 'ShopCheckoutErrors',
    job: 'checkout',
    namespace: 'shop-prod',
    service: 'checkout',
    prometheus: USER_WORKLOAD,
    severity: 'critical',
  },
  annotations: { summary: 'Checkout fails for more than 5% of requests.' },
  agoSeconds: 15 * 60,
};

/** The alerts of each scenario. */
function scenarioAlerts(scenario: AlertScenario): SimAlert[] {
  switch (scenario) {
    case 'healthy':
      return [WATCHDOG, DEPRECATED_CONFIG];
    case 'critical':
      return [WATCHDOG, DEPRECATED_CONFIG, ETCD_DOWN, CRASH_LOOP];
    case 'silenced':
      // etcd is silenced for maintenance; the PV alert is inhibited by it.
      return [WATCHDOG, { ...ETCD_DOWN, silencedBy: '3c1f6f0e-8d6c-4b9f-a2b1-6f7e1d2c9a40' }, { ...PV_FILLING, inhibitedBy: fingerprint(ETCD_DOWN.labels) }];
    case 'tenant':
      return [WATCHDOG, TENANT];
    case 'no-watchdog':
      return [DEPRECATED_CONFIG, CRASH_LOOP];
  }
}

/** The alerting rules Thanos Querier lists: every rule of the scenarios, firing or not, and one that never fires. */
const RULES = [WATCHDOG, DEPRECATED_CONFIG, CRASH_LOOP, ETCD_DOWN, PV_FILLING, TENANT].map((a) => ({ name: a.labels.alertname, severity: a.labels.severity }));
const QUIET_RULES = [
  { name: 'TargetDown', severity: 'warning' },
  { name: 'KubeDeploymentReplicasMismatch', severity: 'warning' },
];

function fingerprint(labels: Record<string, string>): string {
  return createHash('sha256').update(JSON.stringify(labels)).digest('hex').slice(0, 16);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Alertmanager's GettableAlerts. */
function gettableAlerts(alerts: readonly SimAlert[], now: number): object[] {
  return alerts.map((a) => {
    const suppressed = a.silencedBy !== undefined || a.inhibitedBy !== undefined;
    return {
      annotations: a.annotations,
      endsAt: iso(now + 4 * 60_000),
      fingerprint: fingerprint(a.labels),
      receivers: [{ name: a.labels.alertname === 'Watchdog' ? 'Watchdog' : 'Default' }],
      startsAt: iso(now - a.agoSeconds * 1000),
      status: {
        inhibitedBy: a.inhibitedBy ? [a.inhibitedBy] : [],
        silencedBy: a.silencedBy ? [a.silencedBy] : [],
        state: suppressed ? 'suppressed' : 'active',
      },
      updatedAt: iso(now - 30_000),
      generatorURL: `https://console-openshift-console.apps.prod-eu1.example.com/monitoring/graph?g0.expr=ALERTS&g0.tab=1`,
      labels: a.labels,
    };
  });
}

/** Prometheus' `data.alerts`: every alert of the scenario firing (Prometheus knows no silences). */
function prometheusAlerts(alerts: readonly SimAlert[], now: number): object {
  return {
    status: 'success',
    data: {
      alerts: alerts.map((a) => ({ labels: a.labels, annotations: a.annotations, state: 'firing', activeAt: iso(now - a.agoSeconds * 1000), value: '1e+00' })),
    },
  };
}

function prometheusRules(): object {
  const rule = (name: string, severity: string) => ({
    state: 'inactive',
    name,
    query: 'vector(1)',
    duration: 900,
    labels: { severity },
    health: 'ok',
    type: 'alerting',
  });
  return {
    status: 'success',
    data: {
      groups: [
        {
          name: 'general.rules',
          file: '/etc/prometheus/rules/prometheus-k8s-rulefiles-0/openshift-monitoring-rules.yaml',
          interval: 30,
          rules: RULES.map((r) => rule(r.name, r.severity)),
        },
        {
          name: 'openshift-kubernetes.rules',
          file: '/etc/prometheus/rules/prometheus-k8s-rulefiles-0/openshift-monitoring-cmo.yaml',
          interval: 30,
          rules: QUIET_RULES.map((r) => rule(r.name, r.severity)),
        },
      ],
    },
  };
}

function routeDocument(name: string, host: string): object {
  return {
    kind: 'Route',
    apiVersion: 'route.openshift.io/v1',
    metadata: { name, namespace: 'openshift-monitoring', labels: { 'app.kubernetes.io/part-of': 'openshift-monitoring' } },
    spec: {
      host,
      port: { targetPort: 'web' },
      tls: { insecureEdgeTerminationPolicy: 'Redirect', termination: 'reencrypt' },
      to: { kind: 'Service', name, weight: 100 },
      wildcardPolicy: 'None',
    },
    status: { ingress: [{ host, routerName: 'default', conditions: [{ type: 'Admitted', status: 'True' }] }] },
  };
}

/** The alerts scenario served now: set at start, switched at run time through /_sim/cluster/alerts?scenario=NAME. */
export interface AlertsState {
  scenario: AlertScenario;
}

/** Switches the scenario (the control request of module.ts); the answer says what is served now. */
export function switchAlerts(state: AlertsState, name: string): string {
  if (!(ALERT_SCENARIOS as readonly string[]).includes(name))
    throw new Error(`no alerts scenario ${JSON.stringify(name)}: expected ${ALERT_SCENARIOS.join(', ')}`);
  state.scenario = name as AlertScenario;
  return `alerts scenario ${name}`;
}

/** The alerts API; `routeHost` is the host the two Routes name. */
export function createAlertsApi(state: AlertsState, stats: Stats, routeHost: string): ResourceApi {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-cache, private' };
  return {
    handles: (pathname) => pathname === '/api/v2/alerts' || pathname === '/api/v1/alerts' || pathname === '/api/v1/rules' || pathname.startsWith(ROUTES),
    handle(req, res, url, account, sendStatus) {
      stats.bump('alerts');
      if (req.method !== 'GET') {
        sendStatus(res, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
        return;
      }
      const now = Date.now();
      if (url.pathname.startsWith(ROUTES)) {
        const name = url.pathname.slice(ROUTES.length);
        if (account !== undefined) {
          stats.bump('forbidden');
          sendStatus(
            res,
            403,
            'Forbidden',
            `routes.route.openshift.io "${name}" is forbidden: User "${account}" cannot get resource "routes" in API group "route.openshift.io" in the namespace "openshift-monitoring"`,
            {
              name,
              group: 'route.openshift.io',
              kind: 'routes',
            },
          );
          return;
        }
        if (name !== 'alertmanager-main' && name !== 'thanos-querier') {
          sendStatus(res, 404, 'NotFound', `routes.route.openshift.io "${name}" not found`, { name, group: 'route.openshift.io', kind: 'routes' });
          return;
        }
        send(res, 200, headers, JSON.stringify(routeDocument(name, routeHost)));
        return;
      }
      if (account !== undefined) {
        // kube-rbac-proxy in front of the stack answers a refusal in plain text.
        stats.bump('forbidden');
        send(res, 403, { 'content-type': 'text/plain; charset=utf-8' }, `Forbidden (user=${account}, verb=get, resource=alertmanagers, subresource=api)\n`);
        return;
      }
      const alerts = scenarioAlerts(state.scenario);
      if (url.pathname === '/api/v2/alerts') send(res, 200, headers, JSON.stringify(gettableAlerts(alerts, now)));
      else if (url.pathname === '/api/v1/alerts') send(res, 200, headers, JSON.stringify(prometheusAlerts(alerts, now)));
      else send(res, 200, headers, JSON.stringify(prometheusRules()));
    },
  };
}

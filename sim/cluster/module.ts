import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { CheckError } from '../../lib/plugin/errors';
import { defineOptions } from '../../lib/plugin/options';
import { send } from '../faults';
import { defineSimModule } from '../module';
import { Stats } from '../server';
import { ALERT_SCENARIOS, createAlertsApi, switchAlerts, type AlertsState } from './alerts';
import { parseLabelSelector } from './label-selector';
import { CONTROL_PLANE_SCENARIOS, createControlPlaneApi } from './control-plane';
import { createMonitoringApi, MONITORING_SCENARIOS } from './monitoring';
import { decodeContinue, NodeStore } from './node-store';
import { changeOperator, createOperatorsApi, OPERATOR_SCENARIOS, type Condition } from './operators';
import { healthyNodes } from './scenarios/healthy';
import { largeNodes } from './scenarios/large';
import { realworldNodes } from './scenarios/realworld';
import { sickNodes } from './scenarios/sick';
import { vcdNodes } from './scenarios/vcd';

/** The account of the second token: it authenticates but lacks the cluster-reader role. */
const NO_READER = 'system:serviceaccount:openshift-infra:no-reader';

const EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Answers with a Kubernetes `Status` object, as the API server does for every error. */
function sendStatus(res: ServerResponse, code: number, reason: string, message: string, details?: object): void {
  const body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
  send(res, code, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' }, JSON.stringify(body));
}

/** A token of a service-account token's usual length (179 characters), in base64url like real ones. */
function newToken(): string {
  return randomBytes(135).toString('base64url').slice(0, 179);
}

function loadScenario(name: string, count: number): Iterable<Record<string, unknown>> {
  if (name === 'healthy' || name === 'off') return healthyNodes();
  if (name === 'sick') return sickNodes();
  if (name === 'large') return largeNodes(count);
  if (name === 'realworld') return realworldNodes();
  if (name === 'vcd') return vcdNodes();
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(name, 'utf8'));
  } catch (e) {
    throw new CheckError(`--cluster-scenario ${name}: not healthy, sick, off, large, realworld or vcd, and not a readable JSON file (${(e as Error).message})`);
  }
  const items = Array.isArray(doc) ? doc : (doc as { items?: unknown })?.items;
  if (!Array.isArray(items)) throw new CheckError(`--cluster-scenario ${name}: expected a NodeList or an array of nodes`);
  return items as Array<Record<string, unknown>>;
}

function writeSecretFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** The simulated cluster API: `GET /api/v1/nodes` with bearer tokens, paging and selectors. */
export const CLUSTER_MODULE = defineSimModule({
  name: 'cluster',
  description: 'cluster API (Kubernetes/OpenShift node list)',
  options: defineOptions([
    {
      long: 'cluster-scenario',
      type: 'string',
      arg: 'NAME|FILE',
      default: 'healthy',
      description:
        'healthy (6 nodes), sick (10 nodes, 4 failing, 1 cordoned), off (healthy nodes, workload monitoring off), large (--cluster-nodes generated nodes), realworld (6 nodes shaped like k3s, GKE, AKS, OpenShift 3.7 and fresh nodes, in pages of 2), vcd (6 nodes that are VMs of --vcd-scenario nodes, named by spec.providerID: worker-2 NotReady with its VM powered off, worker-3 NotReady at 100% cpu, worker-4 NotReady without a VM, worker-5 under memory pressure, found by name), or a JSON file with a NodeList or an array of nodes.',
    },
    { long: 'cluster-nodes', type: 'number', arg: 'N', default: 5000, description: 'How many nodes the large scenario has.' },
    {
      long: 'cluster-monitoring',
      type: 'string',
      arg: 'NAME',
      choices: [...MONITORING_SCENARIOS],
      description:
        'Monitoring stack served (ClusterOperator, cluster-monitoring-config, pods): healthy (workload monitoring on), sick (operator Degraded, prometheus-k8s-0 crash-looping, thanos-ruler-user-workload missing) or off (no ConfigMap). Default: sick with --cluster-scenario sick, off with off, else healthy.',
    },
    {
      long: 'cluster-operators',
      type: 'string',
      arg: 'NAME',
      choices: [...OPERATOR_SCENARIOS],
      description:
        'Cluster operators and cluster version served (OpenShift 4.16, 33 operators): healthy, degraded (etcd Degraded for 2h), unavailable (ingress Available=False for 25m), progressing (network Progressing for 3h), updating (to 4.16.28, 40m in), failing (ClusterVersion Failing: monitoring not available), updates (3 updates offered), sick (degraded, unavailable and progressing at once, updates offered, the update graph unreachable) or none (no config.openshift.io API: plain Kubernetes). Default: sick with --cluster-scenario sick, else healthy.',
    },
    {
      long: 'cluster-control-plane',
      type: 'string',
      arg: 'NAME',
      choices: [...CONTROL_PLANE_SCENARIOS],
      description:
        'Health endpoints, CSRs and pods served (/readyz, /livez, /version v1.27.10, certificatesigningrequests, pods as a list or a Table): healthy, sick (etcd failing in /readyz and /livez, two CSRs pending for 3h) or csr-flood (100,000 CSRs). Default: sick with --cluster-scenario sick, else healthy. Pods: 18-42 a node, 240 of 250 on worker-4 and 229 on worker-5.',
    },
    {
      long: 'cluster-alerts',
      type: 'string',
      arg: 'NAME',
      choices: [...ALERT_SCENARIOS],
      description:
        'Alerts of the monitoring stack, served as Alertmanager (/api/v2/alerts) and Thanos Querier (/api/v1/alerts, /api/v1/rules) on this listener, with the Routes alertmanager-main and thanos-querier of openshift-monitoring: healthy (Watchdog and an info alert), critical (etcdMembersDown critical for 25m, KubePodCrashLooping of the ingress router warning for 2h), silenced (etcdMembersDown silenced, KubePersistentVolumeFillingUp inhibited), tenant (a critical alert of the user-workload stack in namespace shop-prod) or no-watchdog (the Watchdog missing). Default: critical with --cluster-scenario sick, else healthy. GET /_sim/cluster/alerts?scenario=NAME switches it at run time.',
    },
    {
      long: 'cluster-route-host',
      type: 'string',
      arg: 'HOST',
      default: 'localhost',
      description: 'The host the two monitoring Routes name (a check reaches https://HOST:443, through a proxy that sends it here).',
    },
    { long: 'cluster-token', type: 'string', arg: 'TOKEN', description: 'Bearer token the cluster API accepts (default: a new random 179-character token).' },
  ]),
  create(options, stateDir) {
    const scenario = options['cluster-scenario'];
    const count = options['cluster-nodes'];
    if (!Number.isInteger(count) || count < 1) throw new CheckError(`--cluster-nodes ${count}: expected a whole number >= 1`);
    const store = new NodeStore(loadScenario(scenario, count), undefined, { pageCap: scenario === 'realworld' ? 2 : 0 });
    const token = options['cluster-token'] ?? newToken();
    const forbidden = newToken();
    const tokenFile = join(stateDir, 'cluster-token');
    const forbiddenFile = join(stateDir, 'cluster-token-no-reader');
    writeSecretFile(tokenFile, `${token}\n`);
    writeSecretFile(forbiddenFile, `${forbidden}\n`);
    const stats = new Stats();
    let expireNext = 0;
    const monitoringScenario = options['cluster-monitoring'] ?? (scenario === 'sick' || scenario === 'off' ? scenario : 'healthy');
    const monitoring = createMonitoringApi(monitoringScenario, stats);
    const operatorsScenario = options['cluster-operators'] ?? (scenario === 'sick' ? 'sick' : 'healthy');
    const operatorChanges = new Map<string, Condition | null>();
    const operators = createOperatorsApi(operatorsScenario, stats, operatorChanges);
    const controlPlaneScenario = options['cluster-control-plane'] ?? (scenario === 'sick' ? 'sick' : 'healthy');
    const controlPlane = createControlPlaneApi(controlPlaneScenario, store, stats);
    const alertsScenario = options['cluster-alerts'] ?? (scenario === 'sick' ? 'critical' : 'healthy');
    const alertsState: AlertsState = { scenario: alertsScenario };
    const alerts = createAlertsApi(alertsState, stats, options['cluster-route-host']);

    return {
      stats,
      info: {
        scenario,
        monitoring: monitoringScenario,
        operators: operatorsScenario,
        controlPlane: controlPlaneScenario,
        alerts: alertsScenario,
        nodes: String(store.nodes.length),
        listBytes: String(store.totalBytes),
        tokenFile,
        noReaderTokenFile: forbiddenFile,
      },
      handler(req, res, url) {
        if (url.pathname === '/_sim/cluster/operator') {
          // A run-time change of one operator: see changeOperator.
          try {
            const q = url.searchParams;
            send(
              res,
              200,
              { 'content-type': 'text/plain' },
              `${changeOperator(operatorChanges, q.get('name') ?? '', q.get('state') ?? '', q.get('message'))}\n`,
            );
          } catch (error) {
            send(res, 400, { 'content-type': 'text/plain' }, `${(error as Error).message}\n`);
          }
          return;
        }
        if (url.pathname === '/_sim/cluster/alerts') {
          // A run-time switch of the alerts served (the demo and tests walk the scenarios on one simulator).
          try {
            send(res, 200, { 'content-type': 'text/plain' }, `${switchAlerts(alertsState, url.searchParams.get('scenario') ?? '')}\n`);
          } catch (error) {
            send(res, 400, { 'content-type': 'text/plain' }, `${(error as Error).message}\n`);
          }
          return;
        }
        if (url.pathname === '/_sim/cluster/expire') {
          // The next N continue tokens are refused with 410, as after an etcd compaction.
          expireNext += Number(url.searchParams.get('times') ?? 1) || 1;
          send(res, 204, {}, '');
          return;
        }
        const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
        if (!auth || (auth[1] !== token && auth[1] !== forbidden)) {
          stats.bump('unauthorized');
          sendStatus(res, 401, 'Unauthorized', 'Unauthorized');
          return;
        }
        if (monitoring.handles(url.pathname)) {
          monitoring.handle(req, res, url, auth[1] === forbidden ? NO_READER : undefined, sendStatus);
          return;
        }
        if (operators.handles(url.pathname)) {
          operators.handle(req, res, url, auth[1] === forbidden ? NO_READER : undefined, sendStatus);
          return;
        }
        if (alerts.handles(url.pathname)) {
          alerts.handle(req, res, url, auth[1] === forbidden ? NO_READER : undefined, sendStatus);
          return;
        }
        if (controlPlane.handles(url.pathname)) {
          controlPlane.handle(req, res, url, auth[1] === forbidden ? NO_READER : undefined, sendStatus);
          return;
        }
        if (url.pathname !== '/api/v1/nodes') {
          sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource', {});
          return;
        }
        if (auth[1] === forbidden) {
          stats.bump('forbidden');
          sendStatus(res, 403, 'Forbidden', `nodes is forbidden: User "${NO_READER}" cannot list resource "nodes" in API group "" at the cluster scope`, {
            kind: 'nodes',
          });
          return;
        }
        if (req.method !== 'GET') {
          sendStatus(res, 405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`, {});
          return;
        }
        const limit = Math.max(0, Number.parseInt(url.searchParams.get('limit') ?? '0', 10) || 0);
        let start = '';
        const cont = url.searchParams.get('continue');
        if (cont) {
          let key;
          try {
            key = decodeContinue(cont);
          } catch (e) {
            sendStatus(res, 400, 'BadRequest', (e as Error).message);
            return;
          }
          if (expireNext > 0 || key.rv !== store.resourceVersion) {
            if (expireNext > 0) expireNext--;
            stats.bump('expired');
            sendStatus(res, 410, 'Expired', EXPIRED_MESSAGE);
            return;
          }
          start = key.start;
        } else stats.bump('lists');
        const selectorText = url.searchParams.get('labelSelector') ?? '';
        let selector;
        if (selectorText) {
          try {
            selector = { text: selectorText, matches: parseLabelSelector(selectorText) };
          } catch (e) {
            sendStatus(res, 400, 'BadRequest', (e as Error).message);
            return;
          }
        }
        stats.bump('pages');
        const page = store.page(limit, start, selector);
        send(res, 200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private', 'audit-id': randomBytes(16).toString('hex') }, page.body);
      },
    };
  },
});

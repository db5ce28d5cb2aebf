// check_cluster_alerts: the active alerts of a cluster's monitoring stack (Alertmanager, or
// Prometheus / Thanos Querier), the platform's by default, judged by their severity.
import { findMonitoringRoute, probeAlerts, type AlertEndpoint } from '../../lib/cluster/alerts-probe';
import { evaluateAlerts, judgeRules, ruleDiscovery, rulesSeen, WATCHDOG } from '../../lib/cluster/alerts-report';
import { CLUSTER_CA_NOTE, CLUSTER_CREDENTIALS_NOTE, readCluster, TOKEN_ENV } from '../../lib/cluster/target';
import { HTTP_ENVIRONMENT_NOTE } from '../../lib/http/options';
import type { RunContext } from '../../lib/plugin/context';
import { CheckError } from '../../lib/plugin/errors';
import type { Result } from '../../lib/plugin/result';
import { runPlugin } from '../../lib/plugin/run';
import { State } from '../../lib/plugin/state';
import { openSubmission } from '../../lib/submit/submit';
import { configureAlerts, type AlertsConfig } from './config';
import { ALERTS_OPTIONS } from './options';
import { rulePassiveResults, ruleServiceConfig, serviceRules } from './services';

void runPlugin({
  name: 'ALERTS',
  command: 'check_cluster_alerts',
  description:
    "Checks the active alerts of a cluster's monitoring stack: an Alertmanager (API v2) or a Prometheus or Thanos Querier (API v1); on OpenShift 4 it finds the stack's own Route. Firing alerts that are neither silenced nor inhibited count by their severity (critical CRITICAL, warning WARNING, others OK); the platform's alerts by default, not the tenants'. A missing Watchdog alert is CRITICAL: the alerting pipeline is broken. The status line names the worst alerts with their objects and since when.",
  usage:
    'check_cluster_alerts (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH] [--alertmanager-url URL | --prometheus-url URL] [--include MATCHER]... [--exclude MATCHER]... [--min-active DURATION] [--severity-map LIST] [options]',
  secretEnv: [TOKEN_ENV],
  options: ALERTS_OPTIONS,
  examples: [
    'check_cluster_alerts --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem   (OpenShift: finds the Route alertmanager-main)',
    'check_cluster_alerts --alertmanager-url https://alertmanager.example.com --token-file /etc/nagios/am.token --min-active 10m --exclude \'alertname=~"KubeCPUOvercommit|KubeMemoryOvercommit"\'',
    'check_cluster_alerts --prometheus-url https://thanos-querier.apps.example.com --token-file /etc/nagios/cluster.token --severity-map major=CRITICAL,minor=WARNING --include \'namespace=~"openshift-.*"\'',
    'check_cluster_alerts --kubeconfig /etc/nagios/kubeconfig --output json   (Zabbix master item; --discovery for {#ALERTNAME})',
    'check_cluster_alerts --kubeconfig /etc/icinga2/kubeconfig --submit icinga2 --submit-host cluster-prod --icinga2-user cloudchecks-alerts --icinga2-password-file /etc/icinga2/secrets/api-alerts.pw',
  ],
  notes: [
    'Who may read alerts (docs/tokens.md): on OpenShift the Role monitoring-alertmanager-view in openshift-monitoring (Route alertmanager-main) or the ClusterRole cluster-monitoring-view (Route thanos-querier); finding the Route needs get routes in openshift-monitoring (cluster-reader has it).',
    'Platform or tenant: an alert is a tenant\'s when OpenShift\'s user-workload stack raised it (label prometheus="openshift-user-workload-monitoring/…") or its namespace label is outside --platform-namespaces; --all-alerts counts them too.',
    'Per-rule services: --discovery lists the rules; --submit icinga2|nagios hands each rule its verdict as the passive result of service alert-<rule> (contrib/icinga2/cluster-alerts.conf, contrib/nagios/cluster-alerts.cfg: they depend on this check, which alone is the problem when the endpoint cannot be read).',
    CLUSTER_CREDENTIALS_NOTE,
    CLUSTER_CA_NOTE,
    HTTP_ENVIRONMENT_NOTE,
  ],
  async run(options, context) {
    const config = await configureAlerts(options, context);
    const endpoint = config.endpoint ?? (await findEndpoint(config, context));
    const probe = await readCluster(endpoint.target, context, 'reading alerts', (target) =>
      probeAlerts(
        { ...endpoint, target },
        { ...config.get, withRules: endpoint.kind === 'prometheus' && (config.discovery !== undefined || config.submit !== undefined) },
      ),
    );
    const source = endpoint.chosen;
    if (config.discovery) {
      // Watchdog is the pipeline's, judged by this check itself: no service of its own.
      const rules = (probe.rules ?? rulesSeen(probe.alerts)).filter((r) => r.name !== WATCHDOG);
      if (config.discovery.format === 'zabbix') return { state: State.OK, summary: '', raw: ruleDiscovery(rules) };
      const { kept, refused } = serviceRules(rules);
      if (refused > 0) context.log(2, `${refused} rule names left out: an engine service cannot carry them as they are`);
      return { state: State.OK, summary: '', raw: ruleServiceConfig(config.discovery.format, config.discovery.host!, kept) };
    }
    const now = Date.now();
    const result = evaluateAlerts(probe.alerts, { ...config.rules, now }, source);
    const withSource: Result = { ...result, items: [...(result.items ?? []), { name: 'source', state: State.OK, text: `alerts read from ${source}` }] };
    if (!config.submit) return withSource;
    const verdicts = judgeRules(probe.alerts, probe.rules ?? [], { ...config.rules, now });
    return submitRules(withSource, rulePassiveResults(verdicts, config.submit.host), config, context);
  },
});

/** On OpenShift 4, the monitoring stack's own Route, found through the cluster API. */
function findEndpoint(config: AlertsConfig, context: RunContext): Promise<AlertEndpoint> {
  return readCluster(config.cluster!, context, "finding the monitoring stack's Route", (cluster) =>
    findMonitoringRoute(cluster, config.endpointOf, config.get),
  );
}

/** Hands each rule's result to the engine; the check's own result says how many reached it. */
async function submitRules(result: Result, results: ReturnType<typeof rulePassiveResults>, config: AlertsConfig, context: RunContext): Promise<Result> {
  const submission = openSubmission(config.submit!.engine, context);
  try {
    await submission.add(results);
    const outcome = await submission.finish();
    const missing = outcome.missingCount > 0 ? `, ${outcome.missingCount} not: ${outcome.engine} has no such service (rerun the discovery)` : '';
    return {
      ...result,
      state: outcome.missingCount > 0 && result.state === State.OK ? State.WARNING : result.state,
      summary: `${result.summary}; ${results.length} rule results submitted to ${outcome.engine}${missing}`,
      metrics: [...(result.metrics ?? []), { label: 'submitted', value: outcome.submitted, min: 0 }],
      items: [
        ...outcome.missing.map((name) => ({ name, state: State.WARNING, text: `${name}: no such service in ${outcome.engine}; rerun the discovery` })),
        ...(result.items ?? []),
      ],
    };
  } catch (error) {
    if (!(error instanceof CheckError) || context.signal.aborted) throw error;
    const done = submission.submitted;
    throw new CheckError(
      `${done === 0 ? `${results.length} rule results not submitted` : `${done} of ${results.length} rule results submitted, the rest not`}: ${error.message}`,
      { cause: error },
    );
  } finally {
    submission.close();
  }
}

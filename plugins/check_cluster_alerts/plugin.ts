// check_cluster_alerts: the active alerts of a cluster's monitoring stack (Alertmanager, or
// Prometheus / Thanos Querier), the platform's by default, judged by their severity.
import { findMonitoringRoute, probeAlerts, type AlertEndpoint } from '../../lib/cluster/alerts-probe';
import {
  evaluateAlerts,
  isWatchdogMissing,
  judgeRules,
  ruleDiscovery,
  ruleServiceName,
  rulesSeen,
  WATCHDOG,
  type RuleVerdict,
} from '../../lib/cluster/alerts-report';
import { clusterPlugin } from '../cluster-family';
import { readCluster } from '../../lib/cluster/target';
import type { RunContext } from '../../lib/plugin/context';
import { defaultCacheDir, entryName, PrivateCache } from '../../lib/plugin/private-cache';
import { CheckError } from '../../lib/plugin/errors';
import { jsonDocument, oneLine, type Result } from '../../lib/plugin/result';
import { State, stateName } from '../../lib/plugin/state';
import { unjudgedMetric } from '../../lib/plugin/scalar-context';
import { openSubmission } from '../../lib/submit/submit';
import { configureAlerts, type AlertsConfig } from './config';
import { ALERTS_OPTIONS } from './options';
import { rulePassiveResults, ruleServiceConfig, serviceRules } from './services';

const ALERTS_NAME = 'ALERTS';

/** check_cluster_alerts' definition. */
export const plugin = clusterPlugin({
  name: ALERTS_NAME,
  command: 'check_cluster_alerts',
  description:
    "Checks the active alerts of a cluster's monitoring stack: an Alertmanager (API v2) or a Prometheus or Thanos Querier (API v1); on OpenShift 4 it finds the stack's own Route. Firing alerts that are neither silenced nor inhibited count by their severity (critical CRITICAL, warning WARNING, others OK); the platform's alerts by default, not the tenants'. A missing Watchdog alert is CRITICAL: the alerting pipeline is broken. The status line names the worst alerts with their objects and since when.",
  usage:
    '[--alertmanager-url URL | --prometheus-url URL] [--include MATCHER]... [--exclude MATCHER]... [--min-active DURATION] [--severity-map LIST] [options]',
  // An engine configuration written with > gets no status line in it: a failure goes to stderr.
  failuresToStderr: (argv) =>
    argv.some((a, i) => /^--discovery-format=(icinga2|nagios)$/.test(a) || (a === '--discovery-format' && /^(icinga2|nagios)$/.test(argv[i + 1] ?? ''))),
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
      // Rule names are the stack's (tenants write rules): only those an engine item or service can carry as they are.
      const { kept, refused } = serviceRules(rules);
      if (refused > 0) context.log(2, `${refused} rule names left out: an engine service cannot carry them as they are`);
      if (config.discovery.format === 'zabbix') return { state: State.OK, summary: '', raw: ruleDiscovery(kept) };
      return { state: State.OK, summary: '', raw: ruleServiceConfig(config.discovery.format, config.discovery.host!, kept) };
    }
    const now = Date.now();
    const result = evaluateAlerts(probe.alerts, { ...config.rules, now }, source);
    const withSource: Result = { ...result, items: [...(result.items ?? []), { name: 'source', state: State.OK, text: `alerts read from ${source}` }] };
    if (options.output === 'json') return withRules(withSource, judgeRules(probe.alerts, [], { ...config.rules, now }));
    if (!config.submit) return withSource;
    const memory = firingMemory(config, endpoint, context);
    const known = [...(probe.rules ?? []), ...memory.recall().map((name) => ({ name }))];
    const verdicts = judgeRules(probe.alerts, known, { ...config.rules, now });
    // The runner's own state is the pipeline's: each alert's state is its rule service's, and
    // the rule services depend on the runner (a CRITICAL runner would silence them).
    const runner: Result = { ...withSource, state: isWatchdogMissing(probe.alerts, config.rules) ? State.CRITICAL : State.OK };
    const submitted = await submitRules(runner, rulePassiveResults(verdicts, config.submit.host), config, context);
    memory.keep(verdicts.filter((v) => v.state !== State.OK).map((v) => v.rule));
    return submitted;
  },
});

/**
 * --output json with each rule whose counted alerts make it WARNING or CRITICAL under `rules`
 * (name → state, code, summary): the Zabbix items of the rules read their rule there, and a
 * rule not named is OK. A failed run has no `rules` at all, so those items keep their last value.
 */
function withRules(result: Result, verdicts: readonly RuleVerdict[]): Result {
  const rules = Object.fromEntries(
    verdicts
      .filter((v) => v.state !== State.OK && ruleServiceName(v.rule) !== undefined)
      .map((v) => [v.rule, { state: stateName(v.state), code: v.state, summary: oneLine(v.summary) }]),
  );
  return { ...result, raw: JSON.stringify({ ...jsonDocument(ALERTS_NAME, result), rules }) + '\n' };
}

/** On OpenShift 4, the monitoring stack's own Route, found through the cluster API. */
function findEndpoint(config: AlertsConfig, context: RunContext): Promise<AlertEndpoint> {
  return readCluster(config.cluster!, context, "finding the monitoring stack's Route", (cluster) =>
    findMonitoringRoute(cluster, config.endpointOf, config.get),
  );
}

/** Rules kept at most in the memory of firing rules: far more than fire at once on any cluster. */
const MAX_REMEMBERED_RULES = 1000;

/**
 * The rules that were not OK in the last run that reached the engine, kept in the private
 * cache: an Alertmanager lists firing alerts only, so a rule that stopped firing would get no
 * result and its service would keep its last state. Each run also submits these, OK now
 * ("not firing"). A cache that cannot be used costs that only (noted at -vv).
 */
function firingMemory(config: AlertsConfig, endpoint: AlertEndpoint, context: RunContext) {
  const cache = new PrivateCache(config.cacheDir ?? defaultCacheDir(), {
    maxEntryBytes: 256 * 1024,
    label: 'rule cache',
    fallback: 'a rule that stopped firing keeps its last result',
  });
  const binding = { endpoint: endpoint.target.url.href, host: config.submit!.host, engine: config.submit!.engine.mode };
  const name = entryName('alert-rules', binding);
  const said = () => cache.notes.splice(0).forEach((n) => context.log(2, n));
  return {
    recall(): string[] {
      const hit = cache.read(name, binding, (d) => (Array.isArray(d) && d.every((x) => typeof x === 'string') ? (d as string[]) : undefined));
      said();
      return hit?.value.slice(0, MAX_REMEMBERED_RULES) ?? [];
    },
    keep(rules: readonly string[]): void {
      cache.write(name, binding, rules.slice(0, MAX_REMEMBERED_RULES));
      said();
    },
  };
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
      metrics: [...(result.metrics ?? []), unjudgedMetric('submitted', outcome.submitted, { min: 0 })],
      items: [
        ...outcome.missing.map(({ host, services }) => ({
          name: host,
          state: State.WARNING,
          text: `${host}: no ${services.join(', ')} in ${outcome.engine}; rerun the discovery`,
        })),
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

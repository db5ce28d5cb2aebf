import { DEFAULT_MAX_ALERTS } from '../../lib/cluster/alerts-probe';
import { DEFAULT_PLATFORM_NAMESPACES } from '../../lib/cluster/alerts-report';
import { CLUSTER_OPTIONS } from '../../lib/cluster/target';
import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, optionNamed, type PluginOptions } from '../../lib/plugin/options';
import { SUBMIT_OPTIONS } from '../../lib/submit/options';

/** The per-rule services take results from Icinga 2 or Nagios; Zabbix takes --output json on a master item. */
export const RULE_SUBMIT_MODES = ['icinga2', 'nagios'] as const;
export const RULE_DISCOVERY_FORMATS = ['zabbix', 'icinga2', 'nagios'] as const;

/** The options of check_cluster_alerts, in --help order. */
export const ALERTS_OPTIONS = defineOptions([
  ...CLUSTER_OPTIONS,
  ...HTTP_OPTIONS,
  {
    long: 'alertmanager-url',
    type: 'string',
    arg: 'URL',
    description:
      'Read the alerts of this Alertmanager (API v2, GET URL/api/v2/alerts): it knows silences and inhibitions. Without this and --prometheus-url, on OpenShift 4, the Route alertmanager-main of openshift-monitoring is used (else thanos-querier).',
  },
  {
    long: 'prometheus-url',
    type: 'string',
    arg: 'URL',
    description:
      'Read the alerts of this Prometheus or Thanos Querier instead (GET URL/api/v1/alerts; --discovery also reads URL/api/v1/rules). It knows no silences.',
  },
  {
    long: 'alerts-ca-file',
    type: 'string',
    arg: 'PATH',
    description:
      "PEM CA of the alerts endpoint, the only one trusted for it (an OpenShift Route carries the ingress certificate, not the API server's). Default: the system CAs and the cluster's CA (--ca-file, kubeconfig).",
  },
  {
    long: 'severity-map',
    type: 'string',
    arg: 'LIST',
    default: 'critical=CRITICAL,warning=WARNING',
    description:
      'The state of a firing alert by its severity label, as severity=STATE pairs (e.g. critical=CRITICAL,major=CRITICAL,warning=WARNING,minor=WARNING; pairs given add to and replace the default ones). Any other severity (info, none, absent) is OK, listed with -v.',
  },
  {
    long: 'no-watchdog',
    type: 'boolean',
    description:
      'Do not require the always-firing Watchdog alert (kube-prometheus, OpenShift). By default its absence is CRITICAL: the alerting pipeline is broken and no other alert would reach anyone.',
  },
  {
    long: 'include',
    type: 'list',
    arg: 'MATCHER',
    description:
      'Count only alerts that match, in Alertmanager\'s syntax: name="value", name!="value", name=~"regex", name!~"regex" (regexes match the whole value). Repeatable: every --include must match.',
  },
  {
    long: 'exclude',
    type: 'list',
    arg: 'MATCHER',
    description: 'Leave out alerts that match (same syntax). Repeatable: any --exclude that matches leaves the alert out.',
  },
  {
    long: 'min-active',
    type: 'string',
    arg: 'DURATION',
    description: 'An alert counts once it has been firing this long (90s, 15m, 1h): a flapping alert that fires for a minute pages nobody.',
  },
  {
    long: 'all-alerts',
    type: 'boolean',
    description:
      "Count the tenants' alerts too. By default only the platform's count: an alert raised by OpenShift's user-workload stack (label prometheus=\"openshift-user-workload-monitoring/...\") or about a namespace outside --platform-namespaces is a tenant's (counted at -v, never judged).",
  },
  {
    long: 'platform-namespaces',
    type: 'string',
    arg: 'REGEX',
    default: DEFAULT_PLATFORM_NAMESPACES,
    description:
      "The platform's namespaces (the whole name must match), as OpenShift's own rules scope theirs; alerts without a namespace label are the platform's.",
  },
  {
    long: 'max-alerts',
    type: 'number',
    arg: 'N',
    default: DEFAULT_MAX_ALERTS,
    description: 'UNKNOWN when the endpoint lists more alerts (or rules) than this (a broken or hostile endpoint cannot exhaust memory).',
  },
  {
    long: 'discovery',
    type: 'boolean',
    description:
      'List the alerting rules (a Prometheus or Thanos endpoint: URL/api/v1/rules; an Alertmanager: the names of the alerts it holds) in --discovery-format and exit 0: one service per rule.',
  },
  {
    long: 'discovery-format',
    type: 'string',
    arg: 'FORMAT',
    default: 'zabbix',
    choices: RULE_DISCOVERY_FORMATS,
    description:
      'zabbix: low-level discovery JSON [{"{#ALERTNAME}":"KubePodCrashLooping","{#SEVERITY}":"warning"},...]; icinga2 or nagios: one passive service alert-<rule> per rule on --submit-host (contrib/icinga2/cluster-alerts.conf, contrib/nagios/cluster-alerts.cfg).',
  },
  {
    long: 'submit',
    type: 'string',
    arg: 'ENGINE',
    choices: RULE_SUBMIT_MODES,
    description:
      "Hand each rule's verdict to the engine as the passive result of service alert-<rule> on --submit-host: icinga2 (REST API process-check-result) or nagios (the external command file). A rule with no counted alert firing is OK (the rules listed by a Prometheus endpoint, those seen, and those the last run found firing, kept in --cache-dir). The plugin's own state is then the pipeline's (CRITICAL only when Watchdog is missing, UNKNOWN when the alerts cannot be read): each alert's state is its rule service's, and the rule services depend on this one. Its line says how many results were submitted.",
  },
  {
    long: 'submit-host',
    type: 'string',
    arg: 'NAME',
    description: "With --submit or --discovery-format icinga2|nagios: the engine host that carries the per-rule services (the cluster's host object).",
  },
  optionNamed(SUBMIT_OPTIONS, 'icinga2-url'),
  optionNamed(SUBMIT_OPTIONS, 'icinga2-user'),
  optionNamed(SUBMIT_OPTIONS, 'icinga2-password-file'),
  optionNamed(SUBMIT_OPTIONS, 'icinga2-password'),
  optionNamed(SUBMIT_OPTIONS, 'icinga2-ca-file'),
  optionNamed(SUBMIT_OPTIONS, 'icinga2-server-name'),
  optionNamed(SUBMIT_OPTIONS, 'nagios-command-file'),
]);

/** check_cluster_alerts' options as parsed. */
export type AlertsOptions = PluginOptions<typeof ALERTS_OPTIONS>;

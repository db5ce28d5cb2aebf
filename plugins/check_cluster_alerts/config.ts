import { parseMatcher } from '../../lib/cluster/alert-matchers';
import type { AlertEndpoint, AlertEndpointKind, AlertGetOptions } from '../../lib/cluster/alerts-probe';
import { DEFAULT_SEVERITY_MAP, type AlertRules } from '../../lib/cluster/alerts-report';
import type { ClusterTarget } from '../../lib/cluster/client';
import { clusterTargetFrom, TOKEN_ENV } from '../../lib/cluster/target';
import { readCaFile } from '../../lib/http/ca-file';
import { requireTlsUnlessAllowed, tlsSettingsFrom } from '../../lib/http/options';
import type { TlsSettings } from '../../lib/http/request';
import type { RunContext } from '../../lib/plugin/context';
import { clusterGetOptions } from '../cluster-family';
import { hasControlCharacters } from '../../lib/plugin/control-characters';
import { parseDuration } from '../../lib/plugin/duration';
import { UsageError } from '../../lib/plugin/errors';
import { compileLinearRegExp } from '../../lib/plugin/linear-regexp';
import { positiveInteger } from '../../lib/plugin/options';
import { parseState, State } from '../../lib/plugin/state';
import { DEFAULT_ZABBIX_KEY, submitConfigFrom, type SubmitConfig } from '../../lib/submit/options';
import type { AlertsOptions } from './options';

/** Everything check_cluster_alerts' options say, validated before the first request. */
export interface AlertsConfig {
  /** The endpoint, when --alertmanager-url or --prometheus-url names it. */
  endpoint?: AlertEndpoint;
  /** The cluster API, when the endpoint is to be found there (OpenShift's Routes). */
  cluster?: ClusterTarget;
  /** The target of an endpoint found at `url`: the cluster's credential, the endpoint's TLS trust. */
  endpointOf: (url: URL) => ClusterTarget;
  rules: Omit<AlertRules, 'now'>;
  discovery?: { format: 'zabbix' | 'icinga2' | 'nagios'; host?: string };
  submit?: { engine: NonNullable<SubmitConfig>; host: string };
  get: AlertGetOptions;
  /** --cache-dir: where the rules last submitted not OK are kept (--submit). */
  cacheDir?: string;
}

/** --severity-map: `severity=STATE` pairs, added to (and replacing) critical=CRITICAL,warning=WARNING. */
export function parseSeverityMap(text: string): Map<string, State> {
  const map = new Map(DEFAULT_SEVERITY_MAP);
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9_.-]{1,40})=([A-Za-z]+)$/.exec(pair);
    const state = m ? parseState(m[2]) : undefined;
    if (!m || state === undefined || state === State.UNKNOWN)
      throw new UsageError(
        `invalid --severity-map entry ${JSON.stringify(pair)}: expected severity=STATE with STATE OK, WARNING or CRITICAL, e.g. major=CRITICAL,minor=WARNING`,
      );
    map.set(m[1].toLowerCase(), state);
  }
  return map;
}

function parseEndpointUrl(text: string, option: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: expected https://HOST[:PORT][/PATH]`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`invalid ${option} ${url.origin}: expected https://`);
  if (url.search || url.hash || url.username || url.password)
    throw new UsageError(`invalid ${option}: give the URL without query, fragment or user (the credential comes from --token-file)`);
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api\/v[12](\/alerts)?$/, '');
  return url;
}

/** The trust of an endpoint found beside the cluster: -k, --alerts-ca-file alone, or the system CAs with the cluster's CA added. */
function endpointTls(cluster: TlsSettings, options: AlertsOptions): TlsSettings {
  if (options.insecure) return { insecure: true };
  const proxy = cluster.proxy ? { proxy: cluster.proxy } : {};
  const own = options['alerts-ca-file'];
  if (own) return { ca: readCaFile(own, '--alerts-ca-file'), caOnly: true, caSource: '--alerts-ca-file', ...proxy };
  return cluster.ca ? { ca: cluster.ca, caSource: cluster.caSource, ...proxy } : { ...proxy };
}

/** An endpoint read without a credential: TLS as --ca-file and -k say, plain http:// only with --allow-http. */
function anonymousTarget(url: URL, options: AlertsOptions, option: string, context: RunContext): ClusterTarget {
  requireTlsUnlessAllowed(url, options, option, context.notes);
  context.notes.add(`no credential given: ${url.origin} is read without one`);
  const tls = tlsSettingsFrom(options);
  return { url, tokenSource: 'no credential (give --token-file if the endpoint asks for one)', tls: tls.ca ? { ...tls, caOnly: true } : tls };
}

/** The engine host of the per-rule services: a name an engine object may carry. */
function submitHost(options: AlertsOptions, why: string): string {
  const host = options['submit-host'];
  if (!host) throw new UsageError(`${why} needs --submit-host (the engine host that carries the per-rule services)`);
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.:@-]{0,200}$/.test(host) || hasControlCharacters(host))
    throw new UsageError(`invalid --submit-host ${JSON.stringify(host)}: letters, digits and _.:@- only`);
  return host;
}

/** The options of check_cluster_alerts as its config. */
export async function configureAlerts(options: AlertsOptions, context: RunContext): Promise<AlertsConfig> {
  const am = options['alertmanager-url'];
  const prom = options['prometheus-url'];
  if (am !== undefined && prom !== undefined) throw new UsageError('give either --alertmanager-url or --prometheus-url, not both');
  const given = am ?? prom;
  const option = am !== undefined ? '--alertmanager-url' : '--prometheus-url';
  const kind: AlertEndpointKind = am !== undefined ? 'alertmanager' : 'prometheus';
  const explicitUrl = given === undefined ? undefined : parseEndpointUrl(given, option);
  const clusterGiven = options.url !== undefined || options.hostname !== undefined || options.kubeconfig !== undefined || options.context !== undefined;
  let endpoint: AlertEndpoint | undefined;
  let cluster: ClusterTarget | undefined;
  let endpointOf: (url: URL) => ClusterTarget;
  if (explicitUrl && !clusterGiven) {
    // The endpoint is the only server: the cluster options' credentials and TLS are its own; an
    // Alertmanager or Prometheus that asks for none (inside a trusted network) is read without.
    const credentialGiven =
      options['token-file'] !== undefined || options.token !== undefined || options['client-cert'] !== undefined || (process.env[TOKEN_ENV] ?? '') !== '';
    const target = credentialGiven
      ? await clusterTargetFrom({ ...options, url: explicitUrl.href }, context, context.notes)
      : anonymousTarget(explicitUrl, options, option, context);
    endpoint = { kind, target, chosen: `${option} ${explicitUrl.href}` };
    endpointOf = () => target;
  } else {
    cluster = await clusterTargetFrom(options, context, context.notes);
    const clusterTarget = cluster;
    endpointOf = (url) => {
      if (clusterTarget.token === undefined)
        throw new UsageError(`the alerts endpoint ${url.origin} takes a bearer token, and the cluster credential is a client certificate: give --token-file`);
      return { url, token: clusterTarget.token, tokenSource: clusterTarget.tokenSource, credential: 'token', tls: endpointTls(clusterTarget.tls, options) };
    };
    if (explicitUrl) {
      requireTlsUnlessAllowed(explicitUrl, options, option, context.notes);
      endpoint = { kind, target: endpointOf(explicitUrl), chosen: `${option} ${explicitUrl.href}` };
    }
  }
  const minActive = options['min-active'];
  const discovery = options.discovery ? { format: options['discovery-format'] } : undefined;
  const submit = options.submit
    ? {
        host: submitHost(options, `--submit ${options.submit}`),
        engine: submitConfigFrom(
          { ...options, 'zabbix-server': '127.0.0.1', 'zabbix-port': 10051, 'zabbix-host': undefined, 'zabbix-key': DEFAULT_ZABBIX_KEY },
          context,
        )!,
      }
    : undefined;
  if (submit && discovery) throw new UsageError('--submit and --discovery do not go together: discover the rules first, then submit their results');
  return {
    endpoint,
    cluster,
    endpointOf,
    rules: {
      severityMap: parseSeverityMap(options['severity-map']),
      include: options.include.map((m) => parseMatcher(m, '--include')),
      exclude: options.exclude.map((m) => parseMatcher(m, '--exclude')),
      allAlerts: options['all-alerts'],
      platformNamespaces: compileLinearRegExp(`^(?:${options['platform-namespaces']})$`, '--platform-namespaces'),
      minActive: minActive === undefined ? undefined : parseDuration(minActive, '--min-active', { maxSeconds: 30 * 86400, days: true }),
      watchdog: !options['no-watchdog'],
      listAll: context.verbose >= 1 || options.output === 'json',
    },
    discovery: discovery && discovery.format !== 'zabbix' ? { ...discovery, host: submitHost(options, `--discovery-format ${discovery.format}`) } : discovery,
    submit,
    cacheDir: options['cache-dir'],
    get: {
      ...clusterGetOptions(options, context),
      maxAlerts: positiveInteger(options['max-alerts'], '--max-alerts'),
    },
  };
}

// `enableUserWorkload` in the config.yaml of ConfigMap cluster-monitoring-config:
// the switch for workload (user project) monitoring.
import { CheckError } from '../plugin/errors';
import { boundedExcerpt } from '../plugin/server-text';
import { parseYamlBounded, YamlLimitError } from '../plugin/yaml-bounds';
import { jsonKind } from './shape-error';

export const MONITORING_CONFIGMAP = 'cluster-monitoring-config';
export const CONFIG_KEY = 'config.yaml';
/** Kubernetes refuses a ConfigMap whose data exceeds 1 MiB: a longer config.yaml came from no API server. */
export const MAX_CONFIG_CHARS = 1024 * 1024;

/** What the ConfigMap says about workload monitoring, and why. */
export interface MonitoringConfig {
  userWorkload: boolean;
  /** Why: `no ConfigMap ns/name`, `no config.yaml in ConfigMap ns/name`, `enableUserWorkload: true in …`. */
  source: string;
}

/**
 * Reads `enableUserWorkload` from the ConfigMap (undefined when it does not exist). A missing
 * ConfigMap, key or setting means false, the platform's default. YAML that does not parse,
 * or a value that is not a boolean, is a CheckError naming the ConfigMap and the line.
 *
 * The cluster monitoring operator reads config.yaml as YAML 1.1 (go-yaml v2), where `yes`
 * and `on` are booleans too, so it is parsed here with the 1.1 schema. A quoted "true" is a
 * string, which the operator refuses to decode into its boolean: that is reported, not guessed.
 */
export async function readMonitoringConfig(configMap: Record<string, unknown> | undefined, namespace: string): Promise<MonitoringConfig> {
  const where = `ConfigMap ${namespace}/${MONITORING_CONFIGMAP}`;
  if (configMap === undefined) return { userWorkload: false, source: `no ${where}` };
  if (configMap.kind !== undefined && configMap.kind !== 'ConfigMap')
    throw new CheckError(
      `${where}: the API answered with ${typeof configMap.kind === 'string' ? `kind ${JSON.stringify(boundedExcerpt(configMap.kind, 60))}` : `a kind that is ${jsonKind(configMap.kind)}`}, not a ConfigMap; check that --url is the Kubernetes API server`,
    );
  const data = configMap.data;
  const text = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[CONFIG_KEY] : undefined;
  if (typeof text !== 'string') return { userWorkload: false, source: `no ${CONFIG_KEY} in ${where}` };
  if (text.length > MAX_CONFIG_CHARS)
    throw new CheckError(
      `${where}: ${CONFIG_KEY} is ${text.length} characters long, more than a ConfigMap may hold (1 MiB); check that --url is the Kubernetes API server`,
    );
  const value = await parseUserWorkloadSetting(text, namespace);
  if (value.value === undefined) return { userWorkload: false, source: `enableUserWorkload not set in ${where}` };
  return { userWorkload: value.value, source: `enableUserWorkload: ${value.value} in ${where}` };
}

/**
 * A config.yaml of every monitoring setting there is holds a few thousand tokens and nests
 * some ten deep: far more is no configuration, and would hold the check past -t.
 */
const CONFIG_LIMITS = { maxTokens: 100_000, maxDepth: 256, maxAliases: 100 };

/** Parses config.yaml text and returns its top-level enableUserWorkload (undefined when absent). */
export async function parseUserWorkloadSetting(text: string, namespace: string): Promise<{ value?: boolean; line?: number }> {
  const where = `ConfigMap ${namespace}/${MONITORING_CONFIGMAP}`;
  // Loaded here only: the YAML parser is not needed by any other part of a run.
  const { isMap, isScalar } = await import('yaml');
  let doc;
  try {
    doc = await parseYamlBounded(text, { version: '1.1' }, { ...CONFIG_LIMITS, what: `reading ${CONFIG_KEY} of ${where}` });
  } catch (error) {
    if (!(error instanceof YamlLimitError)) throw error;
    throw new CheckError(
      `${where}: ${CONFIG_KEY} ${error.message}, far more than any monitoring configuration; fix it with oc -n ${namespace} edit configmap ${MONITORING_CONFIGMAP}`,
    );
  }
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : text.slice(0, offset).split('\n').length);
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line ?? lineOf(e.pos?.[0]);
    const why = boundedExcerpt(e.message.split('\n', 1)[0].replace(/ at line \d+, column \d+:?$/, ''), 200);
    throw new CheckError(
      `${where}: ${CONFIG_KEY} is not valid YAML at line ${line ?? '?'} (${why}); fix it with oc -n ${namespace} edit configmap ${MONITORING_CONFIGMAP}`,
    );
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return {};
  if (!isMap(root)) throw new CheckError(`${where}: ${CONFIG_KEY} is not a YAML mapping of settings (line 1); expected e.g. "enableUserWorkload: true"`);
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'enableUserWorkload');
  if (pair === undefined) return {};
  const node = pair.value;
  const line = lineOf(isScalar(node) ? node.range?.[0] : (pair.key as { range?: number[] } | null)?.range?.[0]);
  if (isScalar(node) && typeof node.value === 'boolean') return { value: node.value, line };
  const shown = isScalar(node) ? JSON.stringify(typeof node.value === 'string' ? boundedExcerpt(node.value, 60) : node.value) : 'not a single value';
  throw new CheckError(
    `${where}: enableUserWorkload at line ${line ?? '?'} of ${CONFIG_KEY} is ${shown}, not a boolean, and the monitoring operator does not accept it; write enableUserWorkload: true (or false) without quotes`,
  );
}

import { HTTP_ENVIRONMENT_NOTE, HTTP_OPTIONS, maxBytesFrom, requireTlsUnlessAllowed, tlsSettingsFrom } from '../http/options';
import { CheckError, UsageError } from '../plugin/errors';
import type { OptionSpec, ParsedOptions } from '../plugin/options';
import type { Metric as PerfMetric } from '../plugin/perfdata';
import { parseRange, type ValueParser } from '../plugin/range';
import type { Item, Result } from '../plugin/result';
import type { PluginDefinition } from '../plugin/run';
import { parseState, State } from '../plugin/state';
import { describeThresholdSlip, type Thresholds } from '../plugin/threshold';
import type { RunContext } from '../plugin/context';
import { readSecretFile } from '../plugin/secret-file';
import { fetchMetrics } from './client';
import type { VcdConnection } from './connection';
import { formatDuration, parseDuration } from './duration';
import type { Credentials } from './login';
import { parseCurrentUsage, parseHistoricUsage, type MetricName } from './metrics';
import { cacheKey, defaultCacheDir, SessionCache } from './session-cache';
import { parseVmId } from './vm-id';
import { AGGREGATES, aggregateWindow, checkStaleness, type Aggregate } from './window';

/** What a profile is given to word its result. */
export interface Measurements {
  /** Values by metric name; a metric the server did not send is absent. */
  values: ReadonlyMap<MetricName, number>;
  /** The --metric chosen (the profile's first choice by default). */
  metric: string;
  thresholds: Thresholds;
  /** `vm-<guid>`. */
  vm: string;
  /** `current`, or e.g. `avg 15m`. */
  mode: string;
}

/** What one VM check reads and how it words its result (SPEC 4.5); the rest is shared. */
export interface VmCheckProfile {
  name: string;
  command: string;
  description: string;
  /** --metric choices, the default first; none: the check has one metric. */
  metrics?: readonly string[];
  metricHelp?: string;
  /** Metric names the chosen --metric cannot do without (missing → UNKNOWN naming it). */
  needs(metric: string): MetricName[];
  /** Every metric name shown in perfdata (absent ones print as U). */
  reads: readonly MetricName[];
  /** Thresholds when -w/-c are not given: percentages default to 80/90. */
  defaultThresholds(metric: string): { warning?: string; critical?: string };
  /** Parses threshold numbers of the chosen metric (e.g. sizes such as 500G). */
  thresholdParser?(metric: string): ValueParser | undefined;
  thresholdHelp?: string;
  /** Turns the measurements into state, summary and perfdata. */
  evaluate(m: Measurements): Result;
  examples: readonly string[];
}

const VCD_OPTIONS: readonly OptionSpec[] = [
  { long: 'url', short: 'u', type: 'string', arg: 'URL', description: "The vCD API host of the VM's region, e.g. https://vcd.example.com (any path is ignored)." },
  { long: 'vm', type: 'string', arg: 'ID', description: "The VM: vm-<guid>, the bare GUID, or the URL of the VM's page in the vCD web console." },
  { long: 'user', short: 'U', type: 'string', arg: 'NAME', description: 'vCD user name (without @org).' },
  { long: 'org', short: 'o', type: 'string', arg: 'ORG', description: 'vCD organisation of the user; System for a provider account.' },
  { long: 'password-file', type: 'string', arg: 'PATH', description: 'File holding the password (one line). Without it: --password, else $VCD_PASSWORD.' },
  { long: 'password', type: 'string', arg: 'TEXT', secret: true, description: 'The password, when there is no --password-file. Put it in an --extra-opts file (password=...): on the command line every local user sees it in the process list.' },
  { long: 'api-token-file', type: 'string', arg: 'PATH', description: 'File holding a vCD API token (OAuth refresh token), used instead of a password; needs --org.' },
  { long: 'api-version', type: 'string', arg: 'VERSION', default: '34.0', description: 'vCD API version asked for in the Accept header.' },
  { long: 'cache-dir', type: 'string', arg: 'DIR', description: 'Where sessions are kept between runs (default $XDG_CACHE_HOME/cloudchecks or ~/.cache/cloudchecks).' },
  { long: 'no-cache', type: 'boolean', description: 'Do not keep the session: log in and log out on every run (vCD counts sessions; prefer the cache).' },
  { long: 'window', type: 'string', arg: 'DURATION', description: 'Use the historic series over the last DURATION (e.g. 15m, 1h; at most 24h) instead of current values.' },
  { long: 'aggregate', type: 'string', arg: 'FUNC', default: 'avg', choices: AGGREGATES, description: 'How --window reduces samples to one value: avg, max, min or last.' },
  { long: 'max-age', type: 'string', arg: 'DURATION', description: "With --window: UNKNOWN when a needed series' newest sample is older (default 3 × the series' interval: 15m, or 90m for disk sizes)." },
  { long: 'powered-off-state', type: 'string', arg: 'STATE', default: 'UNKNOWN', description: 'State when the VM is powered off and vCD refuses current metrics (OK, WARNING, CRITICAL, UNKNOWN).' },
];

const MAX_WINDOW_SECONDS = 24 * 3600;

/** A password or API token from its file: one trailing newline dropped, registered as a secret. */
function readCredentialFile(path: string, option: string, context: RunContext, warnings: string[]): string {
  const value = readSecretFile(path, option, warnings).replace(/\r?\n$/, '');
  context.addSecret(value);
  if (value.trim() === '') throw new CheckError(`${option} ${path} is empty`);
  return value;
}

function credentialsFrom(options: ParsedOptions, context: RunContext, warnings: string[]): Credentials {
  const org = options.org as string | undefined;
  const user = options.user as string | undefined;
  if (!org) throw new UsageError('missing -o/--org (the vCD organisation; System for a provider account)');
  const tokenFile = options['api-token-file'] as string | undefined;
  if (tokenFile) return { kind: 'api-token', org, user, refreshToken: readCredentialFile(tokenFile, '--api-token-file', context, warnings) };
  if (!user) throw new UsageError('missing -U/--user (or --api-token-file)');
  const file = options['password-file'] as string | undefined;
  const password = file ? readCredentialFile(file, '--password-file', context, warnings) : ((options.password as string | undefined) ?? process.env.VCD_PASSWORD);
  if (!password) throw new UsageError(`no password for ${user}@${org}: give --password-file, set VCD_PASSWORD, or put password= in an --extra-opts file`);
  context.addSecret(password);
  return { kind: 'password', user, org, password };
}

function baseUrl(text: string | undefined): URL {
  if (!text) throw new UsageError('missing -u/--url (the vCD API host, e.g. https://vcd.example.com)');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid --url ${JSON.stringify(text)}: expected https://host[:port]`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`invalid --url ${JSON.stringify(text)}: expected https://host[:port]`);
  return new URL(url.origin);
}

/** Everything the options say, validated before any request is made. */
function configure(profile: VmCheckProfile, options: ParsedOptions) {
  const metric = profile.metrics ? (options.metric as string) : '';
  const parser = profile.thresholdParser?.(metric);
  const defaults = profile.defaultThresholds(metric);
  const warningText = (options.warning as string | undefined) ?? defaults.warning;
  const criticalText = (options.critical as string | undefined) ?? defaults.critical;
  const thresholds: Thresholds = {
    warning: warningText === undefined ? undefined : parseRange(warningText, '-w/--warning', parser),
    critical: criticalText === undefined ? undefined : parseRange(criticalText, '-c/--critical', parser),
  };
  const windowText = options.window as string | undefined;
  const window = windowText === undefined ? undefined : parseDuration(windowText, '--window');
  if (window !== undefined && window > MAX_WINDOW_SECONDS) throw new UsageError(`--window ${windowText} is longer than the 24h of history vCD returns`);
  const maxAgeText = options['max-age'] as string | undefined;
  const maxAge = maxAgeText === undefined ? undefined : parseDuration(maxAgeText, '--max-age');
  const poweredOff = parseState(options['powered-off-state'] as string);
  if (poweredOff === undefined) throw new UsageError(`invalid --powered-off-state ${JSON.stringify(options['powered-off-state'])}: expected OK, WARNING, CRITICAL or UNKNOWN`);
  if (!options.vm) throw new UsageError('missing --vm (vm-<guid>, the bare GUID, or the URL of the VM page)');
  const vm = parseVmId(options.vm as string);
  return { metric, thresholds, window, maxAge, poweredOff, vm, aggregate: options.aggregate as Aggregate };
}

/** `default 90` or `default 90 for percent; none for used, read, write`: the profile's own defaults. */
function defaultRangeHelp(profile: VmCheckProfile, which: 'warning' | 'critical'): string {
  const byDefault = new Map<string, string[]>();
  for (const m of profile.metrics ?? ['']) {
    const d = profile.defaultThresholds(m)[which] ?? 'none';
    byDefault.set(d, [...(byDefault.get(d) ?? []), m]);
  }
  if (byDefault.size === 1) return `default ${[...byDefault.keys()][0]}`;
  return `default ${[...byDefault].map(([d, ms]) => `${d} for ${ms.join(', ')}`).join('; ')}`;
}

/** The plugin of one profile: options, login, metrics, measurements, result (SPEC 4). */
export function vmCheckPlugin(profile: VmCheckProfile): PluginDefinition {
  const metricOption: OptionSpec[] = profile.metrics
    ? [{ long: 'metric', short: 'm', type: 'string', arg: 'NAME', default: profile.metrics[0], choices: profile.metrics, description: profile.metricHelp ?? 'What the thresholds apply to.' }]
    : [];
  return {
    name: profile.name,
    command: profile.command,
    description: profile.description,
    usage: `${profile.command} -u URL --vm ID -U USER -o ORG --password-file PATH [-w RANGE] [-c RANGE] [--window DURATION] [options]`,
    options: [
      // Only check_vm_disk reads the disk sizes, whose interval is 30m.
      ...VCD_OPTIONS.map((o) => (o.long === 'max-age' && !profile.reads.some((r) => r.startsWith('disk.')) ? { ...o, description: o.description.replace(/, or 90m for disk sizes\)/, ')') } : o)),
      ...metricOption,
      { long: 'warning', short: 'w', type: 'string', arg: 'RANGE', description: profile.thresholdHelp ?? 'Warning range (default 80).' },
      { long: 'critical', short: 'c', type: 'string', arg: 'RANGE', description: `Critical range (${defaultRangeHelp(profile, 'critical')}).` },
      ...HTTP_OPTIONS,
    ],
    examples: profile.examples,
    notes: [
      'Sessions are cached (one file per url+user+org, mode 0600) so that checks do not flood vCD with logins; concurrent checks share one login.',
      'vCD answers 403 for VM ids it does not know; a powered-off VM has no current metrics (see --powered-off-state, or use --window).',
      HTTP_ENVIRONMENT_NOTE,
    ],
    secretEnv: ['VCD_PASSWORD'],
    run: (options, context) => runVmCheck(profile, options, context),
  };
}

async function runVmCheck(profile: VmCheckProfile, options: ParsedOptions, context: RunContext): Promise<Result> {
  const cfg = configure(profile, options);
  const base = baseUrl(options.url as string | undefined);
  const warnings: string[] = [];
  requireTlsUnlessAllowed(base, options, '--url', warnings);
  const slip = describeThresholdSlip(cfg.thresholds);
  if (slip) warnings.push(slip);
  const creds = credentialsFrom(options, context, warnings);
  const conn: VcdConnection = {
    base,
    apiVersion: options['api-version'] as string,
    tls: tlsSettingsFrom(options),
    maxBytes: maxBytesFrom(options),
    signal: context.signal,
    trace: (line) => context.log(3, line),
    addSecret: (v) => context.addSecret(v),
    setPhase: (t) => context.setPhase(t),
  };
  const cache = options['no-cache']
    ? undefined
    : new SessionCache((options['cache-dir'] as string | undefined) ?? defaultCacheDir(), cacheKey(base, creds), context.timeoutSeconds * 1000);
  const mode = cfg.window === undefined ? 'current' : `${cfg.aggregate} ${formatDuration(cfg.window)}`;
  context.log(2, `url=${base.origin} vm=${cfg.vm} login=${creds.kind === 'password' ? `${creds.user}@${creds.org}` : `api-token org ${creds.org}`} mode=${mode}${profile.metrics ? ` metric=${cfg.metric}` : ''}`);
  context.log(2, cache ? `session cache: ${cache.file}` : 'session cache: off (--no-cache)');

  const response = await fetchMetrics({
    conn,
    creds,
    vm: cfg.vm,
    which: cfg.window === undefined ? 'current' : 'historic',
    cache,
    deadline: context.deadline,
    log: (m) => context.log(2, m),
  });
  const notes = [...warnings, ...(cache?.notes ?? [])];
  for (const n of notes) context.log(2, n);
  if (response.kind === 'refused') {
    throw new CheckError(
      `${cfg.vm} is powered off: no current metrics (use --window for historic data, or --powered-off-state OK to accept)${context.verbose >= 1 ? `; server said ${response.detail}` : ''}`,
      { state: cfg.poweredOff },
    );
  }

  context.setPhase('parsing the metrics');
  const needed = profile.needs(cfg.metric);
  const values = new Map<MetricName, number>();
  const items: Item[] = [];
  if (cfg.window === undefined) {
    const usage = parseCurrentUsage(response.body);
    for (const name of profile.reads) {
      const m = usage.get(name);
      if (m) {
        values.set(name, m.value);
        items.push({ name, state: State.OK, text: `${name} = ${m.value} ${m.unit}` });
      }
    }
  } else {
    const history = parseHistoricUsage(response.body, undefined, new Set(profile.reads));
    const now = response.serverTime ?? Date.now();
    for (const name of needed) {
      const series = history.get(name);
      if (series) checkStaleness(series, now, cfg.maxAge);
    }
    for (const name of profile.reads) {
      const series = history.get(name);
      const w = series && aggregateWindow(series, cfg.window, cfg.aggregate, now);
      if (!w) continue;
      values.set(name, w.value);
      const span = w.fellBack ? `newest sample, none in the last ${formatDuration(cfg.window)}` : `${cfg.aggregate} of ${w.count} samples`;
      items.push({ name, state: State.OK, text: `${name} = ${Math.round(w.value * 1000) / 1000} ${series.unit} (${span}, newest ${new Date(w.newest).toISOString()})` });
    }
  }
  const missing = needed.filter((n) => !values.has(n));
  if (missing.length > 0) {
    throw new CheckError(`the ${cfg.window === undefined ? 'current' : 'historic'} metrics of ${cfg.vm} lack ${missing.join(', ')} (the server sent no value for ${missing.length > 1 ? 'them' : 'it'})`);
  }

  const result = profile.evaluate({ values, metric: cfg.metric, thresholds: cfg.thresholds, vm: cfg.vm, mode });
  // The state belongs to the metric the thresholds judged, not to the ones it was derived from.
  for (const item of items) if (item.name === needed[0]) item.state = result.state;
  const summary = context.verbose >= 1 && notes.length > 0 ? `${result.summary} (${notes.join('; ')})` : result.summary;
  return { ...result, summary, items };
}

/** A perfdata item for a percentage with optional thresholds. */
export function percentMetric(label: string, value: number | undefined, thresholds?: Thresholds): PerfMetric {
  return { label, value: value ?? null, uom: '%', warning: thresholds?.warning, critical: thresholds?.critical, min: 0, max: 100 };
}

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
import { fetchMetrics, type MetricsResponse } from './client';
import type { VcdConnection } from './connection';
import { formatDuration, parseDuration } from './duration';
import type { Credentials } from './login';
import { parseCurrentUsage, parseHistoricUsage, type MetricName, type MetricSeries } from './metrics';
import { cacheKey, defaultCacheDir, SessionCache } from './session-cache';
import { parseVmTarget, type VmTarget } from './vm-id';
import { API_VERSION_OPTION, FLEET_OPTIONS, fleetCacheFor, forcedVersionFrom, resolveTtlFrom, runDiscovery } from './fleet-options';
import { notRunning, readVmRecord, type SessionGet } from './vm-record';
import { AGGREGATES, aggregateWindow, dropFutureSamples, seriesInterval, stalenessOf, type Aggregate } from './window';

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
  /** Per-disk values by disk number (as the server numbers them), for the profiles that read disks. */
  disks: ReadonlyMap<string, ReadonlyMap<MetricName, number>>;
  /** Whole-VM names the server did not send, summed from its per-disk values. */
  summed: readonly MetricName[];
  /** --per-disk: thresholds apply to each disk, the worst decides. */
  perDisk: boolean;
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
  /** What to tell the admin when a needed metric is missing (e.g. memory needs VMware Tools). */
  missingHint?(name: MetricName): string | undefined;
  /** The profile offers --per-disk (per-disk thresholds). */
  perDisk?: boolean;
  examples: readonly string[];
}

const VCD_OPTIONS: readonly OptionSpec[] = [
  { long: 'url', short: 'u', type: 'string', arg: 'URL', description: "The vCD API host of the VM's region, e.g. https://vcd.example.com (any path is ignored)." },
  { long: 'vm', type: 'string', arg: 'ID|NAME', description: "The VM: vm-<guid>, the bare GUID, urn:vcloud:vm:<guid>, the URL of the VM's page in the vCD web console, or the VM's name (resolved through the query service; see --vapp)." },
  { long: 'user', short: 'U', type: 'string', arg: 'NAME', description: 'vCD user name (without @org).' },
  { long: 'org', short: 'o', type: 'string', arg: 'ORG', description: 'vCD organisation of the user; System for a provider account.' },
  { long: 'password-file', type: 'string', arg: 'PATH', description: 'File holding the password (one line). Without it: --password, else $VCD_PASSWORD.' },
  { long: 'password', type: 'string', arg: 'TEXT', secret: true, description: 'The password, when there is no --password-file. Put it in an --extra-opts file (password=...): on the command line every local user sees it in the process list.' },
  { long: 'api-token-file', type: 'string', arg: 'PATH', description: 'File holding a vCD API token (OAuth refresh token), used instead of a password; needs --org.' },
  API_VERSION_OPTION,
  { long: 'cache-dir', type: 'string', arg: 'DIR', description: 'Where sessions are kept between runs (default $XDG_CACHE_HOME/cloudchecks or ~/.cache/cloudchecks).' },
  { long: 'no-cache', type: 'boolean', description: 'Do not keep the session: log in and log out on every run (vCD counts sessions; prefer the cache).' },
  { long: 'window', type: 'string', arg: 'DURATION', description: "Use the historic series over the last DURATION (with a unit: 900s, 15m, 1h; at least the series' interval, at most 24h) instead of current values." },
  { long: 'aggregate', type: 'string', arg: 'FUNC', choices: AGGREGATES, description: 'With --window: how the samples are reduced to one value: avg (default), max, min or last.' },
  { long: 'max-age', type: 'string', arg: 'DURATION', description: "With --window: UNKNOWN when a needed series' newest sample is older (default 3 × the series' interval: 15m, or 90m for disk sizes)." },
  { long: 'powered-off-state', type: 'string', arg: 'STATE', description: "State when the VM's record says it is powered off or suspended (OK, WARNING, CRITICAL, UNKNOWN; default UNKNOWN)." },
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
  // Options that only mean something with --window are refused without it, not ignored.
  for (const o of ['aggregate', 'max-age'] as const) {
    if (options[o] !== undefined && window === undefined) throw new UsageError(`--${o} needs --window (current values are one sample each)`);
  }
  const poweredOffText = options['powered-off-state'] as string | undefined;
  const poweredOff = parseState(poweredOffText ?? 'UNKNOWN');
  if (poweredOff === undefined) throw new UsageError(`invalid --powered-off-state ${JSON.stringify(poweredOffText)}: expected OK, WARNING, CRITICAL or UNKNOWN`);
  if (!options.vm && !options.discovery) throw new UsageError('missing --vm (vm-<guid>, the bare GUID, the URL of the VM page, or the VM name), or --discovery');
  const target: VmTarget = options.discovery ? { kind: 'id', id: '' } : parseVmTarget(options.vm as string);
  // The id once known (a name is resolved with the session), and how results name the VM.
  const vm = target.kind === 'id' ? target.id : '';
  const vmLabel = target.kind === 'id' ? target.id : target.name;
  const aggregate = (options.aggregate as Aggregate | undefined) ?? 'avg';
  return { metric, thresholds, window, maxAge, poweredOff, poweredOffGiven: poweredOffText !== undefined, vm, vmLabel, target, aggregate, perDisk: Boolean(options['per-disk']) };
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
  if (profile.perDisk) {
    metricOption.push({ long: 'per-disk', type: 'boolean', description: 'Apply -w/-c to each disk (as vCD numbers them) instead of the whole VM; the worst disk decides. Per-disk perfdata is added.' });
  }
  return {
    name: profile.name,
    command: profile.command,
    description: profile.description,
    usage: `${profile.command} -u URL (--vm ID|NAME [--vapp NAME] | --discovery) -U USER -o ORG --password-file PATH [-w RANGE] [-c RANGE] [--window DURATION] [options]`,
    options: [
      // Only check_vm_disk reads the disk sizes, whose interval is 30m.
      ...VCD_OPTIONS.map((o) => (o.long === 'max-age' && !profile.reads.some((r) => r.startsWith('disk.')) ? { ...o, description: o.description.replace(/, or 90m for disk sizes\)/, ')') } : o)),
      ...FLEET_OPTIONS,
      ...metricOption,
      { long: 'warning', short: 'w', type: 'string', arg: 'RANGE', description: profile.thresholdHelp ?? 'Warning range (default 80).' },
      { long: 'critical', short: 'c', type: 'string', arg: 'RANGE', description: `Critical range (${defaultRangeHelp(profile, 'critical')}).` },
      ...HTTP_OPTIONS,
    ],
    examples: profile.examples,
    notes: [
      'Sessions are cached (one file per url+user+org, mode 0600) so that checks do not flood vCD with logins; concurrent checks share one login.',
      "vCD answers 403 for VM ids it does not know. When current metrics are refused, or the samples of --window stop, the VM's own record tells whether it is powered off: then --powered-off-state applies; any other refusal is UNKNOWN with the server's message.",
      "Fleets: --vm web-01 --vapp shop checks a VM by name (resolved once, then cached); --discovery [--discovery-format icinga2|nagios] lists every VM the account sees, e.g. check_vm_cpu --discovery --discovery-format icinga2 -u URL -U USER -o ORG --password-file PATH > vms.conf",
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
    apiVersion: '34.0', // until negotiated (or forced by --api-version)
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
  const fleet = fleetCacheFor(cache ? cache.dir : undefined, cacheKey(base, creds));
  if (options.vapp !== undefined && !options.discovery && cfg.target.kind === 'id') warnings.push('--vapp is ignored: --vm gives the id');
  const facts: string[] = [];
  const session = { conn, creds, cache, fleet, forcedVersion: forcedVersionFrom(options), deadline: context.deadline, log: (m: string) => context.log(2, m), facts };
  if (options.discovery) return runDiscovery(profile.command, options, session);
  const mode = cfg.window === undefined ? 'current' : `${cfg.aggregate} ${formatDuration(cfg.window)}`;
  context.log(2, `url=${base.origin} vm=${cfg.target.kind === 'id' ? cfg.target.id : JSON.stringify(cfg.target.name)} login=${creds.kind === 'password' ? `${creds.user}@${creds.org}` : `api-token org ${creds.org}`} mode=${mode}${profile.metrics ? ` metric=${cfg.metric}` : ''}`);
  context.log(2, cache ? `session cache: ${cache.file}` : 'session cache: off (--no-cache)');

  let result: Result | undefined;
  const notes = [...warnings];
  const withNotes = (text: string) => (context.verbose >= 1 && notes.length > 0 ? `${text} (${notes.join('; ')})` : text);
  try {
    await fetchMetrics({
      ...session,
      vm: cfg.target,
      vapp: options.vapp as string | undefined,
      resolveTtlMs: resolveTtlFrom(options),
      which: cfg.window === undefined ? 'current' : 'historic',
      follow: async (response, get) => {
        // The session and the fleet entries share one directory: its refusal is said once.
        const said = new Set((cache?.notes ?? []).map((n) => n.split('; ')[0]));
        notes.push(...(cache?.notes ?? []), ...(fleet?.notes ?? []).filter((n) => !said.has(n.split('; ')[0])), ...facts);
        // A VM checked by name is named in the result, with its id beside it.
        const { id, name, vapp } = response.vm;
        const named = { ...cfg, vm: id, vmLabel: name === undefined ? id : `${name} (${id})` };
        result = await judge(profile, named, context, response, get, notes, `${base.origin}/api/vApp/${id}/metrics/current`);
        if (name !== undefined) result.items = [{ name: 'vm', state: State.OK, text: `VM ${name} = ${id} in vApp ${vapp ?? '?'}` }, ...(result.items ?? [])];
      },
    });
  } catch (error) {
    // What was noticed on the way (samples from the future, the interval's unit) explains an
    // UNKNOWN as much as a result: at -v it goes with either.
    if (error instanceof CheckError && !(error instanceof UsageError) && notes.length > 0 && context.verbose >= 1) {
      throw new CheckError(withNotes(error.message), { state: error.state, cause: error });
    }
    throw error;
  }
  if (!result) throw new CheckError(`no answer was judged for ${cfg.vmLabel}`);
  // A cache that cannot be written makes every run log in and out, silently but for this
  // item: JSON consumers (Zabbix) and the long output see it without -v.
  if (cache && !cache.keepsSessions) result.items = [...(result.items ?? []), { name: 'session-cache', state: State.OK, text: cache.notes.join('; ') }];
  for (const n of notes) context.log(2, n);
  return { ...result, summary: withNotes(result.summary) };
}

type Config = ReturnType<typeof configure>;

/** One metric as read: a current value, or a window's aggregate, whole-VM or of one disk. */
interface Reading {
  name: string;
  base: MetricName;
  disk?: string;
  unit: string;
  value: number;
  /** How the value came about, for the long output. */
  detail?: string;
}

/** Rounds for the long output, where values are read, not parsed. */
const shown = (v: number) => String(Math.round(v * 1000) / 1000);

/** From the server's answer to the result: refusal, current values, or the window. */
async function judge(profile: VmCheckProfile, cfg: Config, context: RunContext, response: MetricsResponse, get: SessionGet, notes: string[], currentUrl: string): Promise<Result> {
  if (response.kind === 'refused') return judgeRefusal(cfg, response.detail, get, currentUrl);
  context.setPhase('parsing the metrics');
  const wanted = new Set<string>(profile.reads);
  if (cfg.window === undefined) {
    const usage = parseCurrentUsage(response.body, undefined, wanted);
    const readings: Reading[] = [...usage.values()].map((m) => ({ ...m }));
    return measure(profile, cfg, readings, 'current');
  }

  const history = parseHistoricUsage(response.body, undefined, wanted);
  const now = response.serverTime ?? Date.now();
  const needed = new Set<string>(profile.needs(cfg.metric));
  const series: MetricSeries[] = [];
  const future = { count: 0, series: 0, latest: 0 };
  for (const s of history.values()) {
    const { series: kept, dropped } = dropFutureSamples(s, now);
    if (dropped.length > 0) {
      future.count += dropped.length;
      future.series++;
      future.latest = Math.max(future.latest, dropped[dropped.length - 1].time);
    }
    const interval = seriesInterval(kept);
    context.log(2, interval.note);
    if (needed.has(kept.base) && !notes.some((n) => n.startsWith('expectedInterval'))) notes.push(interval.note);
    series.push({ ...kept, expectedInterval: interval.seconds });
  }
  for (const name of needed) {
    const s = series.find((x) => x.name === name) ?? series.find((x) => x.base === name);
    const every = s?.expectedInterval ?? 0;
    if (s && cfg.window < every) {
      throw new UsageError(`--window ${formatDuration(cfg.window)} is shorter than the ${formatDuration(every)} between samples of ${s.name}, so it may hold none: use --window ${formatDuration(every)} or longer`);
    }
  }
  if (future.count > 0) {
    notes.push(`ignored ${future.count} sample${future.count > 1 ? 's' : ''} of ${future.series} series dated after the server's time, up to ${new Date(future.latest).toISOString()}`);
  }

  // Samples that stopped: a powered-off VM (its record says so) or a collector that is stuck.
  // Whole-VM series first: their name is the one the admin knows.
  const judged = series.filter((s) => needed.has(s.base)).sort((a, b) => Number(a.disk !== undefined) - Number(b.disk !== undefined));
  const stale = judged.map((s) => ({ s, problem: stalenessOf(s, now, cfg.maxAge) })).find((x) => x.problem !== undefined);
  let anchor = now;
  let offSince: { words: string; since: number } | undefined;
  const advice = cfg.poweredOffGiven ? '' : ', --powered-off-state OK to accept';
  if (stale) {
    const power = await powerState(get, cfg.vm);
    if (!power.words) throw new CheckError(`${stale.problem}${power.said ? ` (${power.said})` : ''}`);
    // The window before it stopped: what `--window 1h` of a powered-off VM shows.
    anchor = Math.max(...judged.map((s) => s.samples[s.samples.length - 1]?.time ?? 0));
    if (anchor === 0) throw new CheckError(`${cfg.vmLabel} is ${power.words}: no sample in the 24 hours of history${advice ? ` (${advice.slice(2)})` : ''}`, { state: cfg.poweredOff });
    offSince = { words: power.words, since: anchor };
  }
  const readings: Reading[] = [];
  for (const s of series) {
    const w = aggregateWindow(s, cfg.window, cfg.aggregate, anchor);
    if (!w) continue;
    const span = w.fellBack ? `newest sample, none in the last ${formatDuration(cfg.window)}` : `${cfg.aggregate} of ${w.count} samples`;
    readings.push({ name: s.name, base: s.base, disk: s.disk, unit: s.unit, value: w.value, detail: `${span}, newest ${new Date(w.newest).toISOString()}` });
  }
  const mode = `${cfg.aggregate} ${formatDuration(cfg.window)}`;
  const result = measure(profile, cfg, readings, mode);
  if (!offSince) return result;
  return {
    ...result,
    state: cfg.poweredOff,
    summary: `${cfg.vmLabel} is ${offSince.words} since ${new Date(offSince.since).toISOString()} (its last sample${advice}). Before that: ${result.summary}`,
    items: result.items?.map((i) => ({ ...i, state: cfg.poweredOff })),
  };
}

/** The VM's power state from its record, or what kept us from knowing it. */
async function powerState(get: SessionGet, vm: string): Promise<{ words?: string; said?: string }> {
  try {
    const record = await readVmRecord(get, vm);
    const words = notRunning(record);
    return { words, said: `its record says ${record.statusName}` };
  } catch (error) {
    if (!(error instanceof CheckError)) throw error;
    return { said: `its power state could not be read: ${error.message}` };
  }
}

/** Current metrics refused (HTTP 400): powered off only when the VM's record says so. */
async function judgeRefusal(cfg: Config, detail: string, get: SessionGet, currentUrl: string): Promise<never> {
  const power = await powerState(get, cfg.vm);
  if (power.words) {
    const advice = cfg.poweredOffGiven ? 'use --window for the last values' : 'use --window for the last values, or --powered-off-state OK to accept';
    throw new CheckError(`${cfg.vmLabel} is ${power.words}: no current metrics (${advice})`, { state: cfg.poweredOff });
  }
  throw new CheckError(`${currentUrl} answered ${detail}, and ${power.said}`);
}

/** Readings → measurements (per-disk sums where the whole is missing) → the profile's result. */
function measure(profile: VmCheckProfile, cfg: Config, readings: Reading[], mode: string): Result {
  const values = new Map<MetricName, number>();
  const disks = new Map<string, Map<MetricName, number>>();
  const items: Item[] = [];
  for (const r of readings) {
    if (r.disk === undefined) {
      values.set(r.base, r.value);
    } else {
      let disk = disks.get(r.disk);
      if (!disk) disks.set(r.disk, (disk = new Map()));
      disk.set(r.base, r.value);
    }
  }
  const summed: MetricName[] = [];
  for (const name of profile.reads) {
    if (values.has(name)) continue;
    const parts = readings.filter((r) => r.base === name && r.disk !== undefined);
    if (parts.length === 0) continue;
    values.set(name, parts.reduce((a, r) => a + r.value, 0));
    summed.push(name);
  }
  // Per-disk readings stay out of the long output (perfdata has them); a sum says what it adds.
  for (const r of readings) {
    if (r.disk !== undefined) continue;
    items.push({ name: r.name, state: State.OK, text: `${r.name} = ${shown(r.value)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}` });
  }
  for (const name of summed) {
    const parts = readings.filter((r) => r.base === name && r.disk !== undefined).sort((a, b) => Number(a.disk) - Number(b.disk));
    items.push({ name, state: State.OK, text: `${name} = ${shown(values.get(name) as number)} ${parts[0].unit}: the server sends no whole-VM value, so the sum of disks ${parts.map((p) => p.disk).join(', ')}` });
  }

  const needed = profile.needs(cfg.metric);
  const missing = needed.filter((n) => !values.has(n));
  if (missing.length > 0) {
    const hints = [...new Set(missing.map((n) => profile.missingHint?.(n)).filter((h): h is string => h !== undefined))];
    throw new CheckError(
      `the ${cfg.window === undefined ? 'current' : 'historic'} metrics of ${cfg.vmLabel} lack ${missing.join(', ')} (the server sent no value for ${missing.length > 1 ? 'them' : 'it'})${hints.length > 0 ? `: ${hints.join(', ')}` : ''}`,
    );
  }
  const result = profile.evaluate({ values, metric: cfg.metric, thresholds: cfg.thresholds, vm: cfg.vmLabel, mode, disks, summed, perDisk: cfg.perDisk });
  // The state belongs to the metric the thresholds judged, not to the ones it was derived from;
  // with --per-disk the profile's own items carry each disk's state.
  if (!cfg.perDisk) for (const item of items) if (item.name === needed[0]) item.state = result.state;
  return { ...result, items: [...items, ...(result.items ?? [])] };
}

/** A perfdata item for a percentage with optional thresholds. */
export function percentMetric(label: string, value: number | undefined, thresholds?: Thresholds): PerfMetric {
  return { label, value: value ?? null, uom: '%', warning: thresholds?.warning, critical: thresholds?.critical, min: 0, max: 100 };
}

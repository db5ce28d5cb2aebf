import { UsageError } from '../../plugin/errors';
import { ScalarContext } from '../../plugin/scalar-context';
import { parseState, type State } from '../../plugin/state';
import type { RunContext } from '../../plugin/context';
import { cacheUnusableStateFrom } from '../frame/vcd-frame';
import { vmAccessFrom, type VmAccessConfig } from './vm-access';
import { parseDuration } from '../../plugin/duration';
import type { VmCheckProfile } from './profile';
import { parseVmTarget, type VmTarget } from './vm-id';
import type { VmCheckOptions, VmSessionOptions } from './vm-options';
import type { Aggregate } from './window';

/** What a profile's own options select: the judged metric ('' when it has one) and --per-disk. */
export interface ProfileChoice {
  metric: string;
  perDisk: boolean;
  /** --alarm-fully-allocated: judge fully allocated (thick) disks by -w/-c like the others. */
  alarmFullyAllocated?: boolean;
  /** How the options -w/-c came as are named in messages, when not as -w/--warning and -c/--critical (a fleet's --cpu-warning). */
  thresholdNames?: { warning: string; critical: string };
}

/** Everything a VM check's options say, validated before any request is made. */
export interface VmCheckConfig extends ProfileChoice {
  base: URL;
  /** -w/-c (or the profile's defaults) on the judged metric. */
  thresholds: ScalarContext;
  /** --window in seconds; undefined for current values. */
  window?: number;
  maxAge?: number;
  aggregate: Aggregate;
  poweredOff: State;
  poweredOffGiven: boolean;
  target: VmTarget;
  /** The id once known (a name is resolved with the session). */
  vm: string;
  /** How results name the VM. */
  vmLabel: string;
}

const MAX_WINDOW_SECONDS = 24 * 3600;

/** The vCD host of --url: only its origin counts. */
export function baseUrl(text: string | undefined): URL {
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

/** What judging a VM's metrics reads of the options: the session's, -w/-c, and the VM unless a fleet is judged. */
export type VmJudgeOptions = VmSessionOptions & Pick<VmCheckOptions, 'warning' | 'critical'> & Partial<Pick<VmCheckOptions, 'vm' | 'discovery'>>;

/** -w/-c of the chosen metric, or the profile's defaults for it. */
function thresholdsOf(profile: VmCheckProfile, options: VmJudgeOptions, choice: ProfileChoice): ScalarContext {
  const defaults = profile.defaultThresholds(choice.metric);
  return ScalarContext.fromOptions(
    { warning: options.warning ?? defaults.warning, critical: options.critical ?? defaults.critical },
    profile.thresholdParser?.(choice.metric),
    choice.thresholdNames,
  );
}

/** --window, --max-age and --aggregate; the latter two are refused without --window, not ignored. */
function windowOf(options: VmJudgeOptions): Pick<VmCheckConfig, 'window' | 'maxAge' | 'aggregate'> {
  const windowText = options.window;
  const window = windowText === undefined ? undefined : parseDuration(windowText, '--window');
  if (window !== undefined && window > MAX_WINDOW_SECONDS) throw new UsageError(`--window ${windowText} is longer than the 24h of history vCD returns`);
  const maxAge = options['max-age'] === undefined ? undefined : parseDuration(options['max-age'], '--max-age');
  for (const o of ['aggregate', 'max-age'] as const) {
    if (options[o] !== undefined && window === undefined) throw new UsageError(`--${o} needs --window (current values are one sample each)`);
  }
  return { window, maxAge, aggregate: options.aggregate ?? 'avg' };
}

/** The options of a VM check as its config (the URL is read after the rest, as it always was). */
export function configureVmCheck(profile: VmCheckProfile, options: VmJudgeOptions, choice: ProfileChoice): VmCheckConfig {
  const thresholds = thresholdsOf(profile, options, choice);
  const { window, maxAge, aggregate } = windowOf(options);
  const poweredOffText = options['powered-off-state'];
  const poweredOff = parseState(poweredOffText ?? 'UNKNOWN');
  if (poweredOff === undefined)
    throw new UsageError(`invalid --powered-off-state ${JSON.stringify(poweredOffText)}: expected OK, WARNING, CRITICAL or UNKNOWN`);
  if (!options.vm && !options.discovery)
    throw new UsageError('missing --vm (vm-<guid>, the bare GUID, the URL of the VM page, or the VM name), or --discovery');
  const target: VmTarget = options.discovery || options.vm === undefined ? { kind: 'id', id: '' } : parseVmTarget(options.vm);
  return {
    ...choice,
    thresholds,
    window,
    maxAge,
    aggregate,
    poweredOff,
    poweredOffGiven: poweredOffText !== undefined,
    target,
    vm: target.kind === 'id' ? target.id : '',
    vmLabel: target.kind === 'id' ? target.id : target.name,
    base: baseUrl(options.url),
  };
}

/** Everything a VM check's run needs, parsed at its plugin's edge (see vmCheckRunFrom). */
export interface VmCheckRun {
  check: VmCheckConfig;
  access: VmAccessConfig;
}

/**
 * A VM check's options as its run's config, each group by its own parser in the order their
 * errors and notes have always come: the check's own, the cache's state, the session, the VM.
 */
export function vmCheckRunFrom(profile: VmCheckProfile, options: VmCheckOptions, choice: ProfileChoice, context: RunContext): VmCheckRun {
  const check = configureVmCheck(profile, options, choice);
  const cacheUnusableState = cacheUnusableStateFrom(options);
  return { check, access: vmAccessFrom(check.base, check.target, options, context, [check.thresholds.slip], cacheUnusableState) };
}

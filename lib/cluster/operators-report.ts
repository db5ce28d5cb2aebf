// The judgement of check_cluster_operators: every ClusterOperator by the rule of
// judgeClusterOperator (Available=True, Degraded=False) with delays, and the ClusterVersion.
import type { Metric } from '../plugin/perfdata';
import type { Item, Result } from '../plugin/result';
import { unjudgedMetric } from '../plugin/scalar-context';
import { boundedExcerpt, cutAtWord } from '../plugin/server-text';
import { State } from '../plugin/state';
import { itemOf, ordered, part, resultOf, type Part } from '../plugin/part';
import { judgeClusterOperator, type ClusterOperatorCondition, type ClusterOperatorStatus } from './cluster-operator';
import type { ClusterVersionStatus } from './cluster-version';
import { formatAge } from './node-report';

/** How operators and the version are judged; durations in seconds. */
export interface OperatorRules {
  /** Degraded or unavailable for less than this is WARNING, not CRITICAL (none: CRITICAL at once). */
  grace?: number;
  /** Progressing=True for longer than this is WARNING. */
  progressingGrace: number;
  /** An update in progress for longer than this is WARNING. */
  updateGrace: number;
  /** The state of Upgradeable=False (an operator's or the version's). */
  notUpgradeableState: State;
  /** The state of updates being available. */
  updateAvailableState: State;
  ignore: readonly string[];
  /** `--operator NAME`: judge that one operator only, not the version. */
  operator?: string;
  /** Long output lists healthy operators too. */
  listAll: boolean;
  /** The time ages are measured from (ms since the epoch). */
  now: number;
}

/** One operator's verdict, and what it counts as in perfdata. */
export interface OperatorVerdict extends Part {
  name: string;
  /** Why, for the status line; empty when healthy. */
  finding: string;
  text: string;
  available: boolean;
  degraded: boolean;
  progressing: boolean;
}

/** Server messages end up this long at most in long output; the status line shares its room among the failing operators. */
const ITEM_MESSAGE_CHARS = 240;
const SUMMARY_MESSAGE_ROOM = 240;
/** The status line gives the findings of this many operators; the others it names, up to FIRST_LINE_NAMES, and counts. */
const FIRST_LINE_FINDINGS = 2;
const FIRST_LINE_NAMES = 6;
/** A bracketed dump longer than this (`[{Member:ID:… Healthy:true …}]`) is elided so that the sentence after it survives the cut. */
const LONG_DUMP = 60;

/**
 * A server message made fit for a status line: long bracketed dumps elided as […], its
 * lines (repeated ones once) each given an equal share of `max` and joined with "; ", each
 * cut at a word boundary. Operators write one line per failing controller, "what failed:
 * dump", so every controller stays named and the dump is what goes.
 */
export function condenseMessage(message: string, max: number): string {
  const slice = message.length > 65_536 ? message.slice(0, 65_536) : message;
  const lines = [
    ...new Set(
      slice
        .split(/\r?\n|\r/)
        .map((l) => boundedExcerpt(elideDumps(l), max * 2 + 100))
        .filter((l) => l !== ''),
    ),
  ];
  const share = Math.max(50, Math.floor(max / Math.max(1, lines.length)) - 2);
  const kept = lines.map((l) => cutAtWord(l, share)).join('; ');
  return cutAtWord(kept, max);
}

/** `A::B::C` (a reason per failing controller, joined by the operator) as `A (+2)` where room is short. */
function shortReason(reason: string): string {
  const parts = reason.split('::');
  return parts.length > 1 ? `${parts[0]} (+${parts.length - 1})` : reason;
}

/** Replaces each balanced [...] or {...} group longer than LONG_DUMP with […]. */
function elideDumps(text: string): string {
  const close = closingBrackets(text);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text[i];
    const end = close.get(i);
    if (end !== undefined && end - i + 1 > LONG_DUMP) {
      out += open === '[' ? '[…]' : '{…}';
      i = end + 1;
      continue;
    }
    out += open;
    i++;
  }
  return out;
}

/**
 * Where each bracket that opens a group closes (either kind counts for depth), for groups of
 * less than 20,000 characters: one pass with a stack, linear in the text however a server
 * nests or leaves brackets open.
 */
function closingBrackets(text: string): Map<number, number> {
  const close = new Map<number, number>();
  const open: number[] = [];
  for (let j = 0; j < text.length; j++) {
    const c = text[j];
    if (c === '[' || c === '{') open.push(j);
    else if ((c === ']' || c === '}') && open.length > 0) {
      const from = open.pop()!;
      if (j - from < 20_000) close.set(from, j);
    }
  }
  return close;
}

/** `for 2h (since 2026-11-23T14:10:00Z)`; empty when the time is missing or unreadable. */
export function describeSince(time: string | undefined, now: number): string {
  const at = time === undefined ? NaN : Date.parse(time);
  if (!Number.isFinite(at)) return '';
  return at <= now ? ` for ${formatAge(now - at)} (since ${time})` : ` (since ${time})`;
}

function ageSeconds(time: string | undefined, now: number): number | undefined {
  const at = time === undefined ? NaN : Date.parse(time);
  return Number.isFinite(at) && at <= now ? (now - at) / 1000 : undefined;
}

/** `Degraded=True for 2h (since …) (EtcdMembersDegraded: 2 of 3 members…)`. */
function describeFinding(c: ClusterOperatorCondition, now: number, maxMessage: number): string {
  const message = c.message === undefined ? undefined : condenseMessage(c.message, maxMessage);
  const reason = c.reason !== undefined && maxMessage < ITEM_MESSAGE_CHARS ? shortReason(c.reason) : c.reason;
  const why = [reason, message].filter((x) => x !== undefined && x !== '').join(': ');
  return `${c.type}=${c.status}${describeSince(c.lastTransitionTime, now)}${why ? ` (${why})` : ''}`;
}

/** Judges one operator by the rules; `summaryRoom` is the room for each server message on the status line. */
export function judgeOperator(co: ClusterOperatorStatus, rules: OperatorRules, summaryRoom = ITEM_MESSAGE_CHARS): OperatorVerdict {
  const health = judgeClusterOperator(co);
  const find = (type: string) => co.conditions.find((c) => c.type === type);
  const base = {
    name: co.name,
    available: find('Available')?.status === 'True',
    degraded: find('Degraded')?.status === 'True',
    progressing: health.progressing !== undefined,
  };
  const version = co.version ? ` ${co.version}` : '';
  const said = (conditions: readonly ClusterOperatorCondition[], room: number) => conditions.map((c) => describeFinding(c, rules.now, room)).join(', ');
  const verdict = (state: State, conditions: readonly ClusterOperatorCondition[], raised: boolean, prefix = '', suffix = '') => ({
    ...base,
    state,
    finding: raised ? `${co.name} ${said(conditions, summaryRoom)}${suffix}` : '',
    text: `${co.name}${version}: ${prefix}${said(conditions, ITEM_MESSAGE_CHARS)}${suffix}`,
  });
  if (!health.healthy) {
    const ages = health.broken.map((c) => ageSeconds(c.lastTransitionTime, rules.now));
    const inGrace = rules.grace !== undefined && ages.every((a) => a !== undefined && a < rules.grace!);
    return verdict(inGrace ? State.WARNING : State.CRITICAL, health.broken, true, '', inGrace ? ' (within --grace)' : '');
  }
  if (health.progressing) {
    const age = ageSeconds(health.progressing.lastTransitionTime, rules.now);
    const long = age !== undefined && age > rules.progressingGrace;
    return verdict(long ? State.WARNING : State.OK, [health.progressing], long, '', long ? ' (longer than --progressing-grace)' : '');
  }
  const upgradeable = find('Upgradeable');
  if (upgradeable?.status === 'False') return verdict(rules.notUpgradeableState, [upgradeable], true, 'available, ');
  return { ...base, state: State.OK, finding: '', text: `${co.name}${version}: available, not degraded` };
}

/** A finding about the ClusterVersion: its state and words. */
interface VersionFinding extends Part {
  text: string;
  /** Shorter words for the status line, where the finding is only a note. */
  brief?: string;
}

/** Orders release versions (4.16.9 before 4.16.27; pre-releases by their text). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/);
  const pb = b.split(/[.+-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const d = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (d !== 0) return d;
  }
  return 0;
}

/** What the ClusterVersion says: Failing, an update in progress, updates offered, the update graph unreachable. */
export function judgeClusterVersion(cv: ClusterVersionStatus, rules: OperatorRules): VersionFinding[] {
  const find = (type: string) => cv.conditions.find((c) => c.type === type);
  const findings: VersionFinding[] = [];
  const failing = find('Failing');
  if (failing?.status === 'True') findings.push({ state: State.CRITICAL, text: `cluster version ${describeFinding(failing, rules.now, 200)}` });
  const progressing = find('Progressing');
  if (cv.latest?.state === 'Partial' && progressing?.status === 'True') {
    const since = cv.latest.startedTime ?? progressing.lastTransitionTime;
    const age = ageSeconds(since, rules.now);
    const progress = /(\d+ of \d+ done \(\d+% complete\))/.exec(progressing.message ?? '')?.[1];
    const late = age !== undefined && age > rules.updateGrace;
    findings.push({
      state: late ? State.WARNING : State.OK,
      text: `updating to ${cv.desiredVersion ?? cv.latest.version ?? 'an unknown version'}${describeSince(since, rules.now)}${progress ? `: ${progress}` : ''}${late ? ' (longer than --update-grace)' : ''}`,
    });
  }
  const retrieved = find('RetrievedUpdates');
  if (retrieved?.status === 'False') {
    // No channel set is a choice (disconnected clusters), not a fault: said, never raised.
    const noChannel = retrieved.reason === 'NoChannel';
    findings.push({
      state: noChannel ? State.OK : State.WARNING,
      text: noChannel ? 'no update channel set' : `cannot retrieve updates: ${describeFinding(retrieved, rules.now, 160)}`,
    });
  }
  if (cv.availableUpdates.length > 0) {
    const newest = [...cv.availableUpdates].sort(compareVersions).reverse();
    const n = newest.length;
    findings.push({
      state: rules.updateAvailableState,
      text: `${n} update${n === 1 ? '' : 's'} available (${newest.slice(0, 3).join(', ')}${n > 3 ? ', …' : ''})`,
    });
  }
  const upgradeable = find('Upgradeable');
  if (upgradeable?.status === 'False') {
    findings.push({
      state: rules.notUpgradeableState,
      text: `cluster version ${describeFinding(upgradeable, rules.now, 160)}`,
      brief: `cluster version Upgradeable=False${upgradeable.reason ? ` (${upgradeable.reason})` : ''}`,
    });
  }
  return findings;
}

/** The counts of perfdata, over the operators checked. */
function operatorMetrics(verdicts: readonly OperatorVerdict[]): Metric[] {
  const n = verdicts.length;
  const counted = (label: string, f: (v: OperatorVerdict) => boolean) => unjudgedMetric(label, verdicts.filter(f).length, { min: 0, max: n });
  return [
    unjudgedMetric('operators', n, { min: 0 }),
    counted('available', (v) => v.available),
    counted('degraded', (v) => v.degraded),
    counted('progressing', (v) => v.progressing),
    counted('unavailable', (v) => !v.available),
  ];
}

function namedList(what: string, names: readonly string[]): string[] {
  return names.length === 0 ? [] : [`${what}: ${fewNames(names)}`];
}

/** Names, the first FIRST_LINE_NAMES of them, and how many more (the long output lists each). */
function fewNames(names: readonly string[]): string {
  const more = names.length - FIRST_LINE_NAMES;
  return more > 0 ? `${names.slice(0, FIRST_LINE_NAMES).join(', ')} and ${more} more` : names.join(', ');
}

/**
 * What the status line says of the operators in `verdicts`: the findings of the first few,
 * then the names of the others, counted past a few; every one has its line in the long output.
 */
function fewFindings(verdicts: readonly OperatorVerdict[], what: string, findings = FIRST_LINE_FINDINGS): string {
  const told = verdicts.slice(0, findings).map((v) => v.finding);
  const rest = verdicts.slice(findings).map((v) => v.name);
  if (rest.length === 0) return told.join(', ');
  const others = `${rest.length}${told.length > 0 ? ' more' : ''} ${what}: ${fewNames(rest)} (below)`;
  return told.length === 0 ? others : `${told.join(', ')}, and ${others}`;
}

/** Operators and version as one result: the worst finding wins, and the status line names each failing operator. */
export function evaluateOperators(operators: readonly ClusterOperatorStatus[], version: ClusterVersionStatus | undefined, rules: OperatorRules): Result {
  const names = new Set(operators.map((o) => o.name));
  const notes = rules.ignore.filter((n) => !names.has(n)).map((n) => `--ignore ${n}: no such operator`);
  if (rules.operator !== undefined && !names.has(rules.operator)) {
    const listed = [...names].sort().join(', ');
    return { state: State.UNKNOWN, summary: `no ClusterOperator ${rules.operator} among the ${names.size} the cluster lists (${listed}); check --operator` };
  }
  const checked = operators.filter((o) => (rules.operator === undefined ? !rules.ignore.includes(o.name) : o.name === rules.operator));
  const quick = checked.map((o) => judgeOperator(o, rules));
  const failingCount = quick.filter((v) => v.finding !== '').length;
  // The status line shares its room among the operators it names.
  const room = Math.max(60, Math.min(ITEM_MESSAGE_CHARS, Math.floor(SUMMARY_MESSAGE_ROOM / Math.max(1, Math.min(FIRST_LINE_FINDINGS, failingCount)))));
  const verdicts = checked.map((o) => judgeOperator(o, rules, room));
  const versionFindings = version === undefined || rules.operator !== undefined ? [] : judgeClusterVersion(version, rules);
  const failing = verdicts.filter((v) => !v.available || v.degraded);
  const raised = verdicts.filter((v) => v.state !== State.OK && v.available && !v.degraded);
  const head =
    failing.length > 0
      ? `${failing.length} of ${verdicts.length} operator${verdicts.length === 1 ? '' : 's'} failing: ${fewFindings(failing, 'failing')}`
      : rules.operator !== undefined
        ? verdicts[0].text
        : `${verdicts.length} of ${verdicts.length} operators available, none degraded`;
  const said = [
    head,
    ...(raised.length > 0 ? [fewFindings(raised, raised.length === 1 ? 'operator raised' : 'operators raised')] : []),
    ...(version?.desiredVersion && rules.operator === undefined && !versionFindings.some((f) => f.text.startsWith('updating to '))
      ? [`version ${version.desiredVersion}${version.channel ? ` (${version.channel})` : ''}`]
      : []),
    ...ordered(versionFindings, 'worst first').map((f) => (f.state === State.OK && f.brief ? f.brief : f.text)),
    ...(version === undefined && rules.operator === undefined ? ['no ClusterVersion (404)'] : []),
    ...(rules.operator === undefined ? quick.filter((v) => v.progressing && v.state === State.OK).map((v) => `${v.name} progressing`) : []),
    ...namedList(
      'Upgradeable=False',
      verdicts.filter((v) => v.state === State.OK && v.finding !== '').map((v) => v.name),
    ),
    ...notes,
  ];
  const versionLine: Part = {
    state: State.OK,
    subchecks: versionFindings,
    text: `ClusterVersion ${version?.desiredVersion ?? ''}: ${versionFindings.map((f) => f.text).join(', ') || 'not failing'}`,
  };
  const items: Item[] = [
    ...verdicts
      .filter((v) => rules.listAll || rules.operator !== undefined || v.state !== State.OK || v.progressing)
      .map((v) => ({ name: v.name, state: v.state, text: v.text })),
    ...(versionFindings.length > 0 || (version && rules.listAll) ? [itemOf('clusterversion', versionLine)] : []),
    ...rules.ignore.filter((n) => names.has(n) && rules.operator === undefined).map((n) => ({ name: n, state: State.OK, text: `${n}: ignored (--ignore)` })),
  ];
  const healthy = verdicts.filter((v) => v.state === State.OK && !v.progressing).length;
  if (!rules.listAll && rules.operator === undefined && healthy > 0)
    items.push({
      name: 'healthy',
      state: State.OK,
      text: `${healthy}${items.length > 0 ? ' more' : ''} operator${healthy === 1 ? '' : 's'} available and not degraded (--list-all lists them)`,
    });
  // The operators and the version's findings set the state; the sentence above says them, in its order.
  const judged: Part = { state: State.OK, subchecks: [...verdicts, ...versionFindings] };
  return resultOf([...said.map((text) => part(text)), judged], { items, metrics: operatorMetrics(verdicts) }, '; ', { words: 'as given' });
}

/** Zabbix low-level discovery: `[{"{#OPERATOR}":"etcd"},...]`, sorted by name. */
export function operatorDiscovery(operators: readonly ClusterOperatorStatus[]): string {
  return (
    JSON.stringify(
      [...operators]
        .map((o) => o.name)
        .sort()
        .map((name) => ({ '{#OPERATOR}': name })),
    ) + '\n'
  );
}

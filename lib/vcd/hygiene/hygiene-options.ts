// The hygiene services' own options and configs, declared once: each single check takes them as
// they are, check_vm_fleet under the service's prefix (--snapshot-age-warning, --lease-warning).
import { parseDuration } from '../../plugin/duration';
import { UsageError } from '../../plugin/errors';
import { defineOptions, type OptionsOf } from '../../plugin/options';
import type { ValueParser } from '../../plugin/range';
import { ScalarContext } from '../../plugin/scalar-context';
import { parseState, type State } from '../../plugin/state';
import { BYTE_SIZE_HELP, parseByteSize } from './byte-size';
import type { LeaseThresholds } from './lease-judge';
import type { SnapshotThresholds } from './snapshot-judge';
import type { ToolsPolicy } from './tools-judge';

const STATES = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'] as const;

/** check_vm_snapshot's thresholds. */
export const SNAPSHOT_OPTIONS = defineOptions([
  {
    long: 'age-warning',
    type: 'string',
    arg: 'RANGE',
    default: '3d',
    description: "Warning range of the oldest snapshot's age: a duration (90m, 36h, 3d) or a range of durations (default 3d: older is WARNING).",
  },
  { long: 'age-critical', type: 'string', arg: 'RANGE', default: '7d', description: "Critical range of the oldest snapshot's age (default 7d)." },
  { long: 'size-warning', type: 'string', arg: 'RANGE', description: `Warning range of the snapshots' total size, in ${BYTE_SIZE_HELP} (no default).` },
  { long: 'size-critical', type: 'string', arg: 'RANGE', description: "Critical range of the snapshots' total size (no default)." },
  { long: 'count-warning', type: 'string', arg: 'RANGE', description: 'Warning range of the number of snapshots (no default; e.g. 1 for "more than one").' },
  { long: 'count-critical', type: 'string', arg: 'RANGE', description: 'Critical range of the number of snapshots (no default).' },
]);

/** check_vm_tools's states (the powered-off policy is the VM checks' --powered-off-state). */
export const TOOLS_OPTIONS = defineOptions([
  {
    long: 'outdated-state',
    type: 'string',
    arg: 'STATE',
    default: 'WARNING',
    choices: STATES,
    description: 'State when VMware Tools run but are out of date (default WARNING). Guest-managed Tools (open-vm-tools) are never out of date.',
  },
  {
    long: 'not-running-state',
    type: 'string',
    arg: 'STATE',
    default: 'WARNING',
    choices: STATES,
    description: 'State when VMware Tools are installed but not running, or not installed, on a running VM (default WARNING).',
  },
]);

/** check_vm_lease's thresholds on the time left. */
export const LEASE_OPTIONS = defineOptions([
  {
    long: 'warning',
    short: 'w',
    type: 'string',
    arg: 'DURATION',
    default: '7d',
    description: 'WARNING when the earlier lease (runtime or storage) expires within this time (a duration: 36h, 7d; default 7d).',
  },
  {
    long: 'critical',
    short: 'c',
    type: 'string',
    arg: 'DURATION',
    default: '2d',
    description: 'CRITICAL when it expires within this time (default 2d); an expired lease is always CRITICAL.',
  },
]);

/** A range of durations: `3d`, `1d:7d`, `@2h:4h`, each end with its unit. */
const durationValue: ValueParser = (text) => {
  try {
    return parseDuration(text, 'RANGE', { days: true });
  } catch {
    return /^0+(\.0*)?$/.test(text) ? 0 : undefined;
  }
};

/** How the options came as named in messages: `--age-warning`, or the fleet's `--snapshot-age-warning`. */
type Named = (long: string) => string;
const plain: Named = (long) => `--${long}`;

/** The snapshot options as thresholds, with a note for each -w that can never show. */
export function configureSnapshots(o: OptionsOf<typeof SNAPSHOT_OPTIONS>, named: Named = plain): { thresholds: SnapshotThresholds; slips: string[] } {
  const pair = (what: 'age' | 'size' | 'count', parse?: ValueParser) =>
    ScalarContext.fromOptions({ warning: o[`${what}-warning`], critical: o[`${what}-critical`] }, parse, {
      warning: named(`${what}-warning`),
      critical: named(`${what}-critical`),
    });
  const thresholds = { age: pair('age', durationValue), size: pair('size', parseByteSize), count: pair('count') };
  const slips = (['age', 'size', 'count'] as const).flatMap((k) => (thresholds[k].slip === undefined ? [] : [`${k}: ${thresholds[k].slip}`]));
  return { thresholds, slips };
}

function stateOf(text: string | undefined, option: string, fallback: string): State {
  const state = parseState(text ?? fallback);
  if (state === undefined) throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: expected OK, WARNING, CRITICAL or UNKNOWN`);
  return state;
}

/** The Tools options and the VM checks' --powered-off-state as the Tools policy. */
export function configureTools(o: OptionsOf<typeof TOOLS_OPTIONS> & { 'powered-off-state'?: string }, named: Named = plain): ToolsPolicy {
  return {
    outdated: stateOf(o['outdated-state'], named('outdated-state'), 'WARNING'),
    notRunning: stateOf(o['not-running-state'], named('not-running-state'), 'WARNING'),
    poweredOff: stateOf(o['powered-off-state'], '--powered-off-state', 'UNKNOWN'),
  };
}

/** The lease options as thresholds in seconds; a -w below -c is a slip worth a note. */
export function configureLeases(
  o: OptionsOf<typeof LEASE_OPTIONS>,
  named: Named = (l) => (l === 'warning' ? '-w/--warning' : '-c/--critical'),
): { thresholds: LeaseThresholds; slips: string[] } {
  const warning = parseDuration(o.warning, named('warning'), { days: true });
  const critical = parseDuration(o.critical, named('critical'), { days: true });
  const slips =
    warning < critical ? [`${named('warning')} ${o.warning} is shorter than ${named('critical')} ${o.critical}: WARNING can never show (swap them?)`] : [];
  return { thresholds: { warning, critical }, slips };
}

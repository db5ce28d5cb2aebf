// check_vm_snapshot's judgement: a VM's snapshots by count, age of the oldest and total size.
import { measuredPart, resultSaying } from '../../plugin/part';
import type { Item, Result } from '../../plugin/result';
import { formatBytes } from '../../plugin/number-format';
import type { Measurement, ScalarContext } from '../../plugin/scalar-context';
import { State } from '../../plugin/state';
import type { Snapshot } from './snapshot-section';
import { formatMoment, formatSpan } from '../api/vcd-time';

/** The three figures' thresholds (age in seconds, size in bytes, count). */
export interface SnapshotThresholds {
  age: ScalarContext;
  size: ScalarContext;
  count: ScalarContext;
}

/** Judges a VM's snapshots at `now` (ms); `vm` names it in the summary. */
export function judgeSnapshots(snapshots: readonly Snapshot[], thresholds: SnapshotThresholds, vm: string, now: number): Result {
  const count = snapshots.length;
  if (count === 0) {
    const measured = measureAll(thresholds, 0, 0, 0);
    return resultSaying(`no snapshot on ${vm}`, measured.map(measuredPart));
  }
  // A fold, not Math.min(...list): a server may list 150,000 snapshots, more arguments than a call takes.
  const oldest = snapshots.reduce((min, s) => Math.min(min, s.created), Infinity);
  const items: Item[] = [];
  let age = Math.floor((now - oldest) / 1000);
  if (age < 0) {
    items.push({
      name: 'clock',
      state: State.OK,
      text: `the oldest snapshot is dated ${formatMoment(oldest)}, ${formatSpan(-age)} ahead of this host's clock: its age is counted as 0 (is one of the clocks wrong?)`,
    });
    age = 0;
  }
  // A size the server left out costs the size figure, not the check.
  const size = snapshots.every((s) => s.size !== undefined) ? snapshots.reduce((sum, s) => sum + (s.size as number), 0) : undefined;
  const measured = measureAll(thresholds, count, age, size);
  const [countState, ageState, sizeState] = [measured[0].state, measured[1].state, measured[2]?.state ?? State.OK];
  items.unshift(
    { name: 'age', state: ageState, text: `oldest snapshot ${formatSpan(age)} old (${formatMoment(oldest)})` },
    { name: 'count', state: countState, text: `${count} snapshot${count === 1 ? '' : 's'}` },
    {
      name: 'size',
      state: sizeState,
      text: size === undefined ? 'size not reported by the server for every snapshot' : `${formatBytes(size)} in snapshots`,
    },
  );
  const sized = size === undefined ? '' : `, ${formatBytes(size)}`;
  const summary = `${count} snapshot${count === 1 ? '' : 's'} on ${vm}, oldest ${formatSpan(age)} old (${formatMoment(oldest)})${sized}`;
  return resultSaying(summary, measured.map(measuredPart), { items });
}

/** Count, age and (when known) size, each measured with its own context: its state and perfdata from one value. */
function measureAll(t: SnapshotThresholds, count: number, age: number, size: number | undefined): Measurement[] {
  return [
    t.count.measure('snapshots', count, { min: 0 }),
    t.age.measure('snapshot_age', age, { uom: 's', min: 0 }),
    ...(size === undefined ? [] : [t.size.measure('snapshot_size', size, { uom: 'B', min: 0 })]),
  ];
}

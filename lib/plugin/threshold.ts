import { State } from './state';
import { rangeAlerts, type Range } from './range';

/** Warning and critical ranges of one measurement; either may be absent. */
export interface Thresholds {
  warning?: Range;
  critical?: Range;
}

/** The state of a value against its thresholds; critical wins over warning. */
export function evaluateThresholds(value: number, thresholds: Thresholds): State {
  if (thresholds.critical && rangeAlerts(thresholds.critical, value)) return State.CRITICAL;
  if (thresholds.warning && rangeAlerts(thresholds.warning, value)) return State.WARNING;
  return State.OK;
}

/**
 * A note when -w alerts later than -c on a measurement that alerts above its range (both
 * plain upper bounds, warning's end above critical's): legal, but then WARNING can never
 * show, which is mostly a slip such as `-w 95 -c 90`. Undefined when the pair is sensible.
 */
export function describeThresholdSlip(thresholds: Thresholds): string | undefined {
  const { warning: w, critical: c } = thresholds;
  if (!w || !c || w.inside || c.inside) return undefined;
  if (!Number.isFinite(w.end) || !Number.isFinite(c.end) || w.end <= c.end) return undefined;
  return `-w ${w.text} is above -c ${c.text}: WARNING can never show (swap them?)`;
}

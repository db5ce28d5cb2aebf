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

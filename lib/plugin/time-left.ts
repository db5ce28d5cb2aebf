// Time left before something expires (a certificate, a vApp's lease), judged and graphed in
// one unit: an alert when less than -w/-c is left, CRITICAL once none is left whatever -c says.
import { parseRange } from './range';
import type { Uom } from './perfdata';
import { ScalarContext, type Measurement, type PerfShape } from './scalar-context';
import { State } from './state';

/** The unit time left is judged and graphed in: its length in seconds, its perfdata unit, its decimals (cut, not rounded). */
export interface TimeUnit {
  seconds: number;
  uom?: Uom;
  decimals: number;
}

/** Days, cut to hundredths: the words cut to whole days or hours, so 4.999 days must not graph as the 5 that "expires in 4d" denies. */
export const DAYS: TimeUnit = { seconds: 86_400, decimals: 2 };
/** Whole seconds, graphed with the unit `s`. */
export const SECONDS: TimeUnit = { seconds: 1, uom: 's', decimals: 0 };

/** -w/-c on time left: ranges that alert below the durations given (`30:` in days), in `unit`. */
export class TimeLeft extends ScalarContext {
  constructor(
    limits: { warning: number; critical: number },
    readonly unit: TimeUnit,
    names: { warning: string; critical: string } = { warning: '-w/--warning', critical: '-c/--critical' },
  ) {
    // A duration in hours needs four decimals of a day.
    const below = (seconds: number, option: string) => parseRange(`${Math.round((seconds / unit.seconds) * 10000) / 10000}:`, option);
    super({ warning: below(limits.warning, names.warning), critical: below(limits.critical, names.critical) });
  }

  /** The time left until `expires` at `now` (both ms since the epoch), in this unit, cut to its decimals. */
  left(expires: number, now: number): number {
    const scale = 10 ** this.unit.decimals;
    return Math.floor(((expires - now) / (1000 * this.unit.seconds)) * scale) / scale;
  }

  /** The shape of a time left's perfdata: this unit's. */
  get shape(): PerfShape {
    return { ...(this.unit.uom === undefined ? {} : { uom: this.unit.uom }), decimals: this.unit.decimals };
  }

  /** A time left (in this unit) judged and graphed: none left is CRITICAL whatever -c says. */
  override measure(label: string, value: number | null | undefined, shape: PerfShape = this.shape): Measurement {
    const measured = super.measure(label, value, shape);
    return typeof value === 'number' && value <= 0 ? { ...measured, state: State.CRITICAL } : measured;
  }
}

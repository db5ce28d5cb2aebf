import type { Metric, Uom } from './perfdata';
import { parseRange, type Range, type ValueParser } from './range';
import { State } from './state';
import { describeThresholdSlip, evaluateThresholds, type Thresholds } from './threshold';

/** The -w/-c options of a check's one thresholded measurement: declared here once for every plugin. */
export function thresholdOptions(help: { warning: string; critical: string; criticalDefault?: string }) {
  const warning = { long: 'warning', short: 'w', type: 'string', arg: 'RANGE', description: help.warning } as const;
  const critical: {
    readonly long: 'critical';
    readonly short: 'c';
    readonly type: 'string';
    readonly arg: 'RANGE';
    readonly description: string;
    readonly default?: string;
  } =
    help.criticalDefault === undefined
      ? { long: 'critical', short: 'c', type: 'string', arg: 'RANGE', description: help.critical }
      : { long: 'critical', short: 'c', type: 'string', arg: 'RANGE', default: help.criticalDefault, description: help.critical };
  return [warning, critical] as const;
}

/** What perfdata says of a measurement besides its value and ranges. */
export interface PerfShape {
  uom?: Uom;
  min?: number;
  max?: number;
  /** Perfdata shows the value rounded to this many decimals; the state is judged on the value itself. */
  decimals?: number;
}

/** A value judged: its state and its perfdata item, both from that one value and one context's ranges. */
export interface Measurement {
  readonly state: State;
  readonly metric: Metric;
}

/** One of several values a `--metric` chooses among: its key (the choice), perfdata label, value and shape. */
export interface ChoosableValue {
  key: string;
  label: string;
  value: number | null | undefined;
  shape?: PerfShape;
}

/** The perfdata item of a value no threshold judges: no ranges. */
export function unjudgedMetric(label: string, value: number | null | undefined, shape: PerfShape = {}): Metric {
  return ScalarContext.NONE.measure(label, value, shape).metric;
}

/** A percentage: 0 to 100 %. */
export const PERCENT: PerfShape = { uom: '%', min: 0, max: 100 };

/**
 * One measurement's -w/-c ranges: `measure` gives the state of a value and its perfdata in one
 * call, from that value and these ranges, so that what is judged and what the graphs show
 * cannot drift apart. The ranges are readable as `Thresholds`, so a context goes wherever
 * thresholds do.
 */
export class ScalarContext implements Thresholds {
  /** No thresholds: OK for every value, perfdata without ranges. */
  static readonly NONE = new ScalarContext({});

  readonly warning?: Range;
  readonly critical?: Range;

  constructor(thresholds: Thresholds) {
    this.warning = thresholds.warning;
    this.critical = thresholds.critical;
  }

  /** The ranges of -w/--warning and -c/--critical (either may be absent), parsed with `parseValue` (e.g. sizes). */
  static fromOptions(
    texts: { warning?: string; critical?: string },
    parseValue?: ValueParser,
    names: { warning: string; critical: string } = { warning: '-w/--warning', critical: '-c/--critical' },
  ): ScalarContext {
    return new ScalarContext({
      warning: texts.warning === undefined ? undefined : parseRange(texts.warning, names.warning, parseValue),
      critical: texts.critical === undefined ? undefined : parseRange(texts.critical, names.critical, parseValue),
    });
  }

  /** The context of these thresholds (itself when it is one already). */
  static of(thresholds: Thresholds): ScalarContext {
    return thresholds instanceof ScalarContext ? thresholds : new ScalarContext(thresholds);
  }

  /**
   * A value's state and its perfdata item, with this context's ranges: CRITICAL outside (or
   * inside, for `@`) -c, else WARNING for -w, else OK; UNKNOWN for a value not measured
   * (perfdata `U`).
   */
  measure(label: string, value: number | null | undefined, shape: PerfShape = {}): Measurement {
    const measured = typeof value === 'number' && !Number.isNaN(value);
    const metric: Metric = { label, value: !measured ? null : shape.decimals === undefined ? value : Number(value.toFixed(shape.decimals)) };
    if (shape.uom !== undefined) metric.uom = shape.uom;
    if (this.warning) metric.warning = this.warning;
    if (this.critical) metric.critical = this.critical;
    if (shape.min !== undefined) metric.min = shape.min;
    if (shape.max !== undefined) metric.max = shape.max;
    return { state: measured ? evaluateThresholds(value, this) : State.UNKNOWN, metric };
  }

  /**
   * The perfdata of several values of which -w/-c judge the one `chosen` (a `--metric`): that
   * one measured (its state and perfdata from one value), the others without ranges.
   */
  measureChosen(chosen: string, values: readonly ChoosableValue[]): { judged?: Measurement; metrics: Metric[] } {
    let judged: Measurement | undefined;
    const metrics = values.map(({ key, label, value, shape }) => {
      if (key !== chosen) return unjudgedMetric(label, value, shape);
      judged = this.measure(label, value, shape);
      return judged.metric;
    });
    return { judged, metrics };
  }

  /**
   * Several values of one kind (each node's pods, each certificate's time left), each judged
   * with these ranges, and the worst graphed: `worst` says which end of the values is the
   * worst (the highest use, the lowest time left). A value not measured (undefined, NaN) is
   * not judged (its state is undefined) and never graphed; with none measured, the perfdata
   * is `U` without ranges. The graphed value's state and perfdata come from the one call.
   */
  measureEach(
    label: string,
    values: readonly (number | null | undefined)[],
    worst: 'highest' | 'lowest',
    shape: PerfShape = {},
  ): { states: (State | undefined)[]; graphed?: number; metric: Metric } {
    const measured = (v: number | null | undefined): v is number => typeof v === 'number' && !Number.isNaN(v);
    const states = values.map((v) => (measured(v) ? this.measure(label, v, shape).state : undefined));
    let graphed: number | undefined;
    values.forEach((v, i) => {
      if (!measured(v)) return;
      const best = graphed === undefined ? undefined : (values[graphed] as number);
      if (best === undefined || (worst === 'highest' ? v > best : v < best)) graphed = i;
    });
    const metric = graphed === undefined ? unjudgedMetric(label, null, shape) : this.measure(label, values[graphed], shape).metric;
    return { states, graphed, metric };
  }

  /** The note for -v when -w alerts later than -c (`-w 95 -c 90`), else undefined. */
  get slip(): string | undefined {
    return describeThresholdSlip(this);
  }
}

import type { Metric, Uom } from './perfdata';
import { parseRange, type Range, type ValueParser } from './range';
import type { State } from './state';
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
}

/** A percentage: 0 to 100 %. */
export const PERCENT: PerfShape = { uom: '%', min: 0, max: 100 };

/**
 * One measurement's -w/-c ranges: the state of a value and its perfdata both come from
 * these same ranges, so that what is judged and what the graphs show cannot drift apart.
 * The ranges are readable as `Thresholds`, so a context goes wherever thresholds do.
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

  /** The state of a value: CRITICAL outside (or inside, for `@`) -c, else WARNING for -w, else OK. */
  evaluate(value: number): State {
    return evaluateThresholds(value, this);
  }

  /** The perfdata item of a value, with this context's ranges. */
  perfdata(label: string, value: number | null | undefined, shape: PerfShape = {}): Metric {
    const metric: Metric = { label, value: value ?? null };
    if (shape.uom !== undefined) metric.uom = shape.uom;
    if (this.warning) metric.warning = this.warning;
    if (this.critical) metric.critical = this.critical;
    if (shape.min !== undefined) metric.min = shape.min;
    if (shape.max !== undefined) metric.max = shape.max;
    return metric;
  }

  /** The note for -v when -w alerts later than -c (`-w 95 -c 90`), else undefined. */
  get slip(): string | undefined {
    return describeThresholdSlip(this);
  }
}

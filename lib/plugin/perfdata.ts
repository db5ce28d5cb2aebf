import { formatDecimal, isPlainNumber } from './number-format';
import { formatRange, type Range } from './range';

/** Units allowed by the guidelines; rates carry their unit in the label instead. */
export type Uom = '' | '%' | 's' | 'ms' | 'B' | 'c';

/** One performance-data item. `value: null` is printed as `U` (could not be measured). */
export interface Metric {
  label: string;
  value: number | null;
  uom?: Uom;
  warning?: Range;
  critical?: Range;
  min?: number;
  max?: number;
}

/** Formats a label, quoting it only when it holds a space, `=` or `'`. */
export function formatLabel(label: string): string {
  if (!/[\s='"|]/.test(label)) return label;
  return `'${label.replace(/'/g, "''").replace(/\|/g, '_')}'`;
}

/** Formats one item as `label=value[UOM];[warn];[crit];[min];[max]`, trailing empties dropped. */
export function formatMetric(m: Metric): string {
  const value = m.value === null || !isPlainNumber(m.value) ? 'U' : formatDecimal(m.value) + (m.uom ?? '');
  const fields = [
    value,
    m.warning ? formatRange(m.warning) : '',
    m.critical ? formatRange(m.critical) : '',
    m.min === undefined || !isPlainNumber(m.min) ? '' : formatDecimal(m.min),
    m.max === undefined || !isPlainNumber(m.max) ? '' : formatDecimal(m.max),
  ];
  while (fields.length > 1 && fields[fields.length - 1] === '') fields.pop();
  return `${formatLabel(m.label)}=${fields.join(';')}`;
}

/** Formats all items, space-separated. */
export function formatPerfdata(metrics: readonly Metric[]): string {
  return metrics.map(formatMetric).join(' ');
}

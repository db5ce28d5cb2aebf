import { describe, expect, it } from 'vitest';
import { formatMetric } from '../../../lib/plugin/perfdata';
import { PERCENT, ScalarContext, unjudgedMetric, type PerfShape } from '../../../lib/plugin/scalar-context';
import { State } from '../../../lib/plugin/state';

const { OK, WARNING, CRITICAL, UNKNOWN } = State;

describe('ScalarContext.measure: the state and the perfdata of one value, in one call', () => {
  const table: Array<[string, { warning?: string; critical?: string }, number | undefined, PerfShape, State, string]> = [
    ['no thresholds: OK, no ranges', {}, 95, PERCENT, OK, 'x=95%;;;0;100'],
    ['below -w', { warning: '80', critical: '90' }, 79.5, PERCENT, OK, 'x=79.5%;80;90;0;100'],
    ['above -w', { warning: '80', critical: '90' }, 85, PERCENT, WARNING, 'x=85%;80;90;0;100'],
    ['above -c: critical wins', { warning: '80', critical: '90' }, 95, PERCENT, CRITICAL, 'x=95%;80;90;0;100'],
    ['inside an @ range', { critical: '@10:20' }, 15, {}, CRITICAL, 'x=15;;@10:20'],
    ['not measured: UNKNOWN, perfdata U', { critical: '0' }, undefined, { min: 0 }, UNKNOWN, 'x=U;;0;0'],
    // The state is judged on the value, perfdata shows it rounded: 1 of 3 is above 33.33.
    ['judged whole, shown rounded', { critical: '33.33' }, 100 / 3, { uom: '%', decimals: 2 }, CRITICAL, 'x=33.33%;;33.33'],
  ];
  it.each(table)('%s', (_, texts, value, shape, state, perfdata) => {
    const m = ScalarContext.fromOptions(texts).measure('x', value, shape);
    expect(m.state).toBe(state);
    expect(formatMetric(m.metric)).toBe(perfdata);
  });

  it('an unjudged value carries no ranges', () => expect(formatMetric(unjudgedMetric('n', 3, { min: 0, max: 5 }))).toBe('n=3;;;0;5'));
});

describe('ScalarContext.measureChosen: -w/-c on the value --metric chose, the others plain', () => {
  const ctx = ScalarContext.fromOptions({ warning: '80', critical: '90' });
  const values = [
    { key: 'average', label: 'cpu_usage', value: 85, shape: PERCENT },
    { key: 'mhz', label: 'cpu_mhz', value: 3000, shape: { min: 0 } },
  ];
  const table: Array<[string, State | undefined, string[]]> = [
    ['average', WARNING, ['cpu_usage=85%;80;90;0;100', 'cpu_mhz=3000;;;0']],
    ['mhz', CRITICAL, ['cpu_usage=85%;;;0;100', 'cpu_mhz=3000;80;90;0']],
    ['none of them', undefined, ['cpu_usage=85%;;;0;100', 'cpu_mhz=3000;;;0']],
  ];
  it.each(table)('--metric %s', (chosen, state, perfdata) => {
    const { judged, metrics } = ctx.measureChosen(chosen, values);
    expect(judged?.state).toBe(state);
    expect(metrics.map(formatMetric)).toEqual(perfdata);
  });
});

describe('measureEach: several values of one kind, each judged, the worst graphed', () => {
  const ctx = ScalarContext.fromOptions({ warning: '80', critical: '95' });

  it('each value its state; the highest graphed with the ranges, from the same call that judged it', () => {
    const m = ctx.measureEach('pods_max_pct', [40, 96.25, undefined, 85], 'highest', { ...PERCENT, decimals: 1 });
    expect(m.states).toEqual([State.OK, State.CRITICAL, undefined, State.WARNING]);
    expect(m.graphed).toBe(1);
    expect(formatMetric(m.metric)).toBe('pods_max_pct=96.3%;80;95;0;100');
  });

  it('equal worst values: the first graphed; none measured: U without ranges, and no state', () => {
    expect(ctx.measureEach('x', [90, 90], 'highest').graphed).toBe(0);
    const none = ctx.measureEach('x', [undefined, NaN, null], 'lowest', PERCENT);
    expect(none.states).toEqual([undefined, undefined, undefined]);
    expect(none.graphed).toBeUndefined();
    expect(none.metric).toEqual(unjudgedMetric('x', null, PERCENT));
  });
});

import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../../../lib/vcd/metrics';
import { aggregateWindow, checkStaleness } from '../../../lib/vcd/window';

const T0 = Date.parse('2024-05-05T07:00:00.000Z');
const min = 60_000;

// Samples 5 min apart with a few seconds of jitter, the newest at 07:10:03.
const cpu: MetricSeries = {
  name: 'cpu.usage.average',
  unit: 'PERCENT',
  expectedInterval: 300,
  samples: [
    { time: T0 - 20 * min + 2_100, value: 10 },
    { time: T0 - 15 * min + 4_900, value: 20 },
    { time: T0 - 10 * min + 1_300, value: 30 },
    { time: T0 - 5 * min + 5_500, value: 70 },
    { time: T0 + 3_000, value: 40 },
    { time: T0 + 5 * min + 2_000, value: 50 },
    { time: T0 + 10 * min + 3_000, value: 60 },
  ],
};
const now = T0 + 12 * min;

describe('aggregateWindow', () => {
  it.each([
    ['avg', 20 * 60, (70 + 40 + 50 + 60) / 4, 4],
    ['max', 20 * 60, 70, 4],
    ['min', 20 * 60, 40, 4],
    ['last', 20 * 60, 60, 4],
    ['avg', 15 * 60, 50, 3],
    ['avg', 5 * 60, 60, 1],
    ['avg', 3600, 40, 7],
  ] as const)('%s over %ds', (aggregate, window, value, count) => {
    const w = aggregateWindow(cpu, window, aggregate, now);
    expect(w?.value).toBeCloseTo(value, 10);
    expect(w?.count).toBe(count);
    expect(w?.newest).toBe(T0 + 10 * min + 3_000);
    expect(w?.fellBack).toBe(false);
  });

  it('uses the newest sample when the window is shorter than the interval', () => {
    const disk: MetricSeries = { name: 'disk.used.latest', unit: 'KILOBYTE', expectedInterval: 1800, samples: [{ time: T0 - 30 * min, value: 1 }, { time: T0 - 20 * min, value: 2 }] };
    expect(aggregateWindow(disk, 15 * 60, 'avg', now)).toEqual({ value: 2, count: 1, newest: T0 - 20 * min, fellBack: true });
  });

  it('ignores samples after now (beyond a minute of clock skew)', () => {
    expect(aggregateWindow(cpu, 5 * 60, 'max', T0 + 9 * min)?.value).toBe(50);
  });

  it('gives undefined for an empty series', () => {
    expect(aggregateWindow({ ...cpu, samples: [] }, 900, 'avg', now)).toBeUndefined();
  });
});

describe('checkStaleness', () => {
  it('accepts a series whose newest sample is within 3 × its interval', () => {
    expect(() => checkStaleness(cpu, T0 + 10 * min + 3_000 + 15 * min)).not.toThrow();
  });

  it('refuses one older than that, naming the series and the time', () => {
    expect(() => checkStaleness(cpu, T0 + 10 * min + 3_000 + 15 * min + 1)).toThrow(
      'no sample of cpu.usage.average since 2024-05-05T07:10:03.000Z (older than --max-age 15m, 3 × its interval); check that the VM is running and vCD collects its metrics',
    );
  });

  it('uses --max-age when given', () => {
    expect(() => checkStaleness(cpu, now + 3600_000, 7200)).not.toThrow();
    expect(() => checkStaleness(cpu, now, 60)).toThrow(/since 2024-05-05T07:10:03.000Z \(older than --max-age 1m\)/);
  });

  it('refuses an empty series', () => {
    expect(() => checkStaleness({ ...cpu, samples: [] }, now)).toThrow(/no sample of cpu.usage.average in the last 24 hours/);
  });
});

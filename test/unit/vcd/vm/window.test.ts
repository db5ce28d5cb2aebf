import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../../../../lib/vcd/vm/metrics';
import { aggregateWindow, checkStaleness, dropFutureSamples, seriesInterval } from '../../../../lib/vcd/vm/window';

const T0 = Date.parse('2024-05-05T07:00:00.000Z');
const min = 60_000;

// Samples 5 min apart with a few seconds of jitter, the newest at 07:10:03.
const cpu: MetricSeries = {
  name: 'cpu.usage.average',
  base: 'cpu.usage.average',
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
    const disk: MetricSeries = {
      name: 'disk.used.latest',
      base: 'disk.used.latest',
      unit: 'KILOBYTE',
      expectedInterval: 1800,
      samples: [
        { time: T0 - 30 * min, value: 1 },
        { time: T0 - 20 * min, value: 2 },
      ],
    };
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

describe('aggregateWindow over a huge series', () => {
  it('max and min of 200,000 samples, without overflowing the call stack', () => {
    const samples = Array.from({ length: 200_000 }, (_, i) => ({ time: now - 200_000 + i, value: (i * 7919) % 100 }));
    samples[123_456].value = 100;
    samples[654].value = -0.5;
    const big: MetricSeries = { ...cpu, samples };
    expect(aggregateWindow(big, 3600, 'max', now)).toMatchObject({ value: 100, count: 200_000 });
    expect(aggregateWindow(big, 3600, 'min', now)).toMatchObject({ value: -0.5, count: 200_000 });
  });
});

describe('dropFutureSamples', () => {
  it('leaves out a sample dated 2099, so that it cannot make a stopped series look fresh', () => {
    const future = { ...cpu, samples: [...cpu.samples, { time: Date.parse('2099-01-01T00:00:00Z'), value: 1 }] };
    const later = T0 + 10 * min + 3_000 + 60 * min;
    expect(() => checkStaleness(future, later)).not.toThrow(); // the hole: 2099 is always "new"
    const { series, dropped } = dropFutureSamples(future, later);
    expect(dropped).toEqual([{ time: Date.parse('2099-01-01T00:00:00Z'), value: 1 }]);
    expect(series.samples).toEqual(cpu.samples);
    expect(() => checkStaleness(series, later)).toThrow(/no sample of cpu.usage.average since 2024-05-05T07:10:03.000Z/);
  });
  it('keeps samples within a minute of clock skew, and the series itself when nothing is dropped', () => {
    const skewed = { ...cpu, samples: [...cpu.samples, { time: now + 59_000, value: 1 }] };
    expect(dropFutureSamples(skewed, now).dropped).toEqual([]);
    expect(dropFutureSamples(cpu, now).series).toBe(cpu);
  });
});

describe('seriesInterval', () => {
  const spaced = (interval: number | undefined, gapMs: number, n = 6): MetricSeries => ({
    ...cpu,
    expectedInterval: interval,
    samples: Array.from({ length: n }, (_, i) => ({ time: T0 + i * gapMs + (i % 2) * 3_000, value: 1 })),
  });
  it('reads 300 as seconds when the samples are 5 minutes apart (schema reference)', () => {
    expect(seriesInterval(spaced(300, 300_000))).toEqual({
      seconds: 300,
      note: 'expectedInterval 300 of cpu.usage.average read as seconds (5m): its samples are 5m apart',
    });
  });
  it('reads 300000 as milliseconds when the samples are 5 minutes apart (programming guide)', () => {
    expect(seriesInterval(spaced(300000, 300_000))).toEqual({
      seconds: 300,
      note: 'expectedInterval 300000 of cpu.usage.average read as milliseconds (5m): its samples are 5m apart',
    });
    expect(seriesInterval(spaced(1800000, 1_800_000)).seconds).toBe(1800);
  });
  it('with one sample: seconds, unless that would exceed the 24 h of history', () => {
    expect(seriesInterval(spaced(300, 0, 1)).seconds).toBe(300);
    expect(seriesInterval(spaced(300000, 0, 1))).toMatchObject({
      seconds: 300,
      note: expect.stringMatching(/read as milliseconds \(5m\): more than the 24h of history/),
    });
  });
  it('measures the spacing when the server announces none', () => {
    expect(seriesInterval(spaced(undefined, 1_800_000)).seconds).toBe(1800);
    expect(seriesInterval(spaced(undefined, 0, 1)).seconds).toBe(300);
  });
  it('a gap (VM off for hours) does not move the median', () => {
    const s = spaced(300000, 300_000, 9);
    s.samples[8].time += 5 * 3600_000;
    expect(seriesInterval(s).seconds).toBe(300);
  });
});

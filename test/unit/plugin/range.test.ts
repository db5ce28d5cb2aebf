import { describe, expect, it } from 'vitest';
import { formatRange, parseRange, rangeAlerts } from '../../../lib/plugin/range';
import { UsageError } from '../../../lib/plugin/errors';

// The guideline's table: each range with values on both sides of each boundary.
const cases: Array<[string, number, boolean]> = [
  // 10: alert if < 0 or > 10
  ['10', -0.001, true],
  ['10', 0, false],
  ['10', 5, false],
  ['10', 10, false],
  ['10', 10.001, true],
  ['10', -1, true],
  // 10: => alert if < 10
  ['10:', 9.999, true],
  ['10:', 10, false],
  ['10:', 1e12, false],
  // ~:10 => alert if > 10
  ['~:10', -1e12, false],
  ['~:10', 10, false],
  ['~:10', 10.5, true],
  // 10:20 => alert if < 10 or > 20
  ['10:20', 9, true],
  ['10:20', 10, false],
  ['10:20', 20, false],
  ['10:20', 21, true],
  // @10:20 => alert if >= 10 and <= 20
  ['@10:20', 9.99, false],
  ['@10:20', 10, true],
  ['@10:20', 15, true],
  ['@10:20', 20, true],
  ['@10:20', 20.01, false],
  // decimals and negatives
  ['-5:-1', -5, false],
  ['-5:-1', -0.5, true],
  ['-5:-1', -6, true],
  ['0.5:1.5', 0.49, true],
  ['0.5:1.5', 1.5, false],
  ['~:', -1e9, false],
  ['@~:0', -3, true],
  ['@~:0', 1, false],
  ['@0', 0, true],
  ['@0', 0.1, false],
  ['0', 0, false],
  ['0', 1, true],
  [':5', 0, false],
  [':5', -1, true],
];

describe('parseRange/rangeAlerts', () => {
  it.each(cases)('range %s, value %d -> alert %s', (text, value, alert) => {
    expect(rangeAlerts(parseRange(text, '-w/--warning'), value)).toBe(alert);
  });

  it.each(['', 'abc', '10:5', '1:2:3', '@', '10::', '~', 'x:10', '10:y', '1e3', '--1', '5 :6x'])('rejects malformed %j naming option and text', (text) => {
    expect(() => parseRange(text, '-c/--critical')).toThrow(UsageError);
    try {
      parseRange(text, '-c/--critical');
    } catch (e) {
      expect((e as Error).message).toContain('-c/--critical');
      expect((e as Error).message).toContain(JSON.stringify(text.trim()));
    }
  });

  it('accepts a unit-aware value parser', () => {
    const r = parseRange('1K:2K', '-w', (t) => (/^\d+K$/.test(t) ? Number(t.slice(0, -1)) * 1024 : undefined));
    expect([r.start, r.end]).toEqual([1024, 2048]);
  });

  it.each([
    ['10', '10'],
    ['10:', '10:'],
    ['~:10', '~:10'],
    ['10:20', '10:20'],
    ['@10:20', '@10:20'],
    ['@0:5', '@5'],
    ['-1:2.5', '-1:2.5'],
  ])('formats %s back as %s', (text, out) => {
    expect(formatRange(parseRange(text, '-w'))).toBe(out);
  });
});

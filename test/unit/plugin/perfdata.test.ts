import { describe, expect, it } from 'vitest';
import { formatLabel, formatMetric, formatPerfdata } from '../../../lib/plugin/perfdata';
import { formatDecimal } from '../../../lib/plugin/number-format';
import { parseRange } from '../../../lib/plugin/range';

describe('formatDecimal', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [1, '1'],
    [-3.5, '-3.5'],
    [33.7, '33.7'],
    [0.1 + 0.2, '0.3'],
    [999999999999999900000, '999999999999999868928'],
    [123456789012345680000, '123456789012345683968'],
    [1e-7, '0'],
    [0.000001, '0.000001'],
    [-1e20, '-100000000000000000000'],
    [2 ** 53, '9007199254740992'],
  ])('%d -> %s', (n, s) => {
    expect(formatDecimal(n)).toBe(s);
    expect(s).not.toMatch(/e/i);
  });
  it('refuses non-finite numbers', () => expect(() => formatDecimal(NaN)).toThrow());
  it.each([1e21, -1e22, 1e308, -Number.MAX_VALUE])('refuses %d rather than print hundreds of digits', (n) => {
    expect(() => formatDecimal(n)).toThrow(/without an exponent/);
  });
  it('writes a metric beyond the limit as U, never as 309 digits', () => {
    expect(formatMetric({ label: 'x', value: 1e308, uom: 'B' })).toBe('x=U');
  });
  it('refuses a threshold beyond the limit as a usage error', () => {
    expect(() => parseRange('1' + '0'.repeat(30), '-w')).toThrow(/invalid range "10{30}" for -w: end "10{30}" is too large/);
    expect(() => parseRange('1' + '0'.repeat(400), '-c')).toThrow(/too large/);
  });
});

describe('formatLabel', () => {
  it.each([
    ['nodes', 'nodes'],
    ['disk_read_kBps', 'disk_read_kBps'],
    ['my label', "'my label'"],
    ["it's", "'it''s'"],
    ['a=b', "'a=b'"],
  ])('%s -> %s', (l, out) => expect(formatLabel(l)).toBe(out));
});

describe('formatMetric', () => {
  it('prints every field', () => {
    expect(
      formatMetric({ label: 'cpu_usage', value: 33.7, uom: '%', warning: parseRange('80', '-w'), critical: parseRange('90', '-c'), min: 0, max: 100 }),
    ).toBe('cpu_usage=33.7%;80;90;0;100');
  });
  it('drops trailing empty fields but keeps inner ones', () => {
    expect(formatMetric({ label: 'nodes', value: 6, min: 0 })).toBe('nodes=6;;;0');
    expect(formatMetric({ label: 'x', value: 1 })).toBe('x=1');
    expect(formatMetric({ label: 'failing', value: 1, critical: parseRange('0', '-c'), min: 0, max: 6 })).toBe('failing=1;;0;0;6');
  });
  it('prints U for an unknown value', () => {
    expect(formatMetric({ label: 'cpu_mhz', value: null, min: 0 })).toBe('cpu_mhz=U;;;0');
    expect(formatMetric({ label: 'cpu_mhz', value: NaN })).toBe('cpu_mhz=U');
  });
  it('handles zero, negatives, huge and tiny values without exponents', () => {
    expect(formatMetric({ label: 'z', value: 0, uom: 'B' })).toBe('z=0B');
    expect(formatMetric({ label: 'n', value: -12.25 })).toBe('n=-12.25');
    expect(formatMetric({ label: 'big', value: 5e20, uom: 'B', max: 9e20 })).toBe('big=500000000000000000000B;;;;900000000000000000000');
    expect(formatMetric({ label: 'huge', value: 5e21, uom: 'B', max: 1e22 })).toBe('huge=U');
    expect(formatMetric({ label: 'tiny', value: 0.0000042, uom: 's' })).toBe('tiny=0.000004s');
  });
  it('joins items with spaces', () => {
    expect(
      formatPerfdata([
        { label: 'a', value: 1 },
        { label: 'b c', value: 2, uom: 'c' },
      ]),
    ).toBe("a=1 'b c'=2c");
  });
});

import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../../lib/plugin/duration';
import { parseRange } from '../../../../lib/plugin/range';
import { parseByteSize } from '../../../../lib/vcd/hygiene/byte-size';
import { formatMoment, formatSpan, parseDateTime } from '../../../../lib/vcd/api/vcd-time';

describe('xs:dateTime as vCD writes it', () => {
  it.each([
    ['2018-04-16T09:36:59.459+02:00', Date.UTC(2018, 3, 16, 7, 36, 59, 459)],
    ['2018-04-13T16:45:36.711+02:00', Date.UTC(2018, 3, 13, 14, 45, 36, 711)],
    ['2026-11-26T10:00:00Z', Date.UTC(2026, 10, 26, 10)],
    ['2026-11-26T10:00:00.123456789-05:00', Date.UTC(2026, 10, 26, 15, 0, 0, 123)],
    ['2026-11-26T10:00:00', Date.UTC(2026, 10, 26, 10)],
  ])('%s', (text, ms) => expect(parseDateTime(text)).toBe(ms));
  it.each(['', 'tomorrow', '2026-13-45T99:00:00Z', '2026-11-26', '1764151200', '2026-11-26T10:00:00+2'])('refuses %j', (text) =>
    expect(parseDateTime(text)).toBeUndefined(),
  );
  it('formats moments and spans', () => {
    expect(formatMoment(Date.UTC(2018, 3, 16, 7, 36, 59))).toBe('2018-04-16 07:36 UTC');
    expect([0, 42, 192, 18180, 871200, 864000 + 7200 + 59].map(formatSpan)).toEqual(['0s', '42s', '3m 12s', '5h 3m', '10d 2h', '10d 2h']);
  });
});

describe('durations in days, for ages and time left only', () => {
  it.each([
    ['3d', 259200],
    ['7d', 604800],
    ['1d12h', 129600],
    ['36h', 129600],
  ])('%s', (text, seconds) => expect(parseDuration(text, '--age-warning', { days: true })).toBe(seconds));
  it('other options still refuse days', () => expect(() => parseDuration('3d', '--window')).toThrow('expected a duration such as 900s, 15m or 1h'));
});

describe('sizes: binary KiB..TiB, decimal KB..TB', () => {
  it.each([
    ['1024', 1024],
    ['50GiB', 50 * 1024 ** 3],
    ['50GB', 50e9],
    ['1.5TiB', 1.5 * 1024 ** 4],
    ['2 MB', 2e6],
    ['512B', 512],
    ['10kib', 10240],
  ])('%s', (text, bytes) => expect(parseByteSize(text)).toBe(bytes));
  it.each(['50G', '50 gigabytes', 'GiB', '1e3'])('refuses %j', (text) => expect(parseByteSize(text)).toBeUndefined());
  it('as range values', () => expect(parseRange('10GiB:50GB', '--size-warning', parseByteSize)).toMatchObject({ start: 10 * 1024 ** 3, end: 50e9 }));
});

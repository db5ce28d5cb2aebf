import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../../lib/plugin/duration';
import { parseTimeout } from '../../../lib/plugin/options';
import { State } from '../../../lib/plugin/state';

describe('parseDuration needs a unit', () => {
  it.each([
    ['15', '15s, 15m or 15h'],
    ['90', '90s, 90m or 90h'],
    ['1.5', '1.5s, 1.5m or 1.5h'],
  ])('refuses the bare number %j, saying what to write', (text, advice) => {
    expect(() => parseDuration(text, '--window')).toThrow(`invalid --window "${text}": a duration needs a unit: ${advice} (see --help)`);
  });
  it('takes each unit', () => {
    expect(['15s', '15m', '15h', '1h15m30s'].map((t) => parseDuration(t, '--window'))).toEqual([15, 900, 54000, 4530]);
  });
});

describe('one duration syntax for every option', () => {
  const GRACE = { maxSeconds: 7 * 86400 };
  it.each([
    ['--window', '1h30m', {}, 5400],
    ['--grace', '10m', GRACE, 600],
    ['--grace', '10 M', GRACE, 600],
    ['--grace', '168h', GRACE, 7 * 86400],
    ['--resolve-ttl', '1s', {}, 1],
    ['-t/--timeout', '10', { bareSeconds: true, maxSeconds: 3600 }, 10],
    ['-t/--timeout', '2m', { bareSeconds: true, maxSeconds: 3600 }, 120],
  ])('%s %j', (option, text, rule, seconds) => expect(parseDuration(text, option, rule)).toBe(seconds));
  it.each(['10', '5d', '-1m', '0s', 'soon', '169h'])('refuses --grace %s, naming the option', (text) =>
    expect(() => parseDuration(text, '--grace', GRACE)).toThrow(
      /^invalid --grace .*: (a duration needs a unit|expected a duration such as 900s, 15m or 1h|at most 168h)/,
    ),
  );
  it('-t takes seconds, or a duration, with a state', () => {
    expect(parseTimeout('30:CRITICAL')).toEqual({ seconds: 30, state: State.CRITICAL });
    expect(parseTimeout('1m')).toEqual({ seconds: 60, state: State.UNKNOWN });
    expect(() => parseTimeout('2h')).toThrow('invalid -t/--timeout "2h": at most 1h');
  });
  it('formats back', () => expect([900, 3600, 90, 5400, 1.5].map(formatDuration)).toEqual(['15m', '1h', '90s', '90m', '1.5s']));
});

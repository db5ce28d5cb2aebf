import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../lib/vcd/duration';

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

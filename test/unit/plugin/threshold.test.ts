import { describe, expect, it } from 'vitest';
import { parseRange } from '../../../lib/plugin/range';
import { describeThresholdSlip } from '../../../lib/plugin/threshold';

const r = (text: string) => parseRange(text, '-w');

describe('describeThresholdSlip: -w above -c on a measurement that alerts above its range', () => {
  it('notes -w 95 -c 90 (WARNING could never show)', () => {
    expect(describeThresholdSlip({ warning: r('95'), critical: r('90') })).toBe('-w 95 is above -c 90: WARNING can never show (swap them?)');
    expect(describeThresholdSlip({ warning: r('2'), critical: r('0') })).toMatch(/^-w 2 is above -c 0/);
  });
  it.each([
    ['80', '90'],
    ['90', '90'],
    ['10:', '5:'], // lower bounds: alerting below, another matter
    ['@90:100', '80'],
    ['~:80', '~:90'],
  ])('says nothing of -w %s -c %s', (w, c) => {
    expect(describeThresholdSlip({ warning: r(w), critical: r(c) })).toBeUndefined();
  });
  it('says nothing when one of them is missing', () => {
    expect(describeThresholdSlip({ warning: r('95') })).toBeUndefined();
    expect(describeThresholdSlip({ critical: r('90') })).toBeUndefined();
  });
});

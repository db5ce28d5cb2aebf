// The thresholds check_vdc and check_pvdc share: each resource's own pair, else -w/-c, else 80/90.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../lib/plugin/errors';
import { capacityThresholdsFrom, type CapacityThresholdOptions } from '../../../../lib/vcd/vdc/capacity-check';

const options = (given: Partial<CapacityThresholdOptions>): CapacityThresholdOptions => ({
  warning: undefined,
  critical: undefined,
  'cpu-warning': undefined,
  'cpu-critical': undefined,
  'memory-warning': undefined,
  'memory-critical': undefined,
  'storage-warning': undefined,
  'storage-critical': undefined,
  ...given,
});

const ranges = (t: ReturnType<typeof capacityThresholdsFrom>['thresholds']) =>
  Object.fromEntries(Object.entries(t).map(([r, c]) => [r, [c.warning?.text, c.critical?.text]]));

describe('capacityThresholdsFrom', () => {
  it('80/90 by default; -w/-c for all; a resource its own', () => {
    expect(ranges(capacityThresholdsFrom(options({}), false).thresholds)).toEqual({ cpu: ['80', '90'], memory: ['80', '90'], storage: ['80', '90'] });
    const { thresholds } = capacityThresholdsFrom(options({ warning: '70', 'memory-critical': '95', 'storage-warning': '85' }), false);
    expect(ranges(thresholds)).toEqual({ cpu: ['70', '90'], memory: ['70', '95'], storage: ['85', '90'] });
  });

  it('says a -w that can never show before its -c, per resource', () => {
    const { slips } = capacityThresholdsFrom(options({ 'cpu-warning': '95' }), false);
    expect(slips).toHaveLength(1);
    expect(slips[0]).toMatch(/^cpu: /);
  });

  it('names a bad range by its own option when asked (check_pvdc), as -w/-c otherwise (check_vdc)', () => {
    expect(() => capacityThresholdsFrom(options({ 'cpu-warning': 'lots' }), true)).toThrow(UsageError);
    expect(() => capacityThresholdsFrom(options({ 'cpu-warning': 'lots' }), true)).toThrow(/--cpu-warning/);
    expect(() => capacityThresholdsFrom(options({ 'cpu-warning': 'lots' }), false)).not.toThrow(/--cpu-warning/);
  });
});

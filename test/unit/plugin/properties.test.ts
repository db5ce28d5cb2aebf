// Property-based tests: for any input, the range parser and perfdata formatter either work
// exactly or fail with the runtime's own error type.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckError } from '../../../lib/plugin/errors';
import { formatMetric } from '../../../lib/plugin/perfdata';
import { formatRange, parseRange, rangeAlerts } from '../../../lib/plugin/range';
import { parsePerfdataStrict } from '../../support/perfdata-parse';

const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 });

describe('range parser properties', () => {
  it('never throws anything but a CheckError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        try {
          parseRange(text, '-w');
        } catch (e) {
          expect(e).toBeInstanceOf(CheckError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips start:end and agrees with the definition', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }), fc.boolean(), finite, (start, width, inside, value) => {
        const end = start + width;
        const text = `${inside ? '@' : ''}${start}:${end}`;
        const range = parseRange(text, '-c');
        const within = value >= start && value <= end;
        expect(rangeAlerts(range, value)).toBe(inside ? within : !within);
        const again = parseRange(formatRange(range), '-c');
        expect([again.start, again.end, again.inside]).toEqual([range.start, range.end, range.inside]);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('perfdata formatter properties', () => {
  const label = fc.stringMatching(/^[a-z][a-z0-9_ ]{0,20}$/);
  it('always re-parses strictly to the same numbers', () => {
    fc.assert(
      fc.property(label, finite, fc.constantFrom('', '%', 's', 'ms', 'B', 'c'), fc.option(finite), fc.option(finite), (l, value, uom, min, max) => {
        const text = formatMetric({ label: l, value, uom: uom as '', min: min ?? undefined, max: max ?? undefined });
        const [parsed] = parsePerfdataStrict(text);
        expect(parsed.label).toBe(l);
        expect(parsed.uom).toBe(uom);
        // Six decimals are printed: the number read back is the value rounded to them.
        expect(Math.abs((parsed.value as number) - value)).toBeLessThanOrEqual(5e-7 + Math.abs(value) * 1e-15);
        if (min !== null) expect(Math.abs((parsed.min as number) - min)).toBeLessThanOrEqual(5e-7 + Math.abs(min) * 1e-15);
        expect(text.slice(text.lastIndexOf('=') + 1)).not.toMatch(/e/i);
      }),
      { numRuns: 2000 },
    );
  });
});

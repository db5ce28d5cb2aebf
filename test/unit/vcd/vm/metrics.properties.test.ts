// The vCD document readers on arbitrary input: they return a result or throw the runtime's
// CheckError, never anything else (a TypeError would become an "internal error" line).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckError } from '../../../../lib/plugin/errors';
import { parseVcdError } from '../../../../lib/vcd/api/vcd-error';
import { parseCurrentUsage, parseHistoricUsage } from '../../../../lib/vcd/vm/metrics';

const NS = 'http://www.vmware.com/vcloud/v1.5';
const attr = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('cpu.usage.average', 'disk.used.latest', '12.5', '-1', 'NaN', '1e400', '2026-11-22T00:00:00.000Z', ''),
);
const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const metric = fc.tuple(attr, attr, attr).map(([n, u, v]) => `<Metric name="${esc(n)}" unit="${esc(u)}" value="${esc(v)}"/>`);
const sample = fc.tuple(attr, attr).map(([t, v]) => `<Sample timestamp="${esc(t)}" value="${esc(v)}"/>`);
const series = fc
  .tuple(attr, attr, fc.array(sample, { maxLength: 4 }))
  .map(([n, i, s]) => `<MetricSeries name="${esc(n)}" unit="PERCENT" expectedInterval="${esc(i)}">${s.join('')}</MetricSeries>`);

function onlyCheckErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckError);
  }
}

describe('vCD readers on arbitrary documents', () => {
  it('CurrentUsage and HistoricUsage: a result or a CheckError', () => {
    fc.assert(
      fc.property(fc.array(metric, { maxLength: 6 }), fc.array(series, { maxLength: 4 }), fc.string({ maxLength: 40 }), (metrics, seriesList, noise) => {
        onlyCheckErrors(() => parseCurrentUsage(`<CurrentUsage xmlns="${NS}">${metrics.join('')}</CurrentUsage>`));
        onlyCheckErrors(() => parseHistoricUsage(`<HistoricUsage xmlns="${NS}">${seriesList.join('')}</HistoricUsage>`));
        onlyCheckErrors(() => parseCurrentUsage(noise));
        onlyCheckErrors(() => parseHistoricUsage(noise));
        parseVcdError(noise);
      }),
      { numRuns: 1500 },
    );
  });

  it('a value that is not a finite decimal is refused, naming the metric', () => {
    fc.assert(
      fc.property(fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', 'abc', '', '0x10', '1,5'), (value) => {
        expect(() =>
          parseCurrentUsage(`<CurrentUsage xmlns="${NS}"><Metric name="cpu.usage.average" unit="PERCENT" value="${value}"/></CurrentUsage>`),
        ).toThrow(/cpu\.usage\.average/);
      }),
    );
  });
});

// Option specs declared with defineOptions type what they parse to: the checks below are made
// by the compiler (`make lint`, tsc), and fail there if the typing loosens.
import { describe, expect, it } from 'vitest';
import { defineOptions, parseOptions, pickOptions } from '../../../lib/plugin/options';
import { thresholdOptions } from '../../../lib/plugin/scalar-context';

const SPECS = defineOptions([
  { long: 'url', type: 'string', arg: 'URL', description: 'u' },
  { long: 'max', type: 'number', arg: 'N', default: 5, description: 'm' },
  { long: 'mode', type: 'string', arg: 'M', default: 'a', choices: ['a', 'b'], description: 'c' },
  { long: 'flag', type: 'boolean', description: 'f' },
  { long: 'verbose', short: 'v', type: 'count', description: 'v' },
  { long: 'label', type: 'list', arg: 'L', description: 'l' },
  ...thresholdOptions({ warning: 'w', critical: 'c', criticalDefault: '0' }),
]);

describe('defineOptions: parsed options typed by their specs', () => {
  it('gives each option the type its spec says', () => {
    const o = parseOptions(['--url', 'https://x', '-vv', '--label', 'a', '--mode', 'b'], SPECS);
    const url: string | undefined = o.url;
    const max: number = o.max;
    const mode: 'a' | 'b' = o.mode;
    const flag: boolean = o.flag;
    const verbose: number = o.verbose;
    const label: string[] = o.label;
    const warning: string | undefined = o.warning;
    expect({ url, max, mode, flag, verbose, label, warning }).toEqual({
      url: 'https://x',
      max: 5,
      mode: 'b',
      flag: false,
      verbose: 2,
      label: ['a'],
      warning: undefined,
    });
    // @ts-expect-error: a name that no spec declares does not compile
    expect(o.urll).toBeUndefined();
    // @ts-expect-error: a string option without a default may be absent
    const sure: string = o.url;
    expect(sure).toBe('https://x');
  });
});

describe('pickOptions: one part of options parsed against a longer list', () => {
  it('gives the options of its specs, typed by them (the simulator and its modules)', () => {
    const MODULE = defineOptions([
      { long: 'sim-scenario', type: 'string', arg: 'NAME', default: 'healthy', choices: ['healthy', 'sick'], description: 's' },
      { long: 'sim-nodes', type: 'number', arg: 'N', default: 6, description: 'n' },
    ]);
    const all = parseOptions(['--sim-scenario', 'sick', '--url', 'https://x'], [...SPECS, ...MODULE] as const);
    const own = pickOptions(all, MODULE);
    const scenario: 'healthy' | 'sick' = own['sim-scenario'];
    const nodes: number = own['sim-nodes'];
    expect(own).toEqual({ 'sim-scenario': 'sick', 'sim-nodes': 6 });
    expect({ scenario, nodes }).toEqual({ scenario: 'sick', nodes: 6 });
    // @ts-expect-error: an option of the longer list that is not among the specs
    expect(own.url).toBeUndefined();
  });
});

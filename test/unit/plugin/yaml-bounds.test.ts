// The bounded YAML reader: work and memory bounded by tokens, depth and aliases before the
// document is built, map keys checked in one pass, and -t checked while it reads.
import { afterEach, describe, expect, it } from 'vitest';
import { DeadlineError, setRunDeadline } from '../../../lib/plugin/deadline';
import { parseYamlBounded, YamlLimitError, type YamlLimits } from '../../../lib/plugin/yaml-bounds';
import { cpuNow } from '../../support/cpu-time';

const LIMITS: YamlLimits = { maxTokens: 1_000_000, maxDepth: 100, maxAliases: 100, what: 'reading a test document' };
const keys = (n: number, value = (_i: number) => 'v') => Array.from({ length: n }, (_, i) => `k${i}: ${value(i)}`).join('\n');

afterEach(() => setRunDeadline(Number.POSITIVE_INFINITY));

describe('parseYamlBounded', () => {
  it('reads what the parser reads, errors with their line', async () => {
    const doc = await parseYamlBounded('a: 1\nb: [x, y]\n', {}, LIMITS);
    expect(doc.toJS()).toEqual({ a: 1, b: ['x', 'y'] });
    const tabs = await parseYamlBounded('a:\n\t- x\n', {}, LIMITS);
    expect(tabs.errors[0].message).toMatch(/Tabs are not allowed as indentation at line 2, column 1$/);
  });

  it('duplicate keys are found in one pass, at the duplicate', async () => {
    const doc = await parseYamlBounded('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n', {}, LIMITS);
    expect(doc.errors.map((e) => [e.code, e.linePos?.[0].line])).toEqual([
      ['DUPLICATE_KEY', 4],
      ['DUPLICATE_KEY', 5],
    ]);
    expect((await parseYamlBounded('<<: {a: 1}\n<<: {b: 2}\n', { version: '1.1' }, LIMITS)).errors).toEqual([]);
  });

  it("60,000 keys and 60,000 anchors take linear time (the parser's own key check took 14-37 s)", async () => {
    for (const text of [keys(60_000), keys(60_000, (i) => `&a${i} v`)]) {
      const started = cpuNow();
      const doc = await parseYamlBounded(text, { version: '1.1' }, LIMITS);
      expect(doc.errors).toEqual([]);
      expect(cpuNow() - started).toBeLessThan(8000);
    }
  });

  it('refuses more tokens, deeper nesting or more aliases than the limits, early', async () => {
    const started = cpuNow();
    await expect(parseYamlBounded(keys(40_000), {}, { ...LIMITS, maxTokens: 100_000 })).rejects.toThrow(
      new YamlLimitError('holds more than 100000 YAML tokens'),
    );
    await expect(parseYamlBounded(`a: ${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}`, {}, LIMITS)).rejects.toThrow('nests collections more than 100 deep');
    await expect(parseYamlBounded(`${'- '.repeat(500)}x`, {}, LIMITS)).rejects.toThrow('nests collections more than 100 deep');
    await expect(parseYamlBounded(`a: &a x\nb: [${Array(101).fill('*a').join(', ')}]`, {}, LIMITS)).rejects.toThrow('holds more than 100 aliases');
    expect(cpuNow() - started).toBeLessThan(3000);
    // Scalars that begin with * inside quotes or block scalars are no aliases.
    expect((await parseYamlBounded(`a: "*x"\nb: |\n  *y\n`, {}, { ...LIMITS, maxAliases: 0 })).toJS()).toEqual({ a: '*x', b: '*y\n' });
  });

  it('stops at the run deadline while it reads', async () => {
    setRunDeadline(Date.now() - 1);
    await expect(parseYamlBounded(keys(10_000), {}, LIMITS)).rejects.toThrow(new DeadlineError('reading a test document'));
  });
});

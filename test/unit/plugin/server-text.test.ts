import { describe, expect, it } from 'vitest';
import { boundedExcerpt } from '../../../lib/plugin/server-text';

describe('boundedExcerpt', () => {
  it('keeps a short one-line message as it is', () => {
    expect(boundedExcerpt('The requested operation could not be executed since VM "web-01" is not running.')).toBe('The requested operation could not be executed since VM "web-01" is not running.');
  });

  it('folds every control and line-separator character into a space', () => {
    expect(boundedExcerpt('a\u0000b\u000bc\u000cd\u0085e\u2028f\u2029g\r\n\th\u001b[31mi')).toBe('a b c d e f g h [31mi');
  });

  it('cuts a flood to the bound and says how much was left out, in time independent of its size', () => {
    const flood = `boom ${'x'.repeat(30_000_000)}`;
    const started = Date.now();
    const out = boundedExcerpt(flood, 100);
    expect(Date.now() - started).toBeLessThan(200);
    expect(out).toMatch(/^boom x+… \(\d+ more characters\)$/);
    expect(out.length).toBeLessThan(130);
    expect(Number(/\((\d+) more/.exec(out)![1])).toBe(flood.length - 100);
  });
});

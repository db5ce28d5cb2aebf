import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../lib/plugin/errors';
import { compileLinearRegExp } from '../../../lib/plugin/linear-regexp';
import { cpuNow } from '../../support/cpu-time';

describe('compileLinearRegExp', () => {
  it('matches as a regular expression does', () => {
    const re = compileLinearRegExp('^worker-[0-9]+\\.prod-eu1\\b', '--include');
    expect(re.test('worker-12.prod-eu1.example.com')).toBe(true);
    expect(re.test('infra-1.prod-eu1.example.com')).toBe(false);
    expect(compileLinearRegExp('infra|master', '--exclude').test('master-0')).toBe(true);
  });

  it('takes linear time on a catastrophic pattern (it ran past -t before)', () => {
    const re = compileLinearRegExp('^(\\w+-?)+\\.infra$', '--exclude');
    const started = cpuNow();
    for (const n of [30, 1000, 100_000]) expect(re.test(`${'a'.repeat(n)}-b.example.com`)).toBe(false);
    expect(re.test('infra-node-1.infra')).toBe(true);
    expect(cpuNow() - started).toBeLessThan(500);
  });

  it('refuses backreferences and lookaround, naming the option', () => {
    expect(() => compileLinearRegExp('^(a+)\\1$', '--include')).toThrow(UsageError);
    expect(() => compileLinearRegExp('^(?!infra)', '--exclude')).toThrow(/--exclude "\^\(\?!infra\)" uses backreferences or lookaround/);
  });

  it('names the option of an invalid pattern', () => {
    expect(() => compileLinearRegExp('worker-[', '--include')).toThrow(/^invalid --include "worker-\[": /);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_CHECKS, parseHealthChecks } from '../../../lib/cluster/health-checks';
import { MICROSHIFT_READYZ_FAILED } from '../../support/microshift-readyz';

const FIXTURES = join(__dirname, '../../fixtures/cluster/control-plane');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('parseHealthChecks on published /readyz?verbose answers', () => {
  it('all passed (the API server documentation): every check, none failed, the closing line', () => {
    const r = parseHealthChecks(fixture('readyz-verbose-passed.txt'));
    expect(r.checks).toHaveLength(18);
    expect(r.failed).toEqual([]);
    expect(r.checks[9]).toEqual({ name: 'poststarthook/rbac/bootstrap-roles', ok: true });
    expect(r.verdict).toBe('healthz check passed');
  });

  it('etcd excluded: an excluded check passes and says so', () => {
    const r = parseHealthChecks(fixture('readyz-verbose-etcd-excluded.txt'));
    expect(r.checks.find((c) => c.name === 'etcd')).toEqual({ name: 'etcd', ok: true, excluded: true });
    expect(r.failed).toEqual([]);
  });

  it('one failed (the API server tests): named, with the reason the server gives', () => {
    const r = parseHealthChecks(fixture('readyz-verbose-failed.txt'));
    expect(r.failed).toEqual([{ name: 'bad', ok: false, reason: 'reason withheld' }]);
    expect(r.verdict).toBe('ready check failed');
  });

  it('MicroShift starting up (HTTP 500): 40 checks, the 7 failed named in order, the closing line', () => {
    const r = parseHealthChecks(fixture('readyz-microshift-failed.txt'));
    expect(r.checks).toHaveLength(40);
    expect(r.failed.map((c) => c.name)).toEqual(MICROSHIFT_READYZ_FAILED);
    expect(new Set(r.failed.map((c) => c.reason))).toEqual(new Set(['reason withheld']));
    expect(r.verdict).toBe('readyz check failed');
  });

  it('a warning line among the checks is no check', () => {
    const r = parseHealthChecks(fixture('readyz-verbose-exclude-unknown.txt'));
    expect(r.checks.map((c) => c.name)).toEqual(['ping']);
    expect(r.verdict).toBe('ready check passed');
  });
});

describe('parseHealthChecks on hostile bodies', () => {
  it('megabytes of lines: MAX_CHECKS kept, the rest counted, a failure among them still failed', () => {
    const body = `${'[+]ping ok\n'.repeat(200_000)}[-]etcd failed: reason withheld\n${'y'.repeat(2_000_000)}\nreadyz check failed`;
    const r = parseHealthChecks(body);
    expect(r.checks).toHaveLength(MAX_CHECKS);
    expect(r.more).toBe(200_001 - MAX_CHECKS);
    expect(r.failed.map((c) => c.name)).toEqual(['etcd']);
    expect(r.verdict).toBe('readyz check failed');
  });

  it('control characters, long names and reasons stay bounded and inert', () => {
    const r = parseHealthChecks(`[-]a\u0007b failed: ${'z'.repeat(10_000)}\u2028x\n[+]${'n'.repeat(600)} ok\n`);
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0].name).toBe('a b');
    expect(r.failed[0].reason!.length).toBeLessThan(260);
    expect(r.failed[0].reason).not.toMatch(/[\u0000-\u001f\u2028]/);
    expect(r.checks).toHaveLength(1); // a 600-character name is no check
  });

  it('a bare "ok" (no ?verbose) has no checks and says ok', () => {
    expect(parseHealthChecks('ok')).toEqual({ checks: [], failed: [], more: 0, verdict: 'ok' });
  });
});

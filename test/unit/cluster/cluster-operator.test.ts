import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCondition, judgeClusterOperator, readClusterOperator } from '../../../lib/cluster/cluster-operator';
import { DeadlineError, setRunDeadline } from '../../../lib/plugin/deadline';
import { cpuNow } from '../../support/cpu-time';

const FIXTURES = join(__dirname, '../../fixtures/cluster/monitoring');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
const withConditions = (conditions: unknown) => ({ kind: 'ClusterOperator', metadata: { name: 'monitoring' }, status: { conditions } });

describe('readClusterOperator and judgeClusterOperator', () => {
  it('an available operator (oc get co monitoring -o json): healthy, version from status.versions', () => {
    const co = readClusterOperator(fixture('clusteroperator-available.json'));
    expect(co.name).toBe('monitoring');
    expect(co.version).toBe('4.14.38');
    expect(co.conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['Progressing=False', 'Degraded=False', 'Available=True', 'Upgradeable=True']);
    expect(judgeClusterOperator(co)).toEqual({ healthy: true, broken: [], progressing: undefined });
  });

  it('a failed rollout: Degraded=True and Available=False are broken, Degraded first; Progressing=True is reported apart', () => {
    const health = judgeClusterOperator(readClusterOperator(fixture('clusteroperator-degraded-unavailable.json')));
    expect(health.healthy).toBe(false);
    expect(health.broken.map((c) => describeCondition(c, 80))).toEqual([
      'Degraded=True (UpdatingPrometheusK8SFailed): Failed to rollout the stack. Error: updating prometheus-k8s: waiting for Prometh… (297 more characters)',
      'Available=False (UpdatingPrometheusK8SFailed): Rollout of the monitoring stack failed and is degraded. Please investigate the d… (21 more characters)',
    ]);
    expect(health.broken[0].lastTransitionTime).toBe('2026-11-22T21:47:53Z');
    expect(health.progressing && describeCondition(health.progressing)).toBe('Progressing=True (RollOutInProgress): Rolling out the stack.');
  });

  it('Progressing=True alone is not a failure', () => {
    const health = judgeClusterOperator(
      readClusterOperator(
        withConditions([
          { type: 'Available', status: 'True' },
          { type: 'Degraded', status: 'False' },
          { type: 'Progressing', status: 'True', reason: 'RollOutInProgress', message: 'Rolling out the stack.' },
        ]),
      ),
    );
    expect(health.healthy).toBe(true);
    expect(health.progressing?.reason).toBe('RollOutInProgress');
  });

  it.each([
    [
      'Available=Unknown',
      [
        { type: 'Available', status: 'Unknown' },
        { type: 'Degraded', status: 'False' },
      ],
      ['Available=Unknown'],
    ],
    [
      'Degraded=Unknown',
      [
        { type: 'Available', status: 'True' },
        { type: 'Degraded', status: 'Unknown' },
      ],
      ['Degraded=Unknown'],
    ],
    [
      'no conditions yet (an operator that never reported)',
      [],
      ['Degraded=Unknown: no Degraded condition reported', 'Available=Unknown: no Available condition reported'],
    ],
    ['conditions null', null, ['Degraded=Unknown: no Degraded condition reported', 'Available=Unknown: no Available condition reported']],
  ])('%s is never healthy', (_, conditions, broken) => {
    const health = judgeClusterOperator(readClusterOperator(withConditions(conditions)));
    expect(health.healthy).toBe(false);
    expect(health.broken.map((c) => describeCondition(c))).toEqual(broken);
  });

  it('messages over several lines become one line', () => {
    expect(describeCondition({ type: 'Degraded', status: 'True', message: 'Failed to rollout the stack.\nError:\n  updating alertmanager' })).toBe(
      'Degraded=True: Failed to rollout the stack. Error: updating alertmanager',
    );
  });

  it('refuses documents that are not a ClusterOperator', () => {
    expect(() => readClusterOperator({ kind: 'Status', status: 'Failure' })).toThrow(/^kind is "Status", not ClusterOperator$/);
    expect(() => readClusterOperator({ kind: 'ClusterOperator', status: 'Failure' })).toThrow(/^status is a string, not an object$/);
    expect(() => readClusterOperator({ status: { conditions: { type: 'Available' } } })).toThrow(/^status.conditions is an object, not an array$/);
  });

  // The CRD (config.openshift.io/v1 ClusterOperatorStatusCondition) requires a string type
  // and status: a condition without them came from no API server, and gets no verdict.
  it.each([
    ['a condition without status', [{ type: 'Available' }, { type: 'Degraded', status: 'False' }], 'status.conditions[0].status is missing'],
    [
      'a type that is a number',
      [
        { type: 'Available', status: 'True' },
        { type: 7, status: 'False' },
      ],
      'status.conditions[1].type is a number, not a string',
    ],
    ['a condition that is a string', ['Available=True'], 'status.conditions[0] is a string, not an object'],
    ['a status that is a boolean', [{ type: 'Available', status: true }], 'status.conditions[0].status is a boolean, not a string'],
  ])('refuses %s, naming the field', (_, conditions, message) => {
    expect(() => readClusterOperator(withConditions(conditions))).toThrow(new RegExp(`^${message.replace(/[.[\]]/g, '\\$&')}$`));
  });

  it('a kind nested a million deep or 30 MB long is named without being printed', () => {
    const deep = JSON.parse(`{"kind":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`) as Record<string, unknown>;
    expect(() => readClusterOperator(deep)).toThrow(/^kind is an array, not the string ClusterOperator$/);
    expect(() => readClusterOperator({ kind: 'X'.repeat(30_000_000) })).toThrow(/^kind is "X{60}… \(29999940 more characters\)", not ClusterOperator$/);
  });

  it('a message longer than any API object is refused; a long one with control characters costs no more than a short one and prints as one clean line', () => {
    expect(() => readClusterOperator(withConditions([{ type: 'Degraded', status: 'True', message: 'x'.repeat(30_000_000) }]))).toThrow(
      /^status\.conditions\[0\]\.message is 30000000 characters long, more than an API object may hold \(1\.5 MiB\)$/,
    );
    const message = `Failed to rollout the stack.\u0000\u000b\u2028${'x'.repeat(1_500_000)}`;
    const co = readClusterOperator(
      withConditions([
        { type: 'Degraded', status: 'True', reason: 'Bad\u0085Reason', message },
        { type: 'Available', status: 'True' },
      ]),
    );
    const started = cpuNow();
    const text = describeCondition(judgeClusterOperator(co).broken[0], 100);
    expect(cpuNow() - started).toBeLessThan(50);
    expect(text).toMatch(/^Degraded=True \(Bad Reason\): Failed to rollout the stack\. x+… \(\d+ more characters\)$/);
    expect(text.length).toBeLessThan(200);
  });

  it('reading a list of conditions no operator reports gives way to the deadline (-t)', () => {
    const conditions = Array.from({ length: 10_000 }, (_, i) => ({ type: `Condition${i}`, status: 'True' }));
    setRunDeadline(Date.now() - 1);
    try {
      expect(() => readClusterOperator(withConditions(conditions))).toThrow(DeadlineError);
    } finally {
      setRunDeadline(Number.POSITIVE_INFINITY);
    }
    expect(readClusterOperator(withConditions(conditions)).conditions).toHaveLength(10_000);
  });
});

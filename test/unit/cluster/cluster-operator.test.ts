import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCondition, judgeClusterOperator, readClusterOperator } from '../../../lib/cluster/cluster-operator';

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
      'Degraded=True (UpdatingPrometheusK8SFailed): Failed to rollout the stack. Error: updating prometheus-k8s: waiting for Prometh…',
      'Available=False (UpdatingPrometheusK8SFailed): Rollout of the monitoring stack failed and is degraded. Please investigate the d…',
    ]);
    expect(health.broken[0].lastTransitionTime).toBe('2026-11-22T21:47:53Z');
    expect(health.progressing && describeCondition(health.progressing)).toBe('Progressing=True (RollOutInProgress): Rolling out the stack.');
  });

  it('Progressing=True alone is not a failure', () => {
    const health = judgeClusterOperator(readClusterOperator(withConditions([
      { type: 'Available', status: 'True' },
      { type: 'Degraded', status: 'False' },
      { type: 'Progressing', status: 'True', reason: 'RollOutInProgress', message: 'Rolling out the stack.' },
    ])));
    expect(health.healthy).toBe(true);
    expect(health.progressing?.reason).toBe('RollOutInProgress');
  });

  it.each([
    ['Available=Unknown', [{ type: 'Available', status: 'Unknown' }, { type: 'Degraded', status: 'False' }], ['Available=Unknown']],
    ['Degraded=Unknown', [{ type: 'Available', status: 'True' }, { type: 'Degraded', status: 'Unknown' }], ['Degraded=Unknown']],
    ['no conditions yet (an operator that never reported)', [], ['Degraded=Unknown: no Degraded condition reported', 'Available=Unknown: no Available condition reported']],
    ['conditions null', null, ['Degraded=Unknown: no Degraded condition reported', 'Available=Unknown: no Available condition reported']],
    ['a condition without status', [{ type: 'Available' }, { type: 'Degraded', status: 'False' }], ['Available=Unknown']],
  ])('%s is never healthy', (_, conditions, broken) => {
    const health = judgeClusterOperator(readClusterOperator(withConditions(conditions)));
    expect(health.healthy).toBe(false);
    expect(health.broken.map((c) => describeCondition(c))).toEqual(broken);
  });

  it('messages over several lines become one line', () => {
    expect(describeCondition({ type: 'Degraded', status: 'True', message: 'Failed to rollout the stack.\nError:\n  updating alertmanager' })).toBe('Degraded=True: Failed to rollout the stack. Error: updating alertmanager');
  });

  it('refuses documents that are not a ClusterOperator', () => {
    expect(() => readClusterOperator({ kind: 'Status', status: 'Failure' })).toThrow(/kind "Status", not ClusterOperator/);
    expect(() => readClusterOperator({ kind: 'ClusterOperator', status: 'Failure' })).toThrow(/status is not an object/);
    expect(() => readClusterOperator({ status: { conditions: { type: 'Available' } } })).toThrow(/status.conditions is not a list/);
  });
});

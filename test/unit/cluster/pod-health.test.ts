import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyPod, describePod, podOfComponent, USER_WORKLOAD_COMPONENTS, type Pod } from '../../../lib/cluster/pod-health';

const FIXTURES = join(__dirname, '../../fixtures/cluster/monitoring');
const fixture = <T>(name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;
const uwm = [...fixture<{ items: Pod[] }>('podlist-uwm-page1.json').items, ...fixture<{ items: Pod[] }>('podlist-uwm-page2.json').items];

describe('classifyPod', () => {
  it('Running and Ready=True is ready', () => {
    const h = classifyPod(uwm[0], 'x');
    expect(h).toMatchObject({ name: 'prometheus-operator-6b7f9c5d84-qz4kx', namespace: 'openshift-user-workload-monitoring', ready: true, completed: false, restarts: 0, problems: [] });
  });

  it('a crash-looping container: its waiting reason, the last exit and the restarts', () => {
    const h = classifyPod(fixture<Pod>('pod-crashloop.json'), 'x');
    expect(h.ready).toBe(false);
    expect(h.restarts).toBe(37);
    expect(describePod(h)).toBe('openshift-monitoring/prometheus-k8s-0 (Running, Ready=False, prometheus: CrashLoopBackOff, last exit OOMKilled (code 137), 37 restarts)');
  });

  it('a pod the scheduler cannot place: Pending, PodScheduled=False (Unschedulable)', () => {
    expect(describePod(classifyPod(fixture<Pod>('pod-unschedulable.json'), 'x'))).toBe('openshift-monitoring/alertmanager-main-0 (Pending, PodScheduled=False (Unschedulable))');
  });

  it('a completed job pod (phase Succeeded) is not a failure and not counted', () => {
    expect(classifyPod(fixture<Pod>('pod-completed.json'), 'x')).toMatchObject({ completed: true, problems: [] });
  });

  it('Running but Ready=False, a Failed pod, a terminating pod, a pod without status', () => {
    expect(describePod(classifyPod(uwm[1], 'x'))).toBe('openshift-user-workload-monitoring/prometheus-user-workload-0 (Running, Ready=False)');
    const evicted: Pod = { metadata: { name: 'prometheus-adapter-7c9b6d8f5-8tq2m', namespace: 'openshift-monitoring' }, status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' } };
    expect(describePod(classifyPod(evicted, 'x'))).toBe('openshift-monitoring/prometheus-adapter-7c9b6d8f5-8tq2m (Failed (Evicted), Ready=missing)');
    const terminating = structuredClone(uwm[0]);
    terminating.metadata!.deletionTimestamp = '2026-11-23T10:00:00Z';
    expect(classifyPod(terminating, 'x').problems).toEqual(['Running', 'Terminating']);
    expect(describePod(classifyPod({ metadata: { name: 'p' } }, 'openshift-monitoring'))).toBe('openshift-monitoring/p (Unknown, Ready=missing)');
  });

  it('hostile shapes do not throw', () => {
    for (const pod of [{}, { metadata: null, status: null }, { status: { containerStatuses: [null, 5, { restartCount: -3 }], conditions: 'x' } }] as unknown as Pod[]) {
      expect(() => classifyPod(pod, 'ns')).not.toThrow();
    }
  });
});

describe('USER_WORKLOAD_COMPONENTS', () => {
  it('recognises the pods of openshift-user-workload-monitoring by label, or by name where labels differ', () => {
    const healths = uwm.map((p) => classifyPod(p, 'x'));
    const byComponent = Object.fromEntries(USER_WORKLOAD_COMPONENTS.map((c) => [c.name, healths.filter((h) => podOfComponent(h, c)).map((h) => h.name)]));
    expect(byComponent).toEqual({
      'prometheus-operator': ['prometheus-operator-6b7f9c5d84-qz4kx'],
      'prometheus-user-workload': ['prometheus-user-workload-0', 'prometheus-user-workload-1'],
      'thanos-ruler-user-workload': ['thanos-ruler-user-workload-0'], // labels of an older release: by name
    });
  });

  it('a pod of another component is not taken for one', () => {
    const am = classifyPod({ metadata: { name: 'alertmanager-user-workload-0', labels: { 'app.kubernetes.io/name': 'alertmanager', 'app.kubernetes.io/instance': 'user-workload' } } }, 'x');
    expect(USER_WORKLOAD_COMPONENTS.filter((c) => podOfComponent(am, c))).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyPod, describePod, podOfComponent, readPod, USER_WORKLOAD_COMPONENTS, type Pod } from '../../../lib/cluster/pod-health';

const FIXTURES = join(__dirname, '../../fixtures/cluster/monitoring');
const fixture = <T>(name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;
const uwm = [...fixture<{ items: Pod[] }>('podlist-uwm-page1.json').items, ...fixture<{ items: Pod[] }>('podlist-uwm-page2.json').items];

describe('classifyPod', () => {
  it('Running and Ready=True is ready', () => {
    const h = classifyPod(uwm[0], 'x');
    expect(h).toMatchObject({
      name: 'prometheus-operator-6b7f9c5d84-qz4kx',
      namespace: 'openshift-user-workload-monitoring',
      ready: true,
      completed: false,
      restarts: 0,
      problems: [],
    });
  });

  it('a crash-looping container: its waiting reason, the last exit and the restarts', () => {
    const h = classifyPod(fixture<Pod>('pod-crashloop.json'), 'x');
    expect(h.ready).toBe(false);
    expect(h.restarts).toBe(37);
    expect(describePod(h)).toBe(
      'openshift-monitoring/prometheus-k8s-0 (Running, Ready=False, prometheus: CrashLoopBackOff, last exit OOMKilled (code 137), 37 restarts)',
    );
  });

  it('a pod the scheduler cannot place: Pending, PodScheduled=False (Unschedulable)', () => {
    expect(describePod(classifyPod(fixture<Pod>('pod-unschedulable.json'), 'x'))).toBe(
      'openshift-monitoring/alertmanager-main-0 (Pending, PodScheduled=False (Unschedulable))',
    );
  });

  it('a completed job pod (phase Succeeded) is not a failure and not counted', () => {
    expect(classifyPod(fixture<Pod>('pod-completed.json'), 'x')).toMatchObject({ completed: true, problems: [] });
  });

  it('Running but Ready=False, a Failed pod, a terminating pod, a pod without status', () => {
    expect(describePod(classifyPod(uwm[1], 'x'))).toBe('openshift-user-workload-monitoring/prometheus-user-workload-0 (Running, Ready=False)');
    const evicted: Pod = {
      metadata: { name: 'prometheus-adapter-7c9b6d8f5-8tq2m', namespace: 'openshift-monitoring' },
      status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' },
    };
    expect(describePod(classifyPod(evicted, 'x'))).toBe('openshift-monitoring/prometheus-adapter-7c9b6d8f5-8tq2m (Failed (Evicted))');
    const terminating = structuredClone(uwm[0]);
    terminating.metadata!.deletionTimestamp = '2026-11-23T10:00:00Z';
    expect(classifyPod(terminating, 'x').problems).toEqual(['Running', 'Terminating']);
    expect(describePod(classifyPod({ metadata: { name: 'p' } }, 'openshift-monitoring'))).toBe('openshift-monitoring/p (no status reported yet)');
  });

  it('a pod without a Ready condition says what it waits for, not "Ready=missing"', () => {
    const pod = (status: Pod['status']): string => describePod(classifyPod({ metadata: { name: 'p', namespace: 'n' }, status }, 'x'));
    expect(pod({ phase: 'Pending' })).toBe('n/p (Pending, not scheduled yet)');
    expect(pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] })).toBe('n/p (Pending, scheduled, containers not started yet)');
    expect(pod({ phase: 'Running', conditions: [] })).toBe('n/p (Running, no Ready condition)');
  });

  it('hostile shapes do not throw', () => {
    for (const pod of [
      {},
      { metadata: null, status: null },
      { status: { containerStatuses: [null, 5, { restartCount: -3 }], conditions: 'x' } },
    ] as unknown as Pod[]) {
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
    const am = classifyPod(
      {
        metadata: { name: 'alertmanager-user-workload-0', labels: { 'app.kubernetes.io/name': 'alertmanager', 'app.kubernetes.io/instance': 'user-workload' } },
      },
      'x',
    );
    expect(USER_WORKLOAD_COMPONENTS.filter((c) => podOfComponent(am, c))).toEqual([]);
  });
});

describe('readPod', () => {
  it('takes the pods an API server sends (every fixture) as they are', () => {
    for (const pod of [...uwm, fixture<Pod>('pod-crashloop.json'), fixture<Pod>('pod-unschedulable.json'), fixture<Pod>('pod-completed.json')])
      expect(readPod(pod, 'items[0]')).toBe(pod);
    // Optional lists as a Go client sends them when nil, and a pod not yet scheduled.
    expect(
      readPod({ metadata: { name: 'p', labels: null }, status: { phase: 'Pending', conditions: null, containerStatuses: null } }, 'items[0]'),
    ).toBeDefined();
  });

  // The API's own shape (Kubernetes API reference, core/v1 Pod): an item that breaks it came
  // from a broken proxy or a hostile server, and gets no verdict.
  it.each([
    ['an empty object', {}, 'items[4].metadata is missing'],
    ['null', null, 'items[4] is null, not an object (a pod)'],
    ['a string', 'prometheus-k8s-0', 'items[4] is a string, not an object (a pod)'],
    ['a name that is a number', { metadata: { name: 42 } }, 'items[4].metadata.name is a number, not a string'],
    ['a name nested in arrays', { metadata: { name: [[['prometheus-k8s-0']]] } }, 'items[4].metadata.name is an array, not a string'],
    ['an empty name', { metadata: { name: '' } }, 'items[4].metadata.name is empty'],
    ['a name of 300 characters', { metadata: { name: 'p'.repeat(300) } }, 'items[4].metadata.name is 300 characters long, more than the API allows (253)'],
    [
      'a name with a line break',
      { metadata: { name: 'prometheus-k8s-0\nMONITORING OK - all fine' } },
      'items[4].metadata.name holds control or line-separator characters',
    ],
    ['a name with U+2028', { metadata: { name: 'prometheus-k8s-0\u2028x' } }, 'items[4].metadata.name holds control or line-separator characters'],
    ['labels that are a list', { metadata: { name: 'p', labels: ['app=x'] } }, 'items[4].metadata.labels is an array, not an object'],
    ['status that is a string', { metadata: { name: 'p' }, status: 'Running' }, 'items[4].status is a string, not an object'],
    [
      'conditions that are an object',
      { metadata: { name: 'p' }, status: { conditions: { type: 'Ready', status: 'True' } } },
      'items[4].status.conditions is an object, not an array',
    ],
    ['a condition without status', { metadata: { name: 'p' }, status: { conditions: [{ type: 'Ready' }] } }, 'items[4].status.conditions[0].status is missing'],
    [
      'a condition type that is a boolean',
      {
        metadata: { name: 'p' },
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: true, status: 'True' },
          ],
        },
      },
      'items[4].status.conditions[1].type is a boolean, not a string',
    ],
    [
      'container statuses that are a string',
      { metadata: { name: 'p' }, status: { containerStatuses: 'ready' } },
      'items[4].status.containerStatuses is a string, not an array',
    ],
    [
      'a container status that is null',
      { metadata: { name: 'p' }, status: { initContainerStatuses: [null] } },
      'items[4].status.initContainerStatuses[0] is null, not an object',
    ],
  ])('refuses %s, naming the first bad field', (_, item, message) => {
    expect(() => readPod(item, 'items[4]')).toThrow(message);
  });
});

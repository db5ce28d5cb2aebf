import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { ClusterTarget } from '../../../lib/cluster/client';
import { listPods, probeClusterOperator, probeMonitoringConfig } from '../../../lib/cluster/monitoring-probe';
import { DeadlineError, setRunDeadline } from '../../../lib/plugin/deadline';
import { checkErrorMessage, useNockBoundary } from '../../support/nock-boundary';

const FIXTURES = join(__dirname, '../../fixtures/cluster/monitoring');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.monitoring-token-value';
const target: ClusterTarget = { url: new URL(API), token: TOKEN, tokenSource: '--token-file /etc/nagios/cluster.token', tls: {} };
const json = { 'content-type': 'application/json' };
const CO = '/apis/config.openshift.io/v1/clusteroperators/monitoring';
const CM = '/api/v1/namespaces/openshift-monitoring/configmaps/cluster-monitoring-config';
const UWM_PODS = '/api/v1/namespaces/openshift-user-workload-monitoring/pods';
const CONTINUE = (JSON.parse(fixture('podlist-uwm-page1.json')) as { metadata: { continue: string } }).metadata.continue;
const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

useNockBoundary();

const failure = (p: Promise<unknown>) => checkErrorMessage(p, TOKEN);

describe('probeClusterOperator', () => {
  it('GETs the monitoring ClusterOperator with the bearer token and judges it', async () => {
    nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } })
      .get(CO)
      .reply(200, fixture('clusteroperator-degraded-unavailable.json'), json);
    const got = await probeClusterOperator(target, {});
    expect(got?.operator.version).toBe('4.14.38');
    expect(got?.health.broken.map((c) => c.type)).toEqual(['Degraded', 'Available']);
  });

  it('404 (OpenShift 3, plain Kubernetes: no config.openshift.io group) is "no operator", not an error', async () => {
    nock(API).get(CO).reply(404, '404 page not found\n', { 'content-type': 'text/plain; charset=utf-8' });
    expect(await probeClusterOperator(target, {})).toBeUndefined();
  });

  it('403 names the permission and the role to grant', async () => {
    nock(API)
      .get(CO)
      .reply(
        403,
        status(
          403,
          'Forbidden',
          'clusteroperators.config.openshift.io "monitoring" is forbidden: User "system:serviceaccount:openshift-infra:monitoring" cannot get resource "clusteroperators" in API group "config.openshift.io" at the cluster scope',
        ),
        json,
      );
    expect(await failure(probeClusterOperator(target, {}))).toBe(
      `HTTP 403 from ${API}${CO}: the account may not get clusteroperators.config.openshift.io "monitoring" (cluster scope) (server says: clusteroperators.config.openshift.io "monitoring" is forbidden: User "system:serviceaccount:openshift-infra:monitoring" cannot get resource "clusteroperators" in API group "config.openshift.io" at the cluster scope); grant it the cluster-reader role, which may read this (oc adm policy add-cluster-role-to-user cluster-reader system:serviceaccount:openshift-infra:monitoring)`,
    );
  });

  it('401 and 5xx are worded as for the node list; an HTML page or a wrong kind is refused', async () => {
    nock(API)
      .get(CO)
      .reply(401, status(401, 'Unauthorized', 'Unauthorized'), json);
    expect(await failure(probeClusterOperator(target, {}))).toMatch(
      /^HTTP 401 from .*: token rejected \(expired or revoked\?\) \(server says: Unauthorized\); check --token-file \/etc\/nagios\/cluster.token$/,
    );
    nock(API)
      .get(CO)
      .reply(503, status(503, 'ServiceUnavailable', 'etcdserver: leader changed'), json);
    expect(await failure(probeClusterOperator(target, {}))).toMatch(/^HTTP 503 .*API server error \(server says: etcdserver: leader changed\)/);
    nock(API).get(CO).reply(200, '<!DOCTYPE html><html><head><title>Log in</title>', { 'content-type': 'text/html' });
    expect(await failure(probeClusterOperator(target, {}))).toMatch(/is not JSON \(text\/html, 48 bytes, starts "<!DOCTYPE html>/);
    nock(API).get(CO).reply(200, '{"kind":"ConfigMap","data":{}}', json);
    expect(await failure(probeClusterOperator(target, {}))).toBe(
      `unexpected response from ${API}${CO}: kind is "ConfigMap", not ClusterOperator (not the ClusterOperator monitoring as OpenShift sends it); check that --url is the API server of an OpenShift 4 cluster`,
    );
    nock(API).get(CO).reply(200, '{"kind":"ClusterOperator","status":', json);
    expect(await failure(probeClusterOperator(target, {}))).toMatch(/ends before its JSON does/);
  });
});

describe('probeMonitoringConfig', () => {
  it('reads config.yaml of the ConfigMap', async () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-monitoring-config', namespace: 'openshift-monitoring' },
      data: { 'config.yaml': fixture('config-comments.yaml') },
    };
    nock(API).get(CM).reply(200, JSON.stringify(cm), json);
    expect(await probeMonitoringConfig(target, 'openshift-monitoring', {})).toEqual({
      userWorkload: true,
      source: 'enableUserWorkload: true in ConfigMap openshift-monitoring/cluster-monitoring-config',
    });
  });

  it('a ConfigMap that does not exist (404 NotFound) means off', async () => {
    nock(API)
      .get(CM)
      .reply(404, status(404, 'NotFound', 'configmaps "cluster-monitoring-config" not found'), json);
    expect(await probeMonitoringConfig(target, 'openshift-monitoring', {})).toEqual({
      userWorkload: false,
      source: 'no ConfigMap openshift-monitoring/cluster-monitoring-config',
    });
  });

  it('403 names get configmaps in the namespace', async () => {
    nock(API)
      .get('/api/v1/namespaces/monitoring/configmaps/cluster-monitoring-config')
      .reply(403, status(403, 'Forbidden', 'configmaps "cluster-monitoring-config" is forbidden'), json);
    expect(await failure(probeMonitoringConfig(target, 'monitoring', {}))).toMatch(
      /: the account may not get configmaps "cluster-monitoring-config" in namespace monitoring \(server says: .*\); grant it the cluster-reader role/,
    );
  });
});

describe('listPods', () => {
  it("pages with limit and continue, keeping each pod's verdict", async () => {
    const seen: unknown[] = [];
    nock(API)
      .get(UWM_PODS)
      .query((q) => (seen.push(q), q.limit === '500' && q.continue === undefined))
      .reply(200, fixture('podlist-uwm-page1.json'), json)
      .get(UWM_PODS)
      .query((q) => (seen.push(q), q.continue === CONTINUE))
      .reply(200, fixture('podlist-uwm-page2.json'), json);
    const list = await listPods(target, 'openshift-user-workload-monitoring', {});
    expect(list.pages).toBe(2);
    expect(list.pods.map((p) => `${p.name}:${p.ready}`)).toEqual([
      'prometheus-operator-6b7f9c5d84-qz4kx:true',
      'prometheus-user-workload-0:false',
      'prometheus-user-workload-1:true',
      'thanos-ruler-user-workload-0:true',
    ]);
    expect(seen).toHaveLength(2);
  });

  /** The user-workload pod list answers each request with the next of `replies`: the first page (no continue token), then the second (CONTINUE), in turn. */
  const pages = (...replies: Array<[number, string]>) => {
    let scope = nock(API);
    replies.forEach(([code, body], i) => {
      scope = scope
        .get(UWM_PODS)
        .query((q) => (i % 2 === 0 ? q.continue === undefined : q.continue === CONTINUE))
        .reply(code, body, json);
    });
  };
  const page1: [number, string] = [200, fixture('podlist-uwm-page1.json')];
  const page2: [number, string] = [200, fixture('podlist-uwm-page2.json')];

  it('a continue token that expired (410) restarts the list once; twice is an error', async () => {
    const expired: [number, string] = [410, status(410, 'Expired', 'The provided continue parameter is too old to display a consistent list result.')];
    pages(page1, expired, page1, page2);
    expect((await listPods(target, 'openshift-user-workload-monitoring', {})).pods).toHaveLength(4);
    pages(page1, expired, page1, expired);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(
      /^HTTP 410 from .*: the pods list changed faster than it could be paged \(continue token expired twice\)/,
    );
  });

  it('a server that returns the continue token it was given is stopped', async () => {
    pages(page1, page1);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(
      /returned the continue token it was given; the pod list would never end/,
    );
  });

  it('403 names list pods in the namespace; a body that is not a PodList is refused', async () => {
    nock(API)
      .get(UWM_PODS)
      .query(true)
      .reply(403, status(403, 'Forbidden', 'pods is forbidden'), json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(
      /the account may not list pods in namespace openshift-user-workload-monitoring .*grant it the cluster-reader role/,
    );
    nock(API)
      .get(UWM_PODS)
      .query(true)
      .reply(400, status(400, 'BadRequest', 'continue key is not valid'), json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(
      /^HTTP 400 from .*: request refused \(server says: continue key is not valid\); check that --url is the Kubernetes API server$/,
    );
    nock(API).get(UWM_PODS).query(true).reply(200, '{"kind":"NodeList","items":[]}', json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(/is JSON but not a PodList \(kind NodeList\)/);
    nock(API).get(UWM_PODS).query(true).reply(200, '[]', json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(/is JSON but not a PodList/);
  });

  // Hostile and broken servers: every one ends as one CheckError, bounded in time and memory.
  const PLATFORM_PODS = '/api/v1/namespaces/openshift-monitoring/pods';
  const podPage = (names: string[], next?: string) =>
    JSON.stringify({
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '81920', ...(next ? { continue: next } : {}) },
      items: names.map((name) => ({
        metadata: { name, namespace: 'openshift-monitoring' },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      })),
    });

  it('an endless list (a new continue token every page) stops at the page cap', async () => {
    let page = 0;
    nock(API)
      .get(PLATFORM_PODS)
      .query(true)
      .times(15)
      .reply(200, () => podPage([], `token-${++page}`), json);
    expect(await failure(listPods(target, 'openshift-monitoring', { maxPods: 10, limit: 5 }))).toBe(
      `${API}${PLATFORM_PODS} sent more than 14 pages of pods (0 pods) and the list still goes on; a broken proxy or API server? (raise --max-pods if the namespace really holds that many)`,
    );
  });

  it('more pods than --max-pods, in one page or in all, is refused', async () => {
    nock(API)
      .get(PLATFORM_PODS)
      .query(true)
      .reply(200, podPage(Array.from({ length: 11 }, (_, i) => `node-exporter-${i}`)), json);
    expect(await failure(listPods(target, 'openshift-monitoring', { maxPods: 10 }))).toBe(
      `${API}${PLATFORM_PODS} listed more than 10 pods in namespace openshift-monitoring; raise --max-pods if it really holds that many`,
    );
    nock(API)
      .get(PLATFORM_PODS)
      .query((q) => q.continue === undefined)
      .reply(200, podPage(['a-0', 'a-1', 'a-2', 'a-3', 'a-4', 'a-5'], 'next'), json)
      .get(PLATFORM_PODS)
      .query((q) => q.continue === 'next')
      .reply(200, podPage(['b-0', 'b-1', 'b-2', 'b-3', 'b-4']), json);
    expect(await failure(listPods(target, 'openshift-monitoring', { maxPods: 10 }))).toMatch(/listed more than 10 pods/);
    nock(API)
      .get(PLATFORM_PODS)
      .query(true)
      .reply(200, podPage(Array.from({ length: 10 }, (_, i) => `node-exporter-${i}`)), json);
    expect((await listPods(target, 'openshift-monitoring', { maxPods: 10 })).pods).toHaveLength(10);
  });

  it('an item that is not a pod is refused with its field named, never judged', async () => {
    const page = JSON.parse(fixture('podlist-uwm-page2.json')) as { items: Array<Record<string, unknown>> };
    page.items.push({ metadata: { name: { first: 'x' } }, status: { conditions: 'Ready' } });
    nock(API).get(UWM_PODS).query(true).reply(200, JSON.stringify(page), json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toBe(
      `unexpected response from ${API}${UWM_PODS}: items[1].metadata.name is an object, not a string (not a pod as the Kubernetes API sends it); check that --url is the API server and that nothing in between rewrites its answers`,
    );
    page.items[1] = { metadata: { name: 'thanos-ruler-user-workload-1' }, status: { conditions: { Ready: 'True' } } };
    nock(API).get(UWM_PODS).query(true).reply(200, JSON.stringify(page), json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(
      /: items\[1\]\.status\.conditions is an object, not an array \(not a pod/,
    );
  });

  it('a page of half a million {} items is refused at the first, without a line per item', async () => {
    nock(API)
      .get(PLATFORM_PODS)
      .query(true)
      .reply(200, `{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[${Array(500_000).fill('{}').join(',')}]}`, json);
    expect(await failure(listPods(target, 'openshift-monitoring', {}))).toMatch(/^unexpected response from .*: items\[0\]\.metadata is missing \(not a pod/);
  });

  it('a kind that is 30 MB long or nested deep is named, not printed; a continue token that is not a string is refused', async () => {
    nock(API)
      .get(PLATFORM_PODS)
      .query(true)
      .reply(200, `{"kind":"${'K'.repeat(30_000_000)}","items":[]}`, json);
    const long = await failure(listPods(target, 'openshift-monitoring', {}));
    expect(long).toMatch(/is JSON but not a PodList \(kind K{60}… \(29999940 more characters\)\)/);
    nock(API)
      .get(PLATFORM_PODS)
      .query(true)
      .reply(200, `{"kind":${'['.repeat(100_000)}${']'.repeat(100_000)},"items":[]}`, json);
    expect(await failure(listPods(target, 'openshift-monitoring', {}))).toMatch(/is JSON but not a PodList \(kind is an array\)/);
    nock(API).get(PLATFORM_PODS).query(true).reply(200, '{"kind":"PodList","metadata":{"continue":["x"]},"items":[]}', json);
    expect(await failure(listPods(target, 'openshift-monitoring', {}))).toMatch(/: metadata\.continue is an array, not a string/);
  });

  it('reading a long page gives way to the deadline (-t)', async () => {
    nock(API)
      .get(PLATFORM_PODS)
      .query(true)
      .reply(200, podPage(Array.from({ length: 5000 }, (_, i) => `node-exporter-${i}`)), json);
    setRunDeadline(Date.now() - 1);
    try {
      await expect(listPods(target, 'openshift-monitoring', {})).rejects.toBeInstanceOf(DeadlineError);
    } finally {
      setRunDeadline(Number.POSITIVE_INFINITY);
    }
  });
});

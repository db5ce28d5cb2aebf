import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterTarget } from '../../../lib/cluster/client';
import { listPods, probeClusterOperator, probeMonitoringConfig } from '../../../lib/cluster/monitoring-probe';
import { CheckError } from '../../../lib/plugin/errors';

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
const status = (code: number, reason: string, message: string) => JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending, 'every mocked request was made').toEqual([]);
});
afterAll(() => nock.enableNetConnect());

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CheckError);
    expect((e as Error).message).not.toContain(TOKEN);
    return (e as Error).message;
  }
  throw new Error('expected a CheckError');
}

describe('probeClusterOperator', () => {
  it('GETs the monitoring ClusterOperator with the bearer token and judges it', async () => {
    nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } }).get(CO).reply(200, fixture('clusteroperator-degraded-unavailable.json'), json);
    const got = await probeClusterOperator(target, {});
    expect(got?.operator.version).toBe('4.14.38');
    expect(got?.health.broken.map((c) => c.type)).toEqual(['Degraded', 'Available']);
  });

  it('404 (OpenShift 3, plain Kubernetes: no config.openshift.io group) is "no operator", not an error', async () => {
    nock(API).get(CO).reply(404, '404 page not found\n', { 'content-type': 'text/plain; charset=utf-8' });
    expect(await probeClusterOperator(target, {})).toBeUndefined();
  });

  it('403 names the permission and the role to grant', async () => {
    nock(API).get(CO).reply(403, status(403, 'Forbidden', 'clusteroperators.config.openshift.io "monitoring" is forbidden: User "system:serviceaccount:openshift-infra:monitoring" cannot get resource "clusteroperators" in API group "config.openshift.io" at the cluster scope'), json);
    expect(await failure(probeClusterOperator(target, {}))).toBe(
      `HTTP 403 from ${API}${CO}: the account may not get clusteroperators.config.openshift.io "monitoring" (cluster scope) (server says: clusteroperators.config.openshift.io "monitoring" is forbidden: User "system:serviceaccount:openshift-infra:monitoring" cannot get resource "clusteroperators" in API group "config.openshift.io" at the cluster scope); grant it the cluster-reader role, which may read this (oc adm policy add-cluster-role-to-user cluster-reader system:serviceaccount:<namespace>:<account>)`,
    );
  });

  it('401 and 5xx are worded as for the node list; an HTML page or a wrong kind is refused', async () => {
    nock(API).get(CO).reply(401, status(401, 'Unauthorized', 'Unauthorized'), json);
    expect(await failure(probeClusterOperator(target, {}))).toMatch(/^HTTP 401 from .*: token rejected \(expired or revoked\?\) \(server says: Unauthorized\); check --token-file \/etc\/nagios\/cluster.token$/);
    nock(API).get(CO).reply(503, status(503, 'ServiceUnavailable', 'etcdserver: leader changed'), json);
    expect(await failure(probeClusterOperator(target, {}))).toMatch(/^HTTP 503 .*API server error \(server says: etcdserver: leader changed\)/);
    nock(API).get(CO).reply(200, '<!DOCTYPE html><html><head><title>Log in</title>', { 'content-type': 'text/html' });
    expect(await failure(probeClusterOperator(target, {}))).toMatch(/is not JSON \(text\/html, 48 bytes, starts "<!DOCTYPE html>/);
    nock(API).get(CO).reply(200, '{"kind":"ConfigMap","data":{}}', json);
    expect(await failure(probeClusterOperator(target, {}))).toMatch(/the ClusterOperator monitoring from .* is not one \(kind "ConfigMap", not ClusterOperator\)/);
    nock(API).get(CO).reply(200, '{"kind":"ClusterOperator","status":', json);
    expect(await failure(probeClusterOperator(target, {}))).toMatch(/ends before its JSON does/);
  });
});

describe('probeMonitoringConfig', () => {
  it('reads config.yaml of the ConfigMap', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-monitoring-config', namespace: 'openshift-monitoring' }, data: { 'config.yaml': fixture('config-comments.yaml') } };
    nock(API).get(CM).reply(200, JSON.stringify(cm), json);
    expect(await probeMonitoringConfig(target, 'openshift-monitoring', {})).toEqual({ userWorkload: true, source: 'enableUserWorkload: true in ConfigMap openshift-monitoring/cluster-monitoring-config' });
  });

  it('a ConfigMap that does not exist (404 NotFound) means off', async () => {
    nock(API).get(CM).reply(404, status(404, 'NotFound', 'configmaps "cluster-monitoring-config" not found'), json);
    expect(await probeMonitoringConfig(target, 'openshift-monitoring', {})).toEqual({ userWorkload: false, source: 'no ConfigMap openshift-monitoring/cluster-monitoring-config' });
  });

  it('403 names get configmaps in the namespace', async () => {
    nock(API).get('/api/v1/namespaces/monitoring/configmaps/cluster-monitoring-config').reply(403, status(403, 'Forbidden', 'configmaps "cluster-monitoring-config" is forbidden'), json);
    expect(await failure(probeMonitoringConfig(target, 'monitoring', {}))).toMatch(/: the account may not get configmaps "cluster-monitoring-config" in namespace monitoring \(server says: .*\); grant it the cluster-reader role/);
  });
});

describe('listPods', () => {
  it('pages with limit and continue, keeping each pod\'s verdict', async () => {
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
    expect(list.pods.map((p) => `${p.name}:${p.ready}`)).toEqual(['prometheus-operator-6b7f9c5d84-qz4kx:true', 'prometheus-user-workload-0:false', 'prometheus-user-workload-1:true', 'thanos-ruler-user-workload-0:true']);
    expect(seen).toHaveLength(2);
  });

  it('a continue token that expired (410) restarts the list once; twice is an error', async () => {
    const expired = status(410, 'Expired', 'The provided continue parameter is too old to display a consistent list result.');
    nock(API)
      .get(UWM_PODS).query((q) => q.continue === undefined).reply(200, fixture('podlist-uwm-page1.json'), json)
      .get(UWM_PODS).query((q) => q.continue === CONTINUE).reply(410, expired, json)
      .get(UWM_PODS).query((q) => q.continue === undefined).reply(200, fixture('podlist-uwm-page1.json'), json)
      .get(UWM_PODS).query((q) => q.continue === CONTINUE).reply(200, fixture('podlist-uwm-page2.json'), json);
    expect((await listPods(target, 'openshift-user-workload-monitoring', {})).pods).toHaveLength(4);
    nock(API)
      .get(UWM_PODS).query((q) => q.continue === undefined).reply(200, fixture('podlist-uwm-page1.json'), json)
      .get(UWM_PODS).query((q) => q.continue === CONTINUE).reply(410, expired, json)
      .get(UWM_PODS).query((q) => q.continue === undefined).reply(200, fixture('podlist-uwm-page1.json'), json)
      .get(UWM_PODS).query((q) => q.continue === CONTINUE).reply(410, expired, json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(/^HTTP 410 /);
  });

  it('a server that returns the continue token it was given is stopped', async () => {
    nock(API)
      .get(UWM_PODS).query((q) => q.continue === undefined).reply(200, fixture('podlist-uwm-page1.json'), json)
      .get(UWM_PODS).query((q) => q.continue === CONTINUE).reply(200, fixture('podlist-uwm-page1.json'), json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(/returned the continue token it was given; the pod list would never end/);
  });

  it('403 names list pods in the namespace; a body that is not a PodList is refused', async () => {
    nock(API).get(UWM_PODS).query(true).reply(403, status(403, 'Forbidden', 'pods is forbidden'), json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(/the account may not list pods in namespace openshift-user-workload-monitoring .*grant it the cluster-reader role/);
    nock(API).get(UWM_PODS).query(true).reply(400, status(400, 'BadRequest', 'continue key is not valid'), json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(/^HTTP 400 from .*: request refused \(server says: continue key is not valid\); check that --url is the Kubernetes API server$/);
    nock(API).get(UWM_PODS).query(true).reply(200, '{"kind":"NodeList","items":[]}', json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(/is JSON but not a PodList \(kind NodeList\)/);
    nock(API).get(UWM_PODS).query(true).reply(200, '[]', json);
    expect(await failure(listPods(target, 'openshift-user-workload-monitoring', {}))).toMatch(/is JSON but not a PodList/);
  });
});

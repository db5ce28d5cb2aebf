// check_cluster_monitoring's definition run in the test's process: the ClusterOperator, the
// ConfigMap and the pod lists at the nock boundary (fixtures from test/fixtures/cluster/monitoring/,
// whose README says where each came from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { State } from '../../../lib/plugin/state';
import { plugin } from '../../../plugins/check_cluster_monitoring/plugin';
import { useNockBoundary } from '../../support/nock-boundary';
import { runDefinition, tokenFile } from '../../support/plugin-definition';

const FIXTURES = join(__dirname, '../../fixtures/cluster/monitoring');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.monitoring-token-value';
const json = { 'content-type': 'application/json' };
const CO = '/apis/config.openshift.io/v1/clusteroperators/monitoring';
const CM = '/api/v1/namespaces/openshift-monitoring/configmaps/cluster-monitoring-config';
const PLATFORM_PODS = '/api/v1/namespaces/openshift-monitoring/pods';
const UWM_PODS = '/api/v1/namespaces/openshift-user-workload-monitoring/pods';
const CONTINUE = (JSON.parse(fixture('podlist-uwm-page1.json')) as { metadata: { continue: string } }).metadata.continue;
const notFound = (message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'NotFound', code: 404 });
const argv = (...more: string[]) => ['--url', API, '--token-file', tokenFile(TOKEN), ...more];
/** A PodList of the fixtures' pods (a crash-looping one, a Job's finished one). */
const platformPods = JSON.stringify({
  kind: 'PodList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '2081470' },
  items: [JSON.parse(fixture('pod-crashloop.json')), JSON.parse(fixture('pod-completed.json'))],
});
const configMap = JSON.stringify({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cluster-monitoring-config', namespace: 'openshift-monitoring' },
  data: { 'config.yaml': fixture('config-docs.yaml') },
});

useNockBoundary();

describe('check_cluster_monitoring (plugins/check_cluster_monitoring/plugin.ts)', () => {
  it('reads the workload pods once the ConfigMap says "on", and says what it read', async () => {
    const api = nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}` } });
    api.get(CO).reply(200, fixture('clusteroperator-available.json'), json);
    api.get(CM).reply(200, configMap, json);
    api.get(PLATFORM_PODS).query(true).reply(200, platformPods, json);
    api
      .get(UWM_PODS)
      .query((q) => q.continue === undefined)
      .reply(200, fixture('podlist-uwm-page1.json'), json);
    api
      .get(UWM_PODS)
      .query((q) => q.continue === CONTINUE)
      .reply(200, fixture('podlist-uwm-page2.json'), json);
    const { result, details, phases } = await runDefinition(plugin, argv('-w', '0', '-c', '5'));
    expect(result.state).toBe(State.WARNING);
    expect(result.notes).toEqual([
      'ClusterOperator monitoring read',
      'enableUserWorkload: true in ConfigMap openshift-monitoring/cluster-monitoring-config',
      '2 pods in openshift-monitoring (1 page, 1 completed)',
      expect.stringMatching(/^\d+ pods in openshift-user-workload-monitoring \(2 pages\)$/),
    ]);
    // The namespaces are a configuration line, said before where the cluster is.
    expect(details[0]).toBe('namespaces: platform openshift-monitoring, workload openshift-user-workload-monitoring');
    expect(details[1]).toMatch(/^cluster: /);
    expect(phases).toEqual([`reading the monitoring stack from ${API}`]);
  });

  it('no ClusterOperator and no ConfigMap (plain Kubernetes): the platform pods alone', async () => {
    const api = nock(API);
    api.get(CO).reply(404, '404 page not found\n', { 'content-type': 'text/plain; charset=utf-8' });
    api.get(CM).reply(404, notFound('configmaps "cluster-monitoring-config" not found'), json);
    api.get(PLATFORM_PODS).query(true).reply(200, platformPods, json);
    const { result } = await runDefinition(plugin, argv());
    expect(result.notes?.slice(0, 2)).toEqual([
      'no ClusterOperator monitoring (404: OpenShift 3 or plain Kubernetes), skipped',
      'no ConfigMap openshift-monitoring/cluster-monitoring-config',
    ]);
    expect(result.summary).toMatch(/CrashLoopBackOff|not ready/);
  });

  it('--expect-user-workload with the ConfigMap off is a problem of its own', async () => {
    const api = nock(API);
    api.get(CO).reply(200, fixture('clusteroperator-available.json'), json);
    api.get(CM).reply(404, notFound('configmaps "cluster-monitoring-config" not found'), json);
    api
      .get(PLATFORM_PODS)
      .query(true)
      .reply(200, JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [] }), json);
    const { result } = await runDefinition(plugin, argv('--expect-user-workload'));
    expect(result.state).not.toBe(State.OK);
    expect(result.summary).toMatch(/user/i);
  });
});

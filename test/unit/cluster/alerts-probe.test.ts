import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { findMonitoringRoute, probeAlerts, type AlertEndpoint } from '../../../lib/cluster/alerts-probe';
import type { ClusterTarget } from '../../../lib/cluster/client';
import { checkErrorMessage, useNockBoundary } from '../../support/nock-boundary';

const FIXTURES = join(__dirname, '../../fixtures/cluster/alerts');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const AM = 'https://alertmanager-main-openshift-monitoring.apps.prod-eu1.example.com';
const THANOS = 'https://thanos-querier-openshift-monitoring.apps.prod-eu1.example.com';
const TOKEN = 'sha256~alerts-token-value-0123456789abcdefghijklmnopqrstuv';
const cluster: ClusterTarget = { url: new URL(API), token: TOKEN, tokenSource: '--token-file /etc/nagios/cluster.token', tls: {} };
const endpointOf = (url: URL): ClusterTarget => ({ ...cluster, url });
const json = { 'content-type': 'application/json' };
const ROUTES = '/apis/route.openshift.io/v1/namespaces/openshift-monitoring/routes';
const route = (name: string, host: string) =>
  JSON.stringify({ kind: 'Route', apiVersion: 'route.openshift.io/v1', metadata: { name, namespace: 'openshift-monitoring' }, spec: { host } });
const notFound = JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  message: 'routes.route.openshift.io "x" not found',
  reason: 'NotFound',
  code: 404,
});
const options = { maxAlerts: 1000, withRules: false };

useNockBoundary();
const failure = (p: Promise<unknown>) => checkErrorMessage(p, TOKEN);
const am = (): AlertEndpoint => ({
  kind: 'alertmanager',
  target: endpointOf(new URL(AM)),
  chosen: `Route openshift-monitoring/alertmanager-main (${AM})`,
  route: 'alertmanager-main',
});

describe('findMonitoringRoute', () => {
  it("OpenShift: the Route alertmanager-main's host, with the cluster's token", async () => {
    nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
      .get(`${ROUTES}/alertmanager-main`)
      .reply(200, route('alertmanager-main', new URL(AM).host), json);
    const found = await findMonitoringRoute(cluster, endpointOf, {});
    expect(found.kind).toBe('alertmanager');
    expect(found.target.url.href).toBe(`${AM}/`);
    expect(found.chosen).toBe(`Route openshift-monitoring/alertmanager-main (${AM})`);
  });

  it('without alertmanager-main, thanos-querier; without either, one UNKNOWN naming the options', async () => {
    nock(API).get(`${ROUTES}/alertmanager-main`).reply(404, notFound, json);
    nock(API)
      .get(`${ROUTES}/thanos-querier`)
      .reply(200, route('thanos-querier', new URL(THANOS).host), json);
    expect((await findMonitoringRoute(cluster, endpointOf, {})).kind).toBe('prometheus');
    nock(API).get(`${ROUTES}/alertmanager-main`).reply(404, notFound, json);
    nock(API).get(`${ROUTES}/thanos-querier`).reply(404, notFound, json);
    expect(await failure(findMonitoringRoute(cluster, endpointOf, {}))).toBe(
      `${API} has no Route alertmanager-main or thanos-querier in namespace openshift-monitoring (HTTP 404): not OpenShift 4, or its monitoring stack is not installed; give --alertmanager-url or --prometheus-url`,
    );
  });

  it('a host that is no host name is refused, not followed', async () => {
    nock(API).get(`${ROUTES}/alertmanager-main`).reply(200, route('alertmanager-main', 'evil.example.com/@x'), json);
    expect(await failure(findMonitoringRoute(cluster, endpointOf, {}))).toMatch(/has no usable spec\.host \("evil\.example\.com\/@x"\)/);
  });
});

describe('probeAlerts', () => {
  it('Alertmanager: GET /api/v2/alerts with the bearer token (the recorded SAP answer)', async () => {
    nock(AM, { reqheaders: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } })
      .get('/api/v2/alerts')
      .reply(200, fixture('alertmanager-gettable-alerts-sapcc-juno.json'), json);
    expect((await probeAlerts(am(), options)).alerts.map((a) => a.status)).toEqual(['silenced', 'inhibited']);
  });

  it('Prometheus: /api/v1/alerts, and /api/v1/rules?type=alert for the rules (the documentation examples)', async () => {
    nock(THANOS).get('/api/v1/alerts').reply(200, fixture('prometheus-api-alerts-docs.json'), json);
    nock(THANOS).get('/api/v1/rules').query({ type: 'alert' }).reply(200, fixture('prometheus-api-rules-docs.json'), json);
    const where: AlertEndpoint = { kind: 'prometheus', target: endpointOf(new URL(THANOS)), chosen: '--prometheus-url x' };
    const got = await probeAlerts(where, { ...options, withRules: true });
    expect(got.alerts.map((a) => a.name)).toEqual(['my-alert']);
    expect(got.rules).toEqual([{ name: 'HighRequestLatency', severity: 'page' }]);
  });

  it("403 names OpenShift's role that reads Alertmanager", async () => {
    nock(AM).get('/api/v2/alerts').reply(403, 'Forbidden (user=system:serviceaccount:monitoring:nagios, verb=get, resource=alertmanagers, subresource=api)\n', {
      'content-type': 'text/plain',
    });
    expect(await failure(probeAlerts(am(), options))).toMatch(
      /^HTTP 403 from .*\/api\/v2\/alerts: the account may not read alerts \(server says: Forbidden \(user=system:serviceaccount:monitoring:nagios.*\); give the account the monitoring-alertmanager-view role of openshift-monitoring/,
    );
  });

  it("an OAuth proxy's login page: says so and names the fix", async () => {
    nock(AM)
      .get('/api/v2/alerts')
      .reply(200, '<!DOCTYPE html>\n<html><head><title>Log In</title></head><body><form action="/oauth/start"></form></body></html>', {
        'content-type': 'text/html; charset=utf-8',
      });
    expect(await failure(probeAlerts(am(), options))).toMatch(
      /answered an HTML page \(HTTP 200, title "Log In"\), not alerts: a login page of an OAuth proxy, which wants a bearer token it accepts; give --token-file with a service-account token and give the account the monitoring-alertmanager-view role/,
    );
  });

  it('a NodeList where alerts belong: the field and what was expected', async () => {
    nock(AM)
      .get('/api/v2/alerts')
      .reply(200, JSON.stringify({ kind: 'NodeList', items: [] }), json);
    expect(await failure(probeAlerts(am(), options))).toMatch(
      /unexpected response from .*: the answer is an object, not an array \(not Alertmanager's JSON list of alerts/,
    );
  });
});

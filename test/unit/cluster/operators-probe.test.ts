import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { ClusterTarget } from '../../../lib/cluster/client';
import { OPERATORS_PATH, probeOperators, VERSION_PATH } from '../../../lib/cluster/operators-probe';
import { checkErrorMessage, useNockBoundary } from '../../support/nock-boundary';

const FIXTURES = join(__dirname, '../../fixtures/cluster/operators');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.operators-token-value';
const target: ClusterTarget = { url: new URL(API), token: TOKEN, tokenSource: '--token-file /etc/nagios/cluster.token', tls: {} };
const json = { 'content-type': 'application/json' };
const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
const options = { maxOperators: 1000, withVersion: true };

useNockBoundary();
const failure = (p: Promise<unknown>) => checkErrorMessage(p, TOKEN);

describe('probeOperators', () => {
  it('GETs the ClusterOperator list and the ClusterVersion with the bearer token (4.14.1 captures)', async () => {
    const api = nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } });
    api.get(OPERATORS_PATH).reply(200, fixture('clusteroperators-4.14.1-healthy.json'), json);
    api.get(VERSION_PATH).reply(200, fixture('clusterversion-4.14.1-healthy.json'), json);
    const got = await probeOperators(target, options);
    expect(got.operators).toHaveLength(33);
    expect(got.version?.desiredVersion).toBe('4.14.1');
  });

  it('404 on both is one UNKNOWN: not an OpenShift 4 cluster', async () => {
    nock(API)
      .get(OPERATORS_PATH)
      .reply(404, status(404, 'NotFound', 'the server could not find the requested resource'), json);
    nock(API).get(VERSION_PATH).reply(404, '404 page not found\n', { 'content-type': 'text/plain' });
    expect(await failure(probeOperators(target, options))).toBe(
      `${API} has no ClusterOperators and no ClusterVersion (HTTP 404 for both (server says: the server could not find the requested resource)): not an OpenShift 4 cluster (OpenShift 3 and plain Kubernetes have neither); use check_nodes there, or check --url`,
    );
  });

  it('no ClusterVersion alone is not an error; --operator does not ask for it', async () => {
    nock(API).get(OPERATORS_PATH).times(2).reply(200, fixture('clusteroperators-4.6.26-aro-healthy.json'), json);
    nock(API)
      .get(VERSION_PATH)
      .reply(404, status(404, 'NotFound', 'clusterversions.config.openshift.io "version" not found'), json);
    expect((await probeOperators(target, options)).version).toBeUndefined();
    expect((await probeOperators(target, { ...options, withVersion: false })).operators).toHaveLength(6);
  });

  it('403 names the permission and cluster-reader', async () => {
    nock(API)
      .get(OPERATORS_PATH)
      .reply(
        403,
        status(403, 'Forbidden', 'clusteroperators.config.openshift.io is forbidden: User "system:serviceaccount:x:y" cannot list resource "clusteroperators"'),
        json,
      );
    nock(API).get(VERSION_PATH).reply(200, fixture('clusterversion-4.14.1-healthy.json'), json);
    expect(await failure(probeOperators(target, options))).toMatch(
      /^HTTP 403 from .*: the account may not list clusteroperators\.config\.openshift\.io \(cluster scope\) .*grant it the cluster-reader role/,
    );
  });

  it('a list of another shape, or larger than --max-operators, is UNKNOWN naming the field', async () => {
    nock(API).get(OPERATORS_PATH).reply(200, '{"kind":"NodeList","items":[]}', json);
    nock(API).get(VERSION_PATH).reply(200, fixture('clusterversion-4.14.1-healthy.json'), json);
    expect(await failure(probeOperators(target, options))).toMatch(/^unexpected response from .*clusteroperators: kind is "NodeList", not ClusterOperatorList/);
    nock(API).get(OPERATORS_PATH).reply(200, fixture('clusteroperators-4.14.1-healthy.json'), json);
    nock(API).get(VERSION_PATH).reply(200, fixture('clusterversion-4.14.1-healthy.json'), json);
    expect(await failure(probeOperators(target, { ...options, maxOperators: 5 }))).toContain('items holds 33 operators, more than --max-operators 5');
  });

  it('a body over --max-bytes is refused', async () => {
    nock(API).get(OPERATORS_PATH).reply(200, fixture('clusteroperators-4.14.1-healthy.json'), json);
    nock(API).get(VERSION_PATH).reply(200, fixture('clusterversion-4.14.1-healthy.json'), json);
    expect(await failure(probeOperators(target, { ...options, maxBytes: 10_000 }))).toMatch(/max-bytes/);
  });
});

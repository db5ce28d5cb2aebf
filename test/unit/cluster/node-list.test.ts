import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { ClusterTarget } from '../../../lib/cluster/client';
import { listNodes, nodesUrl } from '../../../lib/cluster/node-list';
import { NodeTally } from '../../../lib/cluster/node-tally';
import { checkErrorMessage, useNockBoundary } from '../../support/nock-boundary';

const FIXTURES = join(__dirname, '../../fixtures/cluster');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.test-token-value';
const target: ClusterTarget = { url: new URL(API), token: TOKEN, tokenSource: '--token-file /etc/nagios/cluster.token', tls: {} };
const json = { 'content-type': 'application/json' };
const page1 = JSON.parse(fixture('nodelist-page1.json')) as { metadata: { continue: string } };
const CONTINUE = page1.metadata.continue;

useNockBoundary();

async function list(options: Parameters<typeof listNodes>[1] = {}) {
  const tally = new NodeTally();
  const stats = await listNodes(target, options, tally);
  return { tally, stats };
}

const failure = (options: Parameters<typeof listNodes>[1] = {}) => checkErrorMessage(list(options), TOKEN);

describe('listNodes', () => {
  it('sends the bearer token and Accept: application/json, pages with limit=500 and continue', async () => {
    const seen: Array<Record<string, unknown>> = [];
    nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } })
      .get('/api/v1/nodes')
      .query((q) => (seen.push(q), q.limit === '500' && q.continue === undefined))
      .reply(200, fixture('nodelist-page1.json'), json)
      .get('/api/v1/nodes')
      .query((q) => (seen.push(q), q.limit === '500' && q.continue === CONTINUE))
      .reply(200, fixture('nodelist-page2.json'), json);
    const { tally, stats } = await list();
    expect(stats).toEqual({ pages: 2, restarted: false });
    expect(tally.listed).toBe(3);
    expect(tally.failing.map((h) => `${h.name}: ${h.broken.join(', ')}`)).toEqual([
      'worker-2.prod-eu1.example.com: Ready=Unknown, MemoryPressure=Unknown, DiskPressure=Unknown, PIDPressure=Unknown',
      'worker-4.prod-eu1.example.com: DiskPressure=True',
    ]);
    expect(tally.healthy.map((h) => h.name)).toEqual(['master-0.prod-eu1.example.com']);
    expect(tally.healthy.map((h) => h.host)).toEqual(['master-0']);
    expect(seen).toHaveLength(2);
  });

  it('passes -l/--selector as labelSelector on every page', async () => {
    const selector = 'node-role.kubernetes.io/worker,topology.kubernetes.io/zone in (eu-west-1a)';
    nock(API)
      .get('/api/v1/nodes')
      .query({ limit: '500', labelSelector: selector })
      .reply(200, fixture('nodelist-page1.json'), json)
      .get('/api/v1/nodes')
      .query({ limit: '500', labelSelector: selector, continue: CONTINUE })
      .reply(200, fixture('nodelist-page2.json'), json);
    expect((await list({ selector })).stats.pages).toBe(2);
  });

  it('keeps a path prefix of the URL (an API behind a proxy)', () => {
    expect(nodesUrl(new URL('https://rancher.example.com/k8s/clusters/c-m-x7k2p/'), { limit: 500 }).href).toBe(
      'https://rancher.example.com/k8s/clusters/c-m-x7k2p/api/v1/nodes?limit=500',
    );
  });

  it('restarts the list once when the continue token expired (410 Gone)', async () => {
    nock(API)
      .get('/api/v1/nodes')
      .query({ limit: '500' })
      .reply(200, fixture('nodelist-page1.json'), json)
      .get('/api/v1/nodes')
      .query({ limit: '500', continue: CONTINUE })
      .reply(410, fixture('status-410.json'), json)
      .get('/api/v1/nodes')
      .query({ limit: '500' })
      .reply(200, fixture('nodelist-page1.json'), json)
      .get('/api/v1/nodes')
      .query({ limit: '500', continue: CONTINUE })
      .reply(200, fixture('nodelist-page2.json'), json);
    const { tally, stats } = await list();
    expect(stats).toEqual({ pages: 3, restarted: true });
    expect(tally.listed).toBe(3); // the first pass was forgotten, not counted twice
  });

  it('gives up when the restarted list expires again', async () => {
    nock(API)
      .get('/api/v1/nodes')
      .query({ limit: '500' })
      .twice()
      .reply(200, fixture('nodelist-page1.json'), json)
      .get('/api/v1/nodes')
      .query({ limit: '500', continue: CONTINUE })
      .twice()
      .reply(410, fixture('status-410.json'), json);
    expect(await failure()).toMatch(
      /^HTTP 410 from https:\/\/api.prod-eu1.example.com:6443\/api\/v1\/nodes: the node list changed faster than it could be paged \(continue token expired twice\) \(server says: The provided continue parameter is too old/,
    );
  });

  it('refuses a server that hands back the same continue token', async () => {
    const loop = JSON.stringify({ kind: 'NodeList', metadata: { continue: 'same' }, items: [] });
    nock(API).get('/api/v1/nodes').query(true).twice().reply(200, loop, json);
    expect(await failure()).toMatch(/returned the continue token it was given/);
  });
});

describe("listNodes errors: one line naming cause and fix, with the server's message", () => {
  const reply = (status: number, body: string, headers: Record<string, string> = json) =>
    nock(API).get('/api/v1/nodes').query(true).reply(status, body, headers);

  it('401: token rejected; check the token source', async () => {
    reply(401, fixture('status-401.json'));
    expect(await failure()).toBe(
      'HTTP 401 from https://api.prod-eu1.example.com:6443/api/v1/nodes: token rejected (expired or revoked?) (server says: Unauthorized); check --token-file /etc/nagios/cluster.token',
    );
  });

  it("403: the account lacks cluster-reader, with the server's message", async () => {
    reply(403, fixture('status-403.json'));
    const m = await failure();
    expect(m).toContain(
      'the account may not list nodes (server says: nodes is forbidden: User "system:serviceaccount:openshift-infra:monitoring" cannot list resource "nodes" in API group "" at the cluster scope)',
    );
    // The account the server named, not a placeholder.
    expect(m).toContain(
      'grant it the cluster-reader role (oc adm policy add-cluster-role-to-user cluster-reader system:serviceaccount:openshift-infra:monitoring)',
    );
  });

  it('403: a placeholder when the server named no account; no role for an anonymous request', async () => {
    reply(403, JSON.stringify({ kind: 'Status', message: 'forbidden', code: 403 }));
    expect(await failure()).toContain('cluster-reader system:serviceaccount:<namespace>:<account>)');
    reply(403, JSON.stringify({ kind: 'Status', message: 'nodes is forbidden: User "system:anonymous" cannot list resource "nodes"', code: 403 }));
    const m = await failure();
    expect(m).toMatch(/; the server saw no credential \(system:anonymous\): check /);
    expect(m).not.toContain('grant');
    // Server text that is no account name stays out of the command line.
    reply(403, JSON.stringify({ kind: 'Status', message: 'User "a b;rm -rf /" cannot list', code: 403 }));
    expect(await failure()).toContain('cluster-reader system:serviceaccount:<namespace>:<account>)');
  });

  it('404: not a Kubernetes API at that URL', async () => {
    reply(404, fixture('status-404.json'));
    expect(await failure()).toMatch(
      /^HTTP 404 from .*: not a Kubernetes API at that URL \(server says: the server could not find the requested resource\); check --url/,
    );
  });

  it('404 with an HTML page says so without quoting the page', async () => {
    reply(404, fixture('console-login.html'), { 'content-type': 'text/html' });
    expect(await failure()).toMatch(/^HTTP 404 from .*: not a Kubernetes API at that URL; check --url/);
  });

  it('5xx: API server error with the Status message', async () => {
    reply(500, fixture('status-500-etcd.json'));
    expect(await failure()).toMatch(
      /^HTTP 500 from .*: API server error \(server says: etcdserver: request timed out\); the control plane is unhealthy or overloaded, retry later$/,
    );
  });

  it('503 from a load balancer with a plain-text body', async () => {
    reply(503, 'upstream connect error or disconnect/reset before headers. reset reason: connection failure\n', { 'content-type': 'text/plain' });
    expect(await failure()).toMatch(
      /^HTTP 503 from .*: API server error \(server says: upstream connect error or disconnect\/reset before headers\. reset reason: connection failure\)/,
    );
  });

  it('429: rate limited', async () => {
    reply(429, fixture('status-429.json'));
    expect(await failure()).toMatch(/^HTTP 429 from .*: rate limited by the API server \(server says: Too many requests, please try again later\.\)/);
  });

  it('a redirect (login proxy) names the target', async () => {
    reply(302, '', { location: 'https://oauth-openshift.apps.example.com/oauth/authorize' });
    expect(await failure()).toMatch(
      /^HTTP 302 from .*: redirected to https:\/\/oauth-openshift\.apps\.example\.com\/oauth\/authorize; use the API server URL itself/,
    );
  });

  it('a 200 that is not JSON (the web console)', async () => {
    reply(200, fixture('console-login.html'), { 'content-type': 'text/html; charset=utf-8' });
    expect(await failure()).toMatch(
      /^response from https:\/\/api.prod-eu1.example.com:6443\/api\/v1\/nodes is not JSON \(text\/html; charset=utf-8, \d+ bytes, starts "<!DOCTYPE html>.*"\); check that --url is the API server/,
    );
  });

  it('a 200 with JSON that is not a NodeList', async () => {
    reply(200, JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [] }));
    expect(await failure()).toMatch(/is JSON but not a NodeList \(kind PodList\)/);
    reply(200, '{"paths":["/api","/apis"]}');
    expect(await failure()).toMatch(/is JSON but not a NodeList \(no items array\)/);
    reply(200, '[1,2,3]');
    expect(await failure()).toMatch(/is JSON but not a NodeList \(not an object with node items\)/);
  });

  it('a truncated page', async () => {
    reply(200, fixture('nodelist-page2.json').slice(0, 5000));
    expect(await failure()).toMatch(/^response from .* ends before its JSON does \(5000 bytes, cut short\); retry/);
  });

  it('an item that is not a node: UNKNOWN naming the first bad field, never a verdict', async () => {
    reply(
      200,
      JSON.stringify({
        kind: 'NodeList',
        apiVersion: 'v1',
        metadata: {},
        items: [{ metadata: { name: 'w1' } }, { metadata: { name: 7 }, status: { conditions: 'Ready' } }],
      }),
    );
    expect(await failure()).toBe(
      'unexpected response from https://api.prod-eu1.example.com:6443/api/v1/nodes: items[1].metadata.name is a number, not a string (not a node as the Kubernetes API sends it); check that --url is the API server and that nothing in between rewrites its answers',
    );
    reply(
      200,
      JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'w1' }, status: { conditions: { Ready: 'True' } } }] }),
    );
    expect(await failure()).toMatch(/: items\[0\]\.status\.conditions is an object, not an array \(/);
  });
});

describe('listNodes stays bounded whatever the server sends', () => {
  const reply = (body: string) => nock(API).get('/api/v1/nodes').query(true).reply(200, body, json);
  const nodes = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ metadata: { name: `w${from + i}` } }));

  it('refuses more nodes than --max-nodes, in one page or in all', async () => {
    reply(JSON.stringify({ kind: 'NodeList', metadata: {}, items: nodes(11) }));
    expect(await failure({ maxNodes: 10 })).toBe(
      'https://api.prod-eu1.example.com:6443/api/v1/nodes listed more than 10 nodes; raise --max-nodes if the cluster is really that large',
    );
    reply(JSON.stringify({ kind: 'NodeList', metadata: { continue: 'c1' }, items: nodes(6) }));
    reply(JSON.stringify({ kind: 'NodeList', metadata: {}, items: nodes(6, 6) }));
    expect(await failure({ maxNodes: 10 })).toMatch(/listed more than 10 nodes/);
  });

  it('stops a list whose pages never end (a new continue token each time, no items)', async () => {
    nock(API)
      .persist()
      .get('/api/v1/nodes')
      .query(true)
      .reply(200, () => JSON.stringify({ kind: 'NodeList', metadata: { continue: `c${Math.random()}` }, items: [] }), json);
    // 10 nodes at 5 per page: 2 pages, with slack for short pages: 14.
    expect(await failure({ maxNodes: 10, limit: 5 })).toBe(
      'https://api.prod-eu1.example.com:6443/api/v1/nodes sent more than 14 pages of nodes (0 nodes) and the list still goes on; a broken proxy or API server? (raise --max-nodes if the cluster is really that large)',
    );
    nock.cleanAll();
  });

  it('reads pages shorter than the limit that still carry a continue token (remainingItemCount too)', async () => {
    reply(JSON.stringify({ kind: 'NodeList', metadata: { continue: 'c1', remainingItemCount: 4 }, items: nodes(1) }));
    reply(JSON.stringify({ kind: 'NodeList', metadata: { continue: 'c2', remainingItemCount: 3 }, items: [] }));
    reply(JSON.stringify({ kind: 'NodeList', metadata: { resourceVersion: '9' }, items: nodes(3, 1) }));
    const { tally, stats } = await list();
    expect(stats.pages).toBe(3);
    expect(tally.listed).toBe(4);
  });
});

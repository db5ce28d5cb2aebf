// Pods per node read from server-side Tables real API servers sent (test/fixtures/cluster/control-plane,
// its README says where each came from), at the HTTP boundary.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { ClusterTarget } from '../../../lib/cluster/client';
import { countPodsPerNode, RUNNING_PHASES, TABLE_ACCEPT } from '../../../lib/cluster/pods-per-node';
import { checkErrorMessage, useNockBoundary } from '../../support/nock-boundary';

const FIXTURES = join(__dirname, '../../fixtures/cluster/control-plane');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.pods-token-value';
const target: ClusterTarget = { url: new URL(API), token: TOKEN, tokenSource: '--token-file /etc/nagios/cluster.token', tls: {} };
const json = { 'content-type': 'application/json' };

useNockBoundary();

describe('countPodsPerNode on published pod Tables', () => {
  it('a meta.k8s.io/v1beta1 pod Table of 2019 (8 columns, Node the 7th, rows with their object): its pod counted on its node', async () => {
    nock(API, { reqheaders: { accept: TABLE_ACCEPT, authorization: `Bearer ${TOKEN}` } })
      .get('/api/v1/pods')
      .query({ fieldSelector: RUNNING_PHASES, includeObject: 'None', limit: '2000' })
      .reply(200, fixture('podtable-v1beta1-dockin.json'), json);
    const count = await countPodsPerNode(target, { maxPods: 1000 });
    expect(count.table).toBe(true);
    expect(count.pods).toBe(1);
    expect(count.pages).toBe(1);
    expect(Object.fromEntries(count.byNode)).toEqual({ '192-168-1-195': 1 });
  });

  it('a real Table without a Node column (namespaces): one error naming the missing column, not a count of zero', async () => {
    nock(API).get('/api/v1/pods').query(true).reply(200, fixture('namespacetable-v1beta1-dockin.json'), json);
    expect(await checkErrorMessage(countPodsPerNode(target, { maxPods: 1000 }), TOKEN)).toMatch(/^the pod Table has no Node column/);
  });
});

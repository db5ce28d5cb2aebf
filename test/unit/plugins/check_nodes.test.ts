// check_nodes' definition run in the test's process: the node list and /version at the nock
// boundary (fixtures from test/fixtures/cluster/ and its control-plane/ folder, whose README
// says where each came from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { State } from '../../../lib/plugin/state';
import { plugin } from '../../../plugins/check_nodes/plugin';
import { useNockBoundary } from '../../support/nock-boundary';
import { runDefinition, tokenFile } from '../../support/plugin-definition';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/cluster', name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.nodes-token-value';
const json = { 'content-type': 'application/json' };
const argv = (...more: string[]) => ['--url', API, '--token-file', tokenFile(TOKEN), ...more];
/** The six nodes of an OpenShift 4.7 cluster, kubelet v1.20.0+bafe72f, all Ready. */
const NODES_4_7 = 'control-plane/nodelist-openshift-4.7-insights.json';

useNockBoundary();

const nodeList = (file: string) =>
  nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
    .get('/api/v1/nodes')
    .query({ limit: '500' })
    .reply(200, fixture(file), json);

describe('check_nodes (plugins/check_nodes/plugin.ts)', () => {
  it('six Ready nodes are OK, the listing said in the notes and the phases named', async () => {
    nodeList(NODES_4_7);
    const { result, phases } = await runDefinition(plugin, argv());
    expect(result.state).toBe(State.OK);
    expect(result.notes).toEqual(['6 listed in 1 page']);
    expect(phases).toEqual([`listing nodes from ${API}`, 'judging the 6 listed nodes']);
  });

  it('--version-skew reads /version beside the list and judges each kubelet against it', async () => {
    nodeList(NODES_4_7);
    nock(API)
      .get('/version')
      .reply(200, JSON.stringify({ major: '1', minor: '23', gitVersion: 'v1.23.5+3afdacb', platform: 'linux/amd64' }), json);
    const { result, phases } = await runDefinition(plugin, argv('--version-skew', '--max-skew', '2'));
    // Kubelets three minors behind the API server are more than --max-skew 2.
    expect(result.state).not.toBe(State.OK);
    expect(result.summary).toContain('v1.20.0+bafe72f');
    expect(phases).toContain('judging the kubelet versions of 6 nodes');
  });

  it('--discovery is the nodes as low-level discovery JSON', async () => {
    nodeList(NODES_4_7);
    const { result } = await runDefinition(plugin, argv('--discovery'));
    expect(result.state).toBe(State.OK);
    expect(JSON.parse(result.raw!)).toHaveLength(6);
  });
});

// check_cluster_operators' definition run in the test's process: the ClusterOperator list and
// the ClusterVersion at the nock boundary (fixtures from test/fixtures/cluster/operators/, whose
// README says where each came from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { OPERATORS_PATH, VERSION_PATH } from '../../../lib/cluster/operators-probe';
import { State } from '../../../lib/plugin/state';
import { plugin } from '../../../plugins/check_cluster_operators/plugin';
import { useNockBoundary } from '../../support/nock-boundary';
import { runDefinition, tokenFile } from '../../support/plugin-definition';

const FIXTURES = join(__dirname, '../../fixtures/cluster/operators');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.operators-token-value';
const json = { 'content-type': 'application/json' };
const argv = (...more: string[]) => ['--url', API, '--token-file', tokenFile(TOKEN), ...more];

useNockBoundary();

/** The cluster's answers; no ClusterVersion where the check does not ask for it. */
function cluster(operators: string, version?: string) {
  const api = nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}` } });
  api.get(OPERATORS_PATH).reply(200, fixture(operators), json);
  if (version !== undefined) api.get(VERSION_PATH).reply(200, fixture(version), json);
}

describe('check_cluster_operators (plugins/check_cluster_operators/plugin.ts)', () => {
  it('a healthy 4.14.1 cluster is OK, its reading said in the notes', async () => {
    cluster('clusteroperators-4.14.1-healthy.json', 'clusterversion-4.14.1-healthy.json');
    const { result, phases } = await runDefinition(plugin, argv());
    expect(result.state).toBe(State.OK);
    expect(result.notes).toEqual(['33 operators listed']);
    expect(phases).toEqual([`reading cluster operators from ${API}`]);
  });

  it('a degraded etcd and an unavailable operator are CRITICAL, named on the status line', async () => {
    cluster('clusteroperators-4.14.1-degraded-etcd-unavailable-cpms.json', 'clusterversion-4.14.1-healthy.json');
    const { result } = await runDefinition(plugin, argv());
    expect(result.state).toBe(State.CRITICAL);
    expect(result.summary).toMatch(/etcd/);
  });

  it('--discovery is the operators as Zabbix low-level discovery JSON, state OK, without the ClusterVersion', async () => {
    cluster('clusteroperators-4.14.1-healthy.json');
    const { result } = await runDefinition(plugin, argv('--discovery'));
    expect(result.state).toBe(State.OK);
    const rows = JSON.parse(result.raw!) as Record<string, string>[];
    expect(rows).toHaveLength(33);
    expect(rows[0]).toHaveProperty('{#OPERATOR}');
  });
});

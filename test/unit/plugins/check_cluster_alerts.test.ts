// check_cluster_alerts' definition run in the test's process: a Prometheus' alerts and rules at
// the nock boundary (fixtures from test/fixtures/cluster/alerts/, whose README says where each
// came from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ALERTS_PATH, RULES_PATH } from '../../../lib/cluster/alerts-probe';
import { State } from '../../../lib/plugin/state';
import { plugin } from '../../../plugins/check_cluster_alerts/plugin';
import { useNockBoundary } from '../../support/nock-boundary';
import { runDefinition, tokenFile } from '../../support/plugin-definition';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/cluster/alerts', name), 'utf8');
const PROMETHEUS = 'https://thanos-querier-openshift-monitoring.apps.prod-eu1.example.com';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.alerts-token-value';
const json = { 'content-type': 'application/json' };
const argv = (...more: string[]) => ['--prometheus-url', PROMETHEUS, '--token-file', tokenFile(TOKEN), ...more];

useNockBoundary();

const alerts = () =>
  nock(PROMETHEUS, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
    .get(ALERTS_PATH.prometheus)
    .reply(200, fixture('prometheus-api-alerts-docs.json'), json);

describe('check_cluster_alerts (plugins/check_cluster_alerts/plugin.ts)', () => {
  it('no Watchdog among the alerts is CRITICAL: the pipeline is broken; the source is said', async () => {
    alerts();
    const { result, phases } = await runDefinition(plugin, argv());
    expect(result.state).toBe(State.CRITICAL);
    expect(result.summary).toMatch(/Watchdog/);
    expect(result.items?.at(-1)).toEqual({ name: 'source', state: State.OK, text: expect.stringMatching(/^alerts read from --prometheus-url /) });
    expect(phases).toEqual([`reading alerts from ${PROMETHEUS}`]);
  });

  it('--no-watchdog: an alert without a severity is OK', async () => {
    alerts();
    const { result } = await runDefinition(plugin, argv('--no-watchdog'));
    expect(result.state).toBe(State.OK);
  });

  it('--output json carries each rule that is not OK under "rules" (none here)', async () => {
    alerts();
    const { result } = await runDefinition(plugin, argv('--no-watchdog', '--output', 'json'));
    expect(JSON.parse(result.raw!)).toMatchObject({ rules: {} });
  });

  it('--discovery lists the alerting rules of the Prometheus endpoint (not its recording rules)', async () => {
    alerts();
    nock(PROMETHEUS).get(RULES_PATH).query(true).reply(200, fixture('prometheus-api-rules-docs.json'), json);
    const { result } = await runDefinition(plugin, argv('--discovery'));
    expect(result.state).toBe(State.OK);
    expect(JSON.parse(result.raw!)).toEqual([expect.objectContaining({ '{#ALERTNAME}': 'HighRequestLatency' })]);
  });
});

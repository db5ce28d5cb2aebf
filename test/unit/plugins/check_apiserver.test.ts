// check_apiserver's definition run in the test's process: the API server's answers at the nock
// boundary (fixtures from test/fixtures/cluster/control-plane/, whose README says where each came from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { State } from '../../../lib/plugin/state';
import { plugin } from '../../../plugins/check_apiserver/plugin';
import { useNockBoundary } from '../../support/nock-boundary';
import { runDefinition, tokenFile } from '../../support/plugin-definition';

const FIXTURES = join(__dirname, '../../fixtures/cluster/control-plane');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const API = 'https://api.prod-eu1.example.com:6443';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.apiserver-token-value';
const text = { 'content-type': 'text/plain; charset=utf-8' };
// The gitVersion of the OpenShift 4.14 nodes in test/fixtures/cluster/nodelist-page1.json.
const VERSION = JSON.stringify({ major: '1', minor: '27', gitVersion: 'v1.27.10+28ed2d7', platform: 'linux/amd64' });
const argv = (...more: string[]) => ['--url', API, '--token-file', tokenFile(TOKEN), ...more];

useNockBoundary();

function server(readyz: [number, string], livez: [number, string]) {
  const api = nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}` } });
  api.get('/readyz').query({ verbose: '' }).reply(readyz[0], fixture(readyz[1]), text);
  api.get('/livez').query({ verbose: '' }).reply(livez[0], fixture(livez[1]), text);
  api.get('/version').reply(200, VERSION, { 'content-type': 'application/json' });
}

describe('check_apiserver (plugins/check_apiserver/plugin.ts)', () => {
  it('every check passed on both endpoints is OK, naming the version, timed against -w/-c', async () => {
    server([200, 'readyz-verbose-passed.txt'], [200, 'readyz-verbose-passed.txt']);
    const { result, phases, details } = await runDefinition(plugin, argv('-w', '5', '-c', '9'));
    expect(result.state).toBe(State.OK);
    expect(result.summary).toContain('v1.27.10+28ed2d7');
    expect(result.metrics?.map((m) => m.label)).toEqual(expect.arrayContaining([expect.stringMatching(/readyz/), expect.stringMatching(/livez/)]));
    expect(phases).toEqual([`reading /readyz, /livez and /version from ${API}`]);
    expect(details[0]).toMatch(/^cluster: https:\/\/api\.prod-eu1\.example\.com:6443\/; token from --token-file/);
  });

  it('a failed check is CRITICAL, naming it', async () => {
    server([500, 'readyz-microshift-failed.txt'], [200, 'readyz-verbose-passed.txt']);
    const { result } = await runDefinition(plugin, argv());
    expect(result.state).toBe(State.CRITICAL);
    expect(result.summary).toContain('api-openshift-apiserver-available');
  });

  it('a bad -w is a usage error before any request', async () => {
    await expect(runDefinition(plugin, argv('-w', 'soon'))).rejects.toThrow(/-w|warning/);
  });
});

// contrib/icinga2/vcd-service.conf tells a refused login of check_vcd's own account (vCD
// answers: the other services are not held back) from vCD not answering as it should (they are)
// by the words of check_vcd's first line. Here those words, as the probe really says them for
// every kind of refusal and failure, against the pattern the shipped file holds (a connection
// refused: test/integration/outage-day.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { CheckError } from '../../lib/plugin/errors';
import { State } from '../../lib/plugin/state';
import { probeService } from '../../lib/vcd/service/service-probe';
import { useNockBoundary } from '../support/nock-boundary';
import { testConnection } from '../support/vcd-connection';

const REPO = join(__dirname, '../..');
const HOST = 'https://vcd.example.com';
const VERSIONS = `<SupportedVersions xmlns="http://www.vmware.com/vcloud/versions"><VersionInfo deprecated="false"><Version>34.0</Version></VersionInfo><VersionInfo deprecated="false"><Version>38.1</Version></VersionInfo></SupportedVersions>`;

/** The pattern of cloudchecks_vcd_reachable in the shipped vcd-service.conf. */
function shippedPattern(): RegExp {
  const text = readFileSync(join(REPO, 'contrib/icinga2/vcd-service.conf'), 'utf8');
  const m = /if \(regex\("([^"]+)", line\)\)/.exec(text);
  if (!m) throw new Error('vcd-service.conf: no regex(...) on the line of "vcd"');
  return new RegExp(m[1]);
}

type Creds = Parameters<typeof probeService>[0]['creds'];
const PASSWORD: Creds = { kind: 'password', user: 'provider-monitor', org: 'System', password: 'S3cret!' };
const TOKEN: Creds = { kind: 'api-token', user: 'provider-monitor', org: 'System', refreshToken: 'r3fresh' } as Creds;

/** check_vcd's first line for the failure the probe throws, and its state. */
async function firstLine(creds: Creds = PASSWORD): Promise<{ line: string; state: State }> {
  try {
    await probeService({ conn: testConnection(HOST), creds, provider: true, deadline: Date.now() + 10_000 });
  } catch (e) {
    expect(e).toBeInstanceOf(CheckError);
    const error = e as CheckError;
    return { line: `VCD ${error.state === State.CRITICAL ? 'CRITICAL' : 'UNKNOWN'} - ${error.message}`, state: error.state };
  }
  throw new Error('expected check_vcd to fail');
}

const versions = () => nock(HOST).get('/api/versions').reply(200, VERSIONS);
const login = () => nock(HOST).post('/cloudapi/1.0.0/sessions/provider');

describe('vcd-service.conf: vcd-reachable reads check_vcd as check_vcd words it', () => {
  useNockBoundary();
  const pattern = shippedPattern();

  it.each([
    ['a wrong password', 401, { minorErrorCode: 'UNAUTHORIZED', message: 'Invalid credentials' }],
    ['a locked account', 401, { minorErrorCode: 'UNAUTHORIZED', message: 'User account is locked' }],
    ['an expired password', 401, { minorErrorCode: 'UNAUTHORIZED', message: 'The password has expired' }],
    ['an account not allowed here', 403, { minorErrorCode: 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', message: 'Access forbidden' }],
    ['a disabled account', 403, { minorErrorCode: 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', message: 'The user is disabled' }],
  ])('vCD answers but refuses the login (%s): CRITICAL for vcd, and vcd-reachable stays OK', async (_what, status, body) => {
    versions();
    login().reply(status, body);
    const { line, state } = await firstLine();
    expect(state).toBe(State.CRITICAL);
    expect(line).toMatch(pattern);
  });

  it('vCD before 9.7 (no CloudAPI sessions) refusing the legacy login: vcd-reachable stays OK', async () => {
    versions();
    login().reply(404, '');
    nock(HOST)
      .post('/api/sessions')
      .reply(401, '<Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="UNAUTHORIZED" message="Invalid credentials"/>');
    expect((await firstLine()).line).toMatch(pattern);
  });

  it('an API token vCD refuses: vcd-reachable stays OK', async () => {
    versions();
    nock(HOST).post('/oauth/provider/token').reply(400, { error: 'invalid_grant' });
    expect((await firstLine(TOKEN)).line).toMatch(pattern);
  });

  it.each([
    ['the cells down behind the balancer', () => nock(HOST).get('/api/versions').reply(503, 'no healthy vCD cell')],
    ['the login failing on the server', () => (versions(), login().reply(503, 'no healthy vCD cell'))],
    [
      'the session unreadable right after the login',
      () => {
        versions();
        login().reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok' });
        nock(HOST).get('/cloudapi/1.0.0/sessions/current').reply(500, 'internal error');
        nock(HOST).delete('/cloudapi/1.0.0/sessions/current').reply(204);
      },
    ],
    [
      'the connection reset while the cells are read (a cell going down mid-answer)',
      () => {
        versions();
        login().reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok' });
        nock(HOST).get('/cloudapi/1.0.0/sessions/current').reply(200, '{}');
        nock(HOST)
          .get('/cloudapi/1.0.0/cells')
          .query(true)
          .replyWithError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
        nock(HOST).delete('/cloudapi/1.0.0/sessions/current').reply(204);
      },
    ],
  ])('vCD not answering as it should (%s): CRITICAL for vcd, and vcd-reachable CRITICAL too', async (_what, serve) => {
    serve();
    const { line, state } = await firstLine();
    expect(state).toBe(State.CRITICAL);
    expect(line).not.toMatch(pattern);
  });
});

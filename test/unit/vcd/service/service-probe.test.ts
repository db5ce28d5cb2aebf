// check_vcd's probe at the HTTP boundary: versions, a fresh login, the session, the cells,
// the logout; the service failing is CRITICAL, an option the server refuses UNKNOWN.
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { CheckError } from '../../../../lib/plugin/errors';
import { State } from '../../../../lib/plugin/state';
import { probeService } from '../../../../lib/vcd/service/service-probe';
import { useNockBoundary } from '../../../support/nock-boundary';
import { testConnection } from '../../../support/vcd-connection';

const HOST = 'https://vcd.example.com';
const VERSIONS = `<SupportedVersions xmlns="http://www.vmware.com/vcloud/versions">${['34.0', '38.1', '39.0', '40.0.0-alpha']
  .map((v) => `<VersionInfo deprecated="false"><Version>${v}</Version></VersionInfo>`)
  .join('')}</SupportedVersions>`;
const probe = (provider: boolean, forcedVersion?: string) =>
  probeService({
    conn: testConnection(HOST),
    creds: { kind: 'password', user: provider ? 'p' : 'monitor', org: provider ? 'System' : 'acme', password: 'S3cret!' },
    provider,
    forcedVersion,
    deadline: Date.now() + 10_000,
  });

async function failure(p: Promise<unknown>): Promise<CheckError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CheckError);
    expect((e as Error).message).not.toContain('S3cret!');
    return e as CheckError;
  }
  throw new Error('expected a CheckError');
}

describe('probeService', () => {
  useNockBoundary();

  it('a tenant: versions (highest 39.0, alpha aside), a fresh login at 34.0, the session, the logout; no cells', async () => {
    nock(HOST).get('/api/versions').reply(200, VERSIONS);
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .matchHeader('accept', 'application/json;version=34.0')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok' });
    nock(HOST).get('/cloudapi/1.0.0/sessions/current').matchHeader('authorization', 'Bearer tok').reply(200, '{}');
    nock(HOST).delete('/cloudapi/1.0.0/sessions/current').reply(204);
    const r = await probe(false);
    expect(r).toMatchObject({ highest: '39.0', offered: 4, version: '34.0', auth: 'bearer' });
    expect(r.cells).toBeUndefined();
    expect(r.logoutProblem).toBeUndefined();
  });

  it('System: the cells at the highest version (their status is sent from 38.1)', async () => {
    nock(HOST).get('/api/versions').reply(200, VERSIONS);
    nock(HOST).post('/cloudapi/1.0.0/sessions/provider').reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok' });
    nock(HOST).get('/cloudapi/1.0.0/sessions/current').reply(200, '{}');
    nock(HOST)
      .get('/cloudapi/1.0.0/cells')
      .query(true)
      .matchHeader('accept', 'application/json;version=39.0')
      .reply(200, {
        values: [
          { name: 'c1', isActive: true, status: 'ACTIVE' },
          { name: 'c2', isActive: true, status: 'MAINTENANCE' },
        ],
      });
    nock(HOST).delete('/cloudapi/1.0.0/sessions/current').reply(204);
    const r = await probe(true);
    expect(r.cells).toEqual([
      { name: 'c1', active: true, status: 'ACTIVE' },
      { name: 'c2', active: true, status: 'MAINTENANCE' },
    ]);
  });

  it('cells the account may not read are said, not the whole check', async () => {
    nock(HOST).get('/api/versions').reply(200, VERSIONS);
    nock(HOST).post('/cloudapi/1.0.0/sessions/provider').reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok' });
    nock(HOST).get('/cloudapi/1.0.0/sessions/current').reply(200, '{}');
    nock(HOST).get('/cloudapi/1.0.0/cells').query(true).reply(403, { minorErrorCode: 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', message: 'Access is forbidden' });
    nock(HOST).delete('/cloudapi/1.0.0/sessions/current').reply(204);
    expect((await probe(true)).cells).toEqual({
      error: expect.stringMatching(/^\/cloudapi\/1\.0\.0\/cells answered HTTP 403.*: the account may not view cells$/),
    });
  });

  it('the login refused is CRITICAL', async () => {
    nock(HOST).get('/api/versions').reply(200, VERSIONS);
    nock(HOST).post('/cloudapi/1.0.0/sessions').reply(401, { minorErrorCode: 'UNAUTHORIZED', message: 'Invalid credentials' });
    const e = await failure(probe(false));
    expect(e.state).toBe(State.CRITICAL);
    expect(e.message).toMatch(/login to https:\/\/vcd\.example\.com as monitor@acme rejected/);
  });

  it('/api/versions failing is CRITICAL, and the session is logged out when the request after the login fails', async () => {
    nock(HOST).get('/api/versions').reply(503, '');
    const down = await failure(probe(false));
    expect([down.state, down.message]).toEqual([
      State.CRITICAL,
      'vCD at https://vcd.example.com is not answering: /api/versions answered HTTP 503 (cells down or overloaded?)',
    ]);

    nock(HOST).get('/api/versions').reply(200, VERSIONS);
    nock(HOST).post('/cloudapi/1.0.0/sessions').reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok' });
    nock(HOST).get('/cloudapi/1.0.0/sessions/current').reply(500, '');
    nock(HOST).delete('/cloudapi/1.0.0/sessions/current').reply(204);
    const after = await failure(probe(false));
    expect(after.state).toBe(State.CRITICAL);
    expect(after.message).toMatch(/accepted the login of monitor@acme but \/cloudapi\/1\.0\.0\/sessions\/current answered HTTP 500/);
  });

  // A cell going down while check_vcd reads. nock 14 takes a plain object given to replyWithError
  // for a response (and never answers): a socket's error is an Error with a code, as here. nock
  // ends a body stream that fails as if it were complete: a body cut half-way is read over a real
  // socket in test/unit/http/broken-answer.test.ts, and through check_vcd in the e2e tests.
  const socketError = (code: string, message: string) => Object.assign(new Error(message), { code });
  const providerLoggedIn = () => {
    nock(HOST).get('/api/versions').reply(200, VERSIONS);
    nock(HOST).post('/cloudapi/1.0.0/sessions/provider').reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok' });
    nock(HOST).get('/cloudapi/1.0.0/sessions/current').reply(200, '{}');
  };

  it('the connection reset on the cells, after the login: CRITICAL in this run, naming the cause, and the session logged out', async () => {
    providerLoggedIn();
    nock(HOST).get('/cloudapi/1.0.0/cells').query(true).replyWithError(socketError('ECONNRESET', 'read ECONNRESET'));
    nock(HOST).delete('/cloudapi/1.0.0/sessions/current').reply(204);
    const e = await failure(probe(true));
    expect([e.state, e.message]).toEqual([
      State.CRITICAL,
      'vCD at https://vcd.example.com is not answering: connection to vcd.example.com:443 was reset before the response was complete; retry, or check load balancers and proxies in between',
    ]);
  });

  it('a follow-up request refused (vCD stopped after the login): CRITICAL, naming the refusal', async () => {
    nock(HOST).get('/api/versions').reply(200, VERSIONS);
    nock(HOST).post('/cloudapi/1.0.0/sessions').reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok' });
    nock(HOST).get('/cloudapi/1.0.0/sessions/current').replyWithError(socketError('ECONNREFUSED', 'connect ECONNREFUSED 192.0.2.10:443'));
    nock(HOST).delete('/cloudapi/1.0.0/sessions/current').replyWithError(socketError('ECONNREFUSED', 'connect ECONNREFUSED 192.0.2.10:443'));
    const e = await failure(probe(false));
    expect([e.state, e.message]).toEqual([
      State.CRITICAL,
      'vCD at https://vcd.example.com is not answering: connection refused by vcd.example.com:443; check the port and that the API server is running',
    ]);
  });

  it('a cells answer that is not the list (vCD answered, but nonsense) stays beside the result, not CRITICAL', async () => {
    providerLoggedIn();
    nock(HOST).get('/cloudapi/1.0.0/cells').query(true).reply(200, '<html><body>Maintenance</body></html>', { 'content-type': 'text/html' });
    nock(HOST).delete('/cloudapi/1.0.0/sessions/current').reply(204);
    const r = await probe(true);
    expect(r.cells).toEqual({ error: expect.stringContaining('cells answer from https://vcd.example.com') });
  });

  it("an --api-version the server refuses is the option's fault: UNKNOWN", async () => {
    nock(HOST).get('/api/versions').times(2).reply(200, VERSIONS);
    nock(HOST).post('/cloudapi/1.0.0/sessions').reply(406, { minorErrorCode: 'NOT_ACCEPTABLE', message: 'Invalid API version requested' });
    const e = await failure(probe(false, '31.0'));
    expect(e.state).toBe(State.UNKNOWN);
    expect(e.message).toMatch(/does not accept --api-version 31\.0 .*leave --api-version out to use 34\.0/);
  });
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { fetchMetrics, type MetricsRequest } from '../../../support/fetch-metrics';
import type { VcdConnection } from '../../../../lib/vcd/api/connection';
import { login, type Credentials } from '../../../../lib/vcd/api/login';
import { cacheKey, SessionCache } from '../../../../lib/vcd/api/session-cache';
import { useNockBoundary } from '../../../support/nock-boundary';
import { testConnection } from '../../../support/vcd-connection';

const HOST = 'https://vcd.example.com';
const VM = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
const PASSWORD = 'Tr1cky:p@ss';
const creds: Credentials = { kind: 'password', user: 'monitor', org: 'acme', password: PASSWORD };
const BASIC = 'Basic ' + Buffer.from(`monitor@acme:${PASSWORD}`).toString('base64');
const CURRENT = readFileSync(join(__dirname, '../../../fixtures/vcd/current-usage.xml'), 'utf8');
const FORBIDDEN = readFileSync(join(__dirname, '../../../fixtures/vcd/error-forbidden.xml'), 'utf8');
const POWERED_OFF = readFileSync(join(__dirname, '../../../fixtures/vcd/error-powered-off.xml'), 'utf8');

function connection(secrets: string[] = [], apiVersion = '34.0'): VcdConnection {
  return testConnection(HOST, { apiVersion, addSecret: (s) => s && secrets.push(s) });
}
function request(overrides: Partial<MetricsRequest> = {}): MetricsRequest {
  // The version is forced: these cases are about login and sessions (negotiation: fleet-client.test.ts).
  return {
    conn: connection(),
    creds,
    vm: { kind: 'id', id: VM },
    forcedVersion: '34.0',
    which: 'current',
    deadline: Date.now() + 10_000,
    log: () => undefined,
    ...overrides,
  };
}
const cacheIn = () => new SessionCache(mkdtempSync(join(tmpdir(), 'cc-nock-')), cacheKey(new URL(HOST), creds), 10_000);

useNockBoundary();

describe('login', () => {
  it('uses the CloudAPI session with Basic user@org and the JSON Accept, then Bearer', async () => {
    const api = nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .matchHeader('authorization', BASIC)
      .matchHeader('accept', 'application/json;version=34.0')
      .reply(200, '{}', { 'X-VMWARE-VCLOUD-ACCESS-TOKEN': 'jwt-token-1' })
      .get(`/api/vApp/${VM}/metrics/current`)
      .matchHeader('authorization', 'Bearer jwt-token-1')
      .matchHeader('accept', 'application/*+xml;version=34.0')
      .reply(200, CURRENT)
      .delete('/cloudapi/1.0.0/sessions/current')
      .matchHeader('authorization', 'Bearer jwt-token-1')
      .reply(204);
    const secrets: string[] = [];
    const r = await fetchMetrics(request({ conn: connection(secrets) }));
    expect(r).toMatchObject({ kind: 'document', body: CURRENT });
    expect(secrets).toContain('jwt-token-1');
    expect(secrets).toContain(BASIC.slice(6));
    expect(api.isDone()).toBe(true);
  });

  it('uses /sessions/provider for org System', async () => {
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions/provider')
      .matchHeader('authorization', 'Basic ' + Buffer.from(`admin@System:${PASSWORD}`).toString('base64'))
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'p-token' });
    expect(await login(connection(), { kind: 'password', user: 'admin', org: 'System', password: PASSWORD })).toEqual({ auth: 'bearer', token: 'p-token' });
  });

  it('falls back to POST /api/sessions on 404 and sends x-vcloud-authorization back', async () => {
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(404, '<html>Not Found</html>')
      .post('/api/sessions')
      .matchHeader('authorization', BASIC)
      .matchHeader('accept', 'application/*+xml;version=32.0')
      .reply(200, '<Session xmlns="http://www.vmware.com/vcloud/v1.5"/>', { 'x-vcloud-authorization': 'legacy-token-9' })
      .get(`/api/vApp/${VM}/metrics/historic`)
      .matchHeader('x-vcloud-authorization', 'legacy-token-9')
      .matchHeader('accept', 'application/*+xml;version=32.0')
      .reply(200, '<HistoricUsage/>')
      .delete('/api/session')
      .matchHeader('x-vcloud-authorization', 'legacy-token-9')
      .reply(204);
    const r = await fetchMetrics(request({ conn: connection([], '32.0'), forcedVersion: '32.0', which: 'historic' }));
    expect(r.kind).toBe('document');
  });

  it('exchanges an API token at the tenant OAuth endpoint', async () => {
    nock(HOST)
      .post('/oauth/tenant/acme/token', 'grant_type=refresh_token&refresh_token=r3fresh%2Ftoken')
      .matchHeader('content-type', 'application/x-www-form-urlencoded')
      .reply(200, { access_token: 'access-1', token_type: 'Bearer', expires_in: 2592000 });
    const secrets: string[] = [];
    expect(await login(connection(secrets), { kind: 'api-token', org: 'acme', refreshToken: 'r3fresh/token' })).toEqual({ auth: 'bearer', token: 'access-1' });
    expect(secrets).toContain('access-1');
  });

  it('exchanges a provider API token at /oauth/provider/token', async () => {
    nock(HOST).post('/oauth/provider/token').reply(200, { access_token: 'access-2' });
    expect((await login(connection(), { kind: 'api-token', org: 'System', refreshToken: 'x' })).token).toBe('access-2');
  });

  it('names user@org, never the password, when credentials are wrong', async () => {
    nock(HOST).post('/cloudapi/1.0.0/sessions').reply(401, { minorErrorCode: 'UNAUTHORIZED', message: 'Invalid credentials', stackTrace: null });
    const error = await login(connection(), creds).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      'login to https://vcd.example.com as monitor@acme rejected (HTTP 401: Invalid credentials (UNAUTHORIZED)): wrong user, org or password; check --user, --org and --password-file',
    );
    expect((error as Error).message).not.toContain(PASSWORD);
  });

  it('says a legacy 401 is wrong credentials too', async () => {
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(404)
      .post('/api/sessions')
      .reply(
        401,
        '<Error xmlns="http://www.vmware.com/vcloud/v1.5" majorErrorCode="401" minorErrorCode="UNAUTHORIZED" message="[ x-1 ] Invalid credentials"/>',
      );
    await expect(login(connection(), creds)).rejects.toThrow(
      /as monitor@acme rejected \(HTTP 401: Invalid credentials \(UNAUTHORIZED\)\): wrong user, org or password/,
    );
  });

  it('says a revoked API token is not accepted', async () => {
    nock(HOST).post('/oauth/tenant/acme/token').reply(400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
    await expect(login(connection(), { kind: 'api-token', org: 'acme', refreshToken: 'x' })).rejects.toThrow(
      'login to https://vcd.example.com as the API token for org acme rejected (HTTP 400: Invalid refresh token (invalid_grant)): token not accepted; check --api-token-file (revoked or expired token?) and --org',
    );
  });

  it.each([
    ['a line break', 'acc\nrest-of-token'],
    ['a space', 'acc rest-of-token'],
    ['a control character', 'acc\u0007rest-of-token'],
    ['a character beyond ASCII', 'acc\u00e9rest-of-token'],
  ])('refuses an OAuth access_token with %s: one clear line, never the token', async (_, token) => {
    nock(HOST).post('/oauth/tenant/acme/token').reply(200, { access_token: token, token_type: 'Bearer' });
    const error = (await login(connection(), { kind: 'api-token', org: 'acme', refreshToken: 'x' }).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(
      /^login to https:\/\/vcd\.example\.com answered with an access_token that holds .*, which cannot be sent back: the server \(or a proxy in between\) is broken; nothing was kept/,
    );
    expect(error.message).not.toContain('rest-of-token');
  });

  it('refuses a legacy session token that cannot be sent back (a cookie with a tab)', async () => {
    nock(HOST).post('/cloudapi/1.0.0/sessions').reply(404).post('/api/sessions').reply(200, '<Session/>', { 'set-cookie': 'vcloud-token=abc\tdef; Secure' });
    await expect(login(connection(), creds)).rejects.toThrow(/answered with a session token that holds spaces or control characters/);
  });

  it('refuses a success without a token header', async () => {
    nock(HOST).post('/cloudapi/1.0.0/sessions').reply(200, '{}');
    await expect(login(connection(), creds)).rejects.toThrow(/without an X-VMWARE-VCLOUD-ACCESS-TOKEN header/);
  });
});

describe('fetchMetrics with the session cache', () => {
  it('an unsendable access_token is never kept: once the server is mended, the next check works', async () => {
    const cache = new SessionCache(
      mkdtempSync(join(tmpdir(), 'cc-nock-')),
      cacheKey(new URL(HOST), { kind: 'api-token', org: 'acme', refreshToken: 'r' }),
      10_000,
    );
    const apiToken = (): Partial<MetricsRequest> => ({ creds: { kind: 'api-token', org: 'acme', refreshToken: 'r' }, cache });
    nock(HOST).post('/oauth/tenant/acme/token').reply(200, { access_token: 'broken\ntoken' });
    await expect(fetchMetrics(request(apiToken()))).rejects.toThrow(/cannot be sent back/);
    expect(cache.read()).toBeUndefined();
    // Mended: no "failed a moment ago" hold, a new exchange, the metrics.
    nock(HOST)
      .post('/oauth/tenant/acme/token')
      .reply(200, { access_token: 'good-token' })
      .get(`/api/vApp/${VM}/metrics/current`)
      .matchHeader('authorization', 'Bearer good-token')
      .reply(200, CURRENT);
    expect((await fetchMetrics(request(apiToken()))).kind).toBe('document');
    expect(cache.read()?.token).toBe('good-token');
  });

  it('reuses the cached session: one GET, no login', async () => {
    const cache = cacheIn();
    cache.write({ auth: 'bearer', token: 'cached-1' });
    nock(HOST).get(`/api/vApp/${VM}/metrics/current`).matchHeader('authorization', 'Bearer cached-1').reply(200, CURRENT);
    expect((await fetchMetrics(request({ cache }))).kind).toBe('document');
  });

  it('logs in again once on 401 and replaces the cached session', async () => {
    const cache = cacheIn();
    cache.write({ auth: 'bearer', token: 'expired-1' });
    nock(HOST)
      .get(`/api/vApp/${VM}/metrics/current`)
      .matchHeader('authorization', 'Bearer expired-1')
      .reply(401, '<Error xmlns="http://www.vmware.com/vcloud/v1.5" majorErrorCode="401" minorErrorCode="UNAUTHORIZED" message="This operation is denied."/>')
      .post('/cloudapi/1.0.0/sessions')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'fresh-2' })
      .get(`/api/vApp/${VM}/metrics/current`)
      .matchHeader('authorization', 'Bearer fresh-2')
      .reply(200, CURRENT);
    expect((await fetchMetrics(request({ cache }))).kind).toBe('document');
    expect(cache.read()).toEqual({ auth: 'bearer', token: 'fresh-2' });
  });

  it('gives up after one re-login', async () => {
    const cache = cacheIn();
    cache.write({ auth: 'bearer', token: 'expired-1' });
    nock(HOST)
      .get(`/api/vApp/${VM}/metrics/current`)
      .twice()
      .reply(401, '')
      .post('/cloudapi/1.0.0/sessions')
      .once()
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'fresh-2' });
    await expect(fetchMetrics(request({ cache }))).rejects.toThrow(
      /session of monitor@acme was rejected by https:\/\/vcd.example.com \(HTTP 401\) right after login/,
    );
  });
});

describe('fetchMetrics errors', () => {
  const withSession = () => {
    const cache = cacheIn();
    cache.write({ auth: 'bearer', token: 't' });
    return cache;
  };

  it('403: VM not found or not visible', async () => {
    nock(HOST).get(`/api/vApp/${VM}/metrics/current`).reply(403, FORBIDDEN);
    await expect(fetchMetrics(request({ cache: withSession() }))).rejects.toThrow(
      new RegExp(
        `^${VM}: VM not found or not visible to this user monitor@acme \\(HTTP 403: Either you need .* \\(ACCESS_TO_RESOURCE_IS_FORBIDDEN\\)\\): deleted\\? run discovery again \\(a discovered host outlives its VM\\)[;,] else check --vm`,
      ),
    );
  });

  it('404 on the VM: deleted? run discovery again, before the URL', async () => {
    nock(HOST).get(`/api/vApp/${VM}/metrics/current`).reply(404, '');
    await expect(fetchMetrics(request({ cache: withSession() }))).rejects.toThrow(
      new RegExp(
        `^${VM}: VM not found at https://vcd\\.example\\.com/api/vApp/${VM}/metrics/current \\(HTTP 404[^)]*\\): deleted\\? run discovery again .*[;,] else check that --url is the vCD API host`,
      ),
    );
  });

  it('400 on current metrics is a refusal (powered off), on historic an error', async () => {
    nock(HOST).get(`/api/vApp/${VM}/metrics/current`).reply(400, POWERED_OFF).get(`/api/vApp/${VM}/metrics/historic`).reply(400, POWERED_OFF);
    expect(await fetchMetrics(request({ cache: withSession() }))).toMatchObject({
      kind: 'refused',
      detail: 'HTTP 400: The requested operation could not be executed since VM "old-04" is not running. (BAD_REQUEST)',
    });
    await expect(fetchMetrics(request({ cache: withSession(), which: 'historic' }))).rejects.toThrow(/answered HTTP 400: The requested operation/);
  });

  it.each([
    [
      406,
      '<Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="NOT_ACCEPTABLE" message="Invalid API version requested"/>',
      /does not accept --api-version 34.0 \(HTTP 406: Invalid API version requested \(NOT_ACCEPTABLE\)\): its list of versions could not be read \(.*HTTP 404/,
    ],
    [503, '<html>Service Unavailable</html>', /answered HTTP 503[;,] the vCD cells may be overloaded or down, retry later/],
    // A plain-text refusal is quoted as the cluster checks quote theirs: bounded, one clean line.
    [
      503,
      `cell vcd-cell-02 is in maintenance mode\u001b[2J until 18:00\nsecond line${'x'.repeat(500)}`,
      /answered HTTP 503 \(server says: cell vcd-cell-02 is in maintenance mode \[2J until 18:00\)[;,] the vCD cells may be overloaded or down, retry later$/,
    ],
  ])('HTTP %d', async (status, body, message) => {
    nock(HOST).get(`/api/vApp/${VM}/metrics/current`).reply(status, body);
    // A refused forced version is reported with the server's offer (here: none readable).
    if (status === 406) nock(HOST).get('/api/versions').reply(404, '');
    await expect(fetchMetrics(request({ cache: withSession() }))).rejects.toThrow(message);
  });

  it("a VM refused (403) whose record says FAILED_CREATION is reported in its status, not as the account's rights", async () => {
    const failed = readFileSync(join(__dirname, '../../../fixtures/vcd/vm-powered-off.xml'), 'utf8').replace('status="8"', 'status="-1"');
    nock(HOST).get(`/api/vApp/${VM}/metrics/current`).reply(403, FORBIDDEN).get(`/api/vApp/${VM}`).reply(200, failed);
    const error = await fetchMetrics(request({ cache: withSession() })).catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${VM}: the VM is FAILED_CREATION in vCD \\(HTTP 403: .*\\): it has no metrics, repair or delete it in vCD`.replace(', repair', '[;,] repair'),
      ),
    );
    expect((error as Error).message).not.toMatch(/Catalog Author|run discovery again/);
  });

  it('a VM refused (403) whose record cannot be read either is the rights hint, as before', async () => {
    nock(HOST).get(`/api/vApp/${VM}/metrics/current`).reply(403, FORBIDDEN).get(`/api/vApp/${VM}`).reply(403, FORBIDDEN);
    await expect(fetchMetrics(request({ cache: withSession() }))).rejects.toThrow(/VM not found or not visible to this user/);
  });

  it('logs out even when the metrics request fails (--no-cache)', async () => {
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'n1' })
      .get(`/api/vApp/${VM}/metrics/current`)
      .reply(403, FORBIDDEN)
      .delete('/cloudapi/1.0.0/sessions/current')
      .reply(204);
    await expect(fetchMetrics(request())).rejects.toThrow(/VM not found/);
  });
});

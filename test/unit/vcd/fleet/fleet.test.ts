// The fleet readers and writers: /api/versions, the query service, names, discovery output,
// the cache entry beside the session, and the server's reasons for refusing a login.
import { mkdtempSync, readFileSync, renameSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { chooseApiVersion, parseSupportedVersions } from '../../../../lib/vcd/api/api-version';
import { listVms } from '../../../../lib/vcd/inventory/vm-listing';
import { fetchMetrics, type MetricsRequest } from '../../../support/fetch-metrics';
import type { VcdConnection } from '../../../../lib/vcd/api/connection';
import { icingaDiscovery, nagiosDiscovery, selectVms, zabbixDiscovery } from '../../../../lib/vcd/inventory/discovery';
import { nameKey } from '../../../../lib/vcd/api/fleet-cache';
import { login, loginRefusalReason, type Credentials } from '../../../../lib/vcd/api/login';
import { cacheKey, SessionCache, type VcdCacheKey } from '../../../../lib/vcd/api/session-cache';
import { pickVmByName } from '../../../../lib/vcd/inventory/vm-name';
import { fiqlValue, parseVmRecords, queryAllVms, queryPath, type VmRecord } from '../../../../lib/vcd/inventory/vm-query';
import { useNockBoundary } from '../../../support/nock-boundary';
import { testConnection } from '../../../support/vcd-connection';

const FIXTURES = join(__dirname, '../../../fixtures/vcd');
const VERSIONS = readFileSync(join(FIXTURES, 'versions-10.4.xml'), 'utf8');
const RECORDS = readFileSync(join(FIXTURES, 'query-vm-records.xml'), 'utf8');
const CURRENT = readFileSync(join(FIXTURES, 'current-usage.xml'), 'utf8');
const HOST = 'https://vcd.example.com';
const creds: Credentials = { kind: 'password', user: 'monitor', org: 'acme', password: 'Tr1cky:p@ss' };
/** The fleet entries of the session cache in `dir`, as a check opens them. */
const sessionCacheIn = (dir: string, key: VcdCacheKey) => new SessionCache(dir, key, 10_000);

const connection = (): VcdConnection => testConnection(HOST);

useNockBoundary();

describe('API versions', () => {
  it('reads a 10.4 SupportedVersions document, deprecated flags and alpha versions included', () => {
    const offered = parseSupportedVersions(VERSIONS);
    expect(offered).toEqual([
      { version: '33.0', deprecated: true },
      { version: '34.0', deprecated: true },
      { version: '35.0', deprecated: false },
      { version: '36.0', deprecated: false },
      { version: '37.0', deprecated: false },
      { version: '37.0.0-alpha', deprecated: false },
      { version: '37.1', deprecated: false },
      { version: '37.2', deprecated: false },
    ]);
  });

  it.each([
    [['33.0', '34.0', '37.2'], '34.0', /34.0 is offered/],
    [['35.0', '37.0', '37.0.0-alpha', '38.1', '40.0'], '38.1', /38.1 is the highest offered of 33.0-39.x/],
    [['30.0', '31.0', '32.0'], '32.0', /only versions older than 33.0/],
    [['39.10', '39.9'], '39.10', /highest/],
  ])('%j → %s', (list, version, reason) => {
    const chosen = chooseApiVersion(list.map((v) => ({ version: v, deprecated: false })));
    expect(chosen).toMatchObject({ version });
    expect('reason' in chosen && chosen.reason).toMatch(reason);
  });

  it('refuses to guess beyond the known range', () => {
    expect(
      chooseApiVersion([
        { version: '40.0', deprecated: false },
        { version: '41.0.0-alpha', deprecated: false },
      ]),
    ).toEqual({ error: 'offers none of the versions cloudchecks knows (33.0-39.x)' });
  });

  it.each([
    ['<html>login</html>', /not XML|root element/],
    ['<Error xmlns="http://www.vmware.com/vcloud/v1.5" message="x"/>', /root element <Error>/],
    ['<SupportedVersions><VersionInfo deprecated="false"/></SupportedVersions>', /1 VersionInfo elements but 0 Version values/],
  ])('a document it does not understand is said so: %s', (text, message) => {
    expect((parseSupportedVersions(text) as { error: string }).error).toMatch(message);
  });
});

describe('query service', () => {
  it('reads VMRecords: id from href, vApp from containerName, templates flagged, next page', () => {
    const page = parseVmRecords(RECORDS);
    expect(page.total).toBe(5);
    expect(page.next).toBe('https://vcd.example.com/api/query?type=vm&page=2&pageSize=3&format=records');
    expect(page.records).toEqual([
      { id: 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70', name: 'web-01', vapp: 'shop & co', status: 'POWERED_ON', template: false },
      { id: 'vm-9a8b7c6d-5e4f-4a3b-8c2d-fedcba987654', name: 'ubuntu-22.04', vapp: 'base-templates', status: 'POWERED_OFF', template: true },
      { id: 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f', name: 'Web & DB 01', vapp: 'Sales & Marketing', status: 'SUSPENDED', template: false },
    ]);
  });

  it('encodes names: FIQL operators become wildcards, the rest is percent-encoded', () => {
    expect(fiqlValue('a;b,c(d)=e!f*g\\h')).toBe('a*b*c*d**e*f*g*h');
    expect(queryPath({ name: 'Web & DB 01', vapp: 'Sales & Marketing' })).toBe(
      '/api/query?type=vm&format=records&filter=(name%3D%3DWeb%20%26%20DB%2001%3BcontainerName%3D%3DSales%20%26%20Marketing%3BisVAppTemplate%3D%3Dfalse)&pageSize=128&sortAsc=name',
    );
    expect(decodeURIComponent(queryPath({ name: 'db;1' }))).toContain('filter=(name==db*1;isVAppTemplate==false)');
  });

  it('follows nextPage on the same host, and never to another host', async () => {
    const second = RECORDS.replace(/<Link rel="nextPage"[^>]*\/>/, '');
    nock(HOST)
      .get('/api/query')
      .query(true)
      .reply(200, RECORDS)
      .get('/api/query')
      .query({ type: 'vm', page: '2', pageSize: '3', format: 'records' })
      .reply(200, second);
    const get = (p: string) => import('../../../../lib/vcd/api/connection').then((c) => c.vcdRequest(connection(), 'GET', p, {}));
    expect(await queryAllVms(connection(), get, queryPath({}))).toHaveLength(6);
    const evil = RECORDS.replace('https://vcd.example.com/api/query?type=vm&amp;page=2', 'https://evil.example.net/api/query?type=vm&amp;page=2');
    nock(HOST).get('/api/query').query(true).reply(200, evil);
    await expect(queryAllVms(connection(), get, queryPath({}))).rejects.toThrow(
      /points its next page to https:\/\/evil.example.net\/api\/query: not followed \(the session would go with it\)/,
    );
  });

  it('a page that links to itself ends the walk (no endless loop)', async () => {
    const self = RECORDS.replace(
      'page=2&amp;pageSize=3&amp;format=records" type="application/vnd.vmware.vcloud.query.records+xml"/>\n    <Link rel="lastPage"',
      'page=1&amp;pageSize=3&amp;format=records" type="application/vnd.vmware.vcloud.query.records+xml"/>\n    <Link rel="lastPage"',
    );
    nock(HOST).get('/api/query').query(true).reply(200, self);
    const get = (p: string) => import('../../../../lib/vcd/api/connection').then((c) => c.vcdRequest(connection(), 'GET', p, {}));
    expect((await queryAllVms(connection(), get, '/api/query?type=vm&page=1&pageSize=3&format=records')).length).toBe(3);
  });
});

const rec = (name: string, vapp: string, n: number, template = false): VmRecord => ({
  id: `vm-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name,
  vapp,
  status: 'POWERED_ON',
  template,
});
const where = { account: 'monitor@acme', origin: HOST };

describe('names', () => {
  const records = [rec('twin', 'blue', 1), rec('twin', 'green', 2), rec('twin', 'images', 3, true), rec('Web-01', 'shop', 4)];
  it('one VM: picked; several: UNKNOWN listing each; templates never', () => {
    expect(pickVmByName(records, 'twin', 'green', where)).toEqual({ id: records[1].id, name: 'twin', vapp: 'green' });
    expect(() => pickVmByName(records, 'twin', undefined, where)).toThrow(
      `2 VMs are named "twin": twin in vApp "blue" (${records[0].id}), twin in vApp "green" (${records[1].id}), add --vapp NAME, or give the VM id with --vm`,
    );
    expect(() => pickVmByName(records, 'twin', 'images', where)).toThrow(
      /^no VM named "twin" in vApp "images" is visible to monitor@acme at https:\/\/vcd.example.com/,
    );
  });
  it('another case is accepted when no name matches exactly', () => {
    expect(pickVmByName(records, 'web-01', undefined, where).name).toBe('Web-01');
  });
});

describe('discovery output', () => {
  const records = [rec('b', 'v2', 1), rec('a', 'v1', 2), rec('tmpl', 'v1', 3, true), rec('Web "$x" ; 1', 'Sales & Marketing', 4)];
  const src = {
    command: 'check_vm_cpu',
    url: HOST,
    user: 'monitor',
    org: 'acme',
    passwordFile: '/etc/icinga2/secrets/vcd acme.password',
    caFile: '/etc/ca.pem',
  };
  it('selects: no templates, --vapp, --include, --exclude, sorted by vApp then name', () => {
    expect(selectVms(records, {}).map((r) => r.name)).toEqual(['Web "$x" ; 1', 'a', 'b']);
    expect(selectVms(records, { vapp: 'v1' }).map((r) => r.name)).toEqual(['a']);
    expect(selectVms(records, { include: /^[ab]$/, exclude: /b/ }).map((r) => r.name)).toEqual(['a']);
  });
  it('zabbix: the LLD macros of the issue, the organisation among them', () => {
    expect(JSON.parse(zabbixDiscovery([{ ...records[1], org: 'acme' }]))).toEqual([
      { '{#VM.ID}': records[1].id, '{#VM.NAME}': 'a', '{#VM.VAPP}': 'v1', '{#VM.STATUS}': 'POWERED_ON', '{#VM.ORG}': 'acme' },
    ]);
  });
  it('a name resolved in one --tenant-org is kept apart from the same name elsewhere (any case of the org)', () => {
    expect(nameKey('web-01', 'shop', 'Globex')).toBe(nameKey('web-01', 'shop', 'globex'));
    expect(nameKey('web-01', 'shop', 'globex')).not.toBe(nameKey('web-01', 'shop'));
    expect(nameKey('web-01', 'shop', 'globex')).not.toBe(nameKey('web-01', 'shop', 'acme'));
  });
  it('sorts a provider listing by organisation first', () => {
    const two = [
      { ...records[1], org: 'globex' },
      { ...records[0], org: 'acme' },
    ];
    expect(selectVms(two, {}).map((r) => r.org)).toEqual(['acme', 'globex']);
  });
  it('icinga2: strings escaped, $ doubled where a macro would read it (every var), not in display_name', () => {
    const out = icingaDiscovery([records[3]], src);
    expect(out).toContain(`object Host "${records[3].id}" {\n\timport "cloudchecks-vcd-vm"\n\tdisplay_name = "Web \\"$x\\" ; 1"\n`);
    expect(out).toContain('\tvars.cloudchecks_vm_name = "Web \\"$$x\\" ; 1"\n\tvars.cloudchecks_vapp = "Sales & Marketing"\n');
    expect(out).toContain('\tvars.cloudchecks_vcd_password_file = "/etc/icinga2/secrets/vcd acme.password"\n');
    expect(out).not.toMatch(/password"? = "Tr1cky/);
  });
  it('says when the password came from elsewhere than a file (never writing it)', () => {
    const { passwordFile: _unused, ...noFile } = src;
    expect(icingaDiscovery([records[1]], noFile)).toMatch(
      /^\/\/ No --password-file or --api-token-file was given to the discovery: set vars.cloudchecks_vcd_password_file/m,
    );
    expect(nagiosDiscovery([records[1]], noFile)).toMatch(/^# No --password-file or --api-token-file was given/m);
    expect(icingaDiscovery([records[1]], src)).not.toMatch(/No --password-file/);
  });
  it('nagios: Nagios and shell syntax made _, the connection as plain words', () => {
    const out = nagiosDiscovery([records[3]], { ...src, passwordFile: '/etc/nagios4/vcd-acme.pw' });
    expect(out).toContain('    alias           Web __x_ _ 1\n');
    expect(out).toContain('    _VM_VAPP        Sales _ Marketing\n');
    expect(out).toContain(
      `    _VCD_ARGS       --url https://vcd.example.com --org acme --user monitor --password-file /etc/nagios4/vcd-acme.pw --ca-file /etc/ca.pem\n`,
    );
  });
  it('nagios: a connection option that would need quoting is refused (Nagios strips quotes)', () => {
    expect(() => nagiosDiscovery([records[3]], { ...src, passwordFile: "/etc/nagios4/o'neil.pw" })).toThrow(
      /^--password-file "\/etc\/nagios4\/o'neil.pw" cannot be written into a Nagios command line/,
    );
    expect(() => nagiosDiscovery([records[3]], src)).toThrow(/^--password-file "\/etc\/icinga2\/secrets\/vcd acme.password" cannot be written/);
  });
});

describe('the cache entry beside the session', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'cc-fleet-'));
  const keyA = cacheKey(new URL('https://a.example.com'), creds);
  const keyB = cacheKey(new URL('https://b.example.com'), creds);
  it('stores and reads back, 0600, beside the session entry', () => {
    const d = dir();
    sessionCacheIn(d, keyA).fleet.update((r) => (r.apiVersion = { version: '38.1', reason: 'x', time: 1 }));
    expect(sessionCacheIn(d, keyA).fleet.read().apiVersion?.version).toBe('38.1');
    expect(statSync(join(d, `${keyA.stem}.fleet.json`)).mode & 0o777).toBe(0o600);
  });
  it('ignores an entry of another server or account (a file renamed to this key)', () => {
    const d = dir();
    sessionCacheIn(d, keyA).fleet.update(
      (r) => (r.names = { [nameKey('web', undefined)]: { id: 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70', name: 'web', vapp: 'x', time: 1 } }),
    );
    renameSync(join(d, `${keyA.stem}.fleet.json`), join(d, `${keyB.stem}.fleet.json`));
    const other = sessionCacheIn(d, keyB);
    expect(other.fleet.read().names).toBeUndefined();
    expect(other.notes).toEqual([expect.stringMatching(/belongs to another/)]);
  });
  it('never follows a symlink, drops ill-typed fields', () => {
    const d = dir();
    sessionCacheIn(d, keyA).fleet.update((r) => (r.apiVersion = { version: '34.0', reason: 'r', time: 1 }));
    renameSync(join(d, `${keyA.stem}.fleet.json`), join(d, 'target'));
    symlinkSync(join(d, 'target'), join(d, `${keyA.stem}.fleet.json`));
    expect(sessionCacheIn(d, keyA).fleet.read().apiVersion).toBeUndefined();
    unlinkSync(join(d, `${keyA.stem}.fleet.json`));
    sessionCacheIn(d, keyA).fleet.update((r) => {
      r.apiVersion = { version: '34.0; rm -rf', reason: 'r', time: 1 };
      r.names = { x: { id: '../../../etc', name: 'n', vapp: 'v', time: 1 } };
    });
    expect(sessionCacheIn(d, keyA).fleet.read()).toEqual({ names: {} });
  });
  it("shares the session's one cache: a refused directory is one note, whoever met it", () => {
    const parent = dir();
    writeFileSync(join(parent, 'file'), '');
    const cache = sessionCacheIn(join(parent, 'file', 'cloudchecks'), keyA);
    expect(cache.fleet.read()).toEqual({});
    cache.fleet.update((r) => (r.apiVersion = { version: '38.1', reason: 'x', time: 1 }));
    expect(cache.read()).toBeUndefined();
    expect(cache.notes).toEqual([expect.stringMatching(/^session cache .* unusable \((ENOTDIR|EEXIST)\); logging in without it$/)]);
  });
  it("keeps a fleet entry larger than a session may be, without loosening the session's bound", () => {
    const d = dir();
    const names = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => {
        const id = `vm-${String(i).padStart(8, '0')}-2222-4333-8444-555555555555`;
        return [nameKey(`web-${i}`, 'shop'), { id, name: `web-${i}`, vapp: 'shop', time: i }];
      }),
    );
    sessionCacheIn(d, keyA).fleet.update((r) => (r.names = names));
    expect(statSync(join(d, `${keyA.stem}.fleet.json`)).size).toBeGreaterThan(64 * 1024);
    expect(Object.keys(sessionCacheIn(d, keyA).fleet.read().names ?? {})).toHaveLength(1500);
    writeFileSync(join(d, `${keyA.stem}.json`), readFileSync(join(d, `${keyA.stem}.fleet.json`)), { mode: 0o600 });
    const cache = sessionCacheIn(d, keyA);
    expect(cache.read()).toBeUndefined();
    expect(cache.notes).toEqual([expect.stringMatching(/\.json: larger than 65536 bytes$/)]);
  });
});

describe("login refusals: the server's reason decides the wording", () => {
  it.each([
    ['User monitor is locked out', 'locked'],
    ['Account locked due to too many failed login attempts', 'locked'],
    ['Your password has expired, please change it', 'expired'],
    ['User monitor is disabled', 'disabled'],
    ['Organization "acmee" does not exist', 'org'],
    ['The user monitor does not have the right to access the provider endpoint', 'rights'],
    ['User is not authorized to log in', 'rights'],
    ['Invalid credentials', undefined],
  ])('%j → %s', (message, reason) => {
    expect(loginRefusalReason(message)).toBe(reason);
  });

  it.each([
    [
      401,
      { minorErrorCode: 'UNAUTHORIZED', message: 'User monitor is locked out', stackTrace: null },
      /refused \(HTTP 401: User monitor is locked out \(UNAUTHORIZED\)\): the account is locked out/,
    ],
    [401, { minorErrorCode: 'UNAUTHORIZED', message: 'Organization acmee not found', stackTrace: null }, /this vCD has no organisation "acme", check --org/],
    [
      403,
      { minorErrorCode: 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', message: 'User does not have the right to use the API', stackTrace: null },
      /the account has no right to log in to the API here/,
    ],
    [
      401,
      { minorErrorCode: 'UNAUTHORIZED', message: 'Invalid credentials', stackTrace: null },
      /rejected \(HTTP 401: Invalid credentials \(UNAUTHORIZED\)\): wrong user, org or password/,
    ],
  ])('CloudAPI %d %j', async (status, body, message) => {
    nock(HOST).post('/cloudapi/1.0.0/sessions').reply(status, JSON.stringify(body), { 'content-type': 'application/json;version=34.0' });
    await expect(login(connection(), creds)).rejects.toThrow(message);
  });

  it('an XML Error body of the legacy login decides too', async () => {
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(404, '')
      .post('/api/sessions')
      .reply(
        401,
        '<Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="UNAUTHORIZED" message="[ 7f3e ] The password for user monitor has expired" majorErrorCode="401"/>',
      );
    await expect(login(connection(), creds)).rejects.toThrow(/the password has expired, set a new one for monitor@acme/);
  });

  it('a legacy token only in Set-Cookie: vcloud-token is taken verbatim', async () => {
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(404, '')
      .post('/api/sessions')
      .reply(200, '<Session/>', { 'set-cookie': ['JSESSIONID=abc; Path=/', 'vcloud-token=Qm9i+/Zm9v=; Secure; HttpOnly; Path=/'] });
    expect(await login(connection(), creds)).toEqual({ auth: 'legacy', token: 'Qm9i+/Zm9v=' });
  });
});

describe('negotiation through fetchMetrics', () => {
  const VM = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
  const base = (overrides: Partial<MetricsRequest> = {}): MetricsRequest => ({
    conn: connection(),
    creds,
    vm: { kind: 'id', id: VM },
    which: 'current',
    deadline: Date.now() + 10_000,
    log: () => undefined,
    ...overrides,
  });
  it('asks /api/versions and logs in with the chosen version (JSON Accept)', async () => {
    nock(HOST)
      .get('/api/versions')
      .reply(200, VERSIONS.replace(/<VersionInfo deprecated="true">\s*<Version>34.0<\/Version>[\s\S]*?<\/VersionInfo>/, ''))
      .post('/cloudapi/1.0.0/sessions')
      .matchHeader('accept', 'application/json;version=37.2')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 't' })
      .get(`/api/vApp/${VM}/metrics/current`)
      .matchHeader('accept', 'application/*+xml;version=37.2')
      .reply(200, CURRENT)
      .delete('/cloudapi/1.0.0/sessions/current')
      .reply(204);
    const facts: string[] = [];
    expect((await fetchMetrics(base({ facts }))).kind).toBe('document');
    expect(facts).toEqual(['API version 37.2 (34.0 is not offered, 37.2 is the highest offered of 33.0-39.x, from /api/versions)']);
  });

  it('a name cached with an id that now answers 404 is resolved again at once, and the cache updated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-fleet-'));
    const key = cacheKey(new URL(HOST), creds);
    const gone = 'vm-11111111-2222-4333-8444-555555555555';
    sessionCacheIn(dir, key).fleet.update(
      (r) => (r.names = { [nameKey('web-01', undefined)]: { id: gone, name: 'web-01', vapp: 'shop & co', time: Date.now() } }),
    );
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 't' })
      .get(`/api/vApp/${gone}/metrics/current`)
      .reply(404, '')
      .get('/api/query')
      .query({ type: 'vm', format: 'records', filter: '(name==web-01;isVAppTemplate==false)', pageSize: '128', sortAsc: 'name' })
      .reply(200, RECORDS.replace(/<Link rel="nextPage"[^>]*\/>/, ''))
      .get(`/api/vApp/${VM}/metrics/current`)
      .reply(200, CURRENT)
      .delete('/cloudapi/1.0.0/sessions/current')
      .reply(204);
    const fleet = sessionCacheIn(dir, key).fleet;
    const r = await fetchMetrics(base({ vm: { kind: 'name', name: 'web-01' }, forcedVersion: '34.0', fleet }));
    expect(r).toMatchObject({ kind: 'document', vm: { id: VM, name: 'web-01', vapp: 'shop & co' } });
    expect(sessionCacheIn(dir, key).fleet.read().names?.[nameKey('web-01', undefined)]?.id).toBe(VM);
  });

  it('listVms pages through the query service with the session', async () => {
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 't' })
      .get('/api/query')
      .query({ type: 'vm', format: 'records', filter: '(isVAppTemplate==false)', pageSize: '128', sortAsc: 'name' })
      .matchHeader('authorization', 'Bearer t')
      .reply(200, RECORDS.replace(/<Link rel="nextPage"[^>]*\/>/, ''))
      .delete('/cloudapi/1.0.0/sessions/current')
      .reply(204);
    const { records, pages } = await listVms(base({ forcedVersion: '34.0' }), {});
    expect([records.length, pages]).toEqual([3, 1]);
  });
});

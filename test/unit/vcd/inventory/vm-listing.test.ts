// Which queries list an account's VMs: a tenant's `vm`, a provider's `organization` + `adminVM`
// (narrowed by --tenant-org), and the readers of those answers on published documents
// (test/fixtures/vcd/query/README.md says where each comes from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../../lib/http/request';
import { CheckError, UsageError } from '../../../../lib/plugin/errors';
import type { Credentials } from '../../../../lib/vcd/api/login';
import { checkTenantOrg, vmScope, type VmScope } from '../../../../lib/vcd/api/scope';
import { listScopedVms } from '../../../../lib/vcd/inventory/vm-listing';
import { pickVmByName } from '../../../../lib/vcd/inventory/vm-name';
import { parseOrgRecords, parseVmRecords } from '../../../../lib/vcd/inventory/vm-query';
import { testConnection } from '../../../support/vcd-connection';

const FIXTURES = join(__dirname, '../../../fixtures/vcd/query');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const HOST = 'https://vcd.example.com';
const ADMIN_VMS = fixture('adminVM-records-schema-api38.xml');
const ACME = '2b1d6d40-8f3c-4b4e-9d0a-6f7e8a9b0c1d';
const GLOBEX = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const ORGS = `<QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" name="organization" total="3">
  <OrgRecord name="System" displayName="System" href="${HOST}/api/org/a93c9db9-7471-3192-8d09-a8f7eeda85f9"/>
  <OrgRecord name="acme" displayName="ACME Inc." href="${HOST}/api/org/${ACME}"/>
  <OrgRecord name="Globex" displayName="Globex Corporation" href="${HOST}/api/org/${GLOBEX}"/>
</QueryResultRecords>`;

const tenant: Credentials = { kind: 'password', user: 'monitor', org: 'acme', password: 'x' };
const provider: Credentials = { kind: 'password', user: 'sysmon', org: 'System', password: 'x' };
const ok = (body: string): HttpResponse => ({ status: 200, headers: {}, body: Buffer.from(body), url: new URL(`${HOST}/api/query`) });

/** A server that answers each query type from `answers` and records what was asked. */
function server(answers: Record<string, HttpResponse>) {
  const asked: URL[] = [];
  const get = async (path: string) => {
    const url = new URL(path, HOST);
    asked.push(url);
    return answers[url.searchParams.get('type') ?? ''] ?? { status: 400, headers: {}, body: Buffer.from(''), url };
  };
  return { asked, get };
}
const list = (creds: Credentials, scope: VmScope, get: (p: string) => Promise<HttpResponse>, filter = {}) =>
  listScopedVms({ conn: testConnection(HOST), creds, get, scope }, filter);

describe('readers on published query answers', () => {
  it('OrgRecords of the vendor example: name and the GUID of /api/org/<id>', () => {
    const page = parseOrgRecords(fixture('organization-records-vendor-api5.5.xml'));
    expect(page.total).toBe(2);
    expect(page.records[0]).toEqual({ id: '7b832bc5-3d65-45a2-8d35-da28388ab80a', name: 'Default', displayName: 'Default Organization' });
  });

  it('AdminVMRecords: the organisation from the org href (/api/org or /api/admin/org), the rest as VMRecords', () => {
    const page = parseVmRecords(ADMIN_VMS);
    expect(page.records.map((r) => [r.name, r.vapp, r.status, r.orgId])).toEqual([
      ['web-01', 'shop', 'POWERED_ON', ACME],
      ['web-01', 'Portal & Web', 'POWERED_OFF', GLOBEX],
      ['erp-02', 'erp', 'SUSPENDED', GLOBEX],
      ['half-made', 'shop', 'UNRESOLVED', ACME],
    ]);
  });

  it('the tenant form a real provider sent has no organisation: nothing is made up', () => {
    const page = parseVmRecords(fixture('vm-records-skyscape-api5.5.xml'));
    expect(page.records).toHaveLength(12);
    expect(page.records.every((r) => r.orgId === undefined && /^vm-[0-9a-f-]{36}$/.test(r.id))).toBe(true);
  });
});

describe('vmScope: the account decides, --tenant-org only narrows a provider', () => {
  it('System (any case) is a provider; another org a tenant', () => {
    expect(vmScope(provider, undefined)).toEqual({ provider: true });
    expect(vmScope({ ...provider, org: 'system' }, 'acme')).toEqual({ provider: true, tenantOrg: 'acme' });
    expect(vmScope(tenant, undefined)).toEqual({ provider: false });
  });
  it('--tenant-org with a tenant account, or empty, is a usage error', () => {
    expect(() => vmScope(tenant, 'globex')).toThrow(UsageError);
    expect(() => vmScope(tenant, 'globex')).toThrow(
      /needs a provider account: monitor@acme sees only its own organisation, drop --tenant-org, or log in as a System user/,
    );
    expect(() => vmScope(provider, ' ')).toThrow(/invalid --tenant-org/);
  });
  it('checkTenantOrg, as check_vdc calls it from its options: no org given is no provider', () => {
    expect(checkTenantOrg('System', 'ops@System', 'acme')).toBe('acme');
    expect(checkTenantOrg('acme', 'monitor@acme', undefined)).toBeUndefined();
    expect(() => checkTenantOrg(undefined, 'the account', 'acme')).toThrow(/needs a provider account: the account sees only its own organisation/);
    expect(() => checkTenantOrg('System', 'ops@System', 'x'.repeat(100_000))).toThrow(/^invalid --tenant-org "x{60}": give the name/);
  });
});

describe('listScopedVms: the queries each account makes', () => {
  it('a tenant: one type=vm query, as before, every VM of its own organisation', async () => {
    const { asked, get } = server({ vm: ok(fixture('vm-records-skyscape-api5.5.xml')) });
    const vms = await list(tenant, { provider: false }, get, { name: 'web-01' });
    expect(asked.map((u) => u.searchParams.get('type'))).toEqual(['vm']);
    expect(asked[0].searchParams.get('filter')).toBe('(name==web-01;isVAppTemplate==false)');
    expect(new Set(vms.map((v) => v.org))).toEqual(new Set(['acme']));
  });

  it('a provider: the organisations, then type=adminVM over all of them, each VM named with its organisation', async () => {
    const { asked, get } = server({ organization: ok(ORGS), adminVM: ok(ADMIN_VMS) });
    const vms = await list(provider, { provider: true }, get);
    expect(asked.map((u) => u.searchParams.get('type'))).toEqual(['organization', 'adminVM']);
    expect(asked[1].searchParams.get('filter')).toBe('(isVAppTemplate==false)');
    expect(vms.map((v) => `${v.org}/${v.name}`)).toEqual(['acme/web-01', 'Globex/web-01', 'Globex/erp-02', 'acme/half-made']);
  });

  it('--tenant-org: the organisation found ignoring case, its href in the adminVM filter; a server ignoring the filter widens nothing', async () => {
    const { asked, get } = server({ organization: ok(ORGS), adminVM: ok(ADMIN_VMS) });
    const vms = await list(provider, { provider: true, tenantOrg: 'globex' }, get);
    expect(asked[1].searchParams.get('filter')).toBe(`(org==${HOST}/api/org/${GLOBEX};isVAppTemplate==false)`);
    expect(vms.map((v) => `${v.org}/${v.name}`)).toEqual(['Globex/web-01', 'Globex/erp-02']);
  });

  it('an unknown --tenant-org is one UNKNOWN naming the organisations (not System), before any VM query', async () => {
    const { asked, get } = server({ organization: ok(ORGS), adminVM: ok(ADMIN_VMS) });
    await expect(list(provider, { provider: true, tenantOrg: 'umbrella' }, get)).rejects.toThrow(
      `no organisation named "umbrella" at ${HOST} (it has "acme", "Globex"), check --tenant-org: the organisation's name as in its tenant portal URL`,
    );
    expect(asked).toHaveLength(1);
  });

  it('a provider account refused the admin query is told which account and which rights', async () => {
    const forbidden: HttpResponse = {
      status: 403,
      headers: { 'content-type': 'application/vnd.vmware.vcloud.error+xml' },
      body: Buffer.from(
        '<Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="ACCESS_TO_RESOURCE_IS_FORBIDDEN" message="Access is forbidden" majorErrorCode="403"/>',
      ),
      url: new URL(`${HOST}/api/query`),
    };
    const { get } = server({ organization: ok(ORGS), adminVM: forbidden });
    const error = await list(provider, { provider: true }, get).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckError);
    expect((error as Error).message).toMatch(
      /refused to list VMs \(HTTP 403.*\), the System account needs a role that may view every organisation's VMs \(type=adminVM/,
    );
  });
});

describe('pickVmByName with a provider account', () => {
  const where = { account: 'sysmon@System', origin: HOST, provider: true };
  it('one name in two organisations names both and asks for --tenant-org', async () => {
    const { get } = server({ organization: ok(ORGS), adminVM: ok(ADMIN_VMS) });
    const vms = await list(provider, { provider: true }, get);
    expect(() => pickVmByName(vms, 'web-01', undefined, where)).toThrow(
      '2 VMs named "web-01" in 2 organisations: org "Globex" vApp "Portal & Web" (vm-3b5cbeda-c25e-4139-a079-92f6d5619db8), org "acme" vApp "shop" (vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70), add --tenant-org ORG, or give the VM id with --vm',
    );
    expect(pickVmByName(vms, 'erp-02', undefined, where)).toMatchObject({ name: 'erp-02', org: 'Globex' });
  });
});

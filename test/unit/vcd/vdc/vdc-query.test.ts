// The readers of check_vdc on query records: the real ones published (Skyscape's storage-policy
// and VM records, API 5.5/5.6) and records built from the vendor's API schema for 33-39
// (test/fixtures/vcd/query/README.md says which is which).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../../lib/http/request';
import {
  parseStoragePolicyRecords,
  parseVdcRecords,
  parseVdcVmRecords,
  queryVdcs,
  storagePolicyQueryPath,
  vdcIdOf,
  vdcQueryPath,
  vdcVmQueryPath,
} from '../../../../lib/vcd/vdc/vdc-query';
import { testConnection } from '../../../support/vcd-connection';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd/query', name), 'utf8');

describe('parseStoragePolicyRecords', () => {
  it('reads the real OrgVdcStorageProfileRecord Skyscape published (API 5.6)', () => {
    const page = parseStoragePolicyRecords(fixture('orgVdcStorageProfile-records-skyscape-api5.6.xml'));
    expect(page.total).toBe(1);
    expect(page.next).toBeUndefined();
    expect(page.records).toEqual([
      {
        id: '7a2e654b-84dd-4a09-813e-ef16c90f6907',
        name: 'BASIC-Any',
        vdc: 'https://api.vcd.portal.skyscapecloud.com/api/vdc/2f045f74-b487-4231-8c38-a95011b06b10',
        storageMb: { used: 65536, limit: 512000 },
        enabled: true,
        isDefault: true,
      },
    ]);
    expect(vdcIdOf(page.records[0].vdc)).toBe('2f045f74-b487-4231-8c38-a95011b06b10');
  });

  it('reads the admin form (API 39 schema): an unlimited (0) policy of another organisation', () => {
    const page = parseStoragePolicyRecords(fixture('adminOrgVdcStorageProfile-records-schema-api39.xml'));
    expect(page.records.map((p) => [p.name, p.storageMb, p.enabled, vdcIdOf(p.vdc)])).toEqual([
      ['Gold', { used: 970752, limit: 1048576 }, true, '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f'],
      ['Gold', { used: 4096, limit: 0 }, false, '6f708192-a3b4-4ec5-9f60-718293a4b5c6'],
    ]);
  });

  it('refuses a record without its VDC, or with a size that is no whole number', () => {
    const body = fixture('orgVdcStorageProfile-records-skyscape-api5.6.xml');
    expect(() => parseStoragePolicyRecords(body.replace(/ vdc="[^"]*"/, ''))).toThrow(
      /a OrgVdcStorageProfileRecord without a storage policy href, name or VDC href/,
    );
    expect(() => parseStoragePolicyRecords(body.replace('storageUsedMB="65536"', 'storageUsedMB="-1"'))).toThrow(
      /OrgVdcStorageProfileRecord "BASIC-Any": storageUsedMB is "-1", not a whole number/,
    );
  });

  it('a record without its limit or use: that figure unknown, named, the record kept', () => {
    const body = fixture('orgVdcStorageProfile-records-skyscape-api5.6.xml');
    const [first] = parseStoragePolicyRecords(body.replace('storageLimitMB="512000" ', '')).records;
    expect(first.name).toBe('BASIC-Any');
    expect(first.storageMb).toEqual({ used: 65536, unknown: 'OrgVdcStorageProfileRecord has no storageLimitMB' });
  });
});

describe('parseVdcRecords', () => {
  it('reads OrgVdcRecords of API 33 (no VM counts in that schema): limits of 0, disabled, not ready', () => {
    const page = parseVdcRecords(fixture('orgVdc-records-schema-api33.xml'));
    expect(page.records).toEqual([
      {
        id: '2f045f74-b487-4231-8c38-a95011b06b10',
        href: 'https://vcd.provider.example/api/vdc/2f045f74-b487-4231-8c38-a95011b06b10',
        name: 'DevOps Demo Env (IL2-TRIAL-BASIC)',
        org: 'acme',
        enabled: true,
        status: 'READY',
        busy: false,
        cpuMhz: { used: 8400, limit: 20000 },
        memoryMb: { used: 30720, limit: 65536 },
      },
      {
        id: '9b0c1d2e-3f40-4a51-8b62-7c83d94ea5f6',
        href: 'https://vcd.provider.example/api/vdc/9b0c1d2e-3f40-4a51-8b62-7c83d94ea5f6',
        name: 'pay as you go',
        org: 'acme',
        enabled: false,
        status: 'NOT_READY',
        busy: true,
        cpuMhz: { used: 2000, limit: 0 },
        memoryMb: { used: 2048, limit: 0 },
      },
    ]);
  });

  it('reads AdminVdcRecords of API 39 with their VM counts, paging on', () => {
    const page = parseVdcRecords(fixture('adminOrgVdc-records-schema-api39.xml'));
    expect(page.next).toBe('https://vcd.provider.example/api/query?type=adminOrgVdc&page=2&pageSize=2&format=records');
    expect(page.records.map((r) => [r.name, r.org, r.status, r.vms, r.runningVms])).toEqual([
      ['prod', 'acme', 'READY', 9, 7],
      ['prod', 'globex', 'FAILED_CREATION', 0, 0],
    ]);
  });

  it('names a status sent as vCD VdcStatus number, and reads prefixed XML', () => {
    const body = fixture('orgVdc-records-schema-api33.xml').replace('status="READY"', 'status="1"').replace('status="NOT_READY"', 'status="-1"');
    expect(parseVdcRecords(body).records.map((r) => r.status)).toEqual(['READY', 'FAILED_CREATION']);
    const prefixed = body.replace(/<(\/?)(QueryResultRecords|OrgVdcRecord|Link)\b/g, '<$1ns0:$2').replace('xmlns="', 'xmlns:ns0="');
    expect(parseVdcRecords(prefixed).records).toHaveLength(2);
  });

  it('a record without CPU or memory figures: each missing one unknown and named, the others read', () => {
    const body = fixture('orgVdc-records-schema-api33.xml')
      .replace('cpuUsedMhz="8400" ', '')
      .replace(/ memoryLimitMB="\d+"/, '');
    const [first, second] = parseVdcRecords(body, 'query response from https://x').records;
    expect(first.cpuMhz).toEqual({ limit: 20000, unknown: 'OrgVdcRecord has no cpuUsedMhz' });
    expect(first.memoryMb.unknown).toBe('OrgVdcRecord has no memoryLimitMB');
    expect(first.memoryMb.used).toBe(30720);
    expect(second.cpuMhz.unknown).toBeUndefined();
    const none = fixture('orgVdc-records-schema-api33.xml').replace(/ (cpu|memory)(Used|Limit)(Mhz|MB)="\d+"/g, '');
    expect(parseVdcRecords(none).records[0].memoryMb).toEqual({ unknown: 'OrgVdcRecord has no memoryUsedMB or memoryLimitMB' });
  });

  it('refuses a figure that is no whole number', () => {
    expect(() => parseVdcRecords(fixture('orgVdc-records-schema-api33.xml').replace('memoryUsedMB="30720"', 'memoryUsedMB="3e4"'))).toThrow(
      /memoryUsedMB is "3e4", not a whole number/,
    );
  });
});

describe('parseVdcVmRecords', () => {
  it('reads the real VMRecords Skyscape published (API 5.5) with their VDC', () => {
    const page = parseVdcVmRecords(fixture('vm-records-skyscape-api5.5.xml'));
    expect(page.records).toHaveLength(12);
    for (const vm of page.records) expect(vm.vdc).toMatch(/^https:\/\/api\.vcd\.portal\.skyscapecloud\.com\/api\/vdc\/[0-9a-f-]{36}$/);
    expect(new Set(page.records.map((v) => v.status))).toEqual(new Set(['POWERED_ON', 'POWERED_OFF']));
  });

  it('reads AdminVMRecords of API 39, failed and quarantined ones too', () => {
    const page = parseVdcVmRecords(fixture('adminVM-records-schema-api39.xml'));
    expect(page.records.map((v) => [v.name, v.status, vdcIdOf(v.vdc)])).toEqual([
      ['web-01', 'POWERED_ON', '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f'],
      ['db-restore', 'INCONSISTENT_STATE', '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f'],
      ['p2v-import', 'QUARANTINED', '6f708192-a3b4-4ec5-9f60-718293a4b5c6'],
    ]);
  });
});

describe('query paths', () => {
  it('use the admin types for a provider account, filters made inert', () => {
    expect(vdcQueryPath({ admin: false }, {})).toBe('/api/query?type=orgVdc&format=records&pageSize=128&sortAsc=name');
    expect(decodeURIComponent(vdcQueryPath({ admin: true }, { name: 'a;b', org: 'acme' }))).toBe(
      '/api/query?type=adminOrgVdc&format=records&filter=(name==a*b;orgName==acme)&pageSize=128&sortAsc=name',
    );
    const href = 'https://vcd.example.com/api/vdc/7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
    expect(decodeURIComponent(storagePolicyQueryPath({ admin: true }, href))).toBe(
      `/api/query?type=adminOrgVdcStorageProfile&format=records&filter=(vdc==${href})&pageSize=128&sortAsc=name`,
    );
    expect(decodeURIComponent(vdcVmQueryPath({ admin: false }, href))).toBe(
      `/api/query?type=vm&format=records&filter=(vdc==${href};isVAppTemplate==false)&pageSize=128&sortAsc=name`,
    );
    expect(vdcVmQueryPath({ admin: true })).toBe(
      `/api/query?type=adminVM&format=records&filter=${encodeURIComponent('(isVAppTemplate==false)')}&pageSize=128&sortAsc=name`,
    );
  });
});

describe('queryVdcs: paged and bounded', () => {
  const HOST = 'https://vcd.provider.example';
  const answer = (body: string): HttpResponse => ({ status: 200, headers: {}, body: Buffer.from(body), url: new URL(`${HOST}/api/query`) });

  it('follows nextPage to the end', async () => {
    const first = fixture('adminOrgVdc-records-schema-api39.xml');
    const second = fixture('orgVdc-records-schema-api33.xml').replace(/<Link [^>]*>/g, '');
    const asked: string[] = [];
    const records = await queryVdcs(
      testConnection(HOST),
      async (p) => (asked.push(p), answer(asked.length === 1 ? first : second)),
      vdcQueryPath({ admin: true }, {}),
    );
    expect(records.map((r) => r.org)).toEqual(['acme', 'globex', 'acme', 'acme']);
    expect(asked[1]).toBe('/api/query?type=adminOrgVdc&page=2&pageSize=2&format=records');
  });

  it('a 403 names the right the account lacks', async () => {
    const refused: HttpResponse = { status: 403, headers: {}, body: Buffer.from(''), url: new URL(`${HOST}/api/query`) };
    await expect(queryVdcs(testConnection(HOST), async () => refused, vdcQueryPath({ admin: false }, {}))).rejects.toThrow(
      /refused to list VDCs \(HTTP 403\), the account needs the right to view its organisation's VDCs/,
    );
  });
});

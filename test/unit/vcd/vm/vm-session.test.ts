// The per-VM seam: withVm hands a check the VM, reads with the session, its record and the
// deadline; reads an answer calls for (the VM's record) run before a --no-cache logout.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { fetchMetrics } from '../../../support/fetch-metrics';
import type { VcdConnection } from '../../../../lib/vcd/api/connection';
import { nameKey } from '../../../../lib/vcd/api/fleet-cache';
import { cacheKey, SessionCache } from '../../../../lib/vcd/api/session-cache';
import { parseVmTarget } from '../../../../lib/vcd/vm/vm-id';
import { parseVmRecord } from '../../../../lib/vcd/vm/vm-record';
import { withVm } from '../../../../lib/vcd/vm/vm-session';
import { useNockBoundary } from '../../../support/nock-boundary';
import { testConnection } from '../../../support/vcd-connection';

const HOST = 'https://vcd.example.com';
const VM = 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e';
const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd', name), 'utf8');
const conn: VcdConnection = testConnection(HOST);

useNockBoundary();

describe('fetchMetrics follow', () => {
  it('reads the VM record with the same session after a refusal, before logging out', async () => {
    const order: string[] = [];
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok-1' })
      .get(`/api/vApp/${VM}/metrics/current`)
      .reply(400, () => (order.push('metrics'), fixture('error-powered-off.xml')))
      .get(`/api/vApp/${VM}`)
      .matchHeader('authorization', 'Bearer tok-1')
      .matchHeader('accept', 'application/*+xml;version=34.0')
      .reply(200, () => (order.push('record'), fixture('vm-powered-off.xml')))
      .delete('/cloudapi/1.0.0/sessions/current')
      .reply(204, () => (order.push('logout'), ''));
    let status: string | undefined;
    const r = await fetchMetrics({
      conn,
      creds: { kind: 'password', user: 'monitor', org: 'acme', password: 'x-secret-1' },
      vm: { kind: 'id', id: VM },
      forcedVersion: '34.0',
      which: 'current',
      deadline: Date.now() + 10_000,
      log: () => undefined,
      follow: async (response, get) => {
        expect(response).toMatchObject({ kind: 'refused', detail: expect.stringMatching(/^HTTP 400: .*is not running\. \(BAD_REQUEST\)$/) });
        const res = await get(`/api/vApp/${VM}`, 'reading the record');
        status = parseVmRecord(res.body.toString('utf8')).statusName;
      },
    });
    expect(r.kind).toBe('refused');
    expect(status).toBe('POWERED_OFF');
    expect(order).toEqual(['metrics', 'record', 'logout']);
  });

  it('an error in follow still logs out, and reaches the caller', async () => {
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok-2' })
      .get(`/api/vApp/${VM}/metrics/current`)
      .reply(200, fixture('current-usage.xml'))
      .delete('/cloudapi/1.0.0/sessions/current')
      .reply(204);
    const req = {
      conn,
      creds: { kind: 'password' as const, user: 'monitor', org: 'acme', password: 'x-secret-2' },
      vm: { kind: 'id' as const, id: VM },
      forcedVersion: '34.0',
      which: 'current' as const,
      deadline: Date.now() + 10_000,
      log: () => undefined,
    };
    await expect(fetchMetrics({ ...req, follow: async () => Promise.reject(new Error('judged badly')) })).rejects.toThrow('judged badly');
  });
});

describe('withVm', () => {
  const creds = { kind: 'password' as const, user: 'monitor', org: 'acme', password: 'x-secret-3' };
  const session = { conn, creds, forcedVersion: '34.0', deadline: Date.now() + 10_000, log: () => undefined };

  it('gives a check the VM of a console URL, any document of it, its record (read once) and the deadline', async () => {
    const order: string[] = [];
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok-3' })
      .get(`/api/vApp/${VM}/snapshotSection`)
      .matchHeader('authorization', 'Bearer tok-3')
      .reply(200, () => (order.push('section'), '<SnapshotSection xmlns="http://www.vmware.com/vcloud/v1.5"/>'))
      .get(`/api/vApp/${VM}`)
      .once()
      .reply(200, () => (order.push('record'), fixture('vm-powered-off.xml')))
      .delete('/cloudapi/1.0.0/sessions/current')
      .reply(204, () => (order.push('logout'), ''));
    const target = parseVmTarget(`${HOST}/tenant/acme/vdcs/x/vm/${VM}/general`);
    const seen = await withVm(session, { target }, async ({ vm, get, record, deadline }) => {
      const section = await get(`/api/vApp/${vm.id}/snapshotSection`, `reading the snapshots of ${vm.id}`);
      const [a, b] = await Promise.all([record(), record()]);
      return { id: vm.id, status: section.status, power: a.statusName, same: a === b, deadline };
    });
    expect(seen).toEqual({ id: VM, status: 200, power: 'POWERED_OFF', same: true, deadline: session.deadline });
    expect(order).toEqual(['section', 'record', 'logout']);
  });

  it('a name kept in the cache whose id now answers 404 is resolved again, and the check reads the new VM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-withvm-'));
    const cache = new SessionCache(dir, cacheKey(new URL(HOST), creds), 10_000);
    const gone = 'vm-00000000-0000-4000-8000-000000000001';
    cache.fleet.update((r) => {
      r.names = { [nameKey('web-01', undefined)]: { id: gone, name: 'web-01', vapp: 'shop & co', time: Date.now() } };
    });
    nock(HOST)
      .post('/cloudapi/1.0.0/sessions')
      .reply(200, '{}', { 'x-vmware-vcloud-access-token': 'tok-4' })
      .get(`/api/vApp/${gone}/snapshotSection`)
      .reply(404, fixture('error-forbidden.xml'))
      .get(/^\/api\/query\?type=vm/)
      .reply(
        200,
        `<QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" total="1"><VMRecord name="web-01" containerName="shop &amp; co" status="POWERED_ON" isVAppTemplate="false" href="${HOST}/api/vApp/vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70"/></QueryResultRecords>`,
      )
      .get('/api/vApp/vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70/snapshotSection')
      .reply(200, '<SnapshotSection xmlns="http://www.vmware.com/vcloud/v1.5"/>');
    const log: string[] = [];
    const reads: string[] = [];
    const answer = await withVm(
      { ...session, cache, fleet: cache.fleet, log: (m: string) => log.push(m) },
      { target: { kind: 'name', name: 'web-01' } },
      async ({ vm, get }) => {
        reads.push(vm.id);
        const res = await get(`/api/vApp/${vm.id}/snapshotSection`, 'reading the snapshots');
        return `${vm.name} ${vm.id} ${res.status}`;
      },
    );
    expect(answer).toBe('web-01 vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 200');
    expect(reads).toEqual([gone, 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70']);
    expect(log.some((l) => l.startsWith(`${gone} answered HTTP 404: resolving "web-01" again`))).toBe(true);
  });
});

// fetchMetrics' follow hook: the reads an answer calls for (the VM's record) run with the
// check's session, before a --no-cache logout closes it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { fetchMetrics } from '../../../../lib/vcd/api/client';
import type { VcdConnection } from '../../../../lib/vcd/api/connection';
import { parseVmRecord } from '../../../../lib/vcd/vm/vm-record';
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

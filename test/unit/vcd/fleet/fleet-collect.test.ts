import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { CheckError } from '../../../../lib/plugin/errors';
import { collectFleet, isOperationLimit, MAX_ATTEMPTS, type FleetAnswer, type FleetRequest } from '../../../../lib/vcd/fleet/fleet-collect';
import type { Credentials } from '../../../../lib/vcd/api/login';
import { useNockBoundary } from '../../../support/nock-boundary';
import { testConnection } from '../../../support/vcd-connection';

const HOST = 'https://vcd.example.com';
const creds: Credentials = { kind: 'password', user: 'monitor', org: 'acme', password: 'Tr1cky:p@ss' };
const CURRENT = readFileSync(join(__dirname, '../../../fixtures/vcd/current-usage.xml'), 'utf8');
const LIMITS =
  '<?xml version="1.0" encoding="UTF-8"?><Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="OPERATION_LIMITS_EXCEEDED" message="[ c5dfea46-f54f-42d0-95ba-77627424ace0 ] The maximum number of simultaneous operations for user &quot;monitor&quot; on organization &quot;acme&quot; has been reached." majorErrorCode="400"/>';

const id = (n: number) => `vm-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** One page of the query service with VMs 1..n (web-1 ...) in vApp shop, and a template VM. */
function page(n: number): string {
  const rows = Array.from(
    { length: n },
    (_, i) => `<VMRecord name="web-${i + 1}" containerName="shop" status="POWERED_ON" isVAppTemplate="false" href="${HOST}/api/vApp/${id(i + 1)}"/>`,
  );
  rows.push(`<VMRecord name="golden" containerName="templates" status="POWERED_OFF" isVAppTemplate="true" href="${HOST}/api/vAppTemplate/${id(999)}"/>`);
  return `<?xml version="1.0"?><QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" total="${n + 1}">${rows.join('')}</QueryResultRecords>`;
}

function login() {
  return nock(HOST)
    .post('/cloudapi/1.0.0/sessions')
    .reply(200, '{}', { 'X-VMWARE-VCLOUD-ACCESS-TOKEN': 'jwt-1' })
    .delete('/cloudapi/1.0.0/sessions/current')
    .reply(204);
}

/** A session, and the VM list answered with one page of `vms` VMs. */
function listed(vms: number): void {
  login();
  nock(HOST)
    .get(/^\/api\/query/)
    .reply(200, page(vms));
}

function request(overrides: Partial<FleetRequest<string>> = {}): FleetRequest<string> {
  return {
    conn: testConnection(HOST),
    creds,
    forcedVersion: '34.0',
    deadline: Date.now() + 10_000,
    cutoff: Date.now() + 8_000,
    log: () => undefined,
    selection: {},
    which: 'current',
    concurrency: 4,
    inFlightBytes: 64 * 1024 * 1024,
    deliver: () => undefined,
    unread: (_vm, why) => `unread ${why}`,
    judge: async (vm, answer: FleetAnswer) => `${vm.name}:${answer instanceof CheckError ? `error ${answer.message}` : answer.kind}`,
    ...overrides,
  };
}

/**
 * collectFleet with what it delivers gathered: each judged VM's result and each unread VM's
 * cause by id, and the names in the order delivered.
 */
async function collect(req: FleetRequest<string>) {
  const judged = new Map<string, string>();
  const unread = new Map<string, string>();
  const names: string[] = [];
  const collection = await collectFleet({
    ...req,
    unread: (_vm, why) => `unread:${why}`,
    deliver: (result, vm) => {
      names.push(vm.name);
      if (result.startsWith('unread:')) unread.set(vm.id, result.slice('unread:'.length));
      else judged.set(vm.id, result);
    },
  });
  expect(collection.judged).toBe(judged.size);
  expect(collection.unread).toBe(unread.size);
  return { ...collection, judged, unread, names };
}

useNockBoundary();

describe('collectFleet', () => {
  it('one login, the list, then one metrics request per selected VM, never more than --concurrency under way', async () => {
    login();
    nock(HOST)
      .get(/^\/api\/query\?type=vm/)
      .reply(200, page(10));
    let underWay = 0;
    let most = 0;
    nock(HOST)
      .get(/^\/api\/vApp\/vm-[0-9a-f-]+\/metrics\/current$/)
      .times(9)
      .delay(20)
      .reply(() => {
        underWay--;
        return [200, CURRENT];
      });
    const result = await collect(
      request({
        concurrency: 3,
        selection: { exclude: /^web-10$/ },
        conn: testConnection(HOST, { setPhase: (p) => p.startsWith('reading current') && (underWay++, (most = Math.max(most, underWay))) }),
      }),
    );
    expect([...result.names].sort()).toEqual(['web-1', 'web-2', 'web-3', 'web-4', 'web-5', 'web-6', 'web-7', 'web-8', 'web-9']);
    expect([...result.judged.values()].every((j) => j.endsWith(':document'))).toBe(true);
    expect(result.unread.size).toBe(0);
    expect(result.records).toBe(11);
    expect(most).toBeLessThanOrEqual(3);
  });

  it('OPERATION_LIMITS_EXCEEDED: fewer at a time, the VM asked again and judged on its document', async () => {
    listed(4);
    nock(HOST)
      .get(`/api/vApp/${id(1)}/metrics/current`)
      .reply(400, LIMITS)
      .get(`/api/vApp/${id(1)}/metrics/current`)
      .reply(200, CURRENT);
    for (const n of [2, 3, 4])
      nock(HOST)
        .get(`/api/vApp/${id(n)}/metrics/current`)
        .reply(200, CURRENT);
    const result = await collect(request());
    expect(result.judged.get(id(1))).toBe('web-1:document');
    expect(result.limited).toBe(1);
    expect(result.lowestConcurrency).toBeLessThan(4);
    expect(result.judged.size).toBe(4);
  });

  it(`a VM refused ${MAX_ATTEMPTS} times is judged on the refusal, as the single check would judge it`, async () => {
    listed(1);
    nock(HOST)
      .get(`/api/vApp/${id(1)}/metrics/current`)
      .times(MAX_ATTEMPTS)
      .reply(400, LIMITS);
    const answers: Array<FleetAnswer | undefined> = [];
    const result = await collect(request({ judge: async (_vm, answer) => (answers.push(answer), 'judged') }));
    expect(result.judged.get(id(1))).toBe('judged');
    expect(result.limited).toBe(MAX_ATTEMPTS - 1);
    expect(answers).toEqual([
      { kind: 'refused', detail: expect.stringMatching(/^HTTP 400: The maximum number of simultaneous operations .* \(OPERATION_LIMITS_EXCEEDED\)$/) },
    ]);
  });

  it('an HTTP failure of one VM is its answer (a CheckError in the single check words), not the collection failing', async () => {
    listed(2);
    nock(HOST)
      .get(`/api/vApp/${id(1)}/metrics/current`)
      .reply(503)
      .get(`/api/vApp/${id(2)}/metrics/current`)
      .reply(200, CURRENT);
    const result = await collect(request());
    expect(result.judged.get(id(1))).toBe(
      `web-1:error ${HOST}/api/vApp/${id(1)}/metrics/current answered HTTP 503, the vCD cells may be overloaded or down, retry later`,
    );
    expect(result.judged.get(id(2))).toBe('web-2:document');
  });

  it('at the cut-off the requests under way stop: the VMs read are kept, the others are unread', async () => {
    listed(3);
    nock(HOST)
      .get(`/api/vApp/${id(1)}/metrics/current`)
      .reply(200, CURRENT);
    nock(HOST)
      .get(`/api/vApp/${id(2)}/metrics/current`)
      .delay(5000)
      .reply(200, CURRENT);
    const started = Date.now();
    const result = await collect(request({ concurrency: 1, cutoff: Date.now() + 300 }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.judged.get(id(1))).toBe('web-1:document');
    expect(result.unread).toEqual(
      new Map([
        [id(2), 'not read within -t'],
        [id(3), 'not read within -t'],
      ]),
    );
    nock.abortPendingRequests();
  });

  it('a document over its share of --max-bytes-in-flight is refused for its VM only, named with the fix', async () => {
    listed(2);
    nock(HOST)
      .get(`/api/vApp/${id(1)}/metrics/current`)
      .reply(200, CURRENT + ' '.repeat(5000))
      .get(`/api/vApp/${id(2)}/metrics/current`)
      .reply(200, CURRENT);
    const share = Buffer.byteLength(CURRENT) + 1000;
    const result = await collect(request({ concurrency: 4, inFlightBytes: 4 * share }));
    expect(result.unread.get(id(1))).toBe(
      `metrics document larger than ${share} bytes, its share of --max-bytes-in-flight ${4 * share} at --concurrency 4; raise --max-bytes-in-flight (or lower --concurrency) if the server is right to send that much`,
    );
    expect(result.judged.get(id(2))).toBe('web-2:document');
  });

  it('a list the server refuses fails the collection as the VM checks fail', async () => {
    login();
    nock(HOST)
      .get(/^\/api\/query/)
      .reply(403);
    await expect(collectFleet(request())).rejects.toThrow(/the query service of https:\/\/vcd\.example\.com refused to list VMs \(HTTP 403\)/);
  });
});

describe('isOperationLimit', () => {
  const res = (status: number, body: string) => ({ status, headers: {}, body: Buffer.from(body), url: new URL(HOST) });
  it("is vCD's HTTP 400 with minorErrorCode OPERATION_LIMITS_EXCEEDED, nothing else", () => {
    expect(isOperationLimit(res(400, LIMITS))).toBe(true);
    expect(isOperationLimit(res(503, LIMITS))).toBe(false);
    expect(isOperationLimit(res(400, LIMITS.replace('OPERATION_LIMITS_EXCEEDED', 'BAD_REQUEST')))).toBe(false);
    expect(isOperationLimit(res(400, ''))).toBe(false);
  });
});

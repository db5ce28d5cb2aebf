import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { Credentials } from '../../../../lib/vcd/api/login';
import type { FleetCache, FleetRecord } from '../../../../lib/vcd/api/fleet-cache';
import { withVcdSession, type SessionRequest } from '../../../../lib/vcd/api/session';
import { collectFleet } from '../../../../lib/vcd/fleet/fleet-collect';
import { metricsAnswer, requestMetrics, type MetricsAsk } from '../../../../lib/vcd/vm/vm-metrics';
import { useNockBoundary } from '../../../support/nock-boundary';
import { testConnection } from '../../../support/vcd-connection';

const HOST = 'https://vcd.example.com';
const VM = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
const creds: Credentials = { kind: 'password', user: 'monitor', org: 'acme', password: 'Tr1cky:p@ss' };
const NOW = Date.parse('2026-11-26T12:00:00Z');
const DATE = { date: new Date(NOW).toUTCString() };
const NS = 'http://www.vmware.com/vcloud/v1.5';
const HISTORIC_TYPE = 'application/vnd.vmware.vcloud.metrics.historicUsageSpec+xml';
const CURRENT_TYPE = 'application/vnd.vmware.vcloud.metrics.currentUsageSpec+xml';

const CPU_15M: MetricsAsk = { which: 'historic', window: 900, reads: ['cpu.usage.average', 'cpu.usage.maximum'], needs: ['cpu.usage.average'] };
const MEM_CURRENT: MetricsAsk = { which: 'current', reads: ['mem.usage.average'], needs: ['mem.usage.average'] };

/** A HistoricUsage of cpu.usage.average whose samples, every 5 minutes, end `stoppedMinutesAgo` before NOW. */
function history(stoppedMinutesAgo: number, samples = 4): string {
  const rows = Array.from({ length: samples }, (_, i) => {
    const t = NOW - (stoppedMinutesAgo + 5 * (samples - 1 - i)) * 60_000 - 20_000;
    return `<Sample timestamp="${new Date(t).toISOString()}" value="${20 + i}"/>`;
  });
  return `<?xml version="1.0"?><HistoricUsage xmlns="${NS}"><MetricSeries name="cpu.usage.average" unit="PERCENT" expectedInterval="300">${rows.join('')}</MetricSeries></HistoricUsage>`;
}
const CURRENT = `<?xml version="1.0"?><CurrentUsage xmlns="${NS}"><Metric name="mem.usage.average" unit="PERCENT" value="41.5"/></CurrentUsage>`;
const error = (status: number, minor: string) =>
  `<?xml version="1.0"?><Error xmlns="${NS}" minorErrorCode="${minor}" message="simulated ${status}" majorErrorCode="${status}"/>`;

/** A fleet cache kept in memory: what the session's cache file would hold. */
function memoryFleet(start: FleetRecord = {}): { cache: FleetCache; kept: FleetRecord } {
  const kept = start;
  return { kept, cache: { read: () => kept, update: (change: (r: FleetRecord) => void) => change(kept), file: '(memory)' } as unknown as FleetCache };
}

function request(fleet?: FleetCache): SessionRequest {
  return { conn: testConnection(HOST), creds, forcedVersion: '34.0', deadline: Date.now() + 10_000, log: () => undefined, ...(fleet ? { fleet } : {}) };
}

function login() {
  return nock(HOST)
    .post('/cloudapi/1.0.0/sessions')
    .reply(200, '{}', { 'X-VMWARE-VCLOUD-ACCESS-TOKEN': 'jwt-1' })
    .delete('/cloudapi/1.0.0/sessions/current')
    .reply(204);
}

/** requestMetrics for each VM in turn, in one session. */
function read(req: SessionRequest, ask: MetricsAsk, vms = [VM]) {
  return withVcdSession(req, async (_get, session) => {
    const out = [];
    for (const vm of vms) out.push(await requestMetrics(req, session, vm, ask.which, ask));
    return out;
  });
}

const spec = (body: string) => body.replace(/^<\?xml[^>]*\?>/, '');

useNockBoundary();

describe('requestMetrics', () => {
  it('posts a HistoricUsageSpec for the window and the metrics read, with its media type: one request when the window holds fresh samples', async () => {
    login();
    let posted = '';
    nock(HOST, { reqheaders: { 'content-type': HISTORIC_TYPE, accept: 'application/*+xml;version=34.0' } })
      .post(`/api/vApp/${VM}/metrics/historic`, (body: string) => ((posted = body), true))
      .reply(200, history(0), DATE);
    const [res] = await read(request(), CPU_15M);
    expect(res.status).toBe(200);
    expect(spec(posted)).toBe(
      `<HistoricUsageSpec xmlns="${NS}"><RelativeStartTime interval="35" unit="minute"/><MetricPattern>cpu.usage.average</MetricPattern><MetricPattern>cpu.usage.maximum</MetricPattern></HistoricUsageSpec>`,
    );
  });

  it('asks for the whole day when a judged series stopped in the window (a powered-off VM is judged on its last window)', async () => {
    login();
    const bodies: string[] = [];
    nock(HOST)
      .post(`/api/vApp/${VM}/metrics/historic`, (body: string) => (bodies.push(body), true))
      .times(2)
      .reply(200, (_uri, body) => (String(body).includes('unit="hour"') ? history(120, 12) : history(120, 0)), DATE);
    const [res] = await read(request(), CPU_15M);
    expect(bodies.map((b) => /<RelativeStartTime[^>]*>/.exec(b)?.[0])).toEqual([
      '<RelativeStartTime interval="35" unit="minute"/>',
      '<RelativeStartTime interval="24" unit="hour"/>',
    ]);
    expect(res.body.toString()).toBe(history(120, 12));
  });

  it('asks again for a span of two samples when a judged series has one in the window (a window shorter than its interval), not for the day', async () => {
    login();
    const bodies: string[] = [];
    const disk = (samples: number) =>
      `<?xml version="1.0"?><HistoricUsage xmlns="${NS}"><MetricSeries name="disk.used.latest" unit="KILOBYTE" expectedInterval="1800">${Array.from(
        { length: samples },
        (_, i) => `<Sample timestamp="${new Date(NOW - (samples - 1 - i) * 1800_000 - 60_000).toISOString()}" value="${1000 + i}"/>`,
      ).join('')}</MetricSeries></HistoricUsage>`;
    nock(HOST)
      .post(`/api/vApp/${VM}/metrics/historic`, (body: string) => (bodies.push(body), true))
      .times(2)
      .reply(200, (_uri, body) => disk(String(body).includes('interval="65"') ? 2 : 1), DATE);
    const ask: MetricsAsk = { which: 'historic', window: 900, reads: ['disk.used.latest'], needs: ['disk.used.latest'] };
    await read(request(), ask);
    expect(bodies.map((b) => /<RelativeStartTime[^>]*>/.exec(b)?.[0])).toEqual([
      '<RelativeStartTime interval="35" unit="minute"/>',
      '<RelativeStartTime interval="65" unit="minute"/>',
    ]);
  });

  it('posts a CurrentUsageSpec for current values', async () => {
    login();
    let posted = '';
    nock(HOST, { reqheaders: { 'content-type': CURRENT_TYPE } })
      .post(`/api/vApp/${VM}/metrics/current`, (body: string) => ((posted = body), true))
      .reply(200, CURRENT);
    await read(request(), MEM_CURRENT);
    expect(spec(posted)).toBe(`<CurrentUsageSpec xmlns="${NS}"><MetricPattern>mem.usage.average</MetricPattern></CurrentUsageSpec>`);
  });

  it.each([400, 404, 405, 406, 415, 501])(
    'HTTP %i to the spec and a GET that succeeds: the spec is refused, the rest of the run and the session cache read by GET',
    async (status) => {
      login();
      const other = 'vm-00000000-0000-4000-8000-000000000002';
      nock(HOST).post(`/api/vApp/${VM}/metrics/historic`).reply(status, error(status, 'BAD_REQUEST'));
      nock(HOST).get(`/api/vApp/${VM}/metrics/historic`).reply(200, history(0), DATE);
      nock(HOST).get(`/api/vApp/${other}/metrics/historic`).reply(200, history(0), DATE);
      const fleet = memoryFleet();
      const answers = await read(request(fleet.cache), CPU_15M, [VM, other]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(fleet.kept.metricsSpec?.refused).toMatch(new RegExp(`^POST /api/vApp/${VM}/metrics/historic answered HTTP ${status}`));
      // The next run reads the cache: GET only.
      login();
      nock(HOST).get(`/api/vApp/${VM}/metrics/historic`).reply(200, history(0), DATE);
      expect((await read(request(fleet.cache), CPU_15M)).map((r) => r.status)).toEqual([200]);
    },
  );

  it('a refusal remembered more than 24 h ago is tried again', async () => {
    login();
    nock(HOST).post(`/api/vApp/${VM}/metrics/historic`).reply(200, history(0), DATE);
    const fleet = memoryFleet({ metricsSpec: { refused: 'HTTP 405', time: Date.now() - 25 * 3600_000 } });
    expect((await read(request(fleet.cache), CPU_15M)).map((r) => r.status)).toEqual([200]);
  });

  it('HTTP 400 to the spec of current metrics and to the GET (a powered-off VM): the refusal of current metrics, the spec not refused', async () => {
    login();
    const other = 'vm-00000000-0000-4000-8000-000000000002';
    nock(HOST).post(`/api/vApp/${VM}/metrics/current`).reply(400, error(400, 'BAD_REQUEST'));
    nock(HOST).get(`/api/vApp/${VM}/metrics/current`).reply(400, error(400, 'BAD_REQUEST'));
    nock(HOST).post(`/api/vApp/${other}/metrics/current`).reply(200, CURRENT);
    const fleet = memoryFleet();
    const req = request(fleet.cache);
    const [off, on] = await read(req, MEM_CURRENT, [VM, other]);
    expect(metricsAnswer(req, { id: VM }, 'current', off)).toEqual({ kind: 'refused', detail: 'HTTP 400: simulated 400 (BAD_REQUEST)' });
    expect(on.status).toBe(200);
    expect(fleet.kept.metricsSpec).toBeUndefined();
  });

  it("once the server took a spec in the run, its HTTP 400 to another is the VM's (powered off): no GET", async () => {
    login();
    const off = 'vm-00000000-0000-4000-8000-000000000002';
    nock(HOST).post(`/api/vApp/${VM}/metrics/current`).reply(200, CURRENT);
    nock(HOST).post(`/api/vApp/${off}/metrics/current`).reply(400, error(400, 'BAD_REQUEST'));
    const req = request();
    const [, refused] = await read(req, MEM_CURRENT, [VM, off]);
    expect(metricsAnswer(req, { id: off }, 'current', refused)).toEqual({ kind: 'refused', detail: 'HTTP 400: simulated 400 (BAD_REQUEST)' });
  });

  it.each([401, 403, 500, 503])('HTTP %i to the spec is the answer (rights, the cells), no GET', async (status) => {
    login();
    nock(HOST).post(`/api/vApp/${VM}/metrics/historic`).reply(status, error(status, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN'));
    const [res] = await read(request(), CPU_15M);
    expect(res.status).toBe(status);
  });

  it('OPERATION_LIMITS_EXCEEDED to the spec is the answer (the fleet asks again later), no GET', async () => {
    login();
    nock(HOST).post(`/api/vApp/${VM}/metrics/current`).reply(400, error(400, 'OPERATION_LIMITS_EXCEEDED'));
    const [res] = await read(request(), MEM_CURRENT);
    expect(res.status).toBe(400);
  });

  it('without an ask (or a POST), the whole document by GET as before', async () => {
    login();
    nock(HOST).get(`/api/vApp/${VM}/metrics/historic`).reply(200, history(0), DATE);
    const req = request();
    const [res] = await withVcdSession(req, async (_get, session) => [await requestMetrics(req, session, VM, 'historic')]);
    expect(res.status).toBe(200);
  });
});

describe('the fleet and a server that refuses the spec', () => {
  const id = (n: number) => `vm-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const page = (n: number) =>
    `<?xml version="1.0"?><QueryResultRecords xmlns="${NS}" total="${n}">${Array.from(
      { length: n },
      (_, i) => `<VMRecord name="web-${i + 1}" containerName="shop" status="POWERED_ON" isVAppTemplate="false" href="${HOST}/api/vApp/${id(i + 1)}"/>`,
    ).join('')}</QueryResultRecords>`;

  it('sends one spec, not --concurrency of them, then reads every VM by GET', async () => {
    login();
    nock(HOST)
      .get(/^\/api\/query\?type=vm/)
      .reply(200, page(12));
    const posts = nock(HOST)
      .post(/^\/api\/vApp\/vm-[0-9a-f-]+\/metrics\/historic$/)
      .delay(30)
      .reply(405, error(405, 'BAD_REQUEST'));
    nock(HOST)
      .get(/^\/api\/vApp\/vm-[0-9a-f-]+\/metrics\/historic$/)
      .times(12)
      .reply(200, history(0), DATE);
    const judged: string[] = [];
    const result = await collectFleet<string>({
      ...request(),
      cutoff: Date.now() + 8000,
      selection: {},
      which: 'historic',
      ask: CPU_15M,
      concurrency: 4,
      inFlightBytes: 64 * 1024 * 1024,
      judge: async (vm, answer) => `${vm.name}:${answer instanceof Error ? answer.message : answer?.kind}`,
      deliver: (j) => void judged.push(j),
      unread: (vm, why) => `${vm.name}:unread ${why}`,
    });
    expect(posts.isDone()).toBe(true);
    expect(judged.every((j) => j.endsWith(':document'))).toBe(true);
    expect(result.judged).toBe(12);
    expect(judged).toHaveLength(12);
  });
});

// Passive results to the Icinga 2 REST API, against a real HTTPS server on 127.0.0.1 with the
// simulator's test CA: the request body, authentication, keep-alive and bounded parallelism,
// and every failure as a CheckError naming cause and fix, never with the password.
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIM_CA_PEM, SIM_SERVER_CERTS, SIM_SERVER_KEY_PEM } from '../../../sim/tls-material';
import { CheckError } from '../../../lib/plugin/errors';
import { State } from '../../../lib/plugin/state';
import { submitToIcinga, type IcingaTarget } from '../../../lib/submit/icinga2';
import type { PassiveResult } from '../../../lib/submit/passive-result';

interface Seen {
  auth?: string;
  body: Record<string, unknown>;
  port: number;
}

let server: https.Server;
let base: URL;
const seen: Seen[] = [];
let inFlight = 0;
let maxInFlight = 0;
/** How the server answers the next requests: status and body. */
let answer: (body: Record<string, unknown>) => { status: number; body: string } | 'hang';

beforeAll(async () => {
  server = https.createServer({ key: SIM_SERVER_KEY_PEM, cert: SIM_SERVER_CERTS.valid }, (req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      seen.push({ auth: req.headers.authorization, body, port: req.socket.remotePort ?? 0 });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const a = answer(body);
      if (a === 'hang') return;
      setTimeout(() => {
        inFlight--;
        res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
      }, 5);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterEach(() => {
  seen.length = 0;
  inFlight = 0;
  maxInFlight = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const PASSWORD = 's3cret-Pa55';
const target = (over: Partial<IcingaTarget> = {}): IcingaTarget => ({
  url: base,
  user: 'cloudchecks-submit',
  password: PASSWORD,
  tls: { ca: SIM_CA_PEM, caOnly: true, caSource: '--icinga2-ca-file' },
  checkSource: 'monitor-1',
  ...over,
});
const ok = () => ({ status: 200, body: JSON.stringify({ results: [{ code: 200, status: 'Successfully processed check result.' }] }) });

function results(n: number): PassiveResult[] {
  return Array.from({ length: n }, (_, i) => ({
    host: `vm-${String(i).padStart(8, '0')}-aaaa-bbbb-cccc-000000000000`,
    service: ['vm-cpu', 'vm-memory', 'vm-disk'][i % 3],
    state: State.WARNING,
    output: `VM_CPU WARNING - cpu usage 83.2% on web-${i}`,
    perfdata: ['cpu_usage=83.2%;80;90;0;100', "'cpu mhz'=262;;;0"],
    longOutput: [`long line ${i}`],
  }));
}

async function failure(promise: Promise<unknown>): Promise<CheckError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CheckError);
  expect((error as Error).message).not.toContain(PASSWORD);
  return error as CheckError;
}

describe('submitToIcinga', () => {
  it('posts one process-check-result per service: names as filter variables, output, perfdata array, check source', async () => {
    answer = ok;
    const report = await submitToIcinga(results(1), target());
    expect(report).toEqual({ submitted: 1, missing: [] });
    expect(seen[0].auth).toBe(`Basic ${Buffer.from(`cloudchecks-submit:${PASSWORD}`).toString('base64')}`);
    expect(seen[0].body).toEqual({
      type: 'Service',
      filter: 'host.name == cc_host && service.name == cc_service',
      filter_vars: { cc_host: 'vm-00000000-aaaa-bbbb-cccc-000000000000', cc_service: 'vm-cpu' },
      exit_status: 1,
      plugin_output: 'VM_CPU WARNING - cpu usage 83.2% on web-0\nlong line 0',
      performance_data: ['cpu_usage=83.2%;80;90;0;100', "'cpu mhz'=262;;;0"],
      check_source: 'monitor-1',
    });
  });

  it('sends a tenant name with quotes and DSL syntax as data, never into the filter', async () => {
    answer = ok;
    const [r] = results(1);
    await submitToIcinga([{ ...r, host: 'x" || true || "' }], target());
    expect(seen[0].body.filter).toBe('host.name == cc_host && service.name == cc_service');
    expect((seen[0].body.filter_vars as Record<string, string>).cc_host).toBe('x" || true || "');
  });

  it('keeps at most four requests in flight, over kept-alive connections', async () => {
    answer = ok;
    const report = await submitToIcinga(results(30), target());
    expect(report.submitted).toBe(30);
    expect(maxInFlight).toBeLessThanOrEqual(4);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(new Set(seen.map((s) => s.port)).size).toBeLessThanOrEqual(4);
  });

  it('reports services Icinga does not have (404) as missing, the others as submitted', async () => {
    answer = (body) =>
      (body.filter_vars as Record<string, string>).cc_service === 'vm-disk'
        ? { status: 404, body: JSON.stringify({ error: 404, status: 'No objects found.' }) }
        : ok();
    const report = await submitToIcinga(results(6), target());
    expect(report.submitted).toBe(4);
    expect(report.missing).toEqual([
      { host: 'vm-00000002-aaaa-bbbb-cccc-000000000000', service: 'vm-disk' },
      { host: 'vm-00000005-aaaa-bbbb-cccc-000000000000', service: 'vm-disk' },
    ]);
  });

  it('takes the HTTP 500 with no result that Icinga 2.13 and 2.14 give a VM it does not know yet as that result missing, and submits the rest', async () => {
    // What a real Icinga 2.13 answers when the filter matches no object, e.g. a host created since the last discovery.
    const unknown = 'vm-00000003-aaaa-bbbb-cccc-000000000000';
    answer = (body) => ((body.filter_vars as Record<string, string>).cc_host === unknown ? { status: 500, body: '{"results":[]}' } : ok());
    const report = await submitToIcinga(results(12), target());
    expect(report.submitted).toBe(11);
    expect(report.missing).toEqual([{ host: unknown, service: 'vm-cpu' }]);
    expect(seen).toHaveLength(12);
  });

  it('still says a server error with no result list is a server error', async () => {
    answer = () => ({ status: 500, body: '{"error":500,"status":"Internal error."}' });
    expect((await failure(submitToIcinga(results(1), target()))).message).toMatch(
      /answered HTTP 500 to process-check-result: "Internal error\."; check the Icinga 2 log/,
    );
  });

  it('names the permissions the ApiUser needs on 403', async () => {
    answer = () => ({ status: 403, body: JSON.stringify({ error: 403, status: 'No permission to access this API' }) });
    const error = await failure(submitToIcinga(results(3), target()));
    expect(error.message).toMatch(/user cloudchecks-submit may not submit check results \(HTTP 403: "No permission to access this API"\)/);
    expect(error.message).toContain('"actions/process-check-result", "objects/query/Host", "objects/query/Service"');
  });

  it('says which credentials to check on 401', async () => {
    answer = () => ({ status: 401, body: '{"error":401}' });
    expect((await failure(submitToIcinga(results(1), target()))).message).toMatch(/rejected user cloudchecks-submit \(HTTP 401\); check --icinga2-user/);
  });

  it('says when a service refuses passive results', async () => {
    answer = () => ({ status: 500, body: JSON.stringify({ results: [{ code: 403, status: 'Passive checks are disabled for object.' }] }) });
    expect((await failure(submitToIcinga(results(1), target()))).message).toMatch(/did not take the result .*code 403.*enable_passive_checks = true/);
  });

  it('refuses a server certificate the Icinga CA did not sign', async () => {
    answer = ok;
    const other = target({ tls: { ca: SIM_SERVER_CERTS.expired, caOnly: true, caSource: '--icinga2-ca-file' } });
    const error = await failure(submitToIcinga(results(1), other));
    expect(error.message).toMatch(/^cannot submit to the Icinga 2 API: TLS verification .*--icinga2-ca-file/);
    expect(seen).toHaveLength(0);
  });

  it('names the URL when nothing listens', async () => {
    const closed = new URL('https://127.0.0.1:1');
    expect((await failure(submitToIcinga(results(1), target({ url: closed })))).message).toMatch(
      /connection refused by 127\.0\.0\.1:1.*--icinga2-url https:\/\/127\.0\.0\.1:1/,
    );
  });

  it('gives up on a server that never answers when the run times out', async () => {
    answer = () => 'hang';
    const started = Date.now();
    const signal = AbortSignal.timeout(300);
    await expect(submitToIcinga(results(8), target(), { signal })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

// A connection that breaks before the answer is complete, over a real socket on 127.0.0.1 (nock
// cannot cut a body half-way): reset before any answer, cut mid-body, refused. Each is a
// TransportError, which check_vcd reports as vCD not answering; an answer refused for its size
// is not one (the server answered).
import * as http from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from '../../../lib/http/network-errors';
import { httpRequest } from '../../../lib/http/request';
import { CheckError } from '../../../lib/plugin/errors';

let server: http.Server;
let base: string;
const BODY = Buffer.from(JSON.stringify({ values: Array.from({ length: 40 }, (_, i) => ({ name: `vcd-cell-${i}`, isActive: true })) }));

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/reset') return void req.socket.resetAndDestroy();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BODY.length) });
    if (req.url === '/whole') return void res.end(BODY);
    // Half the declared body, then the connection goes, as a cell that stops mid-answer.
    res.write(BODY.subarray(0, BODY.length >> 1), () => setTimeout(() => req.socket.resetAndDestroy(), 10));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

async function rejection(p: Promise<unknown>): Promise<CheckError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CheckError);
  return e as CheckError;
}

describe('a connection broken before the answer is complete', () => {
  it('reset before any answer: a TransportError naming the reset', async () => {
    const e = await rejection(httpRequest({ url: new URL(`${base}/reset`) }));
    expect(e).toBeInstanceOf(TransportError);
    expect(e.message).toMatch(/^connection to 127\.0\.0\.1:\d+ was reset before the response was complete/);
  });

  it('cut half-way through the body: a TransportError, not a short body', async () => {
    const e = await rejection(httpRequest({ url: new URL(`${base}/cut`) }));
    expect(e).toBeInstanceOf(TransportError);
    expect(e.message).toMatch(/^connection to 127\.0\.0\.1:\d+ (was reset before the response was complete|closed before the whole response was received)/);
  });

  it('refused: a TransportError', async () => {
    const port = await new Promise<number>((done) => {
      const s = createTcpServer().listen(0, '127.0.0.1', () => {
        const { port: p } = s.address() as AddressInfo;
        s.close(() => done(p));
      });
    });
    const e = await rejection(httpRequest({ url: new URL(`http://127.0.0.1:${port}/`) }));
    expect(e).toBeInstanceOf(TransportError);
    expect(e.message).toMatch(/^connection refused by 127\.0\.0\.1:\d+/);
  });

  it('an answer over the size bound is not one: the server answered', async () => {
    const e = await rejection(httpRequest({ url: new URL(`${base}/whole`), maxBytes: 100 }));
    expect(e).not.toBeInstanceOf(TransportError);
  });
});

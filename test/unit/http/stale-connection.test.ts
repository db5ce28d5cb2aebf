// A kept-alive connection the server drops as the next request arrives (its keep-alive
// timeout passed while the client was judging the last answer): the read is sent once more on
// a new connection, not reported as a reset. A write, or a second reset, is still an error.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from '../../../lib/http/request';

let server: http.Server;
let base: string;
/** Requests seen on each connection; a connection's second request is dropped unanswered while `drop` says so. */
const seen = new Map<Socket, number>();
let drop: 'second' | 'all' = 'second';
let connections = 0;

beforeAll(async () => {
  server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const n = (seen.get(req.socket) ?? 0) + 1;
    seen.set(req.socket, n);
    if ((drop === 'second' && n === 2) || (drop === 'all' && n >= 2)) {
      req.socket.destroy();
      return;
    }
    res.end(`answer ${n}`);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

describe('a reset on a reused kept-alive connection', () => {
  it('a GET is sent once more, on a new connection, and answered', async () => {
    drop = 'second';
    const before = connections;
    const first = await httpRequest({ url: new URL(`${base}/a`) });
    const second = await httpRequest({ url: new URL(`${base}/b`) });
    expect([first.body.toString(), second.body.toString()]).toEqual(['answer 1', 'answer 1']);
    expect(connections - before).toBe(2);
  });

  it('a POST is not sent twice: the reset is reported', async () => {
    drop = 'second';
    await httpRequest({ url: new URL(`${base}/c`) });
    await expect(httpRequest({ url: new URL(`${base}/d`), method: 'POST', body: 'x' })).rejects.toThrow(/reset|closed|hang up/i);
  });
});

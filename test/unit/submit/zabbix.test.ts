// Zabbix's sender protocol against a TCP listener on 127.0.0.1 that plays the trapper: the
// framing of the request, the server's counts, and hostile answers (no header, endless,
// silent) that must end in a CheckError within the timeout.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSenderAnswer, sendToZabbix, senderPacket, type TrapperValue } from '../../../lib/submit/zabbix';

let server: net.Server;
let port = 0;
const requests: Array<{ head: Buffer; json: unknown }> = [];
let reply: (socket: net.Socket, json: { data: TrapperValue[] }) => void;

function frame(json: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(json));
  const head = Buffer.alloc(13);
  head.write('ZBXD\x01', 'latin1');
  head.writeUInt32LE(body.length, 5);
  return Buffer.concat([head, body]);
}

beforeAll(async () => {
  server = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 13 || buffer.length < 13 + buffer.readUInt32LE(5)) return;
      const json = JSON.parse(buffer.subarray(13).toString()) as { data: TrapperValue[] };
      requests.push({ head: buffer.subarray(0, 13), json });
      reply(socket, json);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise((done) => server.close(done)));

const value = (i: number): TrapperValue => ({ host: 'acme-fleet', key: 'cloudchecks.fleet.json', value: `{"n":${i}}`, clock: 1_700_000_000 });
const success = (socket: net.Socket, json: { data: TrapperValue[] }) =>
  socket.end(frame({ response: 'success', info: `processed: ${json.data.length}; failed: 0; total: ${json.data.length}; seconds spent: 0.000123` }));

describe('sendToZabbix', () => {
  it('frames the sender request as ZBXD 0x01, length, reserved word and the JSON', async () => {
    requests.length = 0;
    reply = success;
    expect(await sendToZabbix([value(1)], { host: '127.0.0.1', port })).toEqual({ processed: 1, failed: 0, total: 1 });
    const { head, json } = requests[0];
    expect(head.subarray(0, 5).toString('latin1')).toBe('ZBXD\x01');
    expect(head.readUInt32LE(9)).toBe(0);
    expect(json).toEqual({ request: 'sender data', data: [value(1)] });
    expect(senderPacket([value(1)]).readUInt32LE(5)).toBe(Buffer.byteLength(JSON.stringify(json)));
  });

  it('sends 250 values a request and adds up the counts', async () => {
    requests.length = 0;
    reply = (socket, json) => socket.end(frame({ response: 'success', info: `processed: ${json.data.length - 1}; failed: 1; total: ${json.data.length}` }));
    const values = Array.from({ length: 600 }, (_, i) => value(i));
    expect(await sendToZabbix(values, { host: '127.0.0.1', port })).toEqual({ processed: 597, failed: 3, total: 600 });
    expect(requests.map((r) => (r.json as { data: unknown[] }).data.length)).toEqual([250, 250, 100]);
  });

  it('refuses an answer that is not the protocol, a refusal, or one without counts', () => {
    expect(() => parseSenderAnswer(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'), 'Zabbix server x:1')).toThrow(/no ZBXD header.*10051/);
    expect(() => parseSenderAnswer(frame({ response: 'failed', info: 'host is not allowed' }), 'Zabbix server x:1')).toThrow(
      /refused the values \("failed": host is not allowed\)/,
    );
    expect(() => parseSenderAnswer(frame({ response: 'success', info: 'yes' }), 'Zabbix server x:1')).toThrow(/without the processed\/failed counts/);
  });

  it('stops reading an endless answer at 64 KiB', async () => {
    reply = (socket) => {
      const endless = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!socket.destroyed && socket.write(endless));
        if (!socket.destroyed) socket.once('drain', pump);
      };
      socket.write(frame({ response: 'success', info: 'x' }).subarray(0, 5));
      socket.write(Buffer.from([0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0]));
      pump();
    };
    await expect(sendToZabbix([value(1)], { host: '127.0.0.1', port })).rejects.toThrow(/answered more than 65536 bytes; that is not a Zabbix trapper/);
  });

  it('gives up on a silent server when the run times out', async () => {
    reply = () => undefined;
    const started = Date.now();
    await expect(sendToZabbix([value(1)], { host: '127.0.0.1', port }, { signal: AbortSignal.timeout(200) })).rejects.toThrow(
      /did not answer before the timeout/,
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('names the trapper settings when nothing listens', async () => {
    await expect(sendToZabbix([value(1)], { host: '127.0.0.1', port: 1 })).rejects.toThrow(
      /cannot send to Zabbix server 127\.0\.0\.1:1 \(ECONNREFUSED\); check --zabbix-server and --zabbix-port/,
    );
  });
});

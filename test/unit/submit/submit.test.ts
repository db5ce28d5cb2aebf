// openSubmission: what the runner is told when the engine took nothing (no such item or
// services), against a local trapper on 127.0.0.1.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notes } from '../../../lib/plugin/notes';
import type { RunContext } from '../../../lib/plugin/context';
import { openSubmission } from '../../../lib/submit/submit';

let server: net.Server;
let port = 0;
beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.once('data', () => {
      const body = Buffer.from(JSON.stringify({ response: 'success', info: 'processed: 0; failed: 1; total: 1; seconds spent: 0.0001' }));
      const head = Buffer.alloc(13);
      head.write('ZBXD\x01', 'latin1');
      head.writeUInt32LE(body.length, 5);
      socket.end(Buffer.concat([head, body]));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise((done) => server.close(done)));

const context: RunContext = {
  verbose: 0,
  signal: new AbortController().signal,
  deadline: Date.now() + 10_000,
  timeoutSeconds: 10,
  notes: new Notes(),
  log: () => undefined,
  addSecret: () => undefined,
  setPhase: () => undefined,
};

describe('openSubmission', () => {
  it('says which template and host to check when Zabbix takes none of the values', async () => {
    const submission = openSubmission({ mode: 'zabbix', zabbix: { host: '127.0.0.1', port }, host: 'vcd-acme', key: 'cloudchecks.fleet.json' }, context);
    submission.document?.write('{"vms":{}}');
    await expect(submission.finish().finally(() => submission.close())).rejects.toThrow(
      /did not take the value for host "vcd-acme", key cloudchecks\.fleet\.json \(processed 0, failed 1\); link the template "cloudchecks Cloud Director VM fleet trapper"/,
    );
  });
});

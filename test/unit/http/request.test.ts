// httpRequest's TLS settings against a real TLS server on 127.0.0.1 (TLS cannot be mocked
// meaningfully): client certificates, a CA that replaces the roots, the checked server name,
// and keep-alive connections that are never shared between different settings.
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, redactHeaders } from '../../../lib/http/request';
import { runRedactor } from '../../../lib/plugin/redact';

const TLS = join(__dirname, '../../fixtures/cluster/tls');
const pem = (name: string) => readFileSync(join(TLS, name), 'utf8');

let server: https.Server;
let url: URL;
const connections: number[] = [];

beforeAll(async () => {
  server = https.createServer(
    {
      key: pem('server-by-cluster-ca.key'),
      cert: pem('server-by-cluster-ca.pem'),
      ca: [pem('cluster-ca.pem'), pem('public-ca.pem')],
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.end(JSON.stringify({ cn: peer?.subject?.CN ?? null, port: req.socket.remotePort }));
    },
  );
  server.on('secureConnection', (s) => connections.push(s.remotePort ?? 0));
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/nodes`);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const get = async (tls: Parameters<typeof httpRequest>[0]['tls']) =>
  JSON.parse((await httpRequest({ url, tls })).body.toString()) as { cn: string | null; port: number };

describe('httpRequest TLS settings', () => {
  it('presents the client certificate it is given, and none otherwise', async () => {
    const ca = pem('cluster-ca.pem');
    expect((await get({ ca, caOnly: true, cert: pem('client.pem'), key: pem('client.key') })).cn).toBe('monitoring');
    expect((await get({ ca, caOnly: true })).cn).toBeNull();
  });

  it('never reuses a kept-alive connection made with another client certificate', async () => {
    const ca = pem('cluster-ca.pem');
    const a = await get({ ca, caOnly: true, cert: pem('client.pem'), key: pem('client.key') });
    const b = await get({ ca, caOnly: true, cert: pem('client-other.pem'), key: pem('client-other.key') });
    const c = await get({ ca, caOnly: true, cert: pem('client.pem'), key: pem('client.key') });
    expect([a.cn, b.cn, c.cn]).toEqual(['monitoring', 'intruder', 'monitoring']);
    expect(a.port).not.toBe(b.port);
  });

  it("a CA that replaces the roots: another CA's server is refused", async () => {
    await expect(get({ ca: pem('public-ca.pem'), caOnly: true })).rejects.toThrow(/^TLS verification of 127\.0\.0\.1:\d+ failed: /);
  });

  it('checks the certificate against serverName instead of the URL host', async () => {
    expect((await get({ ca: pem('cluster-ca.pem'), caOnly: true, serverName: 'api.cluster.internal' })).cn).toBeNull();
    await expect(get({ ca: pem('cluster-ca.pem'), caOnly: true, serverName: 'wrong.example' })).rejects.toThrow(/wrong\.example/);
  });
});

describe('redactHeaders: the -vvv trace of headers', () => {
  it('never shows credential headers; a server header that echoes a secret, or a token, loses it', () => {
    runRedactor.add('Sommerzeit');
    expect(redactHeaders({ authorization: 'Basic bW9uaXRvcjpTb21tZXJ6ZWl0', accept: 'application/json' })).toEqual([
      'authorization: <redacted>',
      'accept: application/json',
    ]);
    expect(
      redactHeaders({ 'x-debug': 'user=monitor%40acme%3ASommerzeit', 'x-token': 'Bearer 0123456789abcdef0123', 'set-cookie': ['vcloud-token=x'] }, true),
    ).toEqual(['x-debug: user=monitor%40acme%3A<redacted>', 'x-token: Bearer <redacted>', 'set-cookie: <redacted>']);
  });
});

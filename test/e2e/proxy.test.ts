// HTTPS_PROXY / HTTP_PROXY / NO_PROXY as a monitoring host behind a proxy uses them: a real
// CONNECT proxy on 127.0.0.1 between dist/check_nodes and the simulator.
import * as http from 'node:http';
import * as net from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { openTunnel } from '../support/connect-tunnel';
import { runExecutable } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_nodes');
let sim: Simulator;
let proxy: http.Server;
let proxyUrl: string;
const seen = { connect: 0, forward: 0 };
let refuse = false;
// Tunnelled sockets leave the HTTP server's bookkeeping: closed by hand at the end.
const tunnels = new Set<net.Socket>();

beforeAll(async () => {
  sim = await startSimulatorFromArgs([], [CLUSTER_MODULE]);
  proxy = http.createServer((req, res) => {
    // Plain HTTP through a proxy: the request line carries the absolute URL.
    seen.forward++;
    const target = new URL(req.url ?? '');
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket: net.Socket, head) => {
    seen.connect++;
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
    if (refuse) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    openTunnel(req, socket, head, (upstream) => {
      tunnels.add(upstream);
      upstream.on('close', () => tunnels.delete(upstream));
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of tunnels) s.destroy();
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await sim?.close();
});

const base = () => ['--token-file', sim.apis.cluster.info.tokenFile, '--ca-file', sim.caFile];
const env = (extra: NodeJS.ProcessEnv) => ({ PATH: process.env.PATH, ...extra });

describe('proxies', () => {
  it('tunnels HTTPS through HTTPS_PROXY with CONNECT, verifying TLS end to end', async () => {
    const before = seen.connect;
    const r = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpsUrl, ...base()], { env: env({ HTTPS_PROXY: proxyUrl }) });
    expect(r.stdout).toMatch(/^NODES OK - 6 of 6 nodes healthy/);
    expect(r.stderr).toBe('');
    expect(seen.connect).toBe(before + 1);
    // The tunnel does not weaken verification: without the CA the server is not trusted.
    const untrusted = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpsUrl, '--token-file', sim.apis.cluster.info.tokenFile], {
      env: env({ HTTPS_PROXY: proxyUrl }),
    });
    expect(untrusted.stdout).toMatch(/^NODES UNKNOWN - TLS verification of 127\.0\.0\.1:\d+ failed: the certificate was issued by an unknown CA/);
    expect(seen.connect).toBe(before + 2);
  });

  it('sends plain HTTP to HTTP_PROXY with the absolute URL', async () => {
    const before = seen.forward;
    const r = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpUrl, '--allow-http', ...base()], { env: env({ HTTP_PROXY: proxyUrl }) });
    expect(r.stdout).toMatch(/^NODES OK - 6 of 6 nodes healthy/);
    expect(seen.forward).toBe(before + 1);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const before = seen.connect;
    const r = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpsUrl, ...base()], {
      env: env({ HTTPS_PROXY: proxyUrl, NO_PROXY: 'localhost,127.0.0.1' }),
    });
    expect(r.stdout).toMatch(/^NODES OK/);
    expect(seen.connect).toBe(before);
  });

  it('names the proxy when it refuses the tunnel, or is not there', async () => {
    refuse = true;
    const r = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpsUrl, ...base()], { env: env({ HTTPS_PROXY: proxyUrl }) });
    refuse = false;
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^NODES UNKNOWN - proxy 127\.0\.0\.1:\d+ refused the tunnel to 127\.0\.0\.1:\d+ \(HTTP 403\), check HTTPS_PROXY\/NO_PROXY\n$/);
    const gone = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpsUrl, ...base()], { env: env({ HTTPS_PROXY: 'http://127.0.0.1:1' }) });
    expect(gone.code).toBe(3);
    // A dead proxy is the proxy's failure, not the API server's.
    expect(gone.stdout).toBe(
      `NODES UNKNOWN - proxy 127.0.0.1:1 refused the connection on the way to ${new URL(sim.apis.cluster.httpsUrl).host}, check that the proxy is running, or HTTPS_PROXY/HTTP_PROXY and NO_PROXY\n`,
    );
    const plain = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpUrl, '--allow-http', ...base()], {
      env: env({ HTTP_PROXY: 'http://127.0.0.1:1' }),
    });
    expect(plain.stdout).toMatch(/^NODES UNKNOWN - proxy 127\.0\.0\.1:1 refused the connection on the way to /);
  });

  it('refuses a socks5:// proxy with one clear line instead of speaking HTTP to it', async () => {
    const r = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpsUrl, ...base()], { env: env({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' }) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      'NODES UNKNOWN - HTTPS_PROXY is a socks5:// proxy (127.0.0.1:1080), which is not supported: only http:// proxies (HTTP CONNECT) are, give an HTTP proxy, or list 127.0.0.1 in NO_PROXY to go direct\n',
    );
    expect(r.stderr).toBe('');
  });

  it.each(['127.0.0.0/8', '10.0.0.0/8,127.0.0.1/32', '::1/128,127.0.0.0/8'])(
    'goes direct for an address inside a NO_PROXY CIDR entry (%s)',
    async (noProxy) => {
      const before = seen.connect;
      // The proxy would refuse: success means it was not used.
      const r = await runExecutable(PLUGIN, ['--url', sim.apis.cluster.httpsUrl, ...base()], {
        env: env({ HTTPS_PROXY: 'http://127.0.0.1:1', NO_PROXY: noProxy }),
      });
      expect(r.stdout).toMatch(/^NODES OK/);
      expect(seen.connect).toBe(before);
    },
  );
});

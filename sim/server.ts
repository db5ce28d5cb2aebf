import { CheckError } from '../lib/plugin/errors';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { FaultInjector, send, type Fault } from './faults';
import { SIM_SERVER_CERTS, SIM_SERVER_KEY_PEM, type CertKind } from './tls-material';

/** Counters a simulated API keeps (logins, logouts, requests) for tests and benchmarks. */
export class Stats {
  counts: Record<string, number> = {};
  bump(name: string, by = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + by;
  }
  /** Keeps the highest value seen (e.g. requests under way at once). */
  setMax(name: string, value: number): void {
    this.counts[name] = Math.max(this.counts[name] ?? 0, value);
  }
}

/** Handles one request of a simulated API; answers through `send` from faults.ts. */
export type ApiHandler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer) => Promise<void> | void;

export interface ApiServer {
  httpUrl: string;
  httpsUrl: string;
  faults: FaultInjector;
  stats: Stats;
  close(): Promise<void>;
}

export interface ApiServerOptions {
  host?: string;
  httpPort?: number;
  httpsPort?: number;
  /** A built-in certificate by kind, or one given (its PEM text). */
  tls?: CertKind | ServerTls;
}

/** A certificate and its key, PEM. */
export interface ServerTls {
  cert: string;
  key: string;
}

/**
 * Serves a simulated API over HTTP and HTTPS. `/_sim/faults` (PUT a JSON array of faults,
 * DELETE to clear) and `/_sim/stats` (GET counters, DELETE to reset) control it.
 */
export async function startApiServer(handler: ApiHandler, stats: Stats, options: ApiServerOptions = {}): Promise<ApiServer> {
  const host = options.host ?? '127.0.0.1';
  const faults = new FaultInjector();

  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void dispatch(req, res, Buffer.concat(chunks)).catch((error) => {
        if (!res.headersSent) send(res, 500, { 'content-type': 'text/plain' }, `simulator error: ${(error as Error).message}`);
        else res.destroy();
      });
    });
  };

  async function dispatch(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`);
    if (url.pathname === '/_sim/faults') {
      if (req.method === 'PUT' || req.method === 'POST') faults.set(JSON.parse(body.toString() || '[]') as Fault[]);
      else if (req.method === 'DELETE') faults.set([]);
      send(res, 204, {}, '');
      return;
    }
    if (url.pathname === '/_sim/stats') {
      if (req.method === 'DELETE') stats.counts = {};
      send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(stats.counts));
      return;
    }
    stats.bump('requests');
    const fault = faults.take(req, url.pathname);
    if (fault && (await faults.before(fault, req, res))) return;
    await handler(req, res, url, body);
  }

  const plain = http.createServer({ keepAliveTimeout: 5000 }, listener);
  const tls = typeof options.tls === 'object' ? options.tls : { key: SIM_SERVER_KEY_PEM, cert: SIM_SERVER_CERTS[options.tls ?? 'valid'] };
  let secure: https.Server;
  try {
    secure = https.createServer({ ...tls, keepAliveTimeout: 5000 }, listener);
  } catch (error) {
    throw new CheckError(`the certificate and key cannot serve TLS (${(error as Error).message}): give --tls-key the key of --tls-cert`);
  }
  await Promise.all([listen(plain, host, options.httpPort ?? 0), listen(secure, host, options.httpsPort ?? 0)]);
  const urlOf = (s: http.Server, scheme: string) => {
    const a = s.address() as AddressInfo;
    return `${scheme}://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  };
  return {
    httpUrl: urlOf(plain, 'http'),
    httpsUrl: urlOf(secure, 'https'),
    faults,
    stats,
    close: async () => {
      for (const s of [plain, secure]) s.closeAllConnections();
      await Promise.all([plain, secure].map((s) => new Promise((r) => s.close(r))));
    },
  };
}

function listen(server: http.Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

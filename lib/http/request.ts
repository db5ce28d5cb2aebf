import type * as http from 'node:http';
import * as https from 'node:https';
import * as tls from 'node:tls';
import { isIP, type Socket } from 'node:net';
import { CheckError } from '../plugin/errors';
import { runRedactor } from '../plugin/redact';
import { describeNetworkError, TransportError } from './network-errors';
import type { TlsSettings } from './tls-settings';
import { proxyAuthorization, proxyFor } from './proxy';
import { bodyBytesRead } from './young-collector';

export type { TlsSettings };

export interface HttpRequest {
  method?: string;
  url: URL;
  headers?: Record<string, string>;
  body?: string;
  tls?: TlsSettings;
  /** Larger bodies are refused with a CheckError naming --max-bytes. */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Receives a request/response trace with credentials redacted (for -vvv). */
  trace?: (line: string) => void;
  /**
   * Read the body into this buffer (the response's body is a view of it, or of a larger
   * one when it does not fit): a caller reading many large pages reuses its memory
   * instead of leaving a new multi-megabyte buffer per page to the garbage collector.
   */
  into?: Buffer;
  /** Connections kept open to the server at most (default 4): a client that reads many documents at once asks for more. */
  sockets?: number;
  /** Takes the body piece by piece instead of keeping it (see BodyStream). */
  stream?: BodyStream;
}

/**
 * Asked once the status is known: a function that takes the body of that answer piece by piece
 * as it arrives (the response's body is then empty, and a CheckError it throws ends the request
 * with that error), or undefined to keep the body as usual (an error document to describe).
 */
export type BodyStream = (status: number) => ((chunk: Buffer) => void) | undefined;

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  url: URL;
}

export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

// Header values that are credentials are never traced, whatever the verbosity.
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-vcloud-authorization|x-vmware-vcloud-access-token)$/i;

/**
 * The headers as they may be shown in a trace. A server's headers are text from outside:
 * one may echo a credential under any name, so their values are redacted as such.
 */
export function redactHeaders(headers: Record<string, unknown>, fromServer = false): string[] {
  return Object.entries(headers).map(([k, v]) => `${k}: ${SECRET_HEADERS.test(k) ? '<redacted>' : fromServer ? runRedactor.redact(String(v)) : String(v)}`);
}

/**
 * node:http, loaded when a plain-HTTP URL (or proxy) is used: node:https does not need it, and
 * loading it on every HTTPS run costs start-up time (bench/RESULTS.md).
 */
function plainHttp(): typeof http {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: lazily, not at start-up
  return require('node:http') as typeof http;
}

// One keep-alive agent per TLS setting: the pages of a node list reuse one connection. The key
// holds every setting, so that a connection made with one CA or client certificate is never
// reused for a request that asked for another.
const agents = new Map<string, http.Agent>();
function agentFor(url: URL, settings: TlsSettings, sockets = 4): http.Agent {
  const key = JSON.stringify([
    sockets,
    url.protocol,
    settings.insecure === true,
    settings.caOnly === true,
    settings.ca ?? '',
    settings.cert ?? '',
    settings.key ?? '',
    settings.serverName ?? '',
  ]);
  let agent = agents.get(key);
  if (!agent) {
    agent =
      url.protocol === 'https:'
        ? new https.Agent({ keepAlive: true, maxSockets: sockets, ...tlsOptions(settings) })
        : new (plainHttp().Agent)({ keepAlive: true, maxSockets: sockets });
    agents.set(key, agent);
  }
  return agent;
}

function tlsOptions(settings: TlsSettings): tls.ConnectionOptions {
  const client: tls.ConnectionOptions = settings.cert !== undefined && settings.key !== undefined ? { cert: settings.cert, key: settings.key } : {};
  if (settings.serverName !== undefined) client.servername = settings.serverName;
  // Nothing is verified: an empty CA list spares loading Node's root store (~25 ms a run).
  if (settings.insecure) return { rejectUnauthorized: false, ca: [], ...client };
  // The only trust anchor: a server certificate from any public CA is refused, as kubectl does.
  if (settings.ca && settings.caOnly) return { rejectUnauthorized: true, ca: settings.ca, ...client };
  if (!settings.ca) return { rejectUnauthorized: true, ...client };
  // An extra CA adds to the system trust store rather than replacing it (a secureContext
  // would make Node ignore the client certificate: then the slower full list it is).
  if (client.cert !== undefined) return { rejectUnauthorized: true, ca: [...tls.rootCertificates, settings.ca], ...client };
  return { rejectUnauthorized: true, secureContext: trustStoreWith(settings.ca), ...client };
}

// `ca: [...tls.rootCertificates, ca]` re-parses some 140 PEM certificates on every run (about
// 30 ms, a third of a small check). A default context already holds the built-in roots: add
// the extra CA to it, where this Node exposes the native call that createSecureContext uses.
function trustStoreWith(ca: string): tls.SecureContext {
  const context = tls.createSecureContext();
  const native = (context as unknown as { context?: { addCACert?: (pem: string) => void } }).context;
  if (typeof native?.addCACert !== 'function') return tls.createSecureContext({ ca: [...tls.rootCertificates, ca] });
  native.addCACert(ca);
  return context;
}

/** Opens a CONNECT tunnel through an HTTP proxy to the target's host and port. */
export function connectTunnel(proxy: URL, target: URL, signal?: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const port = target.port || '443';
    const headers: Record<string, string> = { host: `${target.hostname}:${port}` };
    const authorization = proxyAuthorization(proxy);
    if (authorization) headers['proxy-authorization'] = authorization;
    const transport = proxy.protocol === 'https:' ? https : plainHttp();
    const req = transport.request({
      host: proxy.hostname,
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: `${target.hostname}:${port}`,
      headers,
      signal,
    });
    req.once('connect', (res, socket) => {
      if (res.statusCode === 200) resolve(socket);
      else {
        socket.destroy();
        reject(new CheckError(`proxy ${proxy.host} refused the tunnel to ${target.host} (HTTP ${res.statusCode}); check HTTPS_PROXY/NO_PROXY`));
      }
    });
    req.once('error', reject);
    req.end();
  });
}

/**
 * Sends one request and reads the whole body (bounded by maxBytes). Network and TLS failures
 * become CheckErrors naming cause and fix; HTTP statuses are returned for the caller to judge.
 */
export async function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  try {
    return await sendOnce(req);
  } catch (error) {
    // A kept-alive connection the server closed while idle (its keep-alive timeout passed while
    // the last answer was being judged) resets the next request before any answer: a read is
    // sent once more, on a new connection. Only then, and only once.
    if (!(error instanceof StaleConnection)) throw error;
    return sendOnce(req, true);
  }
}

/** The reset of a request sent on a reused connection before any answer came. */
class StaleConnection extends Error {}

async function sendOnce(req: HttpRequest, retried = false): Promise<HttpResponse> {
  const url = req.url;
  const settings = req.tls ?? {};
  const method = req.method ?? 'GET';
  const headers: Record<string, string> = { 'user-agent': 'cloudchecks', ...req.headers };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  const { target, options, proxy } = await routeTo(req, method, headers);

  req.trace?.(`> ${method} ${url.href}${proxy ? ` (via proxy ${proxy.host})` : ''}`);
  for (const line of redactHeaders(headers)) req.trace?.(`> ${line}`);
  const started = Date.now();

  return new Promise<HttpResponse>((resolve, reject) => {
    const transport = target.protocol === 'https:' ? https : plainHttp();
    let answered = false;
    const request = transport.request(target, options, (res) => {
      answered = true;
      readResponse(req, res, { started, proxy, resolve, reject });
    });
    // The certificate the server presented, kept when the handshake ends: a verification
    // failure closes the socket before its error is seen, and the message names the issuer
    // or the expiry date.
    let peer: tls.PeerCertificate | undefined;
    request.once('socket', (socket) => {
      // A kept-alive socket finished its handshake long ago: nothing to keep, nothing to read.
      if (!(socket instanceof tls.TLSSocket) || request.reusedSocket) return;
      socket.prependOnceListener('secure', () => {
        const cert = socket.getPeerCertificate();
        if (cert && Object.keys(cert).length > 0) peer = cert;
      });
    });
    request.once('error', (error: NodeJS.ErrnoException) => {
      const idempotent = method === 'GET' || method === 'HEAD';
      if (!retried && idempotent && !answered && request.reusedSocket && error.code === 'ECONNRESET') return reject(new StaleConnection(error.message));
      reject(describeNetworkError(Object.assign(error, { peer }), url, proxy, settings));
    });
    if (req.body !== undefined) request.write(req.body);
    request.end();
  });
}

/**
 * The way to the server: a CONNECT tunnel through a proxy (HTTPS), the proxy itself with the
 * absolute URL in the request line (plain HTTP), or straight, each with its agent.
 */
async function routeTo(
  req: HttpRequest,
  method: string,
  headers: Record<string, string>,
): Promise<{ target: URL; options: https.RequestOptions; proxy?: URL }> {
  const url = req.url;
  const options: https.RequestOptions = { method, headers, signal: req.signal };
  const settings = req.tls ?? {};
  const proxy = settings.proxy ?? proxyFor(url);
  if (proxy && url.protocol === 'https:') {
    let socket: Socket;
    try {
      socket = await connectTunnel(proxy, url, req.signal);
    } catch (error) {
      throw error instanceof CheckError ? error : describeNetworkError(error, url, proxy);
    }
    // No agent at all: with one (even `agent: false`) Node ignores createConnection and would
    // connect straight to the server, around the tunnel and without our trust settings.
    options.agent = undefined;
    // SNI takes names only (RFC 6066); the certificate is still checked against `host`.
    const name = url.hostname.replace(/^\[|\]$/g, '');
    options.createConnection = () => tls.connect({ socket, host: name, servername: isIP(name) ? undefined : name, ...tlsOptions(settings) });
    return { target: url, options, proxy };
  }
  if (proxy) {
    // Plain HTTP through a proxy: the absolute URL goes in the request line.
    options.path = url.href;
    options.agent = agentFor(proxy, settings, req.sockets);
    headers.host = url.host;
    return { target: proxy, options, proxy };
  }
  options.agent = agentFor(url, settings, req.sockets);
  return { target: url, options };
}

/** How a response ends: the request's start (for the trace), its proxy (for messages), and the promise's two ends. */
interface ResponseEnds {
  started: number;
  proxy?: URL;
  resolve: (res: HttpResponse) => void;
  reject: (error: unknown) => void;
}

/** Reads a response's whole body, bounded by maxBytes, into `req.into` when given (grown when the body is larger). */
function readResponse(req: HttpRequest, res: http.IncomingMessage, { started, proxy, resolve, reject }: ResponseEnds): void {
  const url = req.url;
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    reject(tooLarge(url, maxBytes));
    return;
  }
  let into = req.into;
  // Grown with an eighth to spare: the next page, a little larger, still fits. A buffer
  // replaced is garbage that only a full collection frees (it lived long enough to be old).
  if (into && Number.isFinite(declared) && declared > into.length) into = Buffer.allocUnsafe(Math.min(maxBytes, declared + (declared >> 3)));
  const sink = req.stream?.(res.statusCode ?? 0);
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      // Rejected before destroy(): destroying a chunked response emits 'aborted' at once,
      // which would report the cut we make as a truncated body.
      reject(tooLarge(url, maxBytes));
      res.destroy();
      return;
    }
    if (sink) {
      try {
        sink(chunk);
      } catch (error) {
        reject(error);
        res.destroy();
        return;
      }
      // Counted as the chunks of a body read whole: a large page may make few objects of its
      // own (long text, whitespace) for V8 to collect the chunks among.
      bodyBytesRead(chunk.length, size);
      return;
    }
    if (!into) chunks.push(chunk);
    else {
      if (size > into.length) {
        const larger = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(size, 2 * into.length)));
        into.copy(larger, 0, 0, size - chunk.length);
        into = larger;
      }
      chunk.copy(into, size - chunk.length);
    }
    bodyBytesRead(chunk.length, size);
  });
  res.once('end', () => {
    req.trace?.(`< HTTP ${res.statusCode} (${size} bytes in ${Date.now() - started} ms)`);
    for (const line of redactHeaders(res.headers, true)) req.trace?.(`< ${line}`);
    const body = into ? into.subarray(0, size) : Buffer.concat(chunks, size);
    resolve({ status: res.statusCode ?? 0, headers: res.headers, body, url });
  });
  res.once('aborted', () => reject(truncated(url)));
  res.once('error', (error) => reject(size > 0 ? truncated(url) : describeNetworkError(error, url, proxy, req.tls ?? {})));
}

/** A response refused for its size: `limit` is the bound it went over (--max-bytes, or a smaller one the caller set). */
export class ResponseTooLargeError extends CheckError {
  constructor(
    message: string,
    readonly limit: number,
  ) {
    super(message);
  }
}

function tooLarge(url: URL, maxBytes: number): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `response from ${url.origin}${url.pathname} is larger than --max-bytes ${maxBytes}; raise --max-bytes if the server is right to send that much`,
    maxBytes,
  );
}

function truncated(url: URL): TransportError {
  return new TransportError(
    `connection to ${url.host} closed before the whole response was received (truncated body); retry, or check load balancers and proxies in between`,
  );
}

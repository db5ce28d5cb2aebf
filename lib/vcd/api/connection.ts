import { httpRequest, type BodyStream, type HttpResponse, type TlsSettings } from '../../http/request';
import { htmlTextLine, plainTextLine } from '../../plugin/server-text';
import { describeVcdError, parseVcdError } from './vcd-error';

/** Where and how to talk to one vCD API host, and the hooks of the running check. */
export interface VcdConnection {
  /** The API host, e.g. https://vcd.example.com (no path). */
  base: URL;
  apiVersion: string;
  tls: TlsSettings;
  maxBytes: number;
  /** Connections kept open to the host at most (the HTTP layer's default when unset). */
  sockets?: number;
  signal?: AbortSignal;
  trace?: (line: string) => void;
  addSecret(value: string | undefined): void;
  setPhase(text: string): void;
}

/** Sends one request to the vCD host; statuses are left to the caller. `stream` takes a body as it arrives. */
export function vcdRequest(
  conn: VcdConnection,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  stream?: BodyStream,
): Promise<HttpResponse> {
  return httpRequest({
    method,
    url: new URL(path, conn.base),
    headers,
    body,
    stream,
    tls: conn.tls,
    maxBytes: conn.maxBytes,
    sockets: conn.sockets,
    signal: conn.signal,
    trace: conn.trace,
  });
}

/** The Accept header of the XML API at the configured version. */
export function xmlAccept(conn: VcdConnection): string {
  return `application/*+xml;version=${conn.apiVersion}`;
}

/**
 * `HTTP 503: message (CODE)` from a response, with the server's own words when it sent an error
 * body, or `HTTP 503 (server says: …)` when a refusal came as short plain text (a cell or a
 * proxy in front of it), bounded and made one safe line as the cluster checks quote theirs.
 */
export function describeResponse(res: HttpResponse): string {
  const error = parseVcdError(res.body.toString('utf8'));
  if (error) return `HTTP ${res.status}: ${describeVcdError(error)}`;
  const type = String(res.headers['content-type'] ?? '');
  // A cell or load balancer that is down often answers a page: its words say why (5xx only:
  // a 404 page of a web console says nothing worth a status line).
  const page = res.status >= 500 && /html/i.test(type) ? htmlTextLine(res.body) : undefined;
  const said = page ?? (res.status >= 400 ? plainTextLine(res.body, type) : undefined);
  return said ? `HTTP ${res.status} (server says: ${said})` : `HTTP ${res.status}`;
}

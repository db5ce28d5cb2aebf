import { httpRequest, type HttpResponse, type TlsSettings } from '../../http/request';
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

/** Sends one request to the vCD host; statuses are left to the caller. */
export function vcdRequest(conn: VcdConnection, method: string, path: string, headers: Record<string, string>, body?: string): Promise<HttpResponse> {
  return httpRequest({
    method,
    url: new URL(path, conn.base),
    headers,
    body,
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

/** `HTTP 503: message (CODE)` from a response, with the server's own words when it sent an error body. */
export function describeResponse(res: HttpResponse): string {
  const error = parseVcdError(res.body.toString('utf8'));
  return error ? `HTTP ${res.status}: ${describeVcdError(error)}` : `HTTP ${res.status}`;
}

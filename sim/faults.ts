import type { IncomingMessage, ServerResponse } from 'node:http';

/** A fault the simulator injects into matching requests (tests and users trying configs). */
export interface Fault {
  /** Regular expression on the path (without query); all paths when absent. */
  path?: string;
  method?: string;
  /**
   * delay: wait `ms` before answering; hang: never answer; reset: destroy the connection;
   * status: answer `status` with `body` (after `ms`, when given); body: answer 200 with `body` and `contentType`;
   * empty: 200 with no body; truncate: send half the real body, then cut the connection;
   * delay-body: send half the real body, wait `ms`, send the rest; chunked: send the real
   * body (or `body`, when given) chunked, without a content-length; endless-list: a list
   * page (`listKind`, default NodeList) of `count` new items (default 500) with a new continue
   * token, every time; endless-query: a vCD query page (QueryResultRecords) of `count` new
   * VMRecords (default 128) with a nextPage link to a new page, every time; flood: 200 with
   * `bytes` bytes (an XML comment that never ends), chunked, without a content-length, written
   * as the client takes them (every request shares one buffer, whatever the size).
   */
  kind: 'delay' | 'hang' | 'reset' | 'status' | 'body' | 'empty' | 'truncate' | 'delay-body' | 'chunked' | 'endless-list' | 'endless-query' | 'flood';
  /** flood: the bytes sent (default 64 MiB). */
  bytes?: number;
  /** Items per page of endless-list and endless-query. */
  count?: number;
  /** endless-query: every VM name is this many characters long (default: short names). */
  nameChars?: number;
  /** endless-query: a comment of this many characters in each page, which a reader must not keep. */
  padChars?: number;
  /** The kind of list endless-list sends: NodeList (default) or PodList (running, ready pods). */
  listKind?: 'NodeList' | 'PodList';
  ms?: number;
  status?: number;
  body?: string;
  contentType?: string;
  /** Let this many matching requests through untouched first. */
  skip?: number;
  /** Apply to this many matching requests, then expire; forever when absent. */
  times?: number;
}

interface ActiveFault extends Fault {
  seen: number;
  applied: number;
}

const pending = new WeakMap<ServerResponse, Fault>();
let endlessPages = 0;

/** Writes a body with Transfer-Encoding: chunked (no content-length), in 16 KiB chunks. */
function sendChunked(res: ServerResponse, status: number, headers: Record<string, string>, bytes: Buffer): void {
  res.writeHead(status, headers);
  for (let i = 0; i < bytes.length; i += 16384) res.write(bytes.subarray(i, i + 16384));
  res.end();
}

/** What every flood sends, over and over. */
const FLOOD_CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Sends `bytes` bytes of a document that never ends, chunked, waiting for the client to take each chunk; stops when it hangs up. */
function flood(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/vnd.vmware.vcloud.metrics.currentusagespec+xml;version=34.0' });
  let sent = 0;
  const more = (): void => {
    while (sent < bytes && !res.destroyed) {
      const chunk = sent === 0 ? Buffer.concat([Buffer.from('<?xml version="1.0"?><!--'), FLOOD_CHUNK]) : FLOOD_CHUNK;
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end();
  };
  more();
}

/** Holds the active faults of one server and applies them to requests. */
export class FaultInjector {
  private faults: ActiveFault[] = [];

  set(faults: Fault[]): void {
    this.faults = faults.map((f) => ({ ...f, seen: 0, applied: 0 }));
  }

  /** The fault for this request, counting it; undefined when none applies. */
  take(req: IncomingMessage, pathname: string): Fault | undefined {
    for (const f of this.faults) {
      if (f.method && f.method.toUpperCase() !== req.method) continue;
      if (f.path && !new RegExp(f.path).test(pathname)) continue;
      f.seen++;
      if (f.skip && f.seen <= f.skip) continue;
      if (f.times !== undefined && f.applied >= f.times) continue;
      f.applied++;
      return f;
    }
    return undefined;
  }

  /**
   * Applies the parts of a fault that come before the handler. Returns true when the
   * response is done (the handler must not run); body faults are left for `send`.
   */
  async before(fault: Fault, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    switch (fault.kind) {
      case 'delay':
        await new Promise((r) => setTimeout(r, fault.ms ?? 1000));
        return false;
      case 'hang':
        req.socket.setTimeout(0);
        return true;
      case 'reset':
        req.socket.destroy();
        return true;
      case 'status':
        if (fault.ms) await new Promise((r) => setTimeout(r, fault.ms));
        res.writeHead(fault.status ?? 500, { 'content-type': fault.contentType ?? 'text/plain' });
        res.end(fault.body ?? '');
        return true;
      case 'body':
        res.writeHead(fault.status ?? 200, { 'content-type': fault.contentType ?? 'text/html' });
        res.end(fault.body ?? '');
        return true;
      case 'empty':
        res.writeHead(200, { 'content-length': '0' });
        res.end();
        return true;
      case 'endless-list': {
        // A broken or hostile API server: the list never ends, and each page is new.
        const page = endlessPages++;
        const count = fault.count ?? 500;
        const kind = fault.listKind ?? 'NodeList';
        const phase = kind === 'PodList' ? '"phase":"Running",' : '';
        const items = Array.from(
          { length: count },
          (_, i) => `{"metadata":{"name":"endless-${page}-${i}"},"status":{${phase}"conditions":[{"type":"Ready","status":"True"}]}}`,
        );
        const body = `{"kind":"${kind}","apiVersion":"v1","metadata":{"continue":"page-${page}-${Math.random().toString(36).slice(2)}"},"items":[${items.join(',')}]}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
        return true;
      }
      case 'endless-query': {
        // A broken or hostile vCD: the query service pages for ever, each page new.
        const page = endlessPages++;
        const count = fault.count ?? 128;
        const hex = (n: number) => n.toString(16).padStart(12, '0');
        const name = (i: number) => (fault.nameChars === undefined ? `endless-${page}-${i}` : 'x'.repeat(fault.nameChars));
        const records = Array.from(
          { length: count },
          (_, i) =>
            `<VMRecord name="${name(i)}" containerName="endless" status="POWERED_ON" isVAppTemplate="false" href="/api/vApp/vm-${hex(page).slice(4)}-0000-4000-8000-${hex(i)}"/>`,
        );
        const pad = fault.padChars ? `<!--${'x'.repeat(fault.padChars)}-->` : '';
        const body = `<?xml version="1.0" encoding="UTF-8"?><QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" total="999999999" page="${page}" pageSize="${count}"><Link rel="nextPage" href="/api/query?type=vm&amp;format=records&amp;page=${page + 2}&amp;pageSize=${count}"/>${pad}${records.join('')}</QueryResultRecords>`;
        res.writeHead(200, { 'content-type': 'application/vnd.vmware.vcloud.query.records+xml;version=34.0' });
        res.end(body);
        return true;
      }
      case 'flood':
        flood(res, fault.bytes ?? 64 * 1024 * 1024);
        return true;
      case 'chunked':
        if (fault.body === undefined) {
          pending.set(res, fault);
          return false;
        }
        sendChunked(res, fault.status ?? 200, { 'content-type': fault.contentType ?? 'application/json' }, Buffer.from(fault.body));
        return true;
      default:
        pending.set(res, fault);
        return false;
    }
  }
}

/**
 * Sends a whole response. Every simulated API answers through here, so that the body faults
 * (truncate, delay-body) apply to real documents.
 */
export function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const fault = pending.get(res);
  if (fault?.kind === 'chunked') {
    sendChunked(res, status, headers, bytes);
    return;
  }
  res.writeHead(status, { ...headers, 'content-length': String(bytes.length) });
  if (!fault || bytes.length < 2) {
    res.end(bytes);
    return;
  }
  const half = Math.floor(bytes.length / 2);
  res.write(bytes.subarray(0, half));
  if (fault.kind === 'truncate') {
    setTimeout(() => res.socket?.destroy(), 20);
  } else {
    setTimeout(() => res.end(bytes.subarray(half)), fault.ms ?? 1000);
  }
}

// Values for Zabbix trapper items, sent with Zabbix's sender protocol (what zabbix_sender
// speaks): a header `ZBXD` 0x01, the data length and a reserved word (little-endian 32-bit
// each), then the JSON `{"request":"sender data","data":[{host,key,value,clock}]}`; the server
// answers in the same framing with `{"response":"success","info":"processed: N; failed: M; …"}`.
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckError } from '../plugin/errors';
import { boundedExcerpt } from '../plugin/server-text';

/** One value for one trapper item. */
export interface TrapperValue {
  host: string;
  key: string;
  value: string;
  /** Seconds since the epoch. */
  clock: number;
}

/** What the server said it did with the values. */
export interface SenderReport {
  processed: number;
  failed: number;
  total: number;
}

/** Where the trapper listens. */
export interface ZabbixTarget {
  host: string;
  port: number;
}

const HEADER = Buffer.from([0x5a, 0x42, 0x58, 0x44, 0x01]); // "ZBXD" and the protocol flag
const HEADER_BYTES = HEADER.length + 8;
/** The server's answer is one short line of JSON; more is not a Zabbix server. */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** Values per request, as zabbix_sender sends them. */
const VALUES_PER_REQUEST = 250;

/** One framed sender request. */
export function senderPacket(values: readonly TrapperValue[]): Buffer {
  const json = Buffer.from(JSON.stringify({ request: 'sender data', data: values }));
  const head = Buffer.alloc(HEADER_BYTES);
  HEADER.copy(head);
  head.writeUInt32LE(json.length, HEADER.length);
  head.writeUInt32LE(0, HEADER.length + 4);
  return Buffer.concat([head, json]);
}

/** Reads the server's framed answer into counts, or throws a CheckError naming what is wrong with it. */
export function parseSenderAnswer(answer: Buffer, where: string): SenderReport {
  if (answer.length < HEADER_BYTES || !answer.subarray(0, 4).equals(HEADER.subarray(0, 4)))
    throw new CheckError(`${where} did not answer in Zabbix's protocol (no ZBXD header); check --zabbix-server and --zabbix-port (the trapper port, 10051)`);
  const length = answer.readUInt32LE(HEADER.length);
  const body = answer.subarray(HEADER_BYTES, HEADER_BYTES + length).toString('utf8');
  let doc: { response?: unknown; info?: unknown };
  try {
    doc = JSON.parse(body) as typeof doc;
  } catch {
    throw new CheckError(`${where} answered with a body that is not JSON ("${boundedExcerpt(body, 100)}")`);
  }
  const info = typeof doc.info === 'string' ? doc.info : '';
  if (doc.response !== 'success')
    throw new CheckError(
      `${where} refused the values ("${boundedExcerpt(String(doc.response), 60)}"${info ? `: ${boundedExcerpt(info, 200)}` : ''}); check the server log`,
    );
  const count = (name: string) => Number(new RegExp(`${name}:\\s*(\\d+)`).exec(info)?.[1] ?? NaN);
  const report = { processed: count('processed'), failed: count('failed'), total: count('total') };
  if (!Number.isFinite(report.processed) || !Number.isFinite(report.failed) || !Number.isFinite(report.total))
    throw new CheckError(`${where} answered without the processed/failed counts ("${boundedExcerpt(info, 200)}")`);
  return report;
}

/**
 * Sends the values (in requests of 250, one connection each, as zabbix_sender does) and adds
 * up the server's counts. `signal` (the run's timeout) closes the connection at once.
 */
export async function sendToZabbix(values: readonly TrapperValue[], target: ZabbixTarget, options: { signal?: AbortSignal } = {}): Promise<SenderReport> {
  const total: SenderReport = { processed: 0, failed: 0, total: 0 };
  for (let i = 0; i < values.length; i += VALUES_PER_REQUEST) {
    const report = parseSenderAnswer(await exchange(senderPacket(values.slice(i, i + VALUES_PER_REQUEST)), target, options.signal), where(target));
    total.processed += report.processed;
    total.failed += report.failed;
    total.total += report.total;
  }
  return total;
}

function where(target: ZabbixTarget): string {
  return `Zabbix server ${target.host}:${target.port}`;
}

/**
 * One value written as it is made (a fleet's document, VM by VM) into a file of its own (mode
 * 0600 in a private directory), already escaped as the JSON string the request carries: memory
 * holds a part at a time, whatever the size of the value.
 */
export class SpooledValue {
  private readonly dir = mkdtempSync(join(tmpdir(), 'cloudchecks-zabbix-'));
  readonly file = join(this.dir, 'value');
  private readonly fd = openSync(this.file, 'wx', 0o600);
  private closed = false;

  /** Appends text to the value. */
  write(text: string): void {
    if (this.closed) return;
    writeSync(this.fd, JSON.stringify(text).slice(1, -1));
  }

  /** Ends the writing; the file stays until `remove`. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  remove(): void {
    this.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Sends one spooled value in one sender request (the document streamed from its file onto the
 * connection) and reads the server's counts, as sendToZabbix does for values in memory.
 */
export async function sendSpooledValue(
  value: Omit<TrapperValue, 'value'>,
  spool: SpooledValue,
  target: ZabbixTarget,
  options: { signal?: AbortSignal } = {},
): Promise<SenderReport> {
  spool.close();
  // The request as senderPacket writes it, the value's text (escaped already) between its two halves.
  const [before, after] = JSON.stringify({ request: 'sender data', data: [{ host: value.host, key: value.key, value: '\0', clock: value.clock }] }).split(
    '"\\u0000"',
  );
  const head = Buffer.from(`${before}"`);
  const tail = Buffer.from(`"${after}`);
  const length = head.length + statSync(spool.file).size + tail.length;
  const frame = Buffer.alloc(HEADER_BYTES);
  HEADER.copy(frame);
  frame.writeUInt32LE(length, HEADER.length);
  frame.writeUInt32LE(0, HEADER.length + 4);
  const parts: Array<Buffer | string> = [Buffer.concat([frame, head]), spool.file, tail];
  return parseSenderAnswer(await exchange(parts, target, options.signal), where(target));
}

/** Writes the parts of a request (buffers, and files named by their path, streamed) onto the connection. */
async function writeParts(socket: Socket, parts: ReadonlyArray<Buffer | string>): Promise<void> {
  // A connection closed meanwhile (an answer, the timeout) ends the writing.
  const put = (chunk: Buffer) =>
    socket.destroyed || socket.write(chunk) ? Promise.resolve() : new Promise<void>((done) => socket.once('drain', done).once('close', done));
  for (const part of parts) {
    if (typeof part !== 'string') await put(part);
    else
      for await (const chunk of createReadStream(part)) {
        if (socket.destroyed) return;
        await put(chunk as Buffer);
      }
  }
}

/** Writes the request and reads the answer until the server closes, at most MAX_ANSWER_BYTES. */
function exchange(packet: Buffer | ReadonlyArray<Buffer | string>, target: ZabbixTarget, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CheckError(`not sent to ${where(target)}: the timeout expired`));
    const socket: Socket = connect({ host: target.host, port: target.port });
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: CheckError) => {
      socket.destroy();
      reject(error);
    };
    const onAbort = () => fail(new CheckError(`${where(target)} did not answer before the timeout`));
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      if (Buffer.isBuffer(packet)) socket.write(packet);
      // A failure of the write shows as the socket's error (or the timeout's abort).
      else writeParts(socket, packet).catch(() => socket.destroy());
    });
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) return fail(new CheckError(`${where(target)} answered more than ${MAX_ANSWER_BYTES} bytes; that is not a Zabbix trapper`));
      chunks.push(chunk);
      // A complete answer: the header's length is all there.
      const answer = Buffer.concat(chunks);
      if (answer.length >= HEADER_BYTES && answer.length >= HEADER_BYTES + answer.readUInt32LE(HEADER.length)) {
        signal?.removeEventListener('abort', onAbort);
        socket.destroy();
        resolve(answer);
      }
    });
    socket.once('end', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      const fix =
        error.code === 'ECONNREFUSED'
          ? 'check --zabbix-server and --zabbix-port and that the server (or proxy) runs its trapper (StartTrappers > 0)'
          : 'check the name, routing and firewalls';
      fail(new CheckError(`cannot send to ${where(target)} (${error.code ?? error.message}); ${fix}`));
    });
  });
}

// A TCP relay in front of the simulator's vCD: closed, it refuses new connections and resets
// the open ones as a vCD that goes down does, whatever a check was reading; opened again, on
// the same port, vCD is back.
import net from 'node:net';
import { sleep, until } from './engines';
import { freePort } from './icinga2';

/** A TCP relay to the simulator's vCD port that can be closed (connections refused) and opened again on the same port. */
export class Relay {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: number) {}

  async open(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((done) => server.listen(this.port, '127.0.0.1', done));
    this.server = server;
  }

  /**
   * Refuses new connections, and resets the open ones (a check half-way through its requests or
   * an answer) at once: no grace, a check reading when vCD goes down must say so in that run.
   */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise((done) => server.close(done)) : Promise.resolve();
    for (const s of [...this.sockets]) s.resetAndDestroy();
    await closed;
  }
}

/** A relay opened in front of the https URL of a simulated API, and the URL through it. */
export async function relayTo(httpsUrl: string): Promise<{ relay: Relay; url: string }> {
  const relay = new Relay(Number(new URL(httpsUrl).port));
  await relay.open();
  return { relay, url: `https://127.0.0.1:${relay.port}` };
}

/**
 * Closes the relay while check_vcd (a System account) is half-way through the cells answer, the
 * worst moment for it: the simulator behind `simHttpUrl` (its plain-HTTP control URL) holds the
 * second half of its next cells answer back for 5 s, and the relay resets the connection in that
 * time. `withinMs` bounds the wait for check_vcd's next run.
 */
export async function closeWhileCellsRead(relay: Relay, simHttpUrl: string, withinMs: number): Promise<void> {
  const faults = async (list: unknown[]) => {
    const r = await fetch(`${simHttpUrl}/_sim/faults`, { method: 'PUT', body: JSON.stringify(list) });
    if (r.status >= 300) throw new Error(`the simulator refused the faults: HTTP ${r.status} ${await r.text()}`);
  };
  const cellsRead = async () => ((await (await fetch(`${simHttpUrl}/_sim/stats`)).json()) as Record<string, number>).cells ?? 0;
  const before = await cellsRead();
  await faults([{ path: '^/cloudapi/1\\.0\\.0/cells$', kind: 'delay-body', ms: 5000, times: 1 }]);
  await until('check_vcd half-way through the cells answer', cellsRead, (n) => n > before, withinMs);
  await sleep(300);
  await relay.close();
  await faults([]);
}

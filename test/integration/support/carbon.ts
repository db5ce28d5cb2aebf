// A private Graphite store for the integration tests: Debian's carbon-cache (graphite-carbon)
// in the foreground with a configuration of its own (its line receiver on 127.0.0.1, its
// whisper files, logs and pid in a temporary directory; no other listener), so that a test can
// read which metric paths carbon really stored: one whisper file per path.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { findExecutable, sleep, stopDaemon } from './engines';

/** carbon-cache, or undefined when graphite-carbon is not installed. */
export function findCarbon(): string | undefined {
  return findExecutable('carbon-cache');
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

export class PrivateCarbon {
  readonly root = mkdtempSync(join(tmpdir(), 'cc-carbon-'));
  /** The plaintext line receiver's port on 127.0.0.1 (what a GraphiteWriter sends to). */
  port = 0;
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private log = '';

  constructor(private readonly carbonCache: string) {}

  private get whisper(): string {
    return join(this.root, 'whisper');
  }

  /** Starts carbon-cache and waits (bounded) until its line receiver takes connections. */
  async start(): Promise<void> {
    for (const d of ['whisper', 'log', 'conf']) mkdirSync(join(this.root, d));
    this.port = await freePort();
    const [pickle, query] = [await freePort(), await freePort()];
    const conf = join(this.root, 'conf', 'carbon.conf');
    writeFileSync(
      conf,
      [
        '[cache]',
        `STORAGE_DIR = ${this.root}/`,
        `LOCAL_DATA_DIR = ${this.whisper}/`,
        `CONF_DIR = ${this.root}/conf/`,
        `LOG_DIR = ${this.root}/log/`,
        `PID_DIR = ${this.root}/`,
        'DATABASE = whisper',
        'USER =',
        'MAX_CACHE_SIZE = inf',
        'MAX_UPDATES_PER_SECOND = inf',
        'MAX_CREATES_PER_MINUTE = inf',
        'LINE_RECEIVER_INTERFACE = 127.0.0.1',
        `LINE_RECEIVER_PORT = ${this.port}`,
        'ENABLE_UDP_LISTENER = False',
        'PICKLE_RECEIVER_INTERFACE = 127.0.0.1',
        `PICKLE_RECEIVER_PORT = ${pickle}`,
        'CACHE_QUERY_INTERFACE = 127.0.0.1',
        `CACHE_QUERY_PORT = ${query}`,
        'WHISPER_FALLOCATE_CREATE = False',
        '',
      ].join('\n'),
    );
    // One archive: ten-second points for a day.
    writeFileSync(join(this.root, 'conf', 'storage-schemas.conf'), '[default]\npattern = .*\nretentions = 10s:1d\n');
    const child = spawn(
      this.carbonCache,
      [`--config=${conf}`, '--nodaemon', `--pidfile=${join(this.root, 'carbon.pid')}`, `--logdir=${join(this.root, 'log')}`, 'start'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    this.child = child;
    child.stdout!.on('data', (d) => (this.log += d));
    child.stderr!.on('data', (d) => (this.log += d));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`carbon-cache exited with ${child.exitCode}:\n${this.log}${this.logFiles()}`);
      const open = await new Promise<boolean>((resolve) => {
        const s = net.connect(this.port, '127.0.0.1', () => s.end(() => resolve(true)));
        s.once('error', () => resolve(false));
      });
      if (open) return;
      if (Date.now() > deadline) throw new Error(`carbon-cache did not listen within 30 s:\n${this.log}${this.logFiles()}`);
      await sleep(200);
    }
  }

  private logFiles(): string {
    try {
      return readdirSync(join(this.root, 'log'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
        .join('\n');
    } catch {
      return '';
    }
  }

  /** The metric paths carbon stored (a whisper file each), dotted as Graphite names them. */
  storedPaths(): string[] {
    try {
      return readdirSync(this.whisper, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith('.wsp'))
        .map((e) =>
          relative(this.whisper, join(e.parentPath, e.name))
            .replace(/\.wsp$/, '')
            .split('/')
            .join('.'),
        );
    } catch {
      return [];
    }
  }

  async stop(): Promise<void> {
    await stopDaemon(this.child, this.exited);
    rmSync(this.root, { recursive: true, force: true });
  }
}

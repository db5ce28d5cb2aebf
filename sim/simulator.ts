import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckError } from '../lib/plugin/errors';
import { defineOptions, parseOptions, pickOptions, type OptionSpec, type ParsedOptions } from '../lib/plugin/options';
import type { SimModule } from './module';
import { startApiServer, type ApiServer, type ServerTls } from './server';
import { SIM_CA_PEM } from './tls-material';
import { makeShortLivedTls, NEAR_EXPIRY_DAYS } from './tls-short-lived';

/** A running API of the simulator: its URLs, faults, stats and start-up facts. */
export interface RunningApi extends ApiServer {
  info: Record<string, string>;
}

export interface Simulator {
  apis: Record<string, RunningApi>;
  /** The CA that signed the simulator's certificates, for --ca-file. */
  caFile: string;
  stateDir: string;
  close(): Promise<void>;
}

/** The simulator's own options (the modules add theirs). */
export const SIM_OPTIONS = defineOptions([
  { long: 'help', short: 'h', type: 'boolean', description: 'Print this help.' },
  { long: 'host', type: 'string', arg: 'ADDRESS', default: '127.0.0.1', description: 'Address to listen on.' },
  {
    long: 'cert',
    type: 'string',
    arg: 'KIND',
    default: 'valid',
    choices: ['valid', 'expired', 'wrong-host', 'near-expiry'],
    description: `Server certificate the HTTPS listeners present (near-expiry: made at start by a CA of its own, written as ca.pem, it expires ${NEAR_EXPIRY_DAYS} days later; needs openssl).`,
  },
  {
    long: 'tls-cert',
    type: 'string',
    arg: 'FILE',
    description: 'Present this certificate (PEM) instead of the built-in ones, e.g. one your own CA signed for 127.0.0.1; with --tls-key and --tls-ca.',
  },
  { long: 'tls-key', type: 'string', arg: 'FILE', description: 'The private key (PEM) of --tls-cert.' },
  { long: 'tls-ca', type: 'string', arg: 'FILE', description: 'The CA (PEM) that signed --tls-cert: written to the state directory as ca.pem.' },
  { long: 'state-dir', type: 'string', arg: 'DIR', description: 'Where the CA, token and password files are written (default: a new temporary directory).' },
  { long: 'ready-file', type: 'string', arg: 'PATH', description: 'Write the endpoints as JSON to PATH once listening (for scripts).' },
]);

/** The ports of a module's listeners, named after it (--cluster-port, --cluster-http-port). */
function portOptions<const Name extends string>(module: { name: Name; description: string }) {
  return defineOptions([
    { long: `${module.name}-port`, type: 'number', arg: 'PORT', default: 0, description: `HTTPS port of the ${module.description} (0: any free port).` },
    {
      long: `${module.name}-http-port`,
      type: 'number',
      arg: 'PORT',
      default: 0,
      description: `Plain HTTP port of the ${module.description} (0: any free port).`,
    },
  ]);
}

/** Options of cloudchecks-sim, the modules' own options included. */
export function simulatorOptions(modules: readonly SimModule[]): OptionSpec[] {
  return [...SIM_OPTIONS, ...modules.flatMap((m) => [...portOptions(m), ...m.options])];
}

/** Starts every module's API on its own HTTP and HTTPS listeners. */
export async function startSimulator(options: ParsedOptions, modules: readonly SimModule[]): Promise<Simulator> {
  const own = pickOptions(options, SIM_OPTIONS);
  const stateDir = own['state-dir'] ?? mkdtempSync(join(tmpdir(), 'cloudchecks-sim-'));
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const tls = ownTls(own) ?? (own.cert === 'near-expiry' ? makeShortLivedTls(stateDir) : undefined);
  const caFile = join(stateDir, 'ca.pem');
  writeFileSync(caFile, tls?.ca ?? SIM_CA_PEM);
  const apis: Record<string, RunningApi> = {};
  try {
    for (const m of modules) {
      const api = await m.create(options, stateDir);
      const ports = pickOptions(options, portOptions(m));
      const server = await startApiServer(api.handler, api.stats, {
        host: own.host,
        httpPort: ports[`${m.name}-http-port`],
        httpsPort: ports[`${m.name}-port`],
        tls: tls ?? (own.cert as Exclude<typeof own.cert, 'near-expiry'>),
      });
      apis[m.name] = Object.assign(server, { info: api.info });
    }
  } catch (error) {
    await Promise.all(Object.values(apis).map((a) => a.close()));
    throw error;
  }
  return {
    apis,
    caFile,
    stateDir,
    close: async () => {
      await Promise.all(Object.values(apis).map((a) => a.close()));
    },
  };
}

/**
 * --tls-cert, --tls-key and --tls-ca: a certificate of one's own CA (all three, or none), so
 * that a wrong CA can be rehearsed: the built-in CA, or another instance's, does not vouch for it.
 */
function ownTls(own: { cert: string; 'tls-cert'?: string; 'tls-key'?: string; 'tls-ca'?: string }): (ServerTls & { ca: string }) | undefined {
  const files = { cert: own['tls-cert'], key: own['tls-key'], ca: own['tls-ca'] };
  const given = Object.entries(files).filter(([, v]) => v !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < 3) {
    const missing = Object.entries(files)
      .filter(([, v]) => v === undefined)
      .map(([k]) => `--tls-${k}`);
    throw new CheckError(`--tls-cert, --tls-key and --tls-ca go together: add ${missing.join(' and ')}`);
  }
  if (own.cert !== 'valid') throw new CheckError('--cert chooses among the built-in certificates: drop it with --tls-cert');
  const read = (option: string, file: string, kind: RegExp) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new CheckError(
        `cannot read ${option} ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give a PEM file this user may read`,
      );
    }
    if (!kind.test(text)) throw new CheckError(`${option} ${file} is not a PEM ${kind.source.includes('KEY') ? 'private key' : 'certificate'}`);
    return text;
  };
  return {
    cert: read('--tls-cert', files.cert!, /-----BEGIN CERTIFICATE-----/),
    key: read('--tls-key', files.key!, /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/),
    ca: read('--tls-ca', files.ca!, /-----BEGIN CERTIFICATE-----/),
  };
}

/** Starts the simulator from command-line style arguments (tests, bench, demo). */
export function startSimulatorFromArgs(argv: readonly string[], modules: readonly SimModule[]): Promise<Simulator> {
  return startSimulator(parseOptions(argv, simulatorOptions(modules)), modules);
}

/**
 * The one line a failed start prints: a file-system or network refusal (another user's
 * checkout or state directory, a port in use) names the path or port and what to do, never a
 * stack trace; anything else keeps its stack, being a fault of the simulator itself.
 */
export function startFailureLine(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (error instanceof CheckError) return `cloudchecks-sim: ${error.message}`;
  const code = typeof e?.code === 'string' ? e.code : '';
  const where = e.path ?? (e.port !== undefined ? `${e.address ?? '127.0.0.1'}:${e.port}` : undefined);
  const what = `${e.syscall ?? 'start'}${where !== undefined ? ` ${where}` : ''}`;
  if (code === 'EACCES' || code === 'EPERM')
    return `cloudchecks-sim: cannot ${what}: permission denied (${code}); run it as a user who may read the checkout (or use the installed cloudchecks-sim), with --state-dir in a directory that user may write`;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EROFS' || code === 'ENOSPC')
    return `cloudchecks-sim: cannot ${what} (${code}); give --state-dir a directory this user may create and write`;
  if (code === 'EADDRINUSE') return `cloudchecks-sim: cannot ${what}: the port is in use (${code}); choose another port, or 0 for any free one`;
  if (code !== '') return `cloudchecks-sim: cannot ${what}: ${e.message}`;
  return `cloudchecks-sim: ${(error as Error)?.stack ?? String(error)}`;
}

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOptions, type OptionSpec, type ParsedOptions } from '../lib/plugin/options';
import type { SimModule } from './module';
import { startApiServer, type ApiServer } from './server';
import { SIM_CA_PEM } from './tls-material';

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

/** Options of cloudchecks-sim, the modules' own options included. */
export function simulatorOptions(modules: readonly SimModule[]): OptionSpec[] {
  const specs: OptionSpec[] = [
    { long: 'help', short: 'h', type: 'boolean', description: 'Print this help.' },
    { long: 'host', type: 'string', arg: 'ADDRESS', default: '127.0.0.1', description: 'Address to listen on.' },
    { long: 'cert', type: 'string', arg: 'KIND', default: 'valid', choices: ['valid', 'expired', 'wrong-host'], description: 'Server certificate the HTTPS listeners present.' },
    { long: 'state-dir', type: 'string', arg: 'DIR', description: 'Where the CA, token and password files are written (default: a new temporary directory).' },
    { long: 'ready-file', type: 'string', arg: 'PATH', description: 'Write the endpoints as JSON to PATH once listening (for scripts).' },
  ];
  for (const m of modules) {
    specs.push(
      { long: `${m.name}-port`, type: 'number', arg: 'PORT', default: 0, description: `HTTPS port of the ${m.description} (0: any free port).` },
      { long: `${m.name}-http-port`, type: 'number', arg: 'PORT', default: 0, description: `Plain HTTP port of the ${m.description} (0: any free port).` },
      ...m.options,
    );
  }
  return specs;
}

/** Starts every module's API on its own HTTP and HTTPS listeners. */
export async function startSimulator(options: ParsedOptions, modules: readonly SimModule[]): Promise<Simulator> {
  const stateDir = (options['state-dir'] as string | undefined) ?? mkdtempSync(join(tmpdir(), 'cloudchecks-sim-'));
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const caFile = join(stateDir, 'ca.pem');
  writeFileSync(caFile, SIM_CA_PEM);
  const apis: Record<string, RunningApi> = {};
  try {
    for (const m of modules) {
      const api = await m.create(options, stateDir);
      const server = await startApiServer(api.handler, api.stats, {
        host: options.host as string,
        httpPort: options[`${m.name}-http-port`] as number,
        httpsPort: options[`${m.name}-port`] as number,
        cert: options.cert as 'valid',
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

/** Starts the simulator from command-line style arguments (tests, bench, demo). */
export function startSimulatorFromArgs(argv: readonly string[], modules: readonly SimModule[]): Promise<Simulator> {
  return startSimulator(parseOptions(argv, simulatorOptions(modules)), modules);
}

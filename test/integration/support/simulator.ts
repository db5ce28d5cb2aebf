import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import REGISTRY from '../../../plugins/registry.json';

export const REPO = resolve(__dirname, '../../..');
// CLOUDCHECKS_DIST: test another build of the executables (default: the repository's dist/).
export const DIST = process.env.CLOUDCHECKS_DIST ? resolve(process.env.CLOUDCHECKS_DIST) : join(REPO, 'dist');
export const PLUGINS: readonly string[] = REGISTRY;

/** What dist/cloudchecks-sim writes to --ready-file. */
export interface ReadyFile {
  pid: number;
  caFile: string;
  stateDir: string;
  apis: Record<string, { httpUrl: string; httpsUrl: string } & Record<string, string>>;
}

/** The built simulator, run as a user would, and stopped by its own pid. */
export class BuiltSimulator {
  ready!: ReadyFile;
  private child?: ChildProcess;
  private dir = mkdtempSync(join(tmpdir(), 'cc-int-sim-'));

  constructor(private readonly args: readonly string[]) {}

  async start(): Promise<ReadyFile> {
    const readyFile = join(this.dir, 'ready.json');
    const child = spawn(join(DIST, 'cloudchecks-sim'), ['--ready-file', readyFile, '--state-dir', join(this.dir, 'state'), ...this.args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (existsSync(readyFile)) {
        try {
          this.ready = JSON.parse(readFileSync(readyFile, 'utf8')) as ReadyFile;
          return this.ready;
        } catch {
          // written but not complete yet
        }
      }
      if (child.exitCode !== null) throw new Error(`cloudchecks-sim exited with ${child.exitCode}: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`cloudchecks-sim did not start within 15 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The vcd module's connection as check_vm_* options (its tenant user and password file). */
  vcdArgs(): string[] {
    const api = this.ready.apis.vcd;
    return ['--url', api.httpsUrl, '--ca-file', this.ready.caFile, '--user', api.user, '--org', api.org, '--password-file', api.passwordFile];
  }

  /** The VM ids of the vcd module by role (healthy, busy, full-disk, powered-off...). */
  vms(): Record<string, string> {
    return Object.fromEntries(
      (this.ready.apis.vcd?.vms ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((p) => p.split('=') as [string, string]),
    );
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Fails with the fix when the executables were not built. */
export function assertBuilt(): void {
  const missing = [...PLUGINS, 'cloudchecks-sim'].filter((p) => !existsSync(join(DIST, p)));
  if (missing.length > 0) throw new Error(`dist/ lacks ${missing.join(', ')}: run 'make' (node build.mjs dist) first`);
}

// The shell steps the docs give a user, run as written. A doc marks such a block with
// `<!-- tested: ID ... -->` on the line before its ```sh fence; the test reads the block from
// the doc (so the doc cannot drift from what is tested) and runs each command with /bin/sh.
// What a test may not do to the machine is sandboxed around the commands, not edited in
// them: the engines' stock paths are moved into a private copy (localize), and commands
// that act on the running system (systemctl reload, an interactive editor) are shims that
// record their call.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './simulator';

/** The commands of the block a doc marks `<!-- tested: ID -->` (continuations joined, comments kept for sh). */
export function documentedSteps(doc: string, id: string): string[] {
  const text = readFileSync(join(REPO, doc), 'utf8');
  const marker = new RegExp(`^<!-- tested: ${id}\\b.*-->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\`$`, 'm');
  const block = marker.exec(text);
  if (!block) throw new Error(`${doc} has no block marked <!-- tested: ${id} -->`);
  return block[1]
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
}

export interface StepRun {
  line: string;
  command: string;
  code: number;
  output: string;
}

export interface SandboxOptions {
  /** More environment for the commands (e.g. NODE_EXTRA_CA_CERTS for a test server's CA). */
  env?: NodeJS.ProcessEnv;
  /** Working directory (a checkout's steps run in the repository). */
  cwd: string;
  /** Moves the stock paths of a command into the private copy. */
  localize: (line: string) => string;
  /** Directory for the shims and their log. */
  dir: string;
  /** More shims: name -> shell script body (after #!/bin/sh). */
  shims?: Record<string, string>;
  /**
   * Cron's environment: nothing but `env` and PATH=/usr/bin:/bin (after the shims); these
   * shims go into <dir>/sbin instead, which only a command that adds /usr/sbin to its PATH
   * finds (localize maps /usr/sbin there).
   */
  cron?: { sbinShims: Record<string, string> };
  /** How long one command (or script) may take; 60 s by default. */
  timeoutMs?: number;
}

/** `runuser -u USER -- COMMAND...` run as the test's own user (the sandbox is not the engine user's to read). */
export const RUNUSER_SHIM = '[ "$1" = -u ] && shift 2; [ "$1" = -- ] && shift; exec "$@"';

/** Where the sbin shims of a cron-like run are: the sandbox's stand-in for /usr/sbin. */
export function sbinShimDir(dir: string): string {
  return join(dir, 'sbin');
}

/** Runs documented lines one by one, as root would in a shell, in the sandbox; never throws. */
export function runDocumentedSteps(lines: string[], options: SandboxOptions): StepRun[] {
  const bin = join(options.dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(options.dir, 'shims.log');
  const shims: Record<string, string> = {
    systemctl: `echo "systemctl $*" >> '${log}'`,
    editor: `echo "editor $*" >> '${log}'`,
    ...options.shims,
  };
  const write = (dir: string, all: Record<string, string>) => {
    mkdirSync(dir, { recursive: true });
    for (const [name, body] of Object.entries(all)) {
      writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(dir, name), 0o755);
    }
  };
  write(bin, shims);
  if (options.cron) write(sbinShimDir(options.dir), options.cron.sbinShims);
  const env = options.cron ? { ...options.env, PATH: `${bin}:/usr/bin:/bin` } : { ...process.env, ...options.env, PATH: `${bin}:${process.env.PATH}` };
  const runs: StepRun[] = [];
  for (const line of lines) {
    const command = options.localize(line);
    try {
      const output = execFileSync('/bin/sh', ['-c', `${command} 2>&1`], {
        cwd: options.cwd,
        encoding: 'utf8',
        timeout: options.timeoutMs ?? 60_000,
        env,
      });
      runs.push({ line, command, code: 0, output });
    } catch (e) {
      const err = e as { status?: number; stdout?: string };
      runs.push({ line, command, code: err.status ?? 1, output: err.stdout ?? '' });
    }
  }
  return runs;
}

/** Runs a documented block as one script (for blocks with if/else), in the sandbox; never throws. */
export function runDocumentedScript(lines: string[], options: SandboxOptions): StepRun {
  const [run] = runDocumentedSteps([lines.join('\n')], options);
  return run;
}

/** What the shims recorded (systemctl reload ..., editor ...). */
export function shimCalls(dir: string): string[] {
  try {
    return readFileSync(join(dir, 'shims.log'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

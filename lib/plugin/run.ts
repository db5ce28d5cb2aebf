import { writeSync } from 'node:fs';
import { VERSION } from './version';
import type { RunContext } from './context';
import { setRunDeadline } from './deadline';
import { CheckError, UsageError } from './errors';
import { expandExtraOpts, takeExtraOpts } from './extra-opts';
import { Notes } from './notes';
import { COMMON_OPTIONS, parsePluginOptions, parseTimeout, renderHelp, type OptionSpec, type PluginOptions } from './options';
import { redactResult, runRedactor } from './redact';
import { MAX_ITEM_CHARS, oneLine, renderJson, renderNagios, summaryWithNotes, type Result } from './result';
import { State } from './state';

/** A plugin: its name, options and the probe that turns options into a result. */
export interface PluginDefinition<Specs extends readonly OptionSpec[] = readonly OptionSpec[]> {
  /** Name on the first line, e.g. NODES. */
  name: string;
  /** Executable name, e.g. check_nodes; also the default --extra-opts section. */
  command: string;
  description: string;
  usage: string;
  /** The plugin's own options, declared with `defineOptions` so that `run` gets them typed. */
  options: Specs;
  examples: readonly string[];
  notes?: readonly string[];
  /** Environment variables whose values are secrets, redacted from all output. */
  secretEnv?: readonly string[];
  /** True when stdout is redirected into a file the engine loads (an inventory): a failure then goes to stderr. */
  failuresToStderr?(argv: readonly string[]): boolean;
  /** The state of -t expiry when -t names none (UNKNOWN unless the check is the one others depend on). */
  timeoutState?: State;
  run(options: PluginOptions<Specs>, context: RunContext): Promise<Result>;
}

const DEFAULT_TIMEOUT_SECONDS = 10;
/** The -vvv trace is bounded like the rest of the output (endless pages must not fill memory). */
const MAX_TRACE_LINES = 20000;

// stdout may be a non-blocking pipe that a slow reader lets fill up (long output of a large
// cluster): retry EAGAIN instead of losing the result.
function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text);
  let offset = 0;
  let spins = 0;
  while (offset < buffer.length) {
    try {
      offset += writeSync(fd, buffer, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++spins > 2000) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/**
 * One run of a plugin: what it has said so far (verbosity, format, long output, the held-back
 * trace), its clock (-t counts from the start of the process) and the one place that prints
 * and exits.
 */
class PluginRun {
  verbose = 0;
  /** Known before the options are parsed, so that even a usage error reaches a JSON consumer (a Zabbix dependent item) as JSON. */
  output: string;
  phase = 'starting';
  /** Long-output lines of -vv. */
  readonly details: string[] = [];
  /** What the run noticed on the way (from --extra-opts files on): at -v after the summary. */
  readonly notes = new Notes();
  // The -vvv trace is held back until the result is written: a monitoring engine that merges
  // stderr into the output (Icinga 2 does) must still find the status line first.
  private readonly trace: string[] = [];
  private traceDropped = 0;
  private finished = false;
  /** stdout becomes a file an engine loads: a failure must not replace its content. */
  failuresToStderr = false;
  // -t counts from the start of the process, as the monitoring engine's clock does: Node's
  // own start-up (slow on a loaded host) is part of the budget, not added to it.
  // (Date.now() - uptime, not performance.timeOrigin: the `performance` global loads
  // perf_hooks and eight more of Node's modules, a measurable part of a small check's start.)
  readonly started = Date.now() - process.uptime() * 1000;
  readonly controller = new AbortController();
  /** Until the options are read, the default timeout guards parsing and --extra-opts reads. */
  timeout = { seconds: DEFAULT_TIMEOUT_SECONDS, state: State.UNKNOWN };
  private guard: ReturnType<typeof setTimeout> | undefined;
  /** Set when the check opened its output (context.openOutput): how the runtime ends it. */
  private outputEnd: ((result: Result) => string) | undefined;
  /** The result read so far (context.holdResult): printed in place of a bare timeout. */
  private held: (() => Result | undefined) | undefined;

  constructor(
    private readonly name: string,
    argv: readonly string[],
    private readonly redactor: typeof runRedactor,
  ) {
    this.output = argv.some((a, i) => a === '--output=json' || (a === '--output' && argv[i + 1] === 'json')) ? 'json' : 'nagios';
    // Node prints its own warnings (deprecations, experimental features) on stderr, which must
    // stay empty below -vvv: they become trace lines instead.
    process.emitWarning = ((warning: string | Error) => {
      if (this.verbose >= 3) this.addTrace(`warning: ${warning instanceof Error ? `${warning.name}: ${warning.message}` : warning}`);
    }) as typeof process.emitWarning;
    this.armTimeout();
  }

  get deadline(): number {
    return this.started + this.timeout.seconds * 1000;
  }

  /** (Re)starts the timeout guard for the current -t. */
  armTimeout(): void {
    clearTimeout(this.guard);
    this.guard = setTimeout(() => this.onTimeout(), this.deadline - Date.now());
    setRunDeadline(this.deadline);
  }

  addTrace(line: string): void {
    if (this.trace.length < MAX_TRACE_LINES) this.trace.push(line);
    else this.traceDropped++;
  }

  /** Prints the result (and at -vvv the trace) and exits with its state. */
  finish(result: Result, error?: unknown, timedOut = false): never {
    if (this.finished) return undefined as never; // a probe that resolves after the timeout printed is ignored
    // Synchronous work that ran past the deadline (the timer could not fire) must not print
    // a late result: -t wins.
    if (!timedOut && Date.now() >= this.deadline) return this.onTimeout();
    this.finished = true;
    if (this.outputEnd) writeAll(1, this.redactor.sweep(this.outputEnd(redactResult(result, this.redactor))));
    else writeAll(result.state !== State.OK && this.failuresToStderr ? 2 : 1, this.render(result));
    if (this.verbose >= 3) {
      // An expected failure (CheckError, UsageError) is fully said by its line: a stack only for a bug.
      if (error instanceof Error && !(error instanceof CheckError) && error.stack) this.addTrace(error.stack);
      if (this.traceDropped > 0) this.trace.push(`… ${this.traceDropped} more trace lines`);
      if (this.trace.length > 0) writeAll(2, this.redactor.sweep(this.trace.join('\n')) + '\n');
    }
    process.exit(result.state);
  }

  /** The result as printed: -v notes after the summary, redacted, in the chosen format, with the -vv lines. */
  private render(result: Result): string {
    const { redactor } = this;
    const shown = this.verbose >= 1 && result.raw === undefined ? { ...result, summary: summaryWithNotes(result) } : result;
    // Redacted before rendering rewrites (`;`, `|`, control characters) and escapes (JSON) the texts, then again.
    const clean = redactResult(shown, redactor);
    let text = this.output === 'json' ? renderJson(this.name, clean) : renderNagios(this.name, clean);
    if (this.output !== 'json' && result.raw === undefined && this.details.length > 0)
      text += this.details.map((d) => oneLine(redactor.sweep(d), MAX_ITEM_CHARS)).join('\n') + '\n';
    return redactor.sweep(text);
  }

  /** A result with the notes said on the way after its own. */
  withNotes(result: Result): Result {
    return this.notes.all.length === 0 ? result : { ...result, notes: [...(result.notes ?? []), ...this.notes.all] };
  }

  /**
   * An error as the result: a CheckError says its own state and notes, and what was noticed on
   * the way explains it as much as a result (a usage error is fully said by its line);
   * anything else is an internal error.
   */
  fail(error: unknown): never {
    const result = failureResult(error, this.verbose);
    return this.finish(error instanceof CheckError && !(error instanceof UsageError) ? this.withNotes(result) : result, error);
  }

  onTimeout(): never {
    this.controller.abort();
    const held = this.held?.();
    if (held) {
      // What was read stands: the timeout is said beside it, not in its place.
      return this.finish(
        this.withNotes({ ...held, summary: `${held.summary} (-t ${this.timeout.seconds}s then expired while ${this.phase})` }),
        undefined,
        true,
      );
    }
    const summary = `timed out after ${this.timeout.seconds}s while ${this.phase}; raise -t/--timeout or check the network path to the server`;
    return this.finish({ state: this.timeout.state, summary }, undefined, true);
  }

  /** What the plugin's run may use of this run. */
  context(): RunContext {
    return {
      verbose: this.verbose,
      signal: this.controller.signal,
      deadline: this.deadline,
      timeoutSeconds: this.timeout.seconds,
      notes: this.notes,
      log: (level, message) => {
        if (this.verbose < level) return;
        if (level >= 3) this.addTrace(message);
        else this.details.push(message);
      },
      addSecret: (value) => this.redactor.add(value),
      setPhase: (text) => {
        this.phase = text;
      },
      openOutput: (head, end) => {
        this.outputEnd = end;
        writeAll(1, this.redactor.sweep(head));
        return (text) => {
          if (!this.finished) writeAll(1, this.redactor.sweep(text));
        };
      },
      holdResult: (make) => {
        this.held = make;
      },
    };
  }
}

/** What a plugin says when its check failed: a CheckError's own state and message, else an internal error. */
export function failureResult(error: unknown, verbose: number): Result {
  if (error instanceof CheckError) return { state: error.state, summary: error.message, notes: [...error.notes] };
  const message = error instanceof Error ? error.message : String(error);
  // At -vvv the details are already on their way: do not ask for what was given.
  return { state: State.UNKNOWN, summary: `internal error: ${message} (${verbose >= 3 ? 'stack trace on stderr' : 'run with -vvv for details'})` };
}

/**
 * Reads the options (argv over --extra-opts files), registers their secrets, answers --help
 * and --version (exit 3), and sets -t and the output format for the rest of the run.
 */
function readOptions<const Specs extends readonly OptionSpec[]>(def: PluginDefinition<Specs>, argv: readonly string[], run: PluginRun): PluginOptions<Specs> {
  const specs: readonly OptionSpec[] = [...COMMON_OPTIONS, ...def.options];
  const { specs: extra, rest } = takeExtraOpts(argv);
  const fromFiles = extra.flatMap((s) => expandExtraOpts(s, def.command, process.env, run.notes));
  const parsed = parsePluginOptions(rest, def.options, fromFiles);
  const { options } = parsed;
  run.verbose = Math.min(3, options.verbose);
  run.output = options.output;
  for (const spec of specs) {
    const value = parsed.all[spec.long];
    if (spec.secret && typeof value === 'string') runRedactor.add(value);
  }
  // Printed on purpose: a password equal to the user name must not blank it (and so reveal itself).
  for (const name of ['user', 'org']) {
    const value = parsed.all[name];
    if (typeof value === 'string') runRedactor.addPublic(value);
  }
  if (options.help) {
    writeAll(
      1,
      renderHelp({ command: def.command, version: VERSION, description: def.description, usage: def.usage, specs, examples: def.examples, notes: def.notes }),
    );
    process.exit(State.UNKNOWN);
  }
  if (options.version) {
    writeAll(1, `${def.command} ${VERSION}\n`);
    process.exit(State.UNKNOWN);
  }
  run.timeout = parseTimeout(options.timeout, def.timeoutState);
  run.armTimeout();
  return options;
}

/**
 * Runs a plugin as a monitoring engine expects: parse, probe under a timeout guard, print
 * one result, exit 0-3. This is the only place that prints or exits.
 */
export async function runPlugin<const Specs extends readonly OptionSpec[]>(
  def: PluginDefinition<Specs>,
  argv: readonly string[] = process.argv.slice(2),
): Promise<never> {
  for (const name of def.secretEnv ?? []) runRedactor.add(process.env[name]);
  const run = new PluginRun(def.name, argv, runRedactor);
  run.failuresToStderr = def.failuresToStderr?.(argv) === true;
  let options: PluginOptions<Specs>;
  try {
    options = readOptions(def, argv, run);
  } catch (error) {
    return run.fail(error instanceof CheckError ? error : new UsageError(String(error)));
  }
  try {
    return run.finish(run.withNotes(await def.run(options, run.context())));
  } catch (error) {
    return run.fail(error);
  }
}

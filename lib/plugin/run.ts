import { writeSync } from 'node:fs';
import { VERSION } from './version';
import type { RunContext } from './context';
import { setRunDeadline } from './deadline';
import { CheckError, UsageError } from './errors';
import { expandExtraOpts, takeExtraOpts } from './extra-opts';
import { COMMON_OPTIONS, parseOptions, parseTimeout, renderHelp, type OptionSpec, type ParsedOptions } from './options';
import { redactResult, runRedactor } from './redact';
import { MAX_ITEM_CHARS, oneLine, renderJson, renderNagios, type Result } from './result';
import { State } from './state';

/** A plugin: its name, options and the probe that turns options into a result. */
export interface PluginDefinition {
  /** Name on the first line, e.g. NODES. */
  name: string;
  /** Executable name, e.g. check_nodes; also the default --extra-opts section. */
  command: string;
  description: string;
  usage: string;
  options: readonly OptionSpec[];
  examples: readonly string[];
  notes?: readonly string[];
  /** Environment variables whose values are secrets, redacted from all output. */
  secretEnv?: readonly string[];
  run(options: ParsedOptions, context: RunContext): Promise<Result>;
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
 * Runs a plugin as a monitoring engine expects: parse, probe under a timeout guard, print
 * one result, exit 0-3. This is the only place that prints or exits.
 */
export async function runPlugin(def: PluginDefinition, argv: readonly string[] = process.argv.slice(2)): Promise<never> {
  const redactor = runRedactor;
  for (const name of def.secretEnv ?? []) redactor.add(process.env[name]);
  let verbose = 0;
  // Known before the options are parsed, so that even a usage error reaches a JSON consumer
  // (a Zabbix dependent item) as JSON.
  let output = argv.some((a, i) => a === '--output=json' || (a === '--output' && argv[i + 1] === 'json')) ? 'json' : 'nagios';
  const details: string[] = [];
  // The -vvv trace is held back until the result is written: a monitoring engine that merges
  // stderr into the output (Icinga 2 does) must still find the status line first.
  const trace: string[] = [];
  let traceDropped = 0;
  const addTrace = (line: string) => {
    if (trace.length < MAX_TRACE_LINES) trace.push(line);
    else traceDropped++;
  };
  let finished = false;
  // Node prints its own warnings (deprecations, experimental features) on stderr, which must
  // stay empty below -vvv: they become trace lines instead.
  process.emitWarning = ((warning: string | Error) => {
    if (verbose >= 3) addTrace(`warning: ${warning instanceof Error ? `${warning.name}: ${warning.message}` : warning}`);
  }) as typeof process.emitWarning;
  let phase = 'starting';

  const finish = (result: Result, error?: unknown, timedOut = false): never => {
    if (finished) return undefined as never; // a probe that resolves after the timeout printed is ignored
    // Synchronous work that ran past the deadline (the timer could not fire) must not print
    // a late result: -t wins.
    if (!timedOut && Date.now() >= started + timeout.seconds * 1000) return onTimeout();
    finished = true;
    // Redacted before rendering rewrites (`;`, `|`, control characters) and escapes (JSON) the texts, then again.
    const clean = redactResult(result, redactor);
    let text = output === 'json' ? renderJson(def.name, clean) : renderNagios(def.name, clean);
    if (output !== 'json' && result.raw === undefined && details.length > 0) text += details.map((d) => oneLine(redactor.redact(d), MAX_ITEM_CHARS)).join('\n') + '\n';
    writeAll(1, redactor.redact(text));
    if (verbose >= 3) {
      // An expected failure (CheckError, UsageError) is fully said by its line: a stack only for a bug.
      if (error instanceof Error && !(error instanceof CheckError) && error.stack) addTrace(error.stack);
      if (traceDropped > 0) trace.push(`… ${traceDropped} more trace lines`);
      if (trace.length > 0) writeAll(2, redactor.redact(trace.join('\n')) + '\n');
    }
    process.exit(result.state);
  };
  const fail = (error: unknown): never => {
    if (error instanceof CheckError) return finish({ state: error.state, summary: error.message }, error);
    const message = error instanceof Error ? error.message : String(error);
    // At -vvv the details are already on their way: do not ask for what was given.
    return finish({ state: State.UNKNOWN, summary: `internal error: ${message} (${verbose >= 3 ? 'stack trace on stderr' : 'run with -vvv for details'})` }, error);
  };

  // Until the options are read, the default timeout guards parsing and --extra-opts reads.
  // -t counts from the start of the process, as the monitoring engine's clock does: Node's
  // own start-up (slow on a loaded host) is part of the budget, not added to it.
  const started = performance.timeOrigin;
  const controller = new AbortController();
  let timeout = { seconds: DEFAULT_TIMEOUT_SECONDS, state: State.UNKNOWN };
  let guard = setTimeout(onTimeout, started + timeout.seconds * 1000 - Date.now());
  setRunDeadline(started + timeout.seconds * 1000);
  function onTimeout(): never {
    controller.abort();
    return finish(
      {
        state: timeout.state,
        summary: `timed out after ${timeout.seconds}s while ${phase}; raise -t/--timeout or check the network path to the server`,
      },
      undefined,
      true,
    );
  }

  const specs = [...COMMON_OPTIONS, ...def.options];
  let options: ParsedOptions;
  try {
    const { specs: extra, rest } = takeExtraOpts(argv);
    const iniWarnings: string[] = [];
    const fromFiles = extra.flatMap((s) => expandExtraOpts(s, def.command, process.env, iniWarnings));
    options = parseOptions(rest, specs, fromFiles);
    verbose = Math.min(3, options.verbose as number);
    if (verbose >= 1) details.push(...iniWarnings);
    output = options.output as string;
    for (const spec of specs) if (spec.secret) redactor.add(options[spec.long] as string | undefined);
    // Printed on purpose: a password equal to the user name must not blank it (and so reveal itself).
    for (const name of ['user', 'org']) if (typeof options[name] === 'string') redactor.addPublic(options[name] as string);
    if (options.help) {
      writeAll(1, renderHelp({ command: def.command, version: VERSION, description: def.description, usage: def.usage, specs, examples: def.examples, notes: def.notes }));
      process.exit(State.UNKNOWN);
    }
    if (options.version) {
      writeAll(1, `${def.command} ${VERSION}\n`);
      process.exit(State.UNKNOWN);
    }
    timeout = parseTimeout(options.timeout as string);
    clearTimeout(guard);
    guard = setTimeout(onTimeout, started + timeout.seconds * 1000 - Date.now());
    setRunDeadline(started + timeout.seconds * 1000);
  } catch (error) {
    return fail(error instanceof CheckError ? error : new UsageError(String(error)));
  }

  const context: RunContext = {
    verbose,
    signal: controller.signal,
    deadline: started + timeout.seconds * 1000,
    timeoutSeconds: timeout.seconds,
    log(level, message) {
      if (verbose < level) return;
      if (level >= 3) addTrace(message);
      else details.push(message);
    },
    addSecret: (value) => redactor.add(value),
    setPhase(text) {
      phase = text;
    },
  };
  try {
    const result = await def.run(options, context);
    return finish(result);
  } catch (error) {
    return fail(error);
  }
}

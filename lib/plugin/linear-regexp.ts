import { UsageError } from './errors';

/**
 * Whether V8's linear-time regular expression engine (the `l` flag) can be used; it is off
 * unless asked for, and asked for only by runs that compile a user pattern (off the hot path).
 */
let linearEngine: boolean | undefined;

function enableLinearEngine(): boolean {
  if (linearEngine !== undefined) return linearEngine;
  try {
    // Loaded here, not at the top: node:v8 costs some 4 ms, and only runs with a pattern need it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: lazily, not at start-up
    const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
    // The flags are read when a RegExp is compiled, so setting them now takes effect. The
    // second one makes V8 switch a backtracking match to the linear engine when it
    // backtracks too much: a safety net for any pattern compiled without the `l` flag.
    setFlagsFromString('--enable-experimental-regexp-engine');
    setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    new RegExp('a', 'l');
    linearEngine = true;
  } catch {
    linearEngine = false;
  }
  return linearEngine;
}

/**
 * Compiles a pattern given by the user (`--include`, `--exclude`) so that matching it takes
 * time linear in the input: a catastrophic pattern such as `^(\w+-?)+\.infra$` against a
 * long name cannot run past -t, since a regular expression match cannot be interrupted.
 * Features that need backtracking (backreferences, lookaround) are refused with a usage
 * error naming the option. Where the linear engine is missing (a Node.js built without it),
 * the pattern is compiled as usual, with V8's fallback on excessive backtracking.
 */
export function compileLinearRegExp(pattern: string, option: string): RegExp {
  let plain: RegExp;
  try {
    plain = new RegExp(pattern);
  } catch (e) {
    throw new UsageError(`invalid ${option} ${JSON.stringify(pattern)}: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
  if (!enableLinearEngine()) return plain;
  try {
    return new RegExp(pattern, 'l');
  } catch {
    throw new UsageError(
      `${option} ${JSON.stringify(pattern)} uses backreferences or lookaround, which can take exponential time on a long name; write it without them`,
    );
  }
}

/** Compiles `--include`/`--exclude`, naming the option when a pattern is invalid. */
export function compileNamePattern(pattern: string | undefined, option: string): RegExp | undefined {
  return pattern === undefined ? undefined : compileLinearRegExp(pattern, option); // linear time: -t wins over any pattern
}

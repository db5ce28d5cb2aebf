// Runs a plugin's definition (plugins/<name>/plugin.ts) in the test's own process: its options
// parsed from argv as the runtime parses them, its run with a context that keeps what it says,
// and the result it returns (nothing printed, nothing exits). HTTP stays at the nock boundary.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunContext } from '../../lib/plugin/context';
import { Notes } from '../../lib/plugin/notes';
import { parsePluginOptions, type OptionSpec } from '../../lib/plugin/options';
import type { Result } from '../../lib/plugin/result';
import type { PluginDefinition } from '../../lib/plugin/run';

/** What a definition's run gave: its result, the run's notes, the -vv lines and the phases it named. */
export interface DefinitionRun {
  result: Result;
  notes: readonly string[];
  details: string[];
  phases: string[];
}

/** Runs `def` on `argv` (at -vv, so that its configuration lines are kept) within `seconds`. */
export async function runDefinition<Specs extends readonly OptionSpec[]>(
  def: PluginDefinition<Specs>,
  argv: readonly string[],
  seconds = 10,
): Promise<DefinitionRun> {
  const { options } = parsePluginOptions(argv, def.options);
  const notes = new Notes();
  const details: string[] = [];
  const phases: string[] = [];
  const context: RunContext = {
    verbose: 2,
    signal: AbortSignal.timeout(seconds * 1000),
    deadline: Date.now() + seconds * 1000,
    timeoutSeconds: seconds,
    notes,
    log: (level, message) => {
      if (level === 2) details.push(message);
    },
    addSecret: () => undefined,
    setPhase: (text) => {
      phases.push(text);
    },
  };
  const result = await def.run(options, context);
  return { result, notes: notes.all, details, phases };
}

/** A token file, as an engine's host keeps one, for --token-file. */
export function tokenFile(token: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cloudchecks-definition-')), 'cluster.token');
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  return path;
}

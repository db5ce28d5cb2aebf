// A RunContext for a check run inside a test's own process: ten seconds of -t, the notes kept,
// each -vv line and each secret collected for the test to read.
import type { RunContext } from '../../lib/plugin/context';
import { Notes } from '../../lib/plugin/notes';

/** The context, and what the run logged (`lines`) and registered as secret (`secrets`). */
export function testRunContext(): RunContext & { lines: string[]; secrets: string[] } {
  const lines: string[] = [];
  const secrets: string[] = [];
  return {
    verbose: 0,
    signal: new AbortController().signal,
    deadline: Date.now() + 10_000,
    timeoutSeconds: 10,
    notes: new Notes(),
    log: (_level, message) => void lines.push(message),
    addSecret: (value) => {
      if (value !== undefined) secrets.push(value);
    },
    setPhase: () => undefined,
    lines,
    secrets,
  };
}

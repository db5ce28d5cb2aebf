// The output examples in the README and docs/ are what the plugins print: the plugins write
// a `;` in a status line as `,` (Nagios cuts plugin output at `;`), so an example status line
// with `;` before its perfdata was never printed by them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './support/simulator';

const docs = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const STATUS = /^(?:[#>]\s*)?(NODES|MONITORING|VM_CPU|VM_DISK|VM_MEM) (OK|WARNING|CRITICAL|UNKNOWN) - /;

/** The status lines shown in the fenced blocks of a Markdown file. */
function statusLines(file: string): string[] {
  const blocks = readFileSync(join(REPO, file), 'utf8').match(/^```[^\n]*\n[\s\S]*?^```$/gm) ?? [];
  return blocks.flatMap((b) => b.split('\n')).filter((l) => STATUS.test(l));
}

describe('output examples in the docs', () => {
  it('there are some to check', () => {
    expect(docs.flatMap(statusLines).length).toBeGreaterThan(10);
  });
  it.each(docs)('%s: no status line has a ; before its perfdata', (file) => {
    for (const line of statusLines(file)) expect(line.split(' | ')[0], line).not.toContain(';');
  });
});

// Usage: node scripts/record-skip.mjs RUN WHAT WHY FIX OPTIONAL FILE...
// Records that the tests of each FILE did not run in RUN (a run that could not be made at all,
// such as the Debian 13 root's), as reportSkip (test/integration/support/engines.ts) records a
// skip from inside a test: one JSON line per file in .cache/skipped-RUN.jsonl, which
// scripts/test-summary.mjs lists at the end of make test. OPTIONAL empty: in CI it is a failure.
import { appendFileSync, mkdirSync } from 'node:fs';

const [run, what, why, fix, optional, ...files] = process.argv.slice(2);
mkdirSync('.cache', { recursive: true });
const records = files.map((file) => JSON.stringify({ file, what, why, ...(fix ? { fix } : {}), ...(optional ? { optional } : {}) }) + '\n');
appendFileSync(`.cache/skipped-${run}.jsonl`, records.join(''));

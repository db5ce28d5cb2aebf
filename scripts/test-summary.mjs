// Usage: node scripts/test-summary.mjs RUN...  (after scripts/run-tests)
// One line per run, then the plain total "N passed, N failed, N skipped" over every run.
// A run that left no results (vitest crashed, Node.js not fetched) counts as one failure.
import { readFileSync } from 'node:fs';

const total = { passed: 0, failed: 0, skipped: 0 };
let broken = false;
for (const run of process.argv.slice(2)) {
  let r;
  try {
    r = JSON.parse(readFileSync(`.cache/vitest-results-${run}.json`, 'utf8'));
  } catch {
    console.log(`${run}: no results (the run did not finish)`);
    total.failed += 1;
    broken = true;
    continue;
  }
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(
    `${run === 'host' ? `host Node.js ${process.version}` : run === 'debian13' ? 'Debian 13 (trixie root) engines' : `Node.js ${run}`}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`,
  );
  total.passed += r.numPassedTests;
  total.failed += r.numFailedTests;
  total.skipped += skipped;
  if (!r.success) broken = true;
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exitCode = broken || total.failed > 0 ? 1 : 0;

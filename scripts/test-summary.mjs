// Usage: node scripts/test-summary.mjs RUN...  (after scripts/run-tests)
// One line per run, then each test that did not run (a missing engine, not root: the
// .cache/skipped-RUN.jsonl records the tests write through reportSkip, test/integration/support/
// engines.ts), then each failed test (file, name, the first line of why: a log's tail then says
// what failed), then the plain total "N passed, N failed, N skipped" over every run.
// A run that left no results (vitest crashed, Node.js not fetched) counts as one failure. In CI
// (CI=true), which installs every engine itself, a test that did not run is a failure too,
// unless its record says where not running is documented as allowed (`optional`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** What a run's name says: host, host-unit, host-engines, debian13, v18.20.8, v18.20.8-unit. */
function label(run) {
  const unit = run.endsWith('-unit');
  const name = unit ? run.slice(0, -'-unit'.length) : run;
  if (name === 'debian13') return 'Debian 13 (trixie root) engines';
  if (name === 'host-engines') return `host Node.js ${process.version}, engine integration tests`;
  const where = name === 'host' ? `host Node.js ${process.version}` : `Node.js ${name}`;
  return `${where}, ${unit ? 'unit tests' : 'other tests'}`;
}

const total = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
let broken = false;
const firstLine = (text) =>
  String(text ?? '')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .find((l) => l.trim() !== '') ?? '';
const clip = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
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
  console.log(`${label(run)}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  total.passed += r.numPassedTests;
  total.failed += r.numFailedTests;
  total.skipped += skipped;
  if (!r.success) broken = true;
  for (const file of r.testResults ?? []) {
    const where = String(file.name ?? '').replace(/^.*?\/(test\/)/, '$1');
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) failures.push(`${run}: ${where} > ${clip(a.fullName ?? a.title ?? '', 160)}: ${clip(firstLine(a.failureMessages?.[0]), 600)}`);
    if (failed.length === 0 && file.status === 'failed') failures.push(`${run}: ${where}: ${clip(firstLine(file.message), 200)}`);
  }
}
// Every test that did not run, from every run's skip records (also those of a run that was
// not made at all, such as the Debian 13 root's).
const ci = process.env.CI === 'true';
const notRun = [];
const skipLogs = (existsSync('.cache') ? readdirSync('.cache', { withFileTypes: true }) : []).filter((f) => /^skipped-.+\.jsonl$/.test(f.name));
for (const log of skipLogs.map((f) => f.name).sort()) {
  const run = log.slice('skipped-'.length, -'.jsonl'.length);
  const seen = new Set();
  for (const line of readFileSync(`.cache/${log}`, 'utf8').split('\n')) {
    if (line.trim() === '' || seen.has(line)) continue;
    seen.add(line);
    let skip;
    try {
      skip = JSON.parse(line);
    } catch {
      skip = { file: log, what: 'a skip record', why: `unreadable: ${clip(line, 100)}` };
    }
    const text = `${run}: ${skip.file}: ${skip.what}: ${skip.why}`;
    if (skip.optional) notRun.push(`NOT RUN ${text} (allowed: ${skip.optional})`);
    else if (ci) {
      broken = true;
      failures.push(`${text} (CI installs the engines: a test that cannot run there is a failure)${skip.fix ? `; ${skip.fix}` : ''}`);
    } else notRun.push(`NOT RUN ${text}${skip.fix ? `; ${skip.fix}` : ''}`);
  }
}
for (const line of notRun) console.log(clip(line, 600));
const SHOWN = 30;
for (const line of failures.slice(0, SHOWN)) console.log(`FAILED ${line}`);
if (failures.length > SHOWN) console.log(`FAILED … and ${failures.length - SHOWN} more (the JSON reports in .cache/ name them)`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exitCode = broken || total.failed > 0 ? 1 : 0;

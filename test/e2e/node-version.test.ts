// The executables start with `#!/usr/bin/env node`: on a monitoring host they run on the
// first `node` in PATH. scripts/run-tests runs the suites on each tested Node.js by putting
// it first in PATH; this proves that the executables under test really run on that Node.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExecutable } from '../support/spawn';

const DIST = join(__dirname, '../../dist');

describe('the Node.js the tests exercise', () => {
  it('is the one the executables run on, and the one scripts/run-tests asked for', async () => {
    const r = await runExecutable('/usr/bin/env', ['node', '-p', 'process.version'], { env: { PATH: process.env.PATH } });
    expect(r.stdout.trim()).toBe(process.version);
    if (process.env.CLOUDCHECKS_EXPECT_NODE) expect(process.version).toBe(process.env.CLOUDCHECKS_EXPECT_NODE);
  });

  it('runs a bundle on it', async () => {
    const r = await runExecutable(join(DIST, 'check_nodes'), ['--version'], { env: { PATH: process.env.PATH } });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^check_nodes \d+\.\d+\.\d+/);
  });
});

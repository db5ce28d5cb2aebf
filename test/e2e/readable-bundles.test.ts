// The executables keep their identifiers (build.mjs mangles no names): an admin can read what
// runs on the monitoring host, and a -vvv trace of an internal error names real functions.
// An expected failure (CheckError, UsageError) is one line, with no stack at any verbosity.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlugin } from '../support/build-test-plugin';
import { runExecutable } from '../support/spawn';

const DIST = join(__dirname, '../../dist');
const STACK_FRAME = /^\s+at /m;

describe('readable executables', () => {
  it('keep the names of the functions they are made of', () => {
    const nodes = readFileSync(join(DIST, 'check_nodes'), 'utf8');
    for (const name of ['runPlugin', 'listNodes', 'scanNodeList', 'httpRequest']) expect(nodes).toMatch(new RegExp(`function ${name}\\(`));
    const vm = readFileSync(join(DIST, 'check_vm_cpu'), 'utf8');
    for (const name of ['runPlugin', 'httpRequest']) expect(vm).toMatch(new RegExp(`function ${name}\\(`));
  });

  it('print no stack for an expected failure, even at -vvv', async () => {
    const env = { PATH: process.env.PATH, HOME: '/nonexistent' };
    const usage = await runExecutable(join(DIST, 'check_nodes'), ['--no-such-option', '-vvv'], { env });
    expect(usage.code).toBe(3);
    expect(usage.stdout).toMatch(/^NODES UNKNOWN - .*see --help/);
    expect(usage.stderr).not.toMatch(STACK_FRAME);
    const check = await runExecutable(join(DIST, 'check_nodes'), ['--url', 'https://127.0.0.1:1', '--token-file', '/nonexistent/token', '-vvv'], { env });
    expect(check.code).toBe(3);
    expect(check.stdout).toMatch(/^NODES UNKNOWN - .*\/nonexistent\/token/);
    expect(check.stderr).not.toMatch(STACK_FRAME);
  });

  describe('built as build.mjs builds', () => {
    let plugin: string;
    beforeAll(async () => {
      plugin = await buildTestPlugin();
    });

    it('name real functions in the -vvv trace of an internal error, and only there', async () => {
      const crash = await runExecutable(plugin, ['--mode', 'crash', '-vvv']);
      expect(crash.stderr).toMatch(/TypeError: boom\n\s+at Object\.run .*\n\s+at runPlugin /);
      const expected = await runExecutable(plugin, ['--mode', 'throw', '-vvv']);
      expect(expected.stdout).toMatch(/^TEST UNKNOWN - the probe failed/);
      expect(expected.stderr).not.toMatch(STACK_FRAME);
    });
  });
});

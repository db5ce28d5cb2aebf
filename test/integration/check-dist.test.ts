// `make check-dist` is what keeps the committed dist/ honest: it must pass on the sources as
// they are and fail once a source changes without a rebuild. Run on a copy of the tree.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../..');
const copy = mkdtempSync(join(tmpdir(), 'cc-check-dist-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

for (const entry of ['lib', 'plugins', 'sim', 'dist', 'build.mjs', 'scripts', 'tsconfig.json', 'package.json', 'package-lock.json', 'Makefile']) {
  cpSync(join(REPO, entry), join(copy, entry), { recursive: true });
}
symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));

// -o: the dependencies count as installed, so make never runs npm in the shared node_modules.
const checkDist = () => spawnSync('make', ['-s', '-C', copy, '-o', 'node_modules/.package-lock.json', 'check-dist'], { encoding: 'utf8', timeout: 60_000 });

describe('make check-dist', () => {
  it('passes when dist/ is what the sources build', () => {
    const r = checkDist();
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('dist/ matches a fresh build');
  });

  it('does not depend on package.json beyond the version, which --version prints', () => {
    const pkgFile = join(copy, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string; scripts?: Record<string, string> };
    writeFileSync(pkgFile, JSON.stringify({ ...pkg, scripts: { ...pkg.scripts, extra: 'true' } }, null, 2));
    expect(checkDist().status).toBe(0);
    const out = spawnSync(join(copy, 'dist/check_nodes'), ['--version'], { encoding: 'utf8' });
    expect(out.status).toBe(3);
    expect(out.stdout).toBe(`check_nodes ${pkg.version}\n`);
  });

  it('fails after a source edit without a rebuild, naming the fix', () => {
    const file = join(copy, 'lib/plugin/run.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('const DEFAULT_TIMEOUT_SECONDS = 10;', 'const DEFAULT_TIMEOUT_SECONDS = 11;'));
    const r = checkDist();
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/dist\/ is out of date: run 'make' and commit dist\//);
    // And a rebuild makes it pass again.
    execFileSync('node', ['build.mjs', 'dist'], { cwd: copy });
    expect(checkDist().status).toBe(0);
  });
});

// What the project says about Node.js must be what it tests: scripts/node-versions (the
// versions CI runs the suites on), package.json's engines, the .deb's and the .rpm's
// dependencies, the esbuild target and the README all name the same oldest version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(__dirname, '../..');
const read = (f: string) => readFileSync(join(REPO, f), 'utf8');

describe('the tested Node.js versions', () => {
  const tested = read('scripts/node-versions')
    .split('\n')
    .filter((l) => /^\d/.test(l))
    .map((l) => l.split(' ')[0]);
  const majors = tested.map((v) => Number(v.split('.')[0]));
  const oldest = Math.min(...majors);

  it('are one exact version of each supported major, each with its registry integrity', () => {
    expect(majors).toEqual([18, 20, 22, 24]);
    for (const line of read('scripts/node-versions')
      .split('\n')
      .filter((l) => /^\d/.test(l)))
      expect(line).toMatch(/^\d+\.\d+\.\d+ sha512-[A-Za-z0-9+/]{86}==$/);
  });

  it('are what engines, the packages, the build target and the README say', () => {
    expect(JSON.parse(read('package.json')).engines.node).toBe(`>=${oldest}`);
    expect(read('packaging/debian/control')).toMatch(new RegExp(`^Depends: nodejs \\(>= ${oldest}\\),`, 'm'));
    expect(read('packaging/cloudchecks.spec')).toMatch(new RegExp(`^Requires: +nodejs >= 1:${oldest}$`, 'm'));
    expect(read('scripts/bundle-options.mjs')).toContain(`target: 'node${oldest}'`);
    expect(read('README.md')).toContain(`Tested on Node.js ${majors.slice(0, -1).join(', ')} and ${majors.at(-1)}`);
  });
});

// The manual pages of the plugins (dist/man/*.1, made from --help by build.mjs) and the
// texts of the packages: every plugin has a page that lists every option of its --help and
// renders without a groff warning, and the package descriptions and cloudchecks-sim(1) name
// every plugin, so that a new plugin cannot be left out of them.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without types
import { manPageFromHelp, roffText } from '../../scripts/man-page.mjs';
import { findExecutable } from './support/engines';
import { DIST, REPO } from './support/simulator';

const plugins = readdirSync(DIST)
  .filter((f) => f.startsWith('check_'))
  .sort();
const helpOf = (name: string) => spawnSync(join(DIST, name), ['--help'], { encoding: 'utf8' }).stdout;

describe('manual pages', () => {
  it.each(plugins)('dist/man/%s.1 is made from its --help and lists every option', (name) => {
    const file = join(DIST, 'man', `${name}.1`);
    expect(existsSync(file), `${file}: run node build.mjs dist`).toBe(true);
    const page = readFileSync(file, 'utf8');
    const help = helpOf(name);
    expect(page).toBe(manPageFromHelp(help, { others: [...plugins, 'cloudchecks-sim'] }));
    const options = [...help.matchAll(/^ {2}(?: {4}|-\w, )(--[\w-]+)/gm)].map((m) => m[1]);
    expect(options.length).toBeGreaterThan(10);
    const headings = page.split('\n').filter((l) => l.startsWith('.B '));
    for (const option of options)
      expect(
        headings.some((l) => l.split(/[ ,]+/).includes(roffText(option))),
        option,
      ).toBe(true);
    expect(page).toMatch(new RegExp(`^${roffText(name)} \\\\- \\S`, 'm'));
  });

  it('render without a warning from man/groff', () => {
    const man = findExecutable('man');
    if (!man) return console.warn('SKIPPED: man is not installed: the pages were not rendered');
    for (const page of [
      ...plugins.map((p) => join(DIST, 'man', `${p}.1`)),
      join(REPO, 'packaging/cloudchecks-sim.1'),
      join(REPO, 'packaging/cloudchecks-inventory.8'),
    ]) {
      const r = spawnSync(man, ['--warnings', '-l', page], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '80', MAN_KEEP_FORMATTING: '' } });
      expect(r.stderr, page).toBe('');
      expect(r.status).toBe(0);
    }
  });

  it('escapes what roff would read as a request or an escape', () => {
    expect(roffText(".start\n'quote\nback\\slash -x ×")).toBe("\\&.start\n\\&'quote\nback\\eslash \\-x \\[u00D7]");
    expect(() => manPageFromHelp('no title here\n')).toThrow(/NAME VERSION/);
  });
});

describe('the package texts name every plugin', () => {
  const texts = {
    'packaging/debian/control': readFileSync(join(REPO, 'packaging/debian/control'), 'utf8'),
    'packaging/cloudchecks.spec %description': /%description\n([\s\S]*?)\n%/.exec(readFileSync(join(REPO, 'packaging/cloudchecks.spec'), 'utf8'))![1],
    'cloudchecks-sim(1)': readFileSync(join(REPO, 'packaging/cloudchecks-sim.1'), 'utf8'),
  };
  it.each(Object.keys(texts))('%s', (where) => {
    for (const p of plugins) expect(texts[where as keyof typeof texts], `${where} does not name ${p}`).toMatch(new RegExp(`\\b${p}\\b`));
  });
  it('the Makefile installs the pages where man finds them', () => {
    const install = execFileSync('make', ['-s', '-n', '-C', REPO, 'install-package', 'DESTDIR=/tmp/x'], { encoding: 'utf8' });
    expect(install).toMatch(/install -m 0644 packaging\/cloudchecks-sim\.1 dist\/man\/\*\.1 \/tmp\/x\/usr\/share\/man\/man1\//);
    // The inventory refresher, an administrator's command in /usr/sbin: section 8.
    expect(install).toMatch(/install -m 0644 packaging\/cloudchecks-inventory\.8 \/tmp\/x\/usr\/share\/man\/man8\//);
  });
});

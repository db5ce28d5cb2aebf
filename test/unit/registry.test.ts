// plugins/registry.json is the one list of plugins: the build and the tests read it,
// scripts/plugin-lists.mjs makes every other list of plugins from it (package.json `bin`, the
// docs' install lists, the simulator's manual page), and what must still name each plugin by
// hand (contrib, packaging descriptions, the README, the demo) is checked against it here, so
// that a list which drifts, or a new plugin that misses one, fails a test.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import PLUGINS from '../../plugins/registry.json';
import { BLOCK_FILES, generated, withBin, withBlocks } from '../../scripts/plugin-lists.mjs';
import { TARGETS } from '../faults/matrix';

const REPO = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
const sorted = (names: Iterable<string>) => [...names].sort();

describe('plugins/registry.json', () => {
  it('lists each plugin once, by its executable name', () => {
    expect(PLUGINS.length).toBeGreaterThan(0);
    expect(new Set(PLUGINS).size).toBe(PLUGINS.length);
    for (const name of PLUGINS) expect(name).toMatch(/^check_[a-z0-9_]+$/);
  });

  it('has one folder per plugin, with its main.ts, and no folder without a registry line', () => {
    const folders = readdirSync(join(REPO, 'plugins')).filter((f) => statSync(join(REPO, 'plugins', f)).isDirectory());
    expect(sorted(folders)).toEqual(sorted(PLUGINS));
    for (const name of PLUGINS) expect(existsSync(join(REPO, 'plugins', name, 'main.ts')), `plugins/${name}/main.ts`).toBe(true);
  });

  it.each(generated(REPO))('makes the list of plugins in %s (run: node scripts/plugin-lists.mjs)', (_path, now, made) => {
    expect(now).toBe(made);
  });

  it('rewrites each generated list from the registry alone, a new plugin included', () => {
    const more = [...PLUGINS, 'check_new_one'];
    const bin = (JSON.parse(withBin(read('package.json'), more)) as { bin: Record<string, string> }).bin;
    expect(bin.check_new_one).toBe('dist/check_new_one');
    expect(Object.keys(bin).at(-1)).toBe('cloudchecks-sim');
    for (const [path, names] of Object.entries(BLOCK_FILES)) {
      const made = withBlocks(read(path), names, more, path);
      expect(made, path).toMatch(/\bcheck_new_one\b/);
      // Only the blocks change: the text around them is kept as it is.
      const outside = (text: string) => text.replace(/BEGIN plugin list ([\w-]+)[^\n]*\n[\s\S]*?\n[^\n]*END plugin list \1/g, '$1');
      expect(outside(made), path).toBe(outside(read(path)));
      // Run again on its own output, nothing changes.
      expect(withBlocks(made, names, more, path), path).toBe(made);
    }
    expect(() => withBlocks('no markers here\n', ['zabbix-install'], more, 'x.md')).toThrow(/x\.md: the markers/);
  });

  it('is what package.json installs (bin), with the simulator', () => {
    const { bin } = JSON.parse(read('package.json')) as { bin: Record<string, string> };
    expect(bin).toEqual(Object.fromEntries([...PLUGINS, 'cloudchecks-sim'].map((n) => [n, `dist/${n}`])));
  });

  it('is what dist/ holds, each with its manual page', () => {
    expect(sorted(readdirSync(join(REPO, 'dist')).filter((f) => f.startsWith('check_')))).toEqual(sorted(PLUGINS));
    expect(sorted(readdirSync(join(REPO, 'dist/man')).filter((f) => f.startsWith('check_')))).toEqual(sorted(PLUGINS.map((p) => `${p}.1`)));
  });

  it('is what the fault matrix drives', () => {
    expect(sorted(TARGETS.map((t) => t.exe))).toEqual(sorted(PLUGINS));
  });

  it.each([
    ['contrib/icinga2/commands.conf'],
    ['contrib/nagios/commands.cfg'],
    ['contrib/zabbix/cloudchecks_templates.yaml'],
    ['packaging/debian/control'],
    ['packaging/cloudchecks.spec'],
    ['README.md'],
  ])('is named in full by %s', (path) => {
    const text = read(path);
    expect(PLUGINS.filter((name) => !new RegExp(`\\b${name}\\b`).test(text))).toEqual([]);
  });

  it('is what the demo runs', () => {
    const demo = read('sim/demo.mjs');
    // A plugin is run by name in a runPlugin call, or through a list the demo loops over.
    expect(PLUGINS.filter((name) => !demo.includes(`'${name}'`))).toEqual([]);
  });

  it('leaves no Zabbix template out of the docs that describe them', () => {
    const templates = (read('contrib/zabbix/cloudchecks_templates.yaml').match(/^ {6}template: .+$/gm) ?? []).map((l) => l.replace(/^ {6}template: /, ''));
    expect(templates.length).toBeGreaterThan(0);
    const WORDS = [
      'zero',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
      'fifteen',
    ];
    expect(read('contrib/zabbix/README.md')).toMatch(new RegExp(`cloudchecks_templates\\.yaml\`: (${WORDS[templates.length]}|${templates.length}) templates`));
    for (const path of ['contrib/zabbix/README.md', 'docs/zabbix.md'])
      expect(
        templates.filter((name) => !read(path).includes(`*${name}*`)),
        path,
      ).toEqual([]);
  });
});

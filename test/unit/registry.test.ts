// plugins/registry.json is the one list of plugins: the build reads it, and every list that
// must name each plugin (package.json, the tests, contrib, packaging, the demo) is checked
// against it here, so that a new plugin that misses one of them fails a test.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import PLUGINS from '../../plugins/registry.json';
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
});

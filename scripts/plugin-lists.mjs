// Every list of plugins that is not prose is made from plugins/registry.json, here: the `bin`
// of package.json and the blocks between "BEGIN plugin list NAME" and "END plugin list NAME"
// lines (in a comment of the file's own syntax) in the docs and the simulator's manual page.
// A new plugin is one line in the registry; then
//
//     node scripts/plugin-lists.mjs           rewrites the lists
//     node scripts/plugin-lists.mjs --check   names the files whose lists are out of date (exit 1)
//
// test/unit/registry.test.ts fails while a list is out of date. The plugins' own manual
// pages are made by build.mjs from the registry and each plugin's --help.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The plugins, in the registry's order. */
export function registry(root = ROOT) {
  return JSON.parse(readFileSync(join(root, 'plugins', 'registry.json'), 'utf8'));
}

const PLUGINDIR = '/usr/lib/nagios/plugins';

/** What each named block holds, made from the plugin names. */
const BLOCKS = {
  // docs/zabbix.md, install step: the plugins linked into the external scripts directory.
  'zabbix-install': (plugins) => [
    '   ```sh',
    '   # with the cloudchecks package (plugins in /usr/lib/nagios/plugins): link them',
    "   # (Debian's Zabbix packages; Zabbix's own: /usr/lib/zabbix/externalscripts)",
    '   sudo ln -s \\',
    ...plugins.map((p) => `     ${PLUGINDIR}/${p} \\`),
    '     /etc/zabbix/externalscripts/',
    "   # from a checkout: Debian's Zabbix packages",
    '   sudo make install PLUGINDIR=/etc/zabbix/externalscripts',
    "   # from a checkout: Zabbix's packages",
    '   sudo make install PLUGINDIR=/usr/lib/zabbix/externalscripts',
    '   ```',
  ],
  // packaging/cloudchecks-sim.1: the plugins the simulator serves, in the description.
  'sim-man-names': (plugins) => [`(${plugins.join(', ')})`],
  // packaging/cloudchecks-sim.1: SEE ALSO.
  'sim-man-see-also': (plugins) => plugins.map((p, i) => `.BR ${p} (1)${i < plugins.length - 1 ? ',' : ''}`),
};

/** The files holding blocks, and the blocks each must hold. */
export const BLOCK_FILES = {
  'docs/zabbix.md': ['zabbix-install'],
  'packaging/cloudchecks-sim.1': ['sim-man-names', 'sim-man-see-also'],
};

/** `text` with each block between its markers made anew; throws if a marker is missing. */
export function withBlocks(text, names, plugins, file = 'the file') {
  const lines = text.split('\n');
  for (const name of names) {
    const begin = lines.findIndex((l) => l.includes(`BEGIN plugin list ${name} `) || l.endsWith(`BEGIN plugin list ${name}`));
    const end = lines.findIndex((l, i) => i > begin && l.includes(`END plugin list ${name}`));
    if (begin < 0 || end < 0) throw new Error(`${file}: the markers "BEGIN plugin list ${name}" / "END plugin list ${name}" are missing`);
    lines.splice(begin + 1, end - begin - 1, ...BLOCKS[name](plugins));
  }
  return lines.join('\n');
}

/** package.json with `bin` made from the registry: each plugin, then the simulator. */
export function withBin(text, plugins) {
  const pkg = JSON.parse(text);
  pkg.bin = Object.fromEntries([...plugins, 'cloudchecks-sim'].map((n) => [n, `dist/${n}`]));
  return JSON.stringify(pkg, null, 2) + '\n';
}

/** [path, text now, text the registry makes] of every generated file. */
export function generated(root = ROOT) {
  const plugins = registry(root);
  const read = (path) => readFileSync(join(root, path), 'utf8');
  const out = [['package.json', read('package.json'), withBin(read('package.json'), plugins)]];
  for (const [path, names] of Object.entries(BLOCK_FILES)) out.push([path, read(path), withBlocks(read(path), names, plugins, path)]);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  const stale = generated().filter(([, now, made]) => now !== made);
  for (const [path, , made] of stale) {
    if (check) console.error(`${path}: its list of plugins is not what plugins/registry.json makes`);
    else writeFileSync(join(ROOT, path), made);
  }
  if (check && stale.length > 0) {
    console.error('run: node scripts/plugin-lists.mjs');
    process.exit(1);
  }
  if (!check) console.log(stale.length ? `rewrote ${stale.map(([p]) => p).join(', ')}` : 'every list of plugins is up to date');
}

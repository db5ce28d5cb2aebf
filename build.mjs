// Builds every plugin of plugins/registry.json (plugins/<name>/main.ts) and the simulator
// into one self-contained executable each in dist/ (or the directory given as the first
// argument). Same sources, same bytes.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_OPTIONS } from './scripts/bundle-options.mjs';
import { manPageFromHelp } from './scripts/man-page.mjs';

const outdir = process.argv[2] ?? 'dist';
mkdirSync(outdir, { recursive: true });

const entries = JSON.parse(readFileSync('plugins/registry.json', 'utf8'))
  .slice()
  .sort()
  .map((name) => ({ in: join('plugins', name, 'main.ts'), out: name }));
if (existsSync('sim/main.ts')) entries.push({ in: 'sim/main.ts', out: 'cloudchecks-sim' });

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const packages = new Set();
const packageOf = (input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

// Libraries that only some runs use (yaml: only --kubeconfig and the monitoring ConfigMap)
// are bundled as a string that is compiled on first import. As code, V8 would pre-parse
// yaml's 160 KB on every start of check_nodes (about 5 ms); as a string it only scans it.
const LAZY_LIBRARIES = ['yaml'];
const lazyLibraries = {
  name: 'lazy-libraries',
  setup(b) {
    const filter = new RegExp(`^(${LAZY_LIBRARIES.join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-library' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-library' }, async (args) => {
      const inner = await build({
        ...BUNDLE_OPTIONS,
        entryPoints: [args.path],
        write: false,
        metafile: true,
        // Module paths are written into the bundle: the same whether node_modules is a
        // directory or a link to one (as in a copy of the tree), so the bytes are the same.
        preserveSymlinks: true,
      });
      for (const input of Object.keys(inner.metafile.inputs)) if (packageOf(input)) packages.add(packageOf(input));
      const code = inner.outputFiles[0].text;
      return {
        loader: 'js',
        contents:
          `// ${args.path}, compiled on first use (see build.mjs)\n` +
          `const m = { exports: {} };\n` +
          `new Function('module', 'exports', 'require', ${JSON.stringify(code)})(m, m.exports, require);\n` +
          `module.exports = m.exports;\n`,
      };
    });
  },
};
for (const entry of entries) {
  const result = await build({
    ...BUNDLE_OPTIONS,
    entryPoints: [entry.in],
    outfile: join(outdir, entry.out),
    // CLOUDCHECKS_MINIFY_IDENTIFIERS=1 mangles names, for the measurement of what keeping them costs.
    minifyIdentifiers: process.env.CLOUDCHECKS_MINIFY_IDENTIFIERS === '1',
    keepNames: false,
    banner: { js: '#!/usr/bin/env node' },
    define: { __CLOUDCHECKS_VERSION__: JSON.stringify(version) },
    metafile: true,
    plugins: [lazyLibraries],
  });
  for (const input of Object.keys(result.metafile.inputs)) if (packageOf(input)) packages.add(packageOf(input));
  chmodSync(join(outdir, entry.out), 0o755);
}

// When the bundles carry third-party code, ship its licences beside them.
const noticesFile = join(outdir, 'THIRD-PARTY-NOTICES');
if (packages.size === 0) {
  rmSync(noticesFile, { force: true });
} else {
  let notices = 'Third-party software bundled in these executables:\n';
  for (const name of [...packages].sort()) {
    const dir = join('node_modules', name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    notices += `\n==== ${name} ${pkg.version} (${pkg.license}) ====\n`;
    if (licenceFile) notices += readFileSync(join(dir, licenceFile), 'utf8').trim() + '\n';
  }
  writeFileSync(noticesFile, notices);
}

// One manual page per plugin, made from the built executable's own --help (exit 3, as the
// guidelines ask), in a fixed environment so that the same sources give the same pages.
const plugins = entries.filter((e) => e.out.startsWith('check_')).map((e) => e.out);
const mandir = join(outdir, 'man');
rmSync(mandir, { recursive: true, force: true });
mkdirSync(mandir);
for (const name of plugins) {
  let help;
  try {
    help = execFileSync(process.execPath, [join(outdir, name), '--help'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' },
    });
  } catch (e) {
    if (e.status !== 3 || !e.stdout) throw new Error(`${name} --help failed (exit ${e.status}): ${e.stderr ?? e.message}`);
    help = e.stdout;
  }
  writeFileSync(join(mandir, `${name}.1`), manPageFromHelp(help, { others: [...plugins, 'cloudchecks-sim'] }));
}

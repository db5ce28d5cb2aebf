// Builds every plugins/check_*.ts (and the simulator) into one self-contained executable
// in dist/ (or the directory given as the first argument). Same sources, same bytes.
import { build } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const outdir = process.argv[2] ?? 'dist';
mkdirSync(outdir, { recursive: true });

const entries = readdirSync('plugins')
  .filter((f) => /^check_\w+\.ts$/.test(f))
  .sort()
  .map((f) => ({ in: join('plugins', f), out: f.replace(/\.ts$/, '') }));
if (existsSync('sim/main.ts')) entries.push({ in: 'sim/main.ts', out: 'cloudchecks-sim' });

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const packages = new Set();
for (const entry of entries) {
  const result = await build({
    entryPoints: [entry.in],
    outfile: join(outdir, entry.out),
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    // Names are kept (no mangling), so that an admin can read what runs on the monitoring
    // host and a -vvv trace of an internal error names real functions; whitespace and syntax
    // are still minified. Measured cost: bench/RESULTS.md ("Readable executables").
    // CLOUDCHECKS_MINIFY_IDENTIFIERS=1 mangles them, for that measurement only.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: process.env.CLOUDCHECKS_MINIFY_IDENTIFIERS === '1',
    keepNames: false,
    legalComments: 'none',
    banner: { js: '#!/usr/bin/env node' },
    define: { __CLOUDCHECKS_VERSION__: JSON.stringify(version) },
    metafile: true,
    logLevel: 'warning',
  });
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.add(m[1]);
  }
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

import { build } from 'esbuild';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bundles test/support/check_test.ts the way build.mjs bundles real plugins; returns its path. */
export async function buildTestPlugin(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'cc-test-plugin-')), 'check_test');
  await build({
    entryPoints: [join(__dirname, 'check_test.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    // As build.mjs: names kept, whitespace and syntax minified.
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: '#!/usr/bin/env node' },
    define: { __CLOUDCHECKS_VERSION__: JSON.stringify('9.9.9') },
    logLevel: 'warning',
  });
  chmodSync(out, 0o755);
  return out;
}

import { build } from 'esbuild';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs module of the build, without types
import { BUNDLE_OPTIONS } from '../../scripts/bundle-options.mjs';

/** Bundles test/support/check_test.ts the way build.mjs bundles real plugins; returns its path. */
export async function buildTestPlugin(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'cc-test-plugin-')), 'check_test');
  await build({
    ...BUNDLE_OPTIONS,
    entryPoints: [join(__dirname, 'check_test.ts')],
    outfile: out,
    banner: { js: '#!/usr/bin/env node' },
    define: { __CLOUDCHECKS_VERSION__: JSON.stringify('9.9.9') },
  });
  chmodSync(out, 0o755);
  return out;
}

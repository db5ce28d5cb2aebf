// The esbuild options every executable is bundled with (build.mjs, and the test plugin of
// test/support/build-test-plugin.ts), so that what the tests run is built as dist/ is.
// Names are kept (no mangling), so that an admin can read what runs on the monitoring host
// and a -vvv trace of an internal error names real functions; whitespace and syntax are
// still minified. Measured cost: bench/RESULTS.md ("Readable executables").
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
};

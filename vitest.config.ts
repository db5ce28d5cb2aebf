import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One test file at a time: the fault matrix and the runtime tests assert that a check ends
    // within -t + 0.5 s of its spawn, and on a 2-core machine a second file spawning 50
    // concurrent checks (or an Icinga daemon) beside them starves the process under test.
    fileParallelism: false,
    pool: 'forks',
  },
});

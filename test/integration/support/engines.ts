import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The full path of an executable found in PATH or the sbin directories, if any.
 * CLOUDCHECKS_<NAME> (e.g. CLOUDCHECKS_ICINGA2) names another build to use instead.
 */
export function findExecutable(name: string): string | undefined {
  const override = process.env[`CLOUDCHECKS_${name.toUpperCase()}`];
  if (override !== undefined) {
    try {
      accessSync(override, constants.X_OK);
      return override;
    } catch {
      return undefined;
    }
  }
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Says loudly, once per suite, that an engine test is skipped and why: a skipped engine test
 * must never pass for a green one unnoticed.
 */
export function announceSkip(engine: string, packages: string): void {
  const bar = '!'.repeat(78);
  console.warn(
    `\n${bar}\nSKIPPED: the ${engine} integration tests did not run: '${engine}' is not installed.\n` +
      `Install it with: apt-get install --no-install-recommends ${packages}  (or run 'make integration-deps' as root)\n${bar}\n`,
  );
}

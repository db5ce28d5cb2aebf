// Each plugin is a definition its tests can import (plugins/<name>/plugin.ts exports `plugin`),
// and its entry point (plugins/<name>/main.ts, the build's entry) is the one line that runs it.
// Importing a definition must run nothing: no output, no exit, no request.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import PLUGINS from '../../plugins/registry.json';
import type { PluginDefinition } from '../../lib/plugin/run';

const REPO = resolve(__dirname, '../..');

/** Every registered plugin is a definition. */
const DEFINED: string[] = [...PLUGINS];

/** A plugin's whole main.ts. */
const RUNNER = "import { runPlugin } from '../../lib/plugin/run';\nimport { plugin } from './plugin';\n\nvoid runPlugin(plugin);\n";

describe('plugin definitions (plugins/<name>/plugin.ts)', () => {
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  const write = vi.spyOn(process.stdout, 'write');
  const loaded = new Map<string, PluginDefinition>();
  beforeAll(async () => {
    for (const name of DEFINED) loaded.set(name, ((await import(`../../plugins/${name}/plugin`)) as { plugin: PluginDefinition }).plugin);
    // What an import started would have printed or exited by the next turn.
    await new Promise((r) => setImmediate(r));
  });
  afterAll(() => {
    exit.mockRestore();
    write.mockRestore();
  });

  it('lists registered plugins only', () => {
    for (const name of DEFINED) expect(PLUGINS, name).toContain(name);
  });

  it.each(DEFINED)('%s: plugin.ts exports its definition, named by its command', (name) => {
    const plugin = loaded.get(name)!;
    expect(plugin.command).toBe(name);
    expect(plugin.name).toMatch(/^[A-Z_]+$/);
    expect(plugin.usage.startsWith(`${name} `)).toBe(true);
    expect(typeof plugin.run).toBe('function');
    expect(plugin.options.length).toBeGreaterThan(0);
  });

  it('importing the definitions ran nothing: no output, no exit', () => {
    expect(exit).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();
  });

  it.each(DEFINED)('%s: main.ts is only the line that runs the definition', (name) => {
    const main = readFileSync(join(REPO, 'plugins', name, 'main.ts'), 'utf8');
    // check_vm_fleet's entry also sets a V8 flag before it runs, which an import must not.
    if (name === 'check_vm_fleet') expect(main.endsWith('keepYoungGenerationSmall();\nvoid runPlugin(plugin);\n')).toBe(true);
    else expect(main).toBe(RUNNER);
  });
});

// --help as an operator reads it in an 80-column terminal, and the simulator's docs against
// what the simulator really does.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import PLUGINS from '../../plugins/registry.json';
import { SIM_MODULES } from '../../sim/modules';
import { startSimulatorFromArgs } from '../../sim/simulator';
import { runExecutable } from '../support/spawn';

const REPO = resolve(__dirname, '../..');
const DIST = join(REPO, 'dist');
const EXECUTABLES = [...PLUGINS, 'cloudchecks-sim'];

async function help(exe: string): Promise<string> {
  const r = await runExecutable(join(DIST, exe), ['--help']);
  expect(r.stderr).toBe('');
  return r.stdout;
}

describe('--help', () => {
  it.each(EXECUTABLES)('%s --help fits 80 columns', async (exe) => {
    const text = await help(exe);
    const wide = text.split('\n').filter((l) => [...l].length > 80);
    expect(wide).toEqual([]);
    expect(text).toMatch(/^Usage: /m);
    expect(text).toMatch(/^Examples:/m);
  });

  it('cloudchecks-sim --help lists the --cert kinds', async () => {
    expect((await help('cloudchecks-sim')).replace(/\s+/g, ' ')).toMatch(/--cert KIND .*One of: valid, expired, wrong-host, near-expiry\. \(default: valid\)/);
  });

  it('check_nodes examples select workers as the docs do (role labels have an empty value)', async () => {
    const text = await help('check_nodes');
    expect(text).toContain('-l node-role.kubernetes.io/worker=');
    expect(text).not.toMatch(/node-role\.kubernetes\.io\/worker(?!=)/);
    // A long example continues with a backslash and keeps each option beside its value.
    expect(text).toMatch(/ \\\n {6}--token-file \/etc\/nagios\/cluster\.token/);
  });

  it('each VM check gives its own defaults', async () => {
    const flat = async (exe: string) => (await help(exe)).replace(/\s+/g, ' ');
    expect(await flat('check_vm_mem')).toContain('-c, --critical RANGE Critical range (default 90).');
    expect(await flat('check_vm_cpu')).toContain('Critical range (default 90 for average, maximum; none for mhz)');
    expect(await flat('check_vm_disk')).toContain('Critical range (default 90 for percent; none for used, read, write)');
    for (const exe of ['check_vm_cpu', 'check_vm_mem']) expect(await flat(exe)).not.toContain('disk sizes');
    expect(await flat('check_vm_disk')).toContain('90m for disk sizes');
    // The password's sources in the order the plugin takes them.
    expect(await flat('check_vm_cpu')).toContain('--password-file PATH File holding the password (one line). Without it: --password, else $VCD_PASSWORD.');
  });
});

describe('docs/simulator.md', () => {
  it('lists every file the simulator writes', async () => {
    const doc = readFileSync(join(REPO, 'docs/simulator.md'), 'utf8');
    const sim = await startSimulatorFromArgs([], SIM_MODULES);
    try {
      const files = readdirSync(sim.stateDir);
      expect(files.length).toBeGreaterThan(3);
      for (const f of files) {
        expect(doc, `docs/simulator.md names ${f}`).toContain(`| \`${f}\` | 0${(statSync(join(sim.stateDir, f)).mode & 0o777).toString(8)} |`);
      }
    } finally {
      await sim.close();
    }
  });
});

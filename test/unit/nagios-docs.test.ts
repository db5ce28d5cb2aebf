// docs/nagios.md must name everything the Nagios files ship, so that a newer check, template or
// variable cannot land without its documentation: every file of contrib/nagios, every command,
// template, host group and servicegroup they define, and every custom variable the shipped
// commands read or the Nagios discovery writes on a generated host.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../..');
const CONTRIB = join(REPO, 'contrib/nagios');
const doc = readFileSync(join(REPO, 'docs/nagios.md'), 'utf8');
const files = readdirSync(CONTRIB).filter((f) => f.endsWith('.cfg'));
const shipped = files.map((f) => readFileSync(join(CONTRIB, f), 'utf8').replace(/^\s*#.*$/gm, '')).join('\n');

/** The values of a directive of the shipped object definitions (comments left out). */
function directive(name: string): string[] {
  return [...new Set([...shipped.matchAll(new RegExp(`^\\s+${name}\\s+(\\S+)\\s*$`, 'gm'))].map((m) => m[1]))].sort();
}

/** The names docs/nagios.md leaves out of `names`. */
const missing = (names: readonly string[]) => names.filter((n) => !doc.includes(`\`${n}\``) && !doc.includes(n));

describe('docs/nagios.md covers contrib/nagios', () => {
  it('names every file', () => {
    expect(files.length).toBeGreaterThan(5);
    expect(missing(files)).toEqual([]);
  });

  it('names every command', () => {
    const commands = directive('command_name');
    expect(commands).toContain('cloudchecks_vcd');
    expect(commands).toContain('cloudchecks_vdc_discovered');
    expect(commands.filter((c) => !doc.includes(`\`${c}\``))).toEqual([]);
  });

  it('names every template, host group and servicegroup', () => {
    const names = [...directive('name'), ...directive('hostgroup_name').filter((g) => g.startsWith('cloudchecks-')), ...directive('servicegroup_name')];
    expect(names).toContain('cloudchecks-vcd-dependent');
    expect(names).toContain('cloudchecks-vcd-dependents');
    expect(names.filter((n) => !doc.includes(`\`${n}\``))).toEqual([]);
  });

  it('names every custom variable the commands read and the discovery writes', () => {
    const read = [...shipped.matchAll(/\$_HOST([A-Z_]+)\$/g)].map((m) => `_${m[1]}`);
    const discovery = readFileSync(join(REPO, 'lib/vcd/inventory/discovery.ts'), 'utf8');
    const written = [...discovery.matchAll(/(?:`|\\n) {4}(_[A-Z][A-Z_]+) +\$\{/g)].map((m) => m[1]);
    expect(written).toEqual(expect.arrayContaining(['_POWERED_OFF_STATE', '_VM_ID', '_VDC_ID', '_PVDC_ID', '_VCD_ARGS']));
    const vars = [...new Set([...read, ...written, ...[...shipped.matchAll(/^\s+(_[A-Z][A-Z_]+)\s+\S/gm)].map((m) => m[1])])].sort();
    expect(vars.filter((v) => !doc.includes(`\`${v}\``))).toEqual([]);
  });
});

// Tenant and command-line text written into Icinga 2 and Nagios configuration: each hostile
// name of the table must come out inert for the engine's macros and for /bin/sh.
import { describe, expect, it } from 'vitest';
import { icingaMacroString, icingaString, nagiosShellWord, nagiosText } from '../../../lib/plugin/engine-text';

/** How Icinga 2 reads a macro string: the DSL literal decoded, then every `$$` made `$`, and a lone `$` an error. */
function icingaResolve(literal: string): string {
  const value = JSON.parse(literal) as string; // the literal uses only the escapes JSON shares: \" and \\
  if (!/^(?:[^$]|\$\$)*$/.test(value)) throw new Error(`a macro would be resolved in ${value}`);
  return value.replace(/\$\$/g, '$');
}

// name, what icingaString writes, what nagiosText writes
const HOSTILE: Array<[string, string, string]> = [
  ['shop $cloudchecks_vcd_password$', '"shop $cloudchecks_vcd_password$"', 'shop _cloudchecks_vcd_password_'],
  ['$host.vars.cloudchecks_vm_vapp$', '"$host.vars.cloudchecks_vm_vapp$"', '_host.vars.cloudchecks_vm_vapp_'],
  ['price $5', '"price $5"', 'price _5'],
  ['$$', '"$$"', '__'],
  ['$USER3$', '"$USER3$"', '_USER3_'],
  ['trailing \\', '"trailing \\\\"', 'trailing _'],
  ['"quoted" and \'single\'', '"\\"quoted\\" and \'single\'"', '_quoted_ and _single_'],
  ["web'&touch /tmp/x&'", '"web\'&touch /tmp/x&\'"', 'web__touch /tmp/x__'],
  ['Sales & touch /tmp/x &', '"Sales & touch /tmp/x &"', 'Sales _ touch /tmp/x _'],
  ['a;b|c<d>e(f)', '"a;b|c<d>e(f)"', 'a_b_c_d_e_f_'],
  ['`touch /tmp/x`', '"`touch /tmp/x`"', '_touch /tmp/x_'],
  ['$(touch /tmp/x)', '"$(touch /tmp/x)"', '__touch /tmp/x_'],
  ['#!~*?[]{}^', '"#!~*?[]{}^"', '__________'],
  ['line\nbreak', '"line break"', 'line break'],
  ['cr\r\nlf', '"cr lf"', 'cr lf'],
  ['nul\u0000byte', '"nul byte"', 'nul byte'],
  ['line\u2028separator', '"line separator"', 'line separator'],
  ['para\u2029separator', '"para separator"', 'para separator'],
  ['next\u0085line', '"next line"', 'next line'],
  ['esc\u001b[31m', '"esc [31m"', 'esc _31m'],
  ['Müller 10% a+b=c, x@y: /z', '"Müller 10% a+b=c, x@y: /z"', 'Müller 10% a+b=c, x@y: /z'],
];

describe('Icinga 2 strings', () => {
  it.each(HOSTILE)('%j: display_name as it is, a var that macros give back unchanged', (name, literal) => {
    expect(icingaString(name)).toBe(literal);
    const decoded = JSON.parse(literal) as string;
    expect(icingaResolve(icingaMacroString(name))).toBe(decoded);
    expect(icingaMacroString(name)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
  });
  it('doubles every $ of a macro string, and only there', () => {
    expect(icingaMacroString('shop $cloudchecks_vcd_password$')).toBe('"shop $$cloudchecks_vcd_password$$"');
    expect(icingaMacroString('$$')).toBe('"$$$$"');
    expect(icingaString('$$')).toBe('"$$"');
  });
});

describe('Nagios object values', () => {
  it.each(HOSTILE)('%j: no Nagios or shell syntax, no control character, no continued line', (name, _literal, text) => {
    expect(nagiosText(name)).toBe(text);
    expect(text).not.toMatch(/[!"#$&'()*;<>?[\\\]^`{|}~\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
  });
  it('trims what Nagios would trim', () => {
    expect(nagiosText('  web 01 \t')).toBe('web 01');
  });
});

describe('Nagios command-line words', () => {
  it.each(['https://vcd.example.com:443/', '/etc/nagios4/secrets/vcd-acme.password', 'acme', 'monitor@acme', '38.1'])('%j passes as it is', (word) => {
    expect(nagiosShellWord(word, '--url')).toBe(word);
  });
  it.each(["/etc/nagios4/o'neil.pw", '/etc/vcd acme.pw', '$USER3$', 'a;b', '`id`', '$(id)', 'a\\', 'a\nb', ''])('%j is refused, naming the option', (word) => {
    expect(() => nagiosShellWord(word, '--password-file')).toThrow(
      /^--password-file ".*" cannot be written into a Nagios command line: .* only letters, digits and _@%\+=:,\.\/- pass unchanged/s,
    );
  });
});

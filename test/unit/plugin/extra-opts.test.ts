import { chmodSync, chownSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandExtraOpts, parseIni, takeExtraOpts } from '../../../lib/plugin/extra-opts';
import { Notes } from '../../../lib/plugin/notes';

const dir = mkdtempSync(join(tmpdir(), 'cc-ini-'));
const file = join(dir, 'plugins.ini');
writeFileSync(
  file,
  ['# comment', '; comment', '[check_nodes]', 'url = https://api.example:6443', 'insecure', 'token-file="/etc/x token"', '', '[other]', 'url=https://b'].join(
    '\n',
  ),
);

describe('extra-opts', () => {
  it('splits --extra-opts from the rest of argv', () => {
    expect(takeExtraOpts(['--extra-opts', '-k'])).toEqual({ specs: [''], rest: ['-k'] });
    expect(takeExtraOpts(['--extra-opts=sec@f', '-v'])).toEqual({ specs: ['sec@f'], rest: ['-v'] });
    expect(takeExtraOpts(['--extra-opts', 'other', '-v'])).toEqual({ specs: ['other'], rest: ['-v'] });
  });
  it('reads the plugin-named section by default', () => {
    expect(expandExtraOpts(`@${file}`, 'check_nodes')).toEqual(['--url=https://api.example:6443', '--insecure', '--token-file=/etc/x token']);
  });
  it('reads a named section', () => {
    expect(expandExtraOpts(`other@${file}`, 'check_nodes')).toEqual(['--url=https://b']);
  });
  it('uses MP_CONFIG_FILE when no file is named', () => {
    expect(expandExtraOpts('other', 'check_nodes', { MP_CONFIG_FILE: file })).toEqual(['--url=https://b']);
  });
  it('names a missing section or file', () => {
    expect(() => expandExtraOpts(`nope@${file}`, 'x')).toThrow(/section \[nope\] not found/);
    expect(() => expandExtraOpts(`@${dir}/missing.ini`, 'x')).toThrow(/cannot read .*missing.ini \(ENOENT\)/);
  });
  it('rejects an option outside a section', () => {
    expect(() => parseIni('url=x', 'f.ini')).toThrow(/outside of any \[section\]/);
  });
});

describe('extra-opts against a hostile local user', () => {
  const ini = (name: string, text: string, mode: number) => {
    const p = join(dir, name);
    writeFileSync(p, text, { mode });
    chmodSync(p, mode);
    return p;
  };

  it('refuses an ini file that others may write, naming the file and the fix', () => {
    for (const mode of [0o666, 0o620, 0o602]) {
      const p = ini(`open-${mode.toString(8)}.ini`, '[check_nodes]\nurl=https://attacker.example\n', mode);
      expect(() => expandExtraOpts(`@${p}`, 'check_nodes')).toThrow(
        `--extra-opts: ${p} is writable by others (mode 0${mode.toString(8)}), so anyone could add options to it (an --url that sends the token elsewhere); chmod go-w ${p}`,
      );
    }
  });

  it.runIf(process.getuid?.() === 0)('refuses an ini file owned by another user (not root)', () => {
    const p = ini('theirs.ini', '[check_nodes]\nurl=https://b\n', 0o644);
    chownSync(p, 4242, 4242);
    expect(() => expandExtraOpts(`@${p}`, 'check_nodes')).toThrow(/is owned by uid 4242 \(neither this user nor root\), who could add options to it/);
  });

  it('warns when others may read an ini file that holds a password or token', () => {
    const notes = new Notes();
    const p = ini('secret.ini', '[check_vm_cpu]\npassword=sEcReT-pw-1\n[check_nodes]\ntoken-file=/etc/t\n', 0o644);
    expect(expandExtraOpts(`check_vm_cpu@${p}`, 'x', {}, notes)).toEqual(['--password=sEcReT-pw-1']);
    expect(notes.all).toEqual([`--extra-opts ${p} holds password= and is readable by others (mode 0644); chmod 600 it`]);
    const none = new Notes();
    expandExtraOpts(`check_nodes@${p}`, 'x', {}, none); // a path to a token file is no secret
    expandExtraOpts(`check_vm_cpu@${ini('private.ini', '[check_vm_cpu]\npassword=x1234567\n', 0o600)}`, 'x', {}, none);
    expect(none.all).toEqual([]);
  });

  it('reads a section header in linear time ([ and 4,000 spaces once took 9 s)', () => {
    const started = Date.now();
    expect(() => parseIni(`[s]\n[${' '.repeat(400_000)}x`, 'f.ini')).toThrow(/line 2: bad option name/);
    expect(() => parseIni(`[s]\n[${' '.repeat(400_000)}]x`, 'f.ini')).toThrow(/line 2: bad option name/);
    // A line that is no option may be a secret put there by mistake: it is not quoted.
    expect(() => parseIni('[s]\npassword: Sommerzeit-42', 'f.ini')).toThrow(
      'f.ini line 2: bad option name (expected long-option-name=value, without the leading --)',
    );
    expect(parseIni(`[  check_nodes  ]\nurl=x\n[${' '.repeat(100_000)}a]\nk=v`, 'f.ini').get('a')).toEqual([['k', 'v']]);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

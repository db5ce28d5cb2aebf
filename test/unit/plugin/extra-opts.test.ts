import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandExtraOpts, parseIni, takeExtraOpts } from '../../../lib/plugin/extra-opts';

const dir = mkdtempSync(join(tmpdir(), 'cc-ini-'));
const file = join(dir, 'plugins.ini');
writeFileSync(
  file,
  ['# comment', '; comment', '[check_nodes]', 'url = https://api.example:6443', 'insecure', 'token-file="/etc/x token"', '', '[other]', 'url=https://b'].join('\n'),
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

import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckError } from '../../../lib/plugin/errors';
import { readSecretFile } from '../../../lib/plugin/secret-file';
import { Notes } from '../../../lib/plugin/notes';

const dir = mkdtempSync(join(tmpdir(), 'cc-secret-'));
const file = (name: string, text: string, mode: number) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
};

describe('readSecretFile', () => {
  it('returns the text and warns of nothing for a private file', () => {
    const notes = new Notes();
    expect(readSecretFile(file('a', 'token\n', 0o600), '--token-file', notes)).toBe('token\n');
    expect(notes.all).toEqual([]);
  });
  it('warns when others may read the file', () => {
    const notes = new Notes();
    const p = file('b', 'token', 0o644);
    readSecretFile(p, '--token-file', notes);
    expect(notes.all).toEqual([`--token-file ${p} is readable by others (mode 0644); chmod 600 it`]);
  });
  it.each([
    ['a missing file', join(dir, 'missing'), /cannot read --password-file .*missing \(ENOENT\); check the path/],
    [
      'a directory',
      (() => {
        mkdirSync(join(dir, 'd'));
        return join(dir, 'd');
      })(),
      /cannot read --password-file .*d \(EISDIR\)/,
    ],
  ])('names the cause for %s', (_what, path, message) => {
    expect(() => readSecretFile(path, '--password-file', new Notes())).toThrow(CheckError);
    expect(() => readSecretFile(path, '--password-file', new Notes())).toThrow(message);
  });
});

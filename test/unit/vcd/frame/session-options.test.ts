import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunContext } from '../../../../lib/plugin/context';
import { connectionUnder } from '../../../../lib/vcd/frame/session-options';
import { testRunContext } from '../../../support/run-context';

/** A test's run context whose secrets land in `secrets`. */
function contextWith(secrets: string[]): RunContext {
  const context = testRunContext();
  return { ...context, addSecret: (v) => void (v !== undefined && secrets.push(v)) };
}

function ini(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cc-conn-')), 'vcd.ini');
  writeFileSync(file, text);
  chmodSync(file, 0o600);
  return file;
}

describe('connectionUnder', () => {
  it('without a section: the prefixed options under the VM checks’ names, the rest unset', () => {
    const secrets: string[] = [];
    const c = connectionUnder('vcd', { 'vcd-url': 'https://vcd.example.com', 'vcd-user': 'mon', 'vcd-org': 'acme' }, contextWith(secrets));
    expect(c).toMatchObject({ url: 'https://vcd.example.com', user: 'mon', org: 'acme', 'password-file': undefined, 'ca-file': undefined, insecure: false });
    expect(c.password).toBeUndefined();
    expect(secrets).toEqual([]);
  });

  it('a prefixed option wins over its key in the section; the section’s other connection keys are taken, a VM check’s own keys left', () => {
    const secrets: string[] = [];
    const file = ini(
      '[vcd]\nurl=https://ini.example.com\nuser=ini-user\norg=acme\npassword=s3cret-pw\ninsecure\napi-version=36.0\ncache-dir=/var/cache/cc\nvapp=web\nwindow=15m\n',
    );
    const c = connectionUnder('vcd', { 'vcd-extra-opts': `vcd@${file}`, 'vcd-user': 'cli-user' }, contextWith(secrets));
    expect(c).toMatchObject({
      url: 'https://ini.example.com',
      user: 'cli-user',
      org: 'acme',
      password: 's3cret-pw',
      insecure: true,
      'api-version': '36.0',
      'cache-dir': '/var/cache/cc',
    });
    expect(c).not.toHaveProperty('vapp');
    expect(secrets).toEqual(['s3cret-pw']);
  });

  it('a section the keys cannot be read from is a usage error naming --<prefix>-extra-opts', () => {
    const file = ini('[vcd]\nurl=https://a.example.com\nurl=https://b.example.com\n');
    expect(() => connectionUnder('vcd', { 'vcd-extra-opts': `vcd@${file}` }, contextWith([]))).toThrow(
      `--vcd-extra-opts vcd@${file}: --url given 2 times ("https://a.example.com", "https://b.example.com"); give it once`,
    );
  });
});

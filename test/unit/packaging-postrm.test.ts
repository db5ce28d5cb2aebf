// The Debian postrm on purge names the session caches the plugins left in users' homes.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const POSTRM = resolve(__dirname, '../../packaging/debian/postrm');

function runPostrm(arg: string, homes: string[]): string {
  const bin = mkdtempSync(join(tmpdir(), 'cc-postrm-bin-'));
  writeFileSync(join(bin, 'getent'), `#!/bin/sh\n${homes.map((h, i) => `echo 'u${i}:x:${1000 + i}:${1000 + i}::${h}:/bin/sh'`).join('\n')}\n`);
  chmodSync(join(bin, 'getent'), 0o755);
  return execFileSync('/bin/sh', [POSTRM, arg], { encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH}` } });
}

describe('packaging/debian/postrm', () => {
  it('purge lists the caches left in homes, and only those', () => {
    const root = mkdtempSync(join(tmpdir(), 'cc-postrm-'));
    const [nagios, zabbix, none] = ['nagios', 'zabbix', 'none'].map((h) => join(root, h));
    mkdirSync(join(nagios, '.cache', 'cloudchecks'), { recursive: true });
    mkdirSync(join(zabbix, '.cache', 'cloudchecks'), { recursive: true });
    mkdirSync(none);
    const out = runPostrm('purge', [nagios, zabbix, none, '/nonexistent']);
    expect(out).toMatch(/^cloudchecks: session caches left in users' homes .*rm -r:$/m);
    expect(out).toContain(`  ${join(nagios, '.cache', 'cloudchecks')}\n`);
    expect(out).toContain(`  ${join(zabbix, '.cache', 'cloudchecks')}\n`);
    expect(out).not.toContain(none + '/');
  });
  it('says nothing on remove, or when no cache is left', () => {
    const home = mkdtempSync(join(tmpdir(), 'cc-postrm-'));
    mkdirSync(join(home, '.cache', 'cloudchecks'), { recursive: true });
    expect(runPostrm('remove', [home])).toBe('');
    expect(runPostrm('purge', ['/nonexistent'])).toBe('');
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SIM_CA_PEM } from '../../../sim/tls-material';
import { Notes } from '../../../lib/plugin/notes';
import { parseOptions } from '../../../lib/plugin/options';
import { SUBMIT_OPTIONS, submitConfigFrom } from '../../../lib/submit/options';

const dir = mkdtempSync(join(tmpdir(), 'cc-submit-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ca = join(dir, 'ca.crt');
writeFileSync(ca, SIM_CA_PEM);
const passwordFile = join(dir, 'api.password');
writeFileSync(passwordFile, 'p4ss\n', { mode: 0o600 });

function config(argv: string[]) {
  const secrets: string[] = [];
  const notes = new Notes();
  const out = submitConfigFrom(parseOptions(argv, SUBMIT_OPTIONS), { addSecret: (s) => s && secrets.push(s), notes });
  return { out, secrets, notes: notes.all };
}

describe('submitConfigFrom', () => {
  it('is nothing without --submit', () => {
    expect(config([]).out).toBeUndefined();
  });

  it('reads the Icinga 2 target: password from its file (registered as a secret), the CA as the only anchor', () => {
    const { out, secrets } = config([
      '--submit',
      'icinga2',
      '--icinga2-user',
      'fleet',
      '--icinga2-password-file',
      passwordFile,
      '--icinga2-ca-file',
      ca,
      '--icinga2-server-name',
      'master1',
    ]);
    expect(out?.mode).toBe('icinga2');
    if (out?.mode !== 'icinga2') return;
    expect(out.icinga).toMatchObject({
      user: 'fleet',
      password: 'p4ss',
      tls: { ca: SIM_CA_PEM, caOnly: true, serverName: 'master1', serverNameOption: '--icinga2-server-name' },
    });
    expect(out.icinga.url.href).toBe('https://localhost:5665/');
    expect(secrets).toContain('p4ss');
  });

  it('refuses what cannot work, naming the option', () => {
    expect(() => config(['--submit', 'icinga2', '--icinga2-password-file', passwordFile, '--icinga2-ca-file', ca])).toThrow(/needs --icinga2-user/);
    expect(() => config(['--submit', 'icinga2', '--icinga2-user', 'u', '--icinga2-ca-file', ca])).toThrow(/no password for the ApiUser u/);
    expect(() => config(['--submit', 'icinga2', '--icinga2-user', 'u', '--icinga2-url', 'http://x:5665', '--icinga2-password', 'p'])).toThrow(/not https:\/\//);
    expect(() => config(['--submit', 'icinga2', '--icinga2-user', 'u', '--icinga2-password', 'p', '--icinga2-ca-file', join(dir, 'none')])).toThrow(
      /cannot read --icinga2-ca-file .* \(ENOENT\); give the Icinga 2 CA/,
    );
    expect(() => config(['--submit', 'zabbix'])).toThrow(/needs --zabbix-host/);
    expect(() => config(['--submit', 'zabbix', '--zabbix-host', 'a', '--zabbix-port', '70000'])).toThrow(/invalid --zabbix-port 70000/);
    expect(() => config(['--submit', 'pigeon'])).toThrow(/expected one of icinga2, nagios, zabbix/);
  });

  it('takes the Nagios command file and the Zabbix trapper with their defaults', () => {
    expect(config(['--submit', 'nagios']).out).toEqual({ mode: 'nagios', commandFile: '/var/lib/nagios4/rw/nagios.cmd' });
    expect(config(['--submit', 'zabbix', '--zabbix-host', 'acme fleet']).out).toEqual({
      mode: 'zabbix',
      zabbix: { host: '127.0.0.1', port: 10051 },
      host: 'acme fleet',
      key: 'cloudchecks.fleet.json',
    });
  });
});

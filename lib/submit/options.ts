import { hostname } from 'node:os';
import { readCaFile } from '../http/ca-file';
import type { RunContext } from '../plugin/context';
import { hasControlCharacters } from '../plugin/control-characters';
import { CheckError, UsageError } from '../plugin/errors';
import { defineOptions, positiveInteger, type OptionsOf } from '../plugin/options';
import { readSecretFile } from '../plugin/secret-file';
import type { IcingaTarget } from './icinga2';
import type { ZabbixTarget } from './zabbix';

export const SUBMIT_MODES = ['icinga2', 'nagios', 'zabbix'] as const;
export type SubmitMode = (typeof SUBMIT_MODES)[number];

/** The Icinga 2 CA where the packages keep it (readable by the nagios user Icinga runs checks as). */
export const DEFAULT_ICINGA_CA = '/var/lib/icinga2/certs/ca.crt';
/** Debian's nagios4 command_file. */
export const DEFAULT_NAGIOS_COMMAND_FILE = '/var/lib/nagios4/rw/nagios.cmd';
/** The trapper item of the fleet template that takes the whole --output json document. */
export const DEFAULT_ZABBIX_KEY = 'cloudchecks.fleet.json';

/** Options of the plugins that hand their results to the engine themselves (--submit). */
export const SUBMIT_OPTIONS = defineOptions([
  {
    long: 'submit',
    type: 'string',
    arg: 'ENGINE',
    choices: SUBMIT_MODES,
    description:
      "Hand each VM's cpu, memory and disk results to the engine as passive results: icinga2 (REST API process-check-result), nagios (the external command file) or zabbix (the whole --output json document to a trapper item, sender protocol). The plugin's own line then says how many were submitted.",
  },
  {
    long: 'icinga2-url',
    type: 'string',
    arg: 'URL',
    default: 'https://localhost:5665',
    description: 'With --submit icinga2: the Icinga 2 API (its ApiListener).',
  },
  {
    long: 'icinga2-user',
    type: 'string',
    arg: 'NAME',
    description:
      'With --submit icinga2: the ApiUser, whose permissions need only be actions/process-check-result, objects/query/Host and objects/query/Service.',
  },
  { long: 'icinga2-password-file', type: 'string', arg: 'PATH', description: "With --submit icinga2: file holding the ApiUser's password (one line)." },
  {
    long: 'icinga2-password',
    type: 'string',
    arg: 'TEXT',
    secret: true,
    description: 'The ApiUser password, when there is no --icinga2-password-file: put it in an --extra-opts file, never on the command line.',
  },
  {
    long: 'icinga2-ca-file',
    type: 'string',
    arg: 'PATH',
    default: DEFAULT_ICINGA_CA,
    description: "With --submit icinga2: the CA of the Icinga 2 cluster, the only one trusted for the API's certificate.",
  },
  {
    long: 'icinga2-server-name',
    type: 'string',
    arg: 'NAME',
    description:
      "The name the API's certificate must carry, when it is not the host of --icinga2-url (Icinga's certificates carry the endpoint name, e.g. the FQDN).",
  },
  {
    long: 'nagios-command-file',
    type: 'string',
    arg: 'PATH',
    default: DEFAULT_NAGIOS_COMMAND_FILE,
    description: 'With --submit nagios: the command_file of nagios.cfg (a named pipe; check_external_commands=1).',
  },
  {
    long: 'zabbix-server',
    type: 'string',
    arg: 'HOST',
    default: '127.0.0.1',
    description: 'With --submit zabbix: the Zabbix server or proxy whose trapper takes the values.',
  },
  { long: 'zabbix-port', type: 'number', arg: 'PORT', default: 10051, description: 'With --submit zabbix: the trapper port.' },
  { long: 'zabbix-host', type: 'string', arg: 'NAME', description: 'With --submit zabbix: the Zabbix host (technical name) that has the fleet template.' },
  { long: 'zabbix-key', type: 'string', arg: 'KEY', default: DEFAULT_ZABBIX_KEY, description: 'With --submit zabbix: the key of its trapper item.' },
]);

export type SubmitOptions = OptionsOf<typeof SUBMIT_OPTIONS>;

/** Where results go, read and checked once. */
export type SubmitConfig =
  | { mode: 'icinga2'; icinga: IcingaTarget }
  | { mode: 'nagios'; commandFile: string }
  | { mode: 'zabbix'; zabbix: ZabbixTarget; host: string; key: string }
  | undefined;

/** Reads the --submit options into where results go (undefined without --submit); secrets registered at once. */
export function submitConfigFrom(options: SubmitOptions, context: Pick<RunContext, 'addSecret' | 'notes'>): SubmitConfig {
  switch (options.submit) {
    case undefined:
      return undefined;
    case 'icinga2':
      return { mode: 'icinga2', icinga: icingaTargetFrom(options, context) };
    case 'nagios':
      return { mode: 'nagios', commandFile: options['nagios-command-file'] };
    case 'zabbix': {
      const host = options['zabbix-host'];
      if (!host) throw new UsageError('--submit zabbix needs --zabbix-host (the Zabbix host that has the fleet template)');
      for (const [option, text] of [
        ['--zabbix-host', host],
        ['--zabbix-key', options['zabbix-key']],
        ['--zabbix-server', options['zabbix-server']],
      ])
        if (text.trim() === '' || hasControlCharacters(text)) throw new UsageError(`invalid ${option} ${JSON.stringify(text)}`);
      const port = positiveInteger(options['zabbix-port'], '--zabbix-port');
      if (port > 65535) throw new UsageError(`invalid --zabbix-port ${port}: expected 1-65535`);
      return { mode: 'zabbix', zabbix: { host: options['zabbix-server'], port }, host, key: options['zabbix-key'] };
    }
  }
}

function icingaTargetFrom(options: SubmitOptions, context: Pick<RunContext, 'addSecret' | 'notes'>): IcingaTarget {
  let url: URL;
  try {
    url = new URL(options['icinga2-url']);
  } catch {
    throw new UsageError(`invalid --icinga2-url ${JSON.stringify(options['icinga2-url'])}: expected https://HOST:5665`);
  }
  if (url.protocol !== 'https:') throw new UsageError(`--icinga2-url ${url.origin} is not https://: the Icinga 2 API speaks TLS only`);
  const user = options['icinga2-user'];
  if (!user) throw new UsageError('--submit icinga2 needs --icinga2-user (an ApiUser)');
  if (user.includes(':') || hasControlCharacters(user)) throw new UsageError(`invalid --icinga2-user: a user name holds no ':' or control character`);
  const file = options['icinga2-password-file'];
  const password = file ? readSecretFile(file, '--icinga2-password-file', context.notes).replace(/\r?\n$/, '') : options['icinga2-password'];
  context.addSecret(password);
  if (!password) throw new UsageError(`no password for the ApiUser ${user}: give --icinga2-password-file, or icinga2-password= in an --extra-opts file`);
  if (hasControlCharacters(password)) throw new CheckError(`the ApiUser password${file ? ` in ${file}` : ''} holds control characters; it must be one line`);
  const caFile = options['icinga2-ca-file'];
  const ca = readCaFile(
    caFile,
    '--icinga2-ca-file',
    "give the Icinga 2 CA (the master's /var/lib/icinga2/ca/ca.crt, on every node /var/lib/icinga2/certs/ca.crt) in a file this user may read",
  );
  const serverName = options['icinga2-server-name'];
  return {
    url,
    user,
    password,
    tls: { ca, caOnly: true, caSource: '--icinga2-ca-file', serverNameOption: '--icinga2-server-name', ...(serverName ? { serverName } : {}) },
    checkSource: hostname(),
  };
}

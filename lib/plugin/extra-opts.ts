import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { UsageError } from './errors';
import { Notes } from './notes';

// The monitoring-plugins search order (lib/parse_ini.c) when --extra-opts names no file.
const DEFAULT_INI_FILES = [
  '/usr/local/etc/monitoring-plugins/monitoring-plugins.ini',
  '/usr/local/etc/monitoring-plugins.ini',
  '/etc/monitoring-plugins/monitoring-plugins.ini',
  '/etc/monitoring-plugins.ini',
  '/etc/nagios/plugins.ini',
  '/usr/local/nagios/etc/plugins.ini',
  '/usr/local/etc/nagios/plugins.ini',
  '/etc/opt/nagios/plugins.ini',
  '/etc/nagios-plugins.ini',
  '/usr/local/etc/nagios-plugins.ini',
  '/etc/opt/nagios-plugins.ini',
];

/** Splits argv into the --extra-opts values it holds and the rest. */
export function takeExtraOpts(argv: readonly string[]): { specs: string[]; rest: string[] } {
  const specs: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--extra-opts') {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-')) {
        specs.push(next);
        i++;
      } else specs.push('');
    } else if (a.startsWith('--extra-opts=')) specs.push(a.slice('--extra-opts='.length));
    else rest.push(a);
  }
  return { specs, rest };
}

/** Parses ini text into sections of [key, value|undefined] pairs, in order. */
export function parseIni(text: string, file: string): Map<string, Array<[string, string | undefined]>> {
  const sections = new Map<string, Array<[string, string | undefined]>>();
  let current: Array<[string, string | undefined]> | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    // `[name]`, read by hand: the regular expression it replaces took cubic time on `[` and
    // thousands of spaces.
    const name = line.startsWith('[') && line.endsWith(']') ? line.slice(1, -1).trim() : '';
    if (name !== '' && !name.includes(']')) {
      current = sections.get(name) ?? [];
      sections.set(name, current);
      return;
    }
    if (!current) throw new UsageError(`${file} line ${index + 1}: option outside of any [section]`);
    const eq = line.indexOf('=');
    const key = (eq < 0 ? line : line.slice(0, eq)).trim();
    // The line is not quoted: a line that is no option (`password: x`, a bare password) may be a secret.
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(key))
      throw new UsageError(`${file} line ${index + 1}: bad option name (expected long-option-name=value, without the leading --)`);
    let value = eq < 0 ? undefined : line.slice(eq + 1).trim();
    if (value !== undefined && value.length >= 2 && /^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    current.push([key, value]);
  });
  return sections;
}

/**
 * Resolves `--extra-opts [section][@file]` into command-line arguments, per the
 * monitoring-plugins convention. `defaultSection` is the plugin's name.
 */
export function expandExtraOpts(spec: string, defaultSection: string, env: NodeJS.ProcessEnv = process.env, notes = new Notes()): string[] {
  const at = spec.indexOf('@');
  const section = (at < 0 ? spec : spec.slice(0, at)).trim() || defaultSection;
  let file = at < 0 ? '' : spec.slice(at + 1).trim();
  let text: string | undefined;
  let mode = 0;
  if (file || env.MP_CONFIG_FILE) {
    file ||= env.MP_CONFIG_FILE as string;
    const ini = readIni(file);
    text = trustedText(ini, file);
    mode = ini.mode;
  } else {
    for (const candidate of DEFAULT_INI_FILES) {
      let found: IniFile;
      try {
        found = openIni(candidate);
      } catch {
        continue; // not there: try the next standard location
      }
      text = trustedText(found, candidate);
      mode = found.mode;
      file = candidate;
      break;
    }
    if (text === undefined) {
      throw new UsageError(`--extra-opts: no ini file given and none found (set MP_CONFIG_FILE or use --extra-opts ${section}@/path/to/file.ini)`);
    }
  }
  const pairs = parseIni(text, file).get(section);
  if (!pairs) throw new UsageError(`--extra-opts: section [${section}] not found in ${file}`);
  const secret = pairs.find(([k, v]) => v !== undefined && SECRET_KEY.test(k));
  if (secret && mode & 0o077) notes.add(`--extra-opts ${file} holds ${secret[0]}= and is readable by others (mode ${octal(mode)}); chmod 600 it`);
  return pairs.map(([k, v]) => (v === undefined ? `--${k}` : `--${k}=${v}`));
}

/** Keys whose value is a secret itself (not the path of a file holding one). */
const SECRET_KEY = /^(?!.*-file$).*(password|token|secret)/i;

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

interface IniFile {
  text: string;
  mode: number;
  uid: number;
}

/** Reads an ini file and its owner and mode from one descriptor. */
function openIni(file: string): IniFile {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    return { text: readFileSync(fd, 'utf8'), mode: st.mode, uid: st.uid };
  } finally {
    closeSync(fd);
  }
}

function readIni(file: string): IniFile {
  try {
    return openIni(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`--extra-opts: cannot read ${file} (${code ?? 'error'}); check the path and that the monitoring user may read it`);
  }
}

/**
 * The text of an ini file only if nobody but this user (or root) can change it: its options
 * are obeyed like the command line, and two lines appended by another user could send the
 * token to their server.
 */
function trustedText(ini: IniFile, file: string): string {
  if (ini.mode & 0o022) {
    throw new UsageError(
      `--extra-opts: ${file} is writable by others (mode ${octal(ini.mode)}), so anyone could add options to it (an --url that sends the token elsewhere); chmod go-w ${file}`,
    );
  }
  const me = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (me !== undefined && ini.uid !== me && ini.uid !== 0) {
    throw new UsageError(
      `--extra-opts: ${file} is owned by uid ${ini.uid} (neither this user nor root), who could add options to it; chown it to root or to this user`,
    );
  }
  return ini.text;
}

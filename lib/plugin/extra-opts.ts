import { readFileSync } from 'node:fs';
import { UsageError } from './errors';

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
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      current = sections.get(header[1]) ?? [];
      sections.set(header[1], current);
      return;
    }
    if (!current) throw new UsageError(`${file} line ${index + 1}: option outside of any [section]`);
    const eq = line.indexOf('=');
    const key = (eq < 0 ? line : line.slice(0, eq)).trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(key)) throw new UsageError(`${file} line ${index + 1}: bad option name ${JSON.stringify(key)}`);
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
export function expandExtraOpts(spec: string, defaultSection: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const at = spec.indexOf('@');
  const section = (at < 0 ? spec : spec.slice(0, at)).trim() || defaultSection;
  let file = at < 0 ? '' : spec.slice(at + 1).trim();
  let text: string | undefined;
  if (file) {
    text = readIni(file);
  } else if (env.MP_CONFIG_FILE) {
    file = env.MP_CONFIG_FILE;
    text = readIni(file);
  } else {
    for (const candidate of DEFAULT_INI_FILES) {
      try {
        text = readFileSync(candidate, 'utf8');
        file = candidate;
        break;
      } catch {
        // not there: try the next standard location
      }
    }
    if (text === undefined) {
      throw new UsageError(`--extra-opts: no ini file given and none found (set MP_CONFIG_FILE or use --extra-opts ${section}@/path/to/file.ini)`);
    }
  }
  const pairs = parseIni(text, file).get(section);
  if (!pairs) throw new UsageError(`--extra-opts: section [${section}] not found in ${file}`);
  return pairs.map(([k, v]) => (v === undefined ? `--${k}` : `--${k}=${v}`));
}

function readIni(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`--extra-opts: cannot read ${file} (${code ?? 'error'}); check the path and that the monitoring user may read it`);
  }
}

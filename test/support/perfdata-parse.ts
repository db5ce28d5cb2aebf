// A strict parser of plugin output per the Monitoring Plugins Development Guidelines, used by
// tests to prove that what the plugins print is what monitoring engines can read.

export interface ParsedMetric {
  label: string;
  value: number | null; // null for U
  uom: string;
  warn: string;
  crit: string;
  min: number | null;
  max: number | null;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const RANGE = /^@?(~|-?\d+(\.\d+)?)?(:(-?\d+(\.\d+)?)?)?$/;
const UOMS = new Set(['', '%', 's', 'ms', 'us', 'B', 'KB', 'MB', 'GB', 'TB', 'c']);
const OUR_UOMS = new Set(['', '%', 's', 'ms', 'B', 'c']);

/** Parses a perfdata string strictly; throws with the offending text on any deviation. */
export function parsePerfdataStrict(text: string): ParsedMetric[] {
  const out: ParsedMetric[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    let label: string;
    if (rest.startsWith("'")) {
      const m = /^'((?:[^']|'')+)'=/.exec(rest);
      if (!m) throw new Error(`bad quoted label at: ${rest}`);
      label = m[1].replace(/''/g, "'");
      rest = rest.slice(m[0].length);
    } else {
      const m = /^([^\s'=]+)=/.exec(rest);
      if (!m) throw new Error(`bad label at: ${rest}`);
      label = m[1];
      rest = rest.slice(m[0].length);
    }
    const sp = rest.search(/\s/);
    const fieldText = sp < 0 ? rest : rest.slice(0, sp);
    rest = sp < 0 ? '' : rest.slice(sp).trimStart();
    const fields = fieldText.split(';');
    if (fields.length > 5) throw new Error(`too many fields: ${fieldText}`);
    if (fields.length > 1 && fields[fields.length - 1] === '') throw new Error(`trailing empty field: ${fieldText}`);
    const vm = /^(-?\d+(?:\.\d+)?|U)([a-zA-Z%]*)$/.exec(fields[0]);
    if (!vm) throw new Error(`bad value "${fields[0]}" in ${label}`);
    if (!UOMS.has(vm[2]) || !OUR_UOMS.has(vm[2])) throw new Error(`unit "${vm[2]}" not allowed in ${label}`);
    const [warn = '', crit = '', min = '', max = ''] = fields.slice(1);
    for (const r of [warn, crit]) if (r !== '' && !RANGE.test(r)) throw new Error(`bad range "${r}" in ${label}`);
    for (const n of [min, max]) if (n !== '' && !NUMBER.test(n)) throw new Error(`bad min/max "${n}" in ${label}`);
    out.push({
      label,
      value: vm[1] === 'U' ? null : Number(vm[1]),
      uom: vm[2],
      warn,
      crit,
      min: min === '' ? null : Number(min),
      max: max === '' ? null : Number(max),
    });
  }
  return out;
}

export interface ParsedOutput {
  name: string;
  state: 'OK' | 'WARNING' | 'CRITICAL' | 'UNKNOWN';
  summary: string;
  perfdata: ParsedMetric[];
  longOutput: string[];
}

/** Parses a whole plugin output: `NAME STATE - summary | perfdata` then long output lines. */
export function parsePluginOutput(stdout: string): ParsedOutput {
  const lines = stdout.replace(/\n$/, '').split('\n');
  const m = /^(\S+) (OK|WARNING|CRITICAL|UNKNOWN) - ([^|]+?)(?: \| (.*))?$/.exec(lines[0]);
  if (!m) throw new Error(`bad first line: ${lines[0]}`);
  const longOutput = lines.slice(1);
  if (longOutput.some((l) => l.includes('|'))) throw new Error('perfdata spread over long output lines');
  return { name: m[1], state: m[2] as ParsedOutput['state'], summary: m[3], perfdata: m[4] ? parsePerfdataStrict(m[4]) : [], longOutput };
}

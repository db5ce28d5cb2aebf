// Label matchers in the syntax of Alertmanager and amtool (`alertname=~"Kube.*"`,
// `namespace!="default"`): what --include and --exclude of check_cluster_alerts take. As in
// Alertmanager, a regular expression matches the whole value (it is anchored at both ends),
// and a label the alert lacks has the value "".
import { hasControlCharacters } from '../plugin/control-characters';
import { UsageError } from '../plugin/errors';
import { compileLinearRegExp } from '../plugin/linear-regexp';

export type MatchType = '=' | '!=' | '=~' | '!~';

/** One matcher: a label, how it is compared, and the value or pattern. */
export interface LabelMatcher {
  name: string;
  type: MatchType;
  value: string;
  /** The anchored pattern of `=~` and `!~`. */
  regexp?: RegExp;
  /** The matcher as given, for messages. */
  text: string;
}

const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MATCHER = /^\s*([^\s=!~"]+)\s*(=~|!~|!=|=)\s*(.*?)\s*$/s;

/** The value of a matcher: `"quoted"` (with \" \\ \n escapes, as Alertmanager reads them) or bare. */
function unquote(raw: string, text: string, option: string): string {
  if (!raw.startsWith('"')) {
    if (raw.includes('"')) throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: a value with a quote must be quoted whole, e.g. name="value"`);
    return raw;
  }
  if (raw.length < 2 || !raw.endsWith('"')) throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: the quoted value does not end with "`);
  let out = '';
  const inner = raw.slice(1, -1);
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '"') throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: a quote inside the value must be written \\"`);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = inner[++i];
    if (next === undefined) throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: the value ends with a lone backslash`);
    // \" \\ and \n are escapes; any other backslash stays (a regex's \d, \.).
    out += next === 'n' ? '\n' : next === '"' || next === '\\' ? next : `\\${next}`;
  }
  return out;
}

/** Reads one matcher (`name=value`, `name!="v"`, `name=~"re"`, `name!~"re"`); a UsageError names `option` and the syntax. */
export function parseMatcher(text: string, option: string): LabelMatcher {
  const m = MATCHER.exec(text);
  if (!m || hasControlCharacters(m[1]))
    throw new UsageError(
      `invalid ${option} ${JSON.stringify(text)}: expected a label matcher as Alertmanager writes them: name="value", name!="value", name=~"regex" or name!~"regex"`,
    );
  const [, name, type, raw] = m;
  if (!LABEL_NAME.test(name))
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: ${JSON.stringify(name)} is not a label name (letters, digits and _)`);
  const value = unquote(raw, text, option);
  const matcher: LabelMatcher = { name, type: type as MatchType, value, text: `${name}${type}${JSON.stringify(value)}` };
  if (type === '=~' || type === '!~') matcher.regexp = compileLinearRegExp(`^(?:${value})$`, `${option} ${name}${type}`);
  return matcher;
}

/** Whether an alert's labels satisfy the matcher (a missing label is ""). */
export function matches(matcher: LabelMatcher, labels: Readonly<Record<string, string>>): boolean {
  const v = labels[matcher.name] ?? '';
  switch (matcher.type) {
    case '=':
      return v === matcher.value;
    case '!=':
      return v !== matcher.value;
    case '=~':
      return matcher.regexp!.test(v);
    case '!~':
      return !matcher.regexp!.test(v);
  }
}

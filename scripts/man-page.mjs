// Manual pages of the plugins, made from their own --help (build.mjs writes dist/man/*.1),
// so that `man check_nodes` and `check_nodes --help` cannot disagree. The text is laid out
// as --help lays it out: "NAME VERSION", a description, "Usage:", "Options:" (entries at
// two or six spaces, their text at eight), notes, "Examples:". No date: the same help gives
// the same page.

/** Escapes text for roff: backslashes, minus signs, a leading control character, non-ASCII. */
export function roffText(text) {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]`)
    .replace(/^([.'])/gm, '\\&$1');
}

/** The parts of a --help text: title line, description, usage, options, notes, examples. */
export function parseHelp(help) {
  const lines = help.replace(/\r/g, '').split('\n');
  const [title] = lines;
  const m = /^(\S+) (\S+)$/.exec(title);
  if (!m) throw new Error(`--help does not start with "NAME VERSION": ${JSON.stringify(title)}`);
  const at = (re) => lines.findIndex((l) => re.test(l));
  const usage = at(/^Usage: /);
  const options = at(/^Options:$/);
  const examples = at(/^Examples:$/);
  if (usage < 0 || options < 0) throw new Error(`--help of ${m[1]} lacks "Usage:" or "Options:"`);
  const description = lines.slice(1, usage).join(' ').replace(/\s+/g, ' ').trim();
  const synopsis = lines
    .slice(usage, options)
    .join(' ')
    .replace(/^Usage: /, '')
    .replace(/\s+/g, ' ')
    .trim();
  const entries = [];
  let i = options + 1;
  for (; i < lines.length && lines[i] !== ''; i++) {
    const line = lines[i];
    if (/^ {8}/.test(line) && entries.length) entries[entries.length - 1].text.push(line.trim());
    else if (/^ {2}( {4})?-/.test(line)) entries.push({ option: line.trim(), text: [] });
    else throw new Error(`--help of ${m[1]}: unexpected line in Options: ${JSON.stringify(line)}`);
  }
  const end = examples < 0 ? lines.length : examples;
  const notes = lines.slice(i, end).join('\n').trim();
  const exampleLines = examples < 0 ? [] : lines.slice(examples + 1).filter((l, k, all) => l !== '' || k < all.length - 1);
  return { name: m[1], version: m[2], description, synopsis, entries, notes, examples: exampleLines.map((l) => l.replace(/^ {2}/, '')) };
}

/** The NAME line's short description: the first clause of the description, lower-cased. */
function summary(description) {
  const clause = description.split(/: | \(|\. /)[0].replace(/\.$/, '');
  return clause.charAt(0).toLowerCase() + clause.slice(1);
}

/**
 * The notes after the options as paragraphs: --help wraps them at 80 columns, so a new one
 * starts after a line that ends a sentence, or at a heading such as "Proxies:".
 */
function paragraphs(notes) {
  const out = [];
  for (const line of notes.split('\n').filter((l) => l.trim() !== '')) {
    const starts = out.length === 0 || /\.$/.test(out[out.length - 1]) || /^[A-Z][\w ,]*: /.test(line);
    if (starts) out.push(line.trim());
    else out[out.length - 1] += ` ${line.trim()}`;
  }
  return out;
}

/** A section-1 manual page (roff, man macros) made from a plugin's --help text. */
export function manPageFromHelp(help, { others = [] } = {}) {
  const h = parseHelp(help);
  const out = [];
  out.push(`.\\" Made from \`${h.name} --help\` by build.mjs; edit the help text, not this file.`);
  out.push(`.TH ${h.name.toUpperCase().replace(/-/g, '\\-')} 1 "" "cloudchecks ${h.version}" "Monitoring plugins"`);
  out.push('.SH NAME', `${roffText(h.name)} \\- ${roffText(summary(h.description))}`);
  out.push('.SH SYNOPSIS', `.B ${roffText(h.name)}`, roffText(h.synopsis.replace(new RegExp(`^${h.name} `), '')));
  out.push('.SH DESCRIPTION', roffText(h.description));
  for (const paragraph of paragraphs(h.notes)) out.push('.PP', roffText(paragraph));
  out.push('.SH OPTIONS');
  for (const e of h.entries) out.push('.TP', `.B ${roffText(e.option)}`, roffText(e.text.join(' ')));
  out.push(
    '.SH EXIT STATUS',
    '0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (also after \\-\\-help and \\-\\-version), as the Monitoring Plugins Development Guidelines ask.',
  );
  if (h.examples.length) out.push('.SH EXAMPLES', '.nf', roffText(h.examples.join('\n')), '.fi');
  const see = [...others.filter((o) => o !== h.name).map((o) => `.BR ${roffText(o)} (1)`)];
  out.push('.SH SEE ALSO', ...see.map((s, k) => (k < see.length - 1 ? `${s},` : s)));
  out.push(
    '.PP',
    '/usr/share/doc/cloudchecks/README.md and /usr/share/doc/cloudchecks/docs/ (troubleshooting.md: every UNKNOWN message, its cause and its fix).',
  );
  return `${out.join('\n')}\n`;
}

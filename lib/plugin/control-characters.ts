// The one rule for characters that text from outside (a tenant's VM or vApp name, a server's
// message, a cache file, a subprocess's stderr) may not carry into anything this project
// writes: a status line, long output, a Zabbix, Icinga 2 or Nagios file. They are:
//   - C0 controls U+0000-U+001F (NUL, TAB, LF, VT, FF, CR, ESC ...),
//   - DEL U+007F and the C1 controls U+0080-U+009F (NEL U+0085 among them),
//   - the Unicode LINE SEPARATOR U+2028 and PARAGRAPH SEPARATOR U+2029.
// Each of them ends or splits a line for some reader (Nagios, Icinga, a JavaScript or JSON
// consumer, a terminal), truncates a C string, or drives a terminal. No API lets a name hold
// one, so wherever such text is written, every run of them becomes one space; where a value
// must be taken as it is (a name given on the command line), it is refused.

const RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const ONE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when the text holds a control or line-separator character. */
export function hasControlCharacters(text: string): boolean {
  return ONE.test(text);
}

/** The text with every run of control and line-separator characters made one space. */
export function blankControlCharacters(text: string): string {
  return text.replace(RUNS, ' ');
}

// Text from outside (names tenants chose, paths and URLs from the command line) written into
// the configuration of a monitoring engine, so that it stays data there: it can break no
// line, expand no macro and, wherever the engine puts it into a command, be no shell syntax.
import { blankControlCharacters } from './control-characters';
import { UsageError } from './errors';

/** An Icinga 2 DSL string literal: `\` and `"` escaped, control characters made spaces. */
export function icingaString(text: string): string {
  return `"${blankControlCharacters(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * An Icinga 2 string literal that a macro may read: Icinga resolves the macros inside the
 * value of a custom variable (recursively, and refuses a config whose variable holds a lone
 * `$`), so each `$` is doubled and the macro gives back exactly the text.
 */
export function icingaMacroString(text: string): string {
  return icingaString(text).replace(/\$/g, '$$$$');
}

// What Nagios or /bin/sh would read as syntax in an object value or a command line: macros
// ($), quotes, escapes and a trailing backslash (a continued line), `;` (a comment),
// command separators, redirections, subshells, globs, comments and expansions.
const NAGIOS_OR_SHELL_SYNTAX = /[!"#$&'()*;<>?[\\\]^`{|}~]/g;

/**
 * A Nagios object value shown to people (alias, display_name, a custom variable): control
 * characters made spaces and every character of NAGIOS_OR_SHELL_SYNTAX made `_`. Nagios puts
 * $HOSTALIAS$ and $HOSTDISPLAYNAME$ into command lines unfiltered, in whatever quoting the
 * command uses, so only text without such characters is safe there.
 */
export function nagiosText(text: string): string {
  return blankControlCharacters(text).replace(NAGIOS_OR_SHELL_SYNTAX, '_').trim();
}

// What passes both Nagios (which strips quotes and other characters of
// illegal_macro_output_chars from custom variables) and /bin/sh unchanged without quoting.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * A value for a Nagios custom variable that commands put on a command line unquoted (an
 * option's value): returned as it is when every character is plain, else refused, naming
 * `what`: no quoting survives Nagios's macro cleaning, so nothing else is safe.
 */
export function nagiosShellWord(text: string, what: string): string {
  if (PLAIN_WORD.test(text)) return text;
  throw new UsageError(
    `${what} ${JSON.stringify(text)} cannot be written into a Nagios command line: Nagios strips quotes from custom variables and /bin/sh reads the rest, so only letters, digits and _@%+=:,./- pass unchanged; use such a path or value, or --discovery-format icinga2`,
  );
}

import { runRedactor } from './redact';

/** The longest excerpt of server-supplied text that goes into a message, by default. */
export const EXCERPT_CHARS = 300;

// C0 and C1 controls (NUL, VT, FF, ESC, U+0085 …), DEL, and the Unicode line and paragraph
// separators: any of them can split a status line, hide text on a terminal or end a
// Nagios output field. Tabs and newlines are folded into spaces like any other run of blanks.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const ONE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when the text holds a control or line-separator character (no API allows one in a name). */
export function hasControlCharacters(text: string): boolean {
  return ONE_CONTROL.test(text);
}

/**
 * Text that came from outside (a server's error message, a cache file) made fit for one
 * line of a message: control and line-separator characters become spaces, blanks are
 * collapsed, and at most `maxChars` characters are kept, the cut said with "… (N more
 * characters)". Runs in time linear in `maxChars`, not in the input: a 30 MB message costs
 * no more than a short one beyond the slice.
 */
export function boundedExcerpt(text: string, maxChars = EXCERPT_CHARS): string {
  // Look at a little more than needed: collapsing blanks may shrink the slice. A secret the
  // server echoed is redacted before anything is cut or folded (a cut through it, or a
  // control character folded inside it, would leave parts no later redaction recognises);
  // the slice reaches far enough past the limit to hold a secret that starts before it.
  const reach = maxChars * 4 + runRedactor.longest;
  const slice = text.length > reach ? text.slice(0, reach) : text;
  const clean = runRedactor.redact(slice).replace(CONTROL, ' ').replace(/\s{2,}/g, ' ').trim();
  if (clean.length <= maxChars && slice.length === text.length) return clean;
  const kept = clean.slice(0, maxChars).trimEnd();
  // Approximate once redaction changed lengths; exact otherwise.
  const more = text.length - slice.length + (clean.length - kept.length);
  return more > 0 ? `${kept}… (${more} more characters)` : kept;
}

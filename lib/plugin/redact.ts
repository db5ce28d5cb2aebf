import type { Result } from './result';

/**
 * Secrets are replaced by `<redacted>` in everything a plugin writes. The rule:
 *
 * - Redaction runs on the result's own texts before they are rendered (before `|` is
 *   rewritten, before JSON escaping), and once more on the rendered text.
 * - Each secret is also looked for in the forms a server may echo it in: JSON-escaped,
 *   URL-encoded and XML-escaped.
 * - Only values that can be secrets are redacted: at least MIN_SECRET_LENGTH characters,
 *   not a single dictionary-like word of letters shorter than 12, and not equal to a value
 *   printed on purpose (the user or org name). Redacting `check` or the user name would
 *   blank ordinary words and so reveal the password (`<redacted> --user`).
 * - A secret is replaced only where it stands as a whole token: not preceded or followed by a
 *   letter, digit, `_` or `-` where its own first or last character is one. A password
 *   `admin1` leaves `badmin12` alone.
 *
 * None of this is a license to put a secret in a message: messages name where a secret came
 * from (`--password-file /etc/x`), never its value.
 */

/** The shortest value treated as a secret. */
export const MIN_SECRET_LENGTH = 6;

const TOKEN_CHAR = /[A-Za-z0-9_-]/;
const WORDLIKE = /^[A-Za-z]{1,11}$/;
const MARK = '<redacted>';

/** The forms a secret may be echoed in, besides itself. */
function forms(secret: string): string[] {
  const out = new Set([secret]);
  out.add(JSON.stringify(secret).slice(1, -1));
  try {
    out.add(encodeURIComponent(secret));
  } catch {
    // a lone surrogate: it has no URL-encoded form
  }
  out.add(secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;'));
  return [...out];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Remembers secret values and replaces them wherever they would be written (see the rule above). */
export class Redactor {
  private readonly secrets = new Set<string>();
  private readonly publicValues = new Set<string>();
  private pattern: RegExp | null | undefined;
  private longestForm = 0;

  /** The length of the longest form of a secret: how far a secret may reach past a cut. */
  get longest(): number {
    this.compile();
    return this.longestForm;
  }

  /** A secret value (a password, a token); values that cannot be secrets are ignored. */
  add(value: string | undefined): void {
    const v = value?.trim();
    if (!v || v.length < MIN_SECRET_LENGTH || WORDLIKE.test(v) || this.secrets.has(v)) return;
    this.secrets.add(v);
    this.pattern = undefined;
  }

  /** A value printed on purpose (user, org): a "secret" equal to it is not redacted. */
  addPublic(value: string | undefined): void {
    const v = value?.trim();
    if (!v || this.publicValues.has(v)) return;
    this.publicValues.add(v);
    this.pattern = undefined;
  }

  /** `text` with every secret, in each of its forms, replaced by `<redacted>`. */
  redact(text: string): string {
    const pattern = this.compile();
    return pattern ? text.replace(pattern, MARK) : text;
  }

  private compile(): RegExp | null {
    if (this.pattern !== undefined) return this.pattern;
    const all = new Set<string>();
    for (const s of this.secrets) if (!this.publicValues.has(s)) for (const f of forms(s)) all.add(f);
    // Longest first, so that a secret inside a longer one does not cut the longer one apart.
    const sorted = [...all].sort((a, b) => b.length - a.length);
    this.longestForm = sorted[0]?.length ?? 0;
    this.pattern =
      sorted.length === 0
        ? null
        : new RegExp(
            sorted
              .map((f) => `${TOKEN_CHAR.test(f[0]) ? '(?<![A-Za-z0-9_-])' : ''}${escapeRegExp(f)}${TOKEN_CHAR.test(f[f.length - 1]) ? '(?![A-Za-z0-9_-])' : ''}`)
              .join('|'),
            'g',
          );
    return this.pattern;
  }
}

/**
 * The secrets of this run. The runtime registers every secret here, and code that cuts or
 * rewrites text that may echo one (server excerpts) redacts with it first: a cut through a
 * secret would leave a part no later redaction recognises.
 */
export const runRedactor = new Redactor();

/** A result with every text redacted, before it is rendered (rendering rewrites and escapes). */
export function redactResult(result: Result, redactor: Redactor): Result {
  return {
    ...result,
    summary: redactor.redact(result.summary),
    items: result.items?.map((i) => ({ ...i, name: redactor.redact(i.name), text: redactor.redact(i.text) })),
    raw: result.raw === undefined ? undefined : redactor.redact(result.raw),
  };
}

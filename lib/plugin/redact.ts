import type { Result } from './result';

/**
 * Secrets are replaced by `<redacted>` in everything a plugin writes. The rule:
 *
 * - Every configured secret (password, token, session, the Basic credential built from
 *   them, a proxy's password), whatever its length or letters, is replaced wherever it
 *   stands as a whole token in text that came from outside: what a server, a proxy or an
 *   exec plugin said, and messages kept in the cache. `Sommerzeit` is redacted there as
 *   surely as a 200-character token.
 * - It is found in every form the plugins produce or a server may echo: as is, JSON-escaped
 *   (`\"`, `\u0040`), URL-encoded (`%40`, `%3a`, `+` for a space, partly or wholly),
 *   XML-escaped (`&amp;`, `&#64;`, `&#x40;`), any mix of these, and the base64 of the Basic
 *   credential (`user@org:password`). A token boundary is a character that is not a letter,
 *   digit, `_` or `-`, or an escape: the password in `monitor%40acme%3ASommerzeit` is a token.
 * - Text from outside is redacted before it is cut, folded or rewritten (see `cut` and
 *   `boundedExcerpt`): a cut through a secret leaves a part no later redaction recognises.
 * - Text from outside also loses credentials nobody configured: JSON Web Tokens, the value
 *   of a `Bearer`/`Basic` authorization, and `access_token`/`refresh_token`/`id_token`/
 *   `client_secret`/`token` values (an exec plugin that prints what it was given).
 * - The plugin's own words never carry a secret: messages name where a secret came from
 *   (`--password-file /etc/x`), never its value. The last pass over everything written
 *   (status line, long output, JSON, trace) is a safety net, and it replaces only secrets
 *   that cannot be ordinary words: at least MIN_SECRET_LENGTH characters and not letters
 *   alone shorter than 12. Replacing the word `check` in known wording (`<redacted>
 *   --password-file`) would reveal a password `check`; not replacing it reveals nothing.
 * - A value printed on purpose (the user or org name) is never redacted, even when it is
 *   also the password: blanking the user name would reveal the password.
 *
 * What this cannot hide: a password that is an ordinary word of a server's message (a
 * password `Invalid` in "Invalid credentials") shows as `<redacted>` there, which tells a
 * reader of the output the word. Passwords that are words are weak in any case; use
 * generated ones (docs/security.md).
 */

/** The shortest secret the last pass over the plugin's own text replaces. */
export const MIN_SECRET_LENGTH = 6;

const MARK = '<redacted>';
const WORDLIKE = /^[A-Za-z]{1,11}$/;
const TOKEN_CHAR = /[A-Za-z0-9_-]/;
// A token starts after a non-token character, or after an escape (`%3A`, `\u0040`, `\n`, `&amp;`).
const TOKEN_START = '(?<=^|[^A-Za-z0-9_-]|%[0-9A-Fa-f]{2}|\\\\u[0-9A-Fa-f]{4}|\\\\[bfnrt]|&#?[A-Za-z0-9]+;)';
const TOKEN_END = '(?![A-Za-z0-9_-])';

/** Credentials nobody configured, by their shape; the first group, if any, is kept. */
const SHAPES = [
  // JSON Web Tokens (JWS and JWE compact forms): base64url of `{"` then at least two dots.
  /()(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_.-]*/g,
  /(\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /(\b(?:access_token|refresh_token|id_token|client_secret|token)\\?["']?\s*[:=]\s*\\?["']?)[A-Za-z0-9._~+/=-]{16,}/gi,
];

/** What every shape above contains: text without it needs no closer look. */
const SHAPE_HINT = 'eyJ|[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc]|[Tt][Oo][Kk][Ee][Nn]|[Ss][Ee][Cc][Rr][Ee][Tt]';

/** How far past a cut a credential found by its shape is still recognised (a JWT is a few KiB). */
const SHAPE_REACH = 16384;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A hex number matched in either case (`%3a` and `%3A`). */
const anyCaseHex = (hex: string) => hex.replace(/[a-fA-F]/g, (d) => `[${d.toLowerCase()}${d.toUpperCase()}]`);
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Every way one character of a secret may be written: as is, URL-, JSON- or XML-escaped. */
function characterPattern(c: string): { pattern: string; longest: number } {
  // Letters and digits are never escaped by any of these encodings: only themselves.
  if (/^[A-Za-z0-9]$/.test(c)) return { pattern: c, longest: 1 };
  const forms = [escapeRegExp(c)];
  const url = [...Buffer.from(c, 'utf8')].map((b) => `%${hex(b, 2)}`).join('');
  forms.push(anyCaseHex(url));
  if (c === ' ') forms.push('\\+');
  const json =
    [...c].length === 1
      ? c
          .split('')
          .map((u) => `\\u${hex(u.charCodeAt(0), 4)}`)
          .join('')
      : '';
  forms.push(anyCaseHex(json).replace(/\\u/g, '\\\\u'));
  const shortJson: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  if (shortJson[c]) forms.push(escapeRegExp(shortJson[c]));
  const xml: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
  if (xml[c]) forms.push(xml[c]);
  const code = c.codePointAt(0)!;
  forms.push(`&#0*${code};`, `&#[xX]0*${anyCaseHex(hex(code, 1))};`);
  const longest = Math.max(c.length, url.length, json.length, xml[c]?.length ?? 0, `&#x${hex(code, 1)};`.length, `&#${code};`.length);
  return { pattern: `(?:${forms.join('|')})`, longest };
}

/** A secret in all its forms, as a whole token; the longest text it can match. */
function secretPattern(secret: string): { pattern: string; longest: number } {
  const chars = [...secret].map(characterPattern);
  const start = TOKEN_CHAR.test(secret[0]) ? TOKEN_START : '';
  const end = TOKEN_CHAR.test(secret[secret.length - 1]) ? TOKEN_END : '';
  const core = chars.map((c) => c.pattern).join('');
  return { pattern: start + core + end, longest: chars.reduce((n, c) => n + c.longest, 0) };
}

/** True when a value could be an ordinary word (short, or letters alone under 12). */
export function couldBeWord(secret: string): boolean {
  return secret.length < MIN_SECRET_LENGTH || WORDLIKE.test(secret);
}

/** A secret kept for redaction, with what a quick test looks for. */
interface Known {
  secret: string;
  /**
   * Its longest run of letters and digits ('' when it has none). No encoding above escapes a
   * letter or a digit, so every form of the secret holds this run as it is: text without it
   * cannot hold the secret, and needs no regular expression.
   */
  run: string;
  /** Could be an ordinary word: left out of the last pass (see the rule above). */
  wordlike: boolean;
}

interface Compiled {
  /** Every secret: for text from outside. */
  all: RegExp | null;
  /** The secrets that cannot be words: for the last pass over the plugin's own text. */
  distinct: RegExp | null;
  longest: number;
}

const SHAPE_TEST = new RegExp(SHAPE_HINT);
const longestRun = (s: string) => (s.match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');

/** Remembers secret values and replaces them wherever they would be written (see the rule above). */
export class Redactor {
  private readonly secrets = new Set<string>();
  private readonly publicValues = new Set<string>();
  private knownList: Known[] | undefined;
  private compiled: Compiled | undefined;

  /** How far a secret in any of its forms may reach past a cut. */
  get longest(): number {
    return this.compile().longest;
  }

  /** A secret value (a password, a token). */
  add(value: string | undefined): void {
    const v = value?.trim();
    if (!v || this.secrets.has(v)) return;
    this.secrets.add(v);
    this.forget();
  }

  /** A value printed on purpose (user, org): a "secret" equal to it is not redacted. */
  addPublic(value: string | undefined): void {
    const v = value?.trim();
    if (!v || this.publicValues.has(v)) return;
    this.publicValues.add(v);
    this.forget();
  }

  /** Text from outside (a server's message, an exec plugin's stderr) with every secret and every credential-shaped value replaced. */
  redact(text: string): string {
    return this.replaced(text, text.length);
  }

  /**
   * The first `end` characters of text from outside, redacted before the cut: a secret that
   * starts before `end` is replaced whole, however far it reaches past it.
   */
  cut(text: string, end: number): string {
    if (text.length <= end) return this.redact(text);
    // No form of a character is longer than 12 (4 URL-encoded bytes): only a secret longer than
    // SHAPE_REACH / 12 needs its patterns made to know how far it may reach.
    const reach = (this.known()[0]?.secret.length ?? 0) * 12 <= SHAPE_REACH ? SHAPE_REACH : Math.max(this.longest, SHAPE_REACH);
    return this.replaced(text.slice(0, end + reach + 1), end);
  }

  /** `text` up to `end` with every match that starts before `end` replaced whole. */
  private replaced(text: string, end: number): string {
    // The common case (a node condition's message, thousands a run): a few substring tests.
    const secrets = this.mayHold(text, false);
    const shapes = SHAPE_TEST.test(text);
    if (!secrets && !shapes) return end < text.length ? text.slice(0, end) : text;
    const spans: [number, number][] = [];
    const { all } = secrets ? this.compile() : { all: null };
    if (all) for (const m of text.matchAll(all)) spans.push([m.index!, m.index! + m[0].length]);
    if (shapes) for (const shape of SHAPES) for (const m of text.matchAll(shape)) spans.push([m.index! + m[1].length, m.index! + m[0].length]);
    spans.sort((a, b) => a[0] - b[0]);
    let out = '';
    let at = 0;
    for (const [from, to] of spans) {
      if (from >= end) break;
      if (to <= at) continue;
      if (from >= at) out += text.slice(at, from) + MARK;
      at = to;
    }
    return at < end ? out + text.slice(at, end) : out;
  }

  /** The last pass over everything written: the secrets that cannot be ordinary words (see the rule above). */
  sweep(text: string): string {
    if (!this.mayHold(text, true)) return text;
    const { distinct } = this.compile();
    return distinct ? text.replace(distinct, MARK) : text;
  }

  /** Whether `text` may hold a secret (only those that cannot be words, with `distinctOnly`) in some form. */
  private mayHold(text: string, distinctOnly: boolean): boolean {
    return this.known().some((k) => !(distinctOnly && k.wordlike) && (k.run === '' || text.includes(k.run)));
  }

  private forget(): void {
    this.knownList = undefined;
    this.compiled = undefined;
  }

  /** The secrets to redact, longest first, so that a secret inside a longer one does not cut the longer one apart. */
  private known(): Known[] {
    this.knownList ??= [...this.secrets]
      .filter((s) => !this.publicValues.has(s))
      .sort((a, b) => b.length - a.length)
      .map((secret) => ({ secret, run: longestRun(secret), wordlike: couldBeWord(secret) }));
    return this.knownList;
  }

  /** The patterns of every form, made only when a text may hold a secret (or a cut asks how far one reaches). */
  private compile(): Compiled {
    if (this.compiled) return this.compiled;
    const patterns = this.known().map((k) => ({ ...k, ...secretPattern(k.secret) }));
    const join = (list: typeof patterns) => (list.length === 0 ? null : new RegExp(list.map((p) => p.pattern).join('|'), 'g'));
    this.compiled = {
      all: join(patterns),
      distinct: join(patterns.filter((p) => !p.wordlike)),
      longest: Math.max(0, ...patterns.map((p) => p.longest)),
    };
    return this.compiled;
  }
}

/**
 * The secrets of this run. The runtime registers every secret here, and code that cuts or
 * rewrites text that may echo one (server excerpts) redacts with it first: a cut through a
 * secret would leave a part no later redaction recognises.
 */
export const runRedactor = new Redactor();

/** A result swept (see Redactor.sweep) before it is rendered: rendering rewrites `|` and escapes JSON. */
export function redactResult(result: Result, redactor: Redactor): Result {
  return {
    ...result,
    summary: redactor.sweep(result.summary),
    items: result.items?.map((i) => ({ ...i, name: redactor.sweep(i.name), text: redactor.sweep(i.text) })),
    raw: result.raw === undefined ? undefined : redactor.sweep(result.raw),
  };
}

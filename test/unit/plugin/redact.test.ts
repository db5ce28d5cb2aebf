import { describe, expect, it } from 'vitest';
import { Redactor, redactResult } from '../../../lib/plugin/redact';
import { renderJson, renderNagios } from '../../../lib/plugin/result';
import { State } from '../../../lib/plugin/state';

const withSecrets = (...secrets: string[]) => {
  const r = new Redactor();
  for (const s of secrets) r.add(s);
  return r;
};

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const xmlNumeric = (s: string) => [...s].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `&#${c.codePointAt(0)};`)).join('');
const jsonUnicode = (s: string) => s.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const formEncode = (s: string) => new URLSearchParams({ x: s }).toString().slice(2);

// The forms a server may echo a secret in, each inside the text around it.
const ENCODINGS: [string, (s: string) => string][] = [
  ['plain', (s) => `Bad credentials: ${s} for monitor@acme`],
  ['JSON-escaped', (s) => JSON.stringify({ message: `pw ${s} rejected` })],
  ['JSON \\u escapes', (s) => `{"message":"pw ${jsonUnicode(s)} rejected"}`],
  ['URL-encoded (encodeURIComponent)', (s) => `login failed: ${encodeURIComponent(`monitor@acme:${s}`)}`],
  ['URL-encoded, lower-case hex', (s) => `login failed: ${encodeURIComponent(`monitor@acme:${s}`).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}`],
  ['form-encoded', (s) => `body=user%3Dmonitor%26pw%3D${formEncode(s)}`],
  ['partly URL-encoded (encodeURI)', (s) => `at ${encodeURI(`https://monitor:${s}@example.net/`)}`],
  ['XML entities', (s) => `<Error message="bad pw ${xmlEscape(s)}"/>`],
  ['XML numeric entities', (s) => `<Error message="bad pw ${xmlNumeric(s)}"/>`],
  ['after a JSON line break', (s) => JSON.stringify(`login failed\n${s}`)],
  ['Basic credential', (s) => `Authorization header was ${Buffer.from(`monitor@acme:${s}`).toString('base64')}`],
];

// Passwords: symbols and spaces, letters only (short and long), digits, non-ASCII, and no
// letter or digit at all (nothing for the redactor's quick substring test to find).
const PASSWORDS = ['hunter|2-"sec\\ret w&rd<1>', 'Sommerzeit', 'Mai', 'sEcReT-vcd-password-42', 'pässwort€ 2', "a'b:c@d/e+f", '%&<"+ ;/€'];

describe('Redactor.redact: text from outside, every configured secret in every form', () => {
  for (const pw of PASSWORDS) {
    for (const [name, encode] of ENCODINGS) {
      it(`${JSON.stringify(pw)}, ${name}`, () => {
        const r = withSecrets(pw, Buffer.from(`monitor@acme:${pw}`).toString('base64'));
        const echoed = encode(pw);
        const out = r.redact(echoed);
        expect(out).toContain('<redacted>');
        // What is left of the echo gives nothing of the password away.
        for (const run of pw.match(/[A-Za-z0-9]{3,}/g) ?? []) expect(out, out).not.toContain(run);
        expect(out).not.toContain(Buffer.from(`monitor@acme:${pw}`).toString('base64'));
      });
    }
  }

  it('the URL-encoded echo of user@org:password: the password is a token after %3A', () => {
    const r = withSecrets('Sommerzeit');
    expect(r.redact('monitor%40acme%3ASommerzeit')).toBe('monitor%40acme%3A<redacted>');
    expect(r.redact('monitor%40acme%3aSommerzeit%0A')).toBe('monitor%40acme%3a<redacted>%0A');
  });

  it('only whole tokens: a password inside a longer word or name stays as it is', () => {
    const r = withSecrets('admin1', 'Sommerzeit');
    expect(r.redact('badmin12 admin1 admin1-x x-admin1 admin1. Sommerzeiten Sommerzeit')).toBe(
      'badmin12 <redacted> admin1-x x-admin1 <redacted>. Sommerzeiten <redacted>',
    );
  });

  it('any length: short secrets and letters-only words are redacted in text from outside', () => {
    const r = withSecrets('Mai', 'Sommerzeit', 'x');
    expect(r.redact('server said: pw Mai, then Sommerzeit, then x')).toBe('server said: pw <redacted>, then <redacted>, then <redacted>');
  });

  it('prefers the longest secret where one contains another', () => {
    const r = withSecrets('token-abc', 'token-abc-def-123');
    expect(r.redact('t=token-abc-def-123')).toBe('t=<redacted>');
  });

  it('does not redact a value that is printed on purpose (the user name as password)', () => {
    const r = withSecrets('monitor-01');
    r.addPublic('monitor-01');
    expect(r.redact('login as monitor-01@acme rejected')).toBe('login as monitor-01@acme rejected');
  });

  it.each([
    ['a JSON Web Token', 'token eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ expired', 'token <redacted> expired'],
    ['a Bearer value', 'sent Authorization: Bearer 0123456789abcdefXYZ and failed', 'sent Authorization: Bearer <redacted> and failed'],
    ['a Basic value', 'header Basic bW9uaXRvcjpzM2NyZXQ= refused', 'header Basic <redacted> refused'],
    ['an access_token in JSON', '{"access_token":"0123456789abcdef0123","expires_in":3600}', '{"access_token":"<redacted>","expires_in":3600}'],
    ['a token= value', 'refresh failed (token=AbCdEfGhIjKlMnOpQrSt)', 'refresh failed (token=<redacted>)'],
  ])('credentials nobody configured, by their shape: %s', (_, text, expected) => {
    expect(new Redactor().redact(text)).toBe(expected);
  });

  it('leaves ordinary words about tokens alone', () => {
    const text = 'token expired; use a Bearer token; password: must be changed';
    expect(new Redactor().redact(text)).toBe(text);
  });
});

describe('Redactor.cut: redact, then cut', () => {
  const token = 'sEcReT-token-' + 'Q'.repeat(26); // 39 characters

  it('a secret that straddles the cut is replaced whole, not cut to a printable prefix', () => {
    const r = withSecrets(token);
    for (const at of [1190, 1195, 1199, 1200, 1201]) {
      const text = ' '.repeat(at) + token + ' tail';
      const out = r.cut(text, 1200);
      expect(out, String(at)).not.toContain('sEcReT');
      expect(out.trim()).toBe(at < 1200 ? '<redacted>' : '');
    }
  });

  it('the same in each form, and for shapes nobody configured', () => {
    const r = withSecrets('pa ss&wörd-1');
    for (const form of ['pa ss&wörd-1', encodeURIComponent('pa ss&wörd-1'), 'pa ss&amp;w&#246;rd-1', JSON.stringify('pa ss&wörd-1').slice(1, -1)]) {
      expect(r.cut(`x ${form} y`, 4), form).toBe('x <redacted>');
    }
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.' + 's'.repeat(40);
    expect(new Redactor().cut(`jwt ${jwt}`, 10)).toBe('jwt <redacted>');
  });

  it('text shorter than the cut is redacted whole', () => {
    expect(withSecrets(token).cut(`a ${token} b`, 1000)).toBe('a <redacted> b');
  });
});

describe('Redactor.sweep: the last pass over the plugin own text', () => {
  it('replaces secrets that cannot be words, in every form', () => {
    const r = withSecrets('sEcReT-vcd-password-42', 'p"a\\ss w&rd<1>');
    expect(r.sweep('pw sEcReT-vcd-password-42 and {"p":"p\\"a\\\\ss w&rd<1>"}')).toBe('pw <redacted> and {"p":"<redacted>"}');
  });

  it('does not replace short or letters-only secrets: in known wording that would reveal them', () => {
    const r = withSecrets('check', 'password', 'monitor', 'abc12', 'Sommerzeit');
    const text = 'wrong user, org or password, check --user monitor and --password-file (abc12, Sommerzeit)';
    expect(r.sweep(text)).toBe(text);
    expect(withSecrets('correcthorsebatterystaple').sweep('pw correcthorsebatterystaple')).toBe('pw <redacted>');
  });
});

describe('redactResult: before the rendering rewrites or escapes anything', () => {
  const pw = 'hunter|2-secret';
  const result = {
    state: State.UNKNOWN,
    summary: `login rejected: server said "bad password ${pw}"`,
    items: [{ name: 'x', state: State.UNKNOWN, text: `echo ${pw}` }],
  };

  it('nagios output: the `|` rewrite does not turn the secret into something else', () => {
    const r = withSecrets(pw);
    // What rendering alone does: the rewritten secret slips past a redaction of the output.
    expect(r.sweep(renderNagios('VM_CPU', result))).toContain('hunter/2-secret');
    const out = r.sweep(renderNagios('VM_CPU', redactResult(result, r)));
    expect(out).not.toContain('hunter');
    expect(out).toBe('VM_CPU UNKNOWN - login rejected: server said "bad password <redacted>"\n[UNKNOWN] echo <redacted>\n');
  });

  it('JSON output: a password with " and \\ is not printed escaped', () => {
    const quoted = 'pa"ss\\word-9';
    const r = withSecrets(quoted);
    const out = renderJson('VM_CPU', redactResult({ ...result, summary: `bad password ${quoted}` }, r));
    expect(out).not.toContain('ss\\\\word');
    expect(JSON.parse(out).summary).toBe('bad password <redacted>');
  });
});

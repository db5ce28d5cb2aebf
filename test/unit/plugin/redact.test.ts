import { describe, expect, it } from 'vitest';
import { Redactor, redactResult } from '../../../lib/plugin/redact';
import { renderJson, renderNagios } from '../../../lib/plugin/result';
import { State } from '../../../lib/plugin/state';

const withSecrets = (...secrets: string[]) => {
  const r = new Redactor();
  for (const s of secrets) r.add(s);
  return r;
};

describe('Redactor', () => {
  it('replaces a secret wherever it stands as a token', () => {
    const r = withSecrets('sEcReT-vcd-password-42');
    expect(r.redact('login failed for sEcReT-vcd-password-42 (twice: sEcReT-vcd-password-42)')).toBe('login failed for <redacted> (twice: <redacted>)');
  });

  it('also replaces its JSON-escaped, URL-encoded and XML-escaped forms', () => {
    const pw = 'p"a\\ss w&rd<1>';
    const r = withSecrets(pw);
    const echoed = [JSON.stringify({ password: pw }), `https://x/?pw=${encodeURIComponent(pw)}`, `<Error message="bad ${pw.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}"/>`];
    for (const text of echoed) expect(r.redact(text), text).not.toMatch(/w(&amp;|&|%26)rd/);
    expect(r.redact(JSON.stringify({ password: pw }))).toBe('{"password":"<redacted>"}');
  });

  it('redacts only at token boundaries: a short password inside a word stays a word', () => {
    const r = withSecrets('admin1');
    expect(r.redact('badmin12 admin1 admin1-x x-admin1 admin1.')).toBe('badmin12 <redacted> admin1-x x-admin1 <redacted>.');
  });

  it('ignores values that cannot be secrets: short ones and lone dictionary-like words', () => {
    const r = withSecrets('check', 'password', 'monitor', 'abc12');
    const text = 'wrong user, org or password; check --user monitor and --password-file';
    expect(r.redact(text)).toBe(text);
    expect(withSecrets('correcthorsebatterystaple').redact('pw correcthorsebatterystaple')).toBe('pw <redacted>');
  });

  it('does not redact a value that is printed on purpose (the user name as password)', () => {
    const r = withSecrets('monitor-01');
    r.addPublic('monitor-01');
    expect(r.redact('login as monitor-01@acme rejected')).toBe('login as monitor-01@acme rejected');
  });

  it('prefers the longest secret where one contains another', () => {
    const r = withSecrets('token-abc', 'token-abc-def-123');
    expect(r.redact('t=token-abc-def-123')).toBe('t=<redacted>');
  });
});

describe('redactResult: before the rendering rewrites or escapes anything', () => {
  const pw = 'hunter|2-secret';
  const result = { state: State.UNKNOWN, summary: `login rejected: server said "bad password ${pw}"`, items: [{ name: 'x', state: State.UNKNOWN, text: `echo ${pw}` }] };

  it('nagios output: the `|` rewrite does not turn the secret into something else', () => {
    const r = withSecrets(pw);
    // What rendering alone does: the rewritten secret slips past a redaction of the output.
    expect(r.redact(renderNagios('VM_CPU', result))).toContain('hunter/2-secret');
    const out = r.redact(renderNagios('VM_CPU', redactResult(result, r)));
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

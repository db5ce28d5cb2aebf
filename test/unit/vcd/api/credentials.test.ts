// Who logs in: --user and --org as vCD expects them (user@org once).
import { describe, expect, it } from 'vitest';
import { credentialsFrom, withoutOrg } from '../../../../lib/vcd/api/credentials';
import { Notes } from '../../../../lib/plugin/notes';

const context = { addSecret: () => undefined };

describe('--user with the org in it', () => {
  it('drops a trailing @<org> that --org repeats, and says so', () => {
    const notes = new Notes();
    expect(credentialsFrom({ user: 'monitor@acme', org: 'acme', password: 'pw' }, context, notes)).toMatchObject({
      kind: 'password',
      user: 'monitor',
      org: 'acme',
    });
    expect(notes.all).toEqual(['--user monitor@acme already names the org: logging in as monitor@acme (give --user monitor)']);
    expect(withoutOrg('monitor@ACME', 'acme', new Notes())).toBe('monitor');
  });
  it('keeps user names that are mail addresses, and an @ of another org', () => {
    const notes = new Notes();
    expect(withoutOrg('jane@example.com', 'acme', notes)).toBe('jane@example.com');
    expect(withoutOrg('monitor@globex', 'acme', notes)).toBe('monitor@globex');
    expect(withoutOrg('jane@example.com@acme', 'acme', notes)).toBe('jane@example.com');
    expect(withoutOrg('@acme', 'acme', notes)).toBe('@acme');
    expect(withoutOrg(undefined, 'acme', notes)).toBeUndefined();
  });
});

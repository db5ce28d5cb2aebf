import { describe, expect, it } from 'vitest';
import { ORG_GROUP_PREFIX, orgGroupName } from '../../../../lib/vcd/inventory/org-group';

// What both engines take in an object name, and no shell or macro syntax.
const SAFE = /^[A-Za-z0-9_.-]+$/;

describe('orgGroupName', () => {
  it('keeps a plain name readable', () => {
    expect(orgGroupName('acme')).toBe('vcd-org-acme');
    expect(orgGroupName('Globex-EU1')).toBe('vcd-org-Globex-EU1');
  });

  it('writes every other byte as _xx, so that names that look alike stay apart', () => {
    expect(orgGroupName('a b')).toBe('vcd-org-a_20b');
    expect(orgGroupName('a_b')).toBe('vcd-org-a_5fb');
    expect(orgGroupName('a.b')).toBe('vcd-org-a_2eb');
    expect(orgGroupName('ä')).toBe('vcd-org-_c3_a4');
  });

  const hostile = ['acme"; object Host "x', 'back\\slash\\', 'two\nlines\r', '$HOSTNAME$ $(id) `id`', '!', ' ', 'x'.repeat(5000), '\u0000'];
  it.each(hostile.map((h) => [JSON.stringify(h).slice(0, 40), h]))('%s: only safe characters, at most 8 + 64 of them', (_, org) => {
    const name = orgGroupName(org);
    expect(name).toMatch(SAFE);
    expect(name.startsWith(ORG_GROUP_PREFIX)).toBe(true);
    expect(name.length).toBeLessThanOrEqual(ORG_GROUP_PREFIX.length + 64);
  });

  it('a long name is cut and hashed: two that share their start differ, and never equal a whole name', () => {
    const a = orgGroupName(`${'x'.repeat(100)}a`);
    const b = orgGroupName(`${'x'.repeat(100)}b`);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^vcd-org-x{40}\.[0-9a-f]{16}$/);
    // A whole name never has a '.': it is written _2e.
    expect(orgGroupName(a.slice(ORG_GROUP_PREFIX.length))).not.toBe(a);
    // A cut never ends inside an _xx.
    expect(orgGroupName(' '.repeat(40))).toMatch(/^vcd-org-(_20){13}\.[0-9a-f]{16}$/);
  });

  it('distinct names give distinct groups', () => {
    const names = ['acme', 'ACME', 'a b', 'a_b', 'a_20b', 'a.b', 'a-b', 'ab', ...hostile];
    expect(new Set(names.map(orgGroupName)).size).toBe(names.length);
  });
});

// How long an edge gateway has been busy, remembered between runs in the private cache: kept
// while it stays busy, forgotten when it is not, nothing known without a cache.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PrivateCache } from '../../../../lib/plugin/private-cache';
import { BusySince } from '../../../../lib/vcd/edges/busy-since';

const binding = { url: 'https://vcd.example.com', user: 'monitor', org: 'acme' };

describe('BusySince', () => {
  it('remembers the first run that saw an edge busy, and forgets an edge that is no longer', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cc-busy-')), 'cache');
    const run = (busy: string[], now: number) => new BusySince(new PrivateCache(dir), binding).update(busy, now);
    expect(run(['a', 'b'], 1000)).toEqual(
      new Map([
        ['a', 1000],
        ['b', 1000],
      ]),
    );
    expect(run(['a', 'b'], 5000)).toEqual(
      new Map([
        ['a', 1000],
        ['b', 1000],
      ]),
    );
    expect(run(['a'], 6000)).toEqual(new Map([['a', 1000]]));
    // b busy again: counted from now, not from its first time.
    expect(run(['a', 'b'], 9000)).toEqual(
      new Map([
        ['a', 1000],
        ['b', 9000],
      ]),
    );
    // Another account's memory is its own.
    expect(new BusySince(new PrivateCache(dir), { ...binding, org: 'globex' }).update(['a'], 9500)).toEqual(new Map([['a', 9500]]));
  });

  it('knows nothing without a cache', () => {
    const none = new BusySince(undefined, binding);
    expect(none.update(['a'], 1000)).toEqual(new Map());
    expect(none.remembers).toBe(false);
  });
});

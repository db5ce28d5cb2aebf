import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bodyBytesRead, COLLECT_EVERY, LARGE_BODY } from '../../../lib/http/young-collector';

describe('bodyBytesRead', () => {
  it('collects once each COLLECT_EVERY bytes of bodies', () => {
    const collected = [];
    for (let i = 0; i < 8; i++) collected.push(bodyBytesRead(COLLECT_EVERY / 2, LARGE_BODY + COLLECT_EVERY * 8));
    // From wherever an earlier read left the count: one collection per two reads.
    expect(collected.filter(Boolean)).toHaveLength(4);
    expect(collected[0]).not.toBe(collected[1]);
    expect(bodyBytesRead(0, LARGE_BODY + 1)).toBe(false);
  });

  it('counts only the bytes of a body past LARGE_BODY: many small documents never collect', () => {
    for (let i = 0; i < 100; i++) expect(bodyBytesRead(LARGE_BODY, LARGE_BODY)).toBe(false);
    // A body that crosses the bound counts from there: COLLECT_EVERY past it, one collection.
    const collected = [];
    for (let size = LARGE_BODY / 2; size <= LARGE_BODY + 2 * COLLECT_EVERY; size += LARGE_BODY / 2) collected.push(bodyBytesRead(LARGE_BODY / 2, size));
    expect(collected.filter(Boolean).length).toBeGreaterThanOrEqual(1);
  });

  it('leaves gc unexposed to the process and to contexts made later', () => {
    const hadGc = typeof (globalThis as { gc?: unknown }).gc;
    bodyBytesRead(COLLECT_EVERY, LARGE_BODY + COLLECT_EVERY);
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(hadGc);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});

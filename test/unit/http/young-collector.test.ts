import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bodyBytesRead, COLLECT_EVERY } from '../../../lib/http/young-collector';

describe('bodyBytesRead', () => {
  it('collects once each COLLECT_EVERY bytes of bodies', () => {
    const collected = [];
    for (let i = 0; i < 8; i++) collected.push(bodyBytesRead(COLLECT_EVERY / 2));
    // From wherever an earlier read left the count: one collection per two reads.
    expect(collected.filter(Boolean)).toHaveLength(4);
    expect(collected[0]).not.toBe(collected[1]);
    expect(bodyBytesRead(0)).toBe(false);
  });

  it('leaves gc unexposed to the process and to contexts made later', () => {
    const hadGc = typeof (globalThis as { gc?: unknown }).gc;
    bodyBytesRead(COLLECT_EVERY);
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(hadGc);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});

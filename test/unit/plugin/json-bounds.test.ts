import { describe, expect, it } from 'vitest';
import { countJsonContainers } from '../../../lib/plugin/json-bounds';
import { cpuNow } from '../../support/cpu-time';

describe('countJsonContainers', () => {
  it('counts the objects and arrays a JSON text opens, not brackets inside strings', () => {
    expect(countJsonContainers(Buffer.from('{"items":[{"a":"{[\\"]}"},[]],"n":1}'))).toBe(4);
    expect(countJsonContainers(Buffer.from('"just a string"'))).toBe(0);
  });

  it('stops counting past the limit, in one linear pass over 63 MiB', () => {
    const body = Buffer.from(
      `{"items":[${Array(Math.floor((63 * 1024 * 1024) / 3))
        .fill('{}')
        .join(',')}]}`,
    );
    const started = cpuNow();
    expect(countJsonContainers(body, 1000)).toBe(1001);
    expect(countJsonContainers(body)).toBe(1_000_001);
    expect(cpuNow() - started).toBeLessThan(1000);
  });
});

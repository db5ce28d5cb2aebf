/**
 * More objects and arrays than any document the plugins read holds (a 500-pod page has some
 * 150,000): JSON.parse of a body beyond it would build millions of objects, so that memory
 * and time grew with the count of `{}` a server sends, not with --max-bytes.
 */
export const MAX_JSON_CONTAINERS = 1_000_000;

/**
 * How many objects and arrays a JSON text opens, counted up to `limit` (then `limit + 1` is
 * returned): one pass over the bytes, nothing allocated, strings skipped. Call it before
 * JSON.parse on a body a server chose.
 */
export function countJsonContainers(body: Buffer, limit = MAX_JSON_CONTAINERS): number {
  let count = 0;
  const n = body.length;
  for (let p = 0; p < n; p++) {
    const c = body[p];
    if (c === 0x22 /* " */) {
      for (p++; p < n; p++) {
        const d = body[p];
        if (d === 0x22) break;
        if (d === 0x5c /* \ */) p++;
      }
    } else if ((c === 0x7b /* { */ || c === 0x5b) /* [ */ && ++count > limit) return count;
  }
  return count;
}

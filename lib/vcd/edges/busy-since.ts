// Since when each busy edge gateway has been busy, remembered between runs: the API says that
// an edge is busy, never since when. One small entry per url+user+org in the private cache
// (the session cache's directory); only the edges busy now are kept in it.
import { entryName, PrivateCache, type CacheBinding } from '../../plugin/private-cache';

/** Edges remembered at most: a runaway list does not grow the entry. */
const MAX_REMEMBERED = 10_000;
const MAX_ENTRY_BYTES = 1024 * 1024;

/** The memory of one account's busy edges. */
export class BusySince {
  private readonly name: string;

  constructor(
    private readonly cache: PrivateCache | undefined,
    private readonly binding: CacheBinding,
  ) {
    this.name = entryName('edge-busy', binding);
  }

  /**
   * Since when each of `busyNow` (edge ids) has been busy: as remembered, else `now`; the
   * memory then holds exactly these. Without a cache (--no-cache, or one that cannot be used)
   * nothing is known: an empty map.
   */
  update(busyNow: readonly string[], now: number): Map<string, number> {
    if (!this.cache || !this.cache.ready()) return new Map();
    const hit = this.cache.read(
      this.name,
      this.binding,
      (d) => (d !== null && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : undefined),
      {
        maxEntryBytes: MAX_ENTRY_BYTES,
      },
    );
    const known = hit?.value ?? {};
    const since = new Map<string, number>();
    for (const id of busyNow.slice(0, MAX_REMEMBERED)) {
      const t = known[id];
      since.set(id, typeof t === 'number' && Number.isFinite(t) && t <= now ? t : now);
    }
    const changed = since.size !== Object.keys(known).length || [...since].some(([id, t]) => known[id] !== t);
    if (changed) this.cache.write(this.name, this.binding, Object.fromEntries(since), { maxEntryBytes: MAX_ENTRY_BYTES });
    return since;
  }

  /** Whether busy times are remembered at all. */
  get remembers(): boolean {
    return this.cache !== undefined && this.cache.usable;
  }
}

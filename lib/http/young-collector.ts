// Every chunk a TLS socket reads arrives in a buffer of its own (16 KiB at most), which the
// reader copies or scans and drops at once; V8 frees it, though, only when it next collects
// its young generation, and a client that mostly reads allocates too few objects for that to
// come soon. Reading the 44 MB of a 5,000-node list left some 30 MiB of such chunks waiting,
// half the peak of the whole process (bench/RESULTS.md). So the chunks of large documents
// (those past LARGE_BODY bytes) are counted, and the young generation is collected after each
// COLLECT_EVERY bytes of them: the dropped chunks stay bounded by that, whatever the
// documents' size. Many small documents (check_vm_fleet's) come with enough objects of their
// own for V8 to collect as it goes, and a collection forced among them would only promote
// what is still in flight. A small check never reads that much and never pays for any of this.

/** Bytes of large bodies read between two collections of the young generation. */
export const COLLECT_EVERY = 2 * 1024 * 1024;

/** A body is large, and its chunks counted, past this many bytes. */
export const LARGE_BODY = 1024 * 1024;

type Collect = () => void;

let unread = 0;
let collect: Collect | null | undefined;

/**
 * Counts a chunk of `bytes` that brought its body to `total` bytes; collects the young
 * generation each COLLECT_EVERY bytes of large bodies. Returns whether it did.
 */
export function bodyBytesRead(bytes: number, total: number): boolean {
  if (total <= LARGE_BODY) return false;
  unread += Math.min(bytes, total - LARGE_BODY);
  if (unread < COLLECT_EVERY) return false;
  unread = 0;
  if (collect === undefined) collect = youngCollector();
  if (!collect) return false;
  collect();
  return true;
}

/**
 * V8's collector, asked for the young generation only (a scavenge: well under a millisecond
 * when little survives). It is exposed to contexts created after `--expose-gc` is set, so a
 * context is made for it, once; where that fails (a runtime without it), nothing is collected
 * early and memory is what it was.
 */
function youngCollector(): Collect | null {
  try {
    // Loaded here, not at the top: only runs that read megabytes need them.
    /* eslint-disable @typescript-eslint/no-require-imports -- see above: lazily, not at start-up */
    const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
    const { runInNewContext } = require('node:vm') as typeof import('node:vm');
    /* eslint-enable @typescript-eslint/no-require-imports */
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    // The flag only decides what new contexts get: the process's own global stays without gc.
    setFlagsFromString('--no-expose-gc');
    if (typeof gc !== 'function') return null;
    return () => (gc as (options: { type: string }) => void)({ type: 'minor' });
  } catch {
    return null;
  }
}

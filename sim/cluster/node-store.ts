import type { LabelMatcher } from './label-selector';

interface StoredNode {
  name: string;
  labels: Record<string, string>;
  /** The node serialised once: pages are assembled from these bytes, never re-rendered. */
  json: Buffer;
}

/** A decoded continue token: the list snapshot it belongs to and the key to start from. */
export interface ContinueKey {
  rv: string;
  start: string;
}

/** Encodes a continue token the way the API server does (base64url JSON, opaque to clients). */
export function encodeContinue(key: ContinueKey): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(key.rv), start: key.start })).toString('base64url');
}

/** Decodes a continue token, or throws with the API server's wording. */
export function decodeContinue(token: string): ContinueKey {
  let doc: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    doc = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof doc;
  } catch {
    throw new Error('continue key is not valid: illegal base64 data or JSON');
  }
  if (doc?.v !== 'meta.k8s.io/v1' || typeof doc.rv !== 'number' || typeof doc.start !== 'string')
    throw new Error('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  return { rv: String(doc.rv), start: doc.start };
}

/**
 * The nodes of a scenario, sorted by name like etcd keys, each serialised once. Pages are
 * cached by query, and the default pages (limit=500, no selector) are rendered up front, so
 * that serving a large cluster costs a buffer write and does not distort benchmarks.
 */
export class NodeStore {
  readonly nodes: StoredNode[] = [];
  readonly resourceVersion: string;
  totalBytes = 0;
  private readonly pages = new Map<string, Buffer>();
  private cachedBytes = 0;

  /** At most this many nodes are looked at per page, whatever the limit (0: no cap). */
  private readonly pageCap: number;

  constructor(nodes: Iterable<Record<string, unknown>>, resourceVersion = '47718239', options: { pageCap?: number } = {}) {
    this.resourceVersion = resourceVersion;
    this.pageCap = options.pageCap ?? 0;
    for (const node of nodes) {
      const meta = (node.metadata ?? {}) as { name?: string; labels?: Record<string, string> };
      const json = Buffer.from(JSON.stringify(node));
      this.totalBytes += json.length;
      this.nodes.push({ name: meta.name ?? '', labels: meta.labels ?? {}, json });
    }
    this.nodes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (let start: string | undefined = ''; start !== undefined;) start = this.page(500, start).next;
  }

  /** One page of the list: `limit` matching nodes from the key `start` (0 = all). */
  page(limit: number, start: string, selector?: { text: string; matches: LabelMatcher }): { body: Buffer; next?: string } {
    const key = `${limit}|${start}|${selector?.text ?? ''}`;
    let first = 0;
    while (first < this.nodes.length && this.nodes[first].name < start) first++;
    const picked: StoredNode[] = [];
    let i = first;
    // A capped page may come back shorter than the limit, even empty, with a continue token:
    // the API server does the same when it filters a page by a selector.
    for (; i < this.nodes.length && (limit <= 0 || picked.length < limit) && (this.pageCap <= 0 || i - first < this.pageCap); i++) {
      if (!selector || selector.matches(this.nodes[i].labels)) picked.push(this.nodes[i]);
    }
    let more = false;
    for (let j = i; j < this.nodes.length && !more; j++) more = !selector || selector.matches(this.nodes[j].labels);
    const next = more ? `${this.nodes[i - 1].name}\u0000` : undefined;
    const cached = this.pages.get(key);
    if (cached) return { body: cached, next };

    const metadata: Record<string, unknown> = { resourceVersion: this.resourceVersion };
    if (next !== undefined) {
      metadata.continue = encodeContinue({ rv: this.resourceVersion, start: next });
      if (!selector) metadata.remainingItemCount = this.nodes.length - i;
    }
    const parts: Buffer[] = [Buffer.from(`{"kind":"NodeList","apiVersion":"v1","metadata":${JSON.stringify(metadata)},"items":[`)];
    picked.forEach((n, k) => {
      if (k > 0) parts.push(COMMA);
      parts.push(n.json);
    });
    parts.push(CLOSE);
    const body = Buffer.concat(parts);
    // Keep the cache bounded: odd queries (selectors, small limits) may be many.
    if (this.cachedBytes + body.length > 256 * 1024 * 1024) {
      this.pages.clear();
      this.cachedBytes = 0;
    }
    this.pages.set(key, body);
    this.cachedBytes += body.length;
    return { body, next };
  }
}

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

// Reads one page of a NodeList without building it. A node object is 8-15 KB, of which the
// check needs well under 1 KB (name, unschedulable, addresses, conditions); JSON.parse of a
// 500-node page decodes 4-5 MB of text and builds some 25 MB of objects only to drop them.
// This scanner walks the response bytes, skips what it does not need, and hands only the
// small parts it needs to JSON.parse: a 5000-node list stays fast and small.
//
// It checks the structure it walks (objects, arrays, strings, the end of the document), so a
// truncated or non-JSON body is refused; inside the parts it skips it only tracks nesting.

import type { Node, NodeAddress, NodeCondition } from './node';

/** The page is not well-formed JSON (or was cut short). */
export class NodeListSyntaxError extends Error {}

/** What the scan found besides the nodes. */
export interface NodeListPage {
  kind?: unknown;
  continue?: string;
  /** How many items the page held; -1 when it has no `items` array. */
  items: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const LBRACE = 123;
const RBRACE = 125;
const LBRACKET = 91;
const RBRACKET = 93;
const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

class Scanner {
  p = 0;
  private keyStart = 0;
  private keyEnd = 0;
  private escaped = false;
  private keyEscaped = false;

  constructor(private readonly b: Buffer) {}

  fail(what: string): never {
    throw new NodeListSyntaxError(`${what} at byte ${this.p}`);
  }

  /** Skips whitespace; the next byte, or -1 at the end. */
  peek(): number {
    const b = this.b;
    let p = this.p;
    let c = b[p];
    while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++p];
    this.p = p;
    return p < b.length ? c : -1;
  }

  expect(code: number): void {
    if (this.peek() !== code) this.fail(`expected '${String.fromCharCode(code)}'`);
    this.p++;
  }

  /** Index after the closing quote of the string that opens at `p`; notes escapes. */
  stringEnd(p: number): number {
    const b = this.b;
    const n = b.length;
    let escaped = false;
    for (p++; p < n; p++) {
      const c = b[p];
      if (c === QUOTE) {
        this.escaped = escaped;
        return p + 1;
      }
      if (c === BACKSLASH) {
        escaped = true;
        p++;
      }
    }
    this.p = n;
    return this.fail('unterminated string (truncated?)');
  }

  /** True when the key just read is `name` (ASCII). */
  key(name: string): boolean {
    const start = this.keyStart + 1;
    const end = this.keyEnd - 1;
    if (this.keyEscaped) return JSON.parse(this.b.toString('utf8', start - 1, end + 1)) === name;
    if (end - start !== name.length) return false;
    for (let i = 0; i < name.length; i++) if (this.b[start + i] !== name.charCodeAt(i)) return false;
    return true;
  }

  skip(): void {
    const c = this.peek();
    if (c === QUOTE) this.p = this.stringEnd(this.p);
    else if (c === LBRACE || c === LBRACKET) this.skipContainer();
    else {
      const b = this.b;
      const start = this.p;
      let p = start;
      for (let d = b[p]; p < b.length && d !== COMMA && d !== RBRACE && d !== RBRACKET && d > 32; d = b[++p]);
      this.p = p;
      if (!LITERAL.test(b.toString('latin1', start, p))) this.fail('expected a value');
    }
  }

  // The hot loop: most of a page is skipped here, so strings are skipped inline.
  skipContainer(): void {
    const b = this.b;
    const n = b.length;
    let p = this.p;
    let depth = 0;
    while (p < n) {
      const c = b[p++];
      if (c === QUOTE) {
        let closed = false;
        while (p < n) {
          const d = b[p++];
          if (d === QUOTE) {
            closed = true;
            break;
          }
          if (d === BACKSLASH) p++;
        }
        if (!closed) break;
      } else if (c === LBRACE || c === LBRACKET) depth++;
      else if ((c === RBRACE || c === RBRACKET) && --depth === 0) {
        this.p = p;
        return;
      }
    }
    this.p = n;
    this.fail('unexpected end (truncated?)');
  }

  /** A small value, parsed: the parts of a node the check reads. */
  value(): unknown {
    const start = this.p;
    this.skip();
    return JSON.parse(this.b.toString('utf8', start, this.p));
  }

  /** Reads `"key":` and leaves it for `key()`. */
  readKey(): void {
    if (this.peek() !== QUOTE) this.fail('expected a key');
    this.keyStart = this.p;
    this.keyEnd = this.p = this.stringEnd(this.p);
    this.keyEscaped = this.escaped;
    this.expect(COLON);
  }

  /** Consumes `{`; false when the object is empty (and consumed whole). */
  open(): boolean {
    this.expect(LBRACE);
    if (this.peek() !== RBRACE) return true;
    this.p++;
    return false;
  }

  /** After a member: true after a comma, false at the closing bracket. */
  more(close: number): boolean {
    const c = this.peek();
    this.p++;
    if (c === COMMA) return true;
    if (c !== close) this.fail(`expected ',' or '${String.fromCharCode(close)}'`);
    return false;
  }

  /** A string value, or whatever JSON value stands there (null, a number...). */
  text(): unknown {
    if (this.peek() !== QUOTE) return this.value();
    const start = this.p + 1;
    this.p = this.stringEnd(this.p);
    if (this.escaped) return JSON.parse(this.b.toString('utf8', start - 1, this.p));
    return this.b.toString('utf8', start, this.p - 1);
  }

  /**
   * A list of small objects of which only a few string members matter (conditions: type,
   * status, reason, message, lastTransitionTime; addresses: type and address): the rest is skipped.
   */
  pairs(...keys: string[]): Array<Record<string, unknown>> | unknown {
    if (this.peek() !== LBRACKET) return this.value();
    const out: Array<Record<string, unknown>> = [];
    this.p++;
    if (this.peek() === RBRACKET) {
      this.p++;
      return out;
    }
    do {
      if (this.peek() !== LBRACE) {
        out.push(this.value() as Record<string, unknown>);
        continue;
      }
      const entry: Record<string, unknown> = {};
      if (this.open()) {
        do {
          this.readKey();
          const wanted = keys.find((k) => this.key(k));
          if (wanted !== undefined) entry[wanted] = this.text();
          else this.skip();
        } while (this.more(RBRACE));
      }
      out.push(entry);
    } while (this.more(RBRACKET));
    return out;
  }

  /** One item, reduced to the fields of `Node`. */
  node(): Node {
    if (this.peek() !== LBRACE) this.fail('expected a node object');
    const node: Node = {};
    if (!this.open()) return node;
    do {
      this.readKey();
      const c = this.peek();
      if (c === LBRACE && this.key('metadata')) {
        const metadata: NonNullable<Node['metadata']> = (node.metadata = {});
        if (this.open()) {
          do {
            this.readKey();
            if (this.key('name')) metadata.name = this.text() as string;
            else this.skip();
          } while (this.more(RBRACE));
        }
      } else if (c === LBRACE && this.key('spec')) {
        const spec: NonNullable<Node['spec']> = (node.spec = {});
        if (this.open()) {
          do {
            this.readKey();
            if (this.key('unschedulable')) spec.unschedulable = this.value() as boolean;
            else this.skip();
          } while (this.more(RBRACE));
        }
      } else if (c === LBRACE && this.key('status')) {
        const status: NonNullable<Node['status']> = (node.status = {});
        if (this.open()) {
          do {
            this.readKey();
            if (this.key('conditions')) status.conditions = this.pairs('type', 'status', 'reason', 'message', 'lastTransitionTime') as NodeCondition[];
            else if (this.key('addresses')) status.addresses = this.pairs('type', 'address') as NodeAddress[];
            else this.skip();
          } while (this.more(RBRACE));
        }
      } else this.skip();
    } while (this.more(RBRACE));
    return node;
  }

  /** Top-level members up to `items` (stopAtItems) or the end; true when stopped at items. */
  members(page: NodeListPage, stopAtItems: boolean): boolean {
    do {
      this.readKey();
      const c = this.peek();
      if (c === LBRACKET && this.key('items')) {
        if (stopAtItems) return true;
        this.items(page);
      } else if (this.key('kind')) page.kind = this.value();
      else if (c === LBRACE && this.key('metadata')) {
        if (this.open()) {
          do {
            this.readKey();
            if (!this.key('continue')) this.skip();
            else {
              const token = this.text();
              if (typeof token === 'string' && token !== '') page.continue = token;
            }
          } while (this.more(RBRACE));
        }
      } else this.skip();
    } while (this.more(RBRACE));
    return false;
  }

  items(page: NodeListPage, visit?: (node: Node) => void): void {
    page.items = 0;
    this.expect(LBRACKET);
    if (this.peek() === RBRACKET) {
      this.p++;
      return;
    }
    do {
      const node = this.node();
      visit?.(node);
      page.items++;
    } while (this.more(RBRACKET));
  }
}

/**
 * Scans one page of `GET /api/v1/nodes`, calling `visit` with each node reduced to the
 * fields the check reads. `onHead` gets the page's continue token as soon as it is read,
 * when the server sends the list metadata before the items (the API server does), so that
 * the next page can be requested while this one is scanned. Throws NodeListSyntaxError when
 * the body is not well-formed.
 */
export function scanNodeList(body: Buffer, visit: (node: Node) => void, onHead?: (head: NodeListPage) => void): NodeListPage {
  const sc = new Scanner(body);
  const page: NodeListPage = { items: -1 };
  sc.expect(LBRACE);
  if (sc.peek() === RBRACE) sc.p++;
  else if (sc.members(page, true)) {
    onHead?.(page);
    sc.items(page, visit);
    if (sc.more(RBRACE)) sc.members(page, false);
  }
  if (sc.peek() !== -1) sc.fail('text after the JSON document');
  return page;
}

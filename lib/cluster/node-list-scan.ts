// Reads one page of a NodeList without building it. A node object is 8-15 KB, of which the
// check needs well under 1 KB (name, unschedulable, addresses, conditions); JSON.parse of a
// 500-node page decodes 4-5 MB of text and builds some 25 MB of objects only to drop them.
// This scanner walks the response bytes, skips what it does not need, and hands only the
// small parts it needs to JSON.parse: a 5000-node list stays fast and small.
//
// It checks the structure it walks (objects, arrays, strings, the end of the document), so a
// truncated or non-JSON body is refused; inside the parts it skips it only tracks nesting.
// It also checks the shape of the parts it reads against the API's own (a node has a string
// name, conditions are an array of objects with string type and status, ...): an item that
// breaks it is refused with the first bad field named, never given a health verdict.

import { checkDeadline } from '../plugin/deadline';
import { hasControlCharacters } from '../plugin/control-characters';
import { runRedactor } from '../plugin/redact';
import type { Node, NodeAddress, NodeCondition } from './node';
import { ShapeError } from './shape-error';

/** The page is not well-formed JSON (or was cut short). */
export class NodeListSyntaxError extends Error {}

/**
 * The page is JSON but an item does not have the shape of a v1 Node (the API server never
 * sends that: a broken proxy, another API, a hostile server). `field` is a path such as
 * `items[3].metadata.name`.
 */
export class NodeListShapeError extends ShapeError {}

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
const LETTER_N = 110;
const LETTER_T = 116;
const LETTER_F = 102;

/** A node name is a DNS subdomain: at most 253 characters. */
const MAX_NAME = 253;
/** Condition types (qualified names, up to 316), statuses, address types and addresses. */
const MAX_TEXT = 316;
/** A condition's reason, message or time, as kept (the long output shortens it further). */
const MAX_DETAIL = 1024;

/** The members read of status.allocatable and status.capacity, and of status.nodeInfo. */
const POD_LIMIT = ['pods'] as const;
const KUBELET_VERSION = ['kubeletVersion'] as const;
/** The label that names the node's host (what a VM of the same name is looked for by). */
const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** What a JSON value is, by its first byte, in words: "a number", "an array"... */
function kindOf(c: number): string {
  if (c === QUOTE) return 'a string';
  if (c === LBRACE) return 'an object';
  if (c === LBRACKET) return 'an array';
  if (c === LETTER_N) return 'null';
  if (c === LETTER_T || c === LETTER_F) return 'a boolean';
  return 'a number';
}

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

  /** Refuses the value at the cursor unless it is of the kind wanted (skipping it to report a syntax error first). */
  private shape(field: string, want: number, wanted: string, nullable = false): boolean {
    const c = this.peek();
    if (c === want) return true;
    if (nullable && c === LETTER_N) {
      this.skip();
      return false;
    }
    const found = kindOf(c);
    this.skip(); // a syntax error in the value itself is reported as such
    throw new NodeListShapeError(field, `is ${found}, not ${wanted}`);
  }

  /** A string member, required to be a string. */
  string(field: string): string {
    this.shape(field, QUOTE, 'a string');
    const start = this.p + 1;
    this.p = this.stringEnd(this.p);
    if (this.escaped) return JSON.parse(this.b.toString('utf8', start - 1, this.p)) as string;
    return this.b.toString('utf8', start, this.p - 1);
  }

  /**
   * A string the check prints (a name, a condition type or status, an address): bounded,
   * and free of control and line-separator characters, which would split or forge lines of
   * the plugin's output. The API server's own validation never lets such a value through.
   */
  printable(field: string, max: number): string {
    const value = this.string(field);
    if (value.length > max) throw new NodeListShapeError(field, `is ${value.length} characters long, more than the API allows (${max})`);
    if (hasControlCharacters(value)) throw new NodeListShapeError(field, 'holds control or line-separator characters');
    return value;
  }

  /**
   * A list of small objects of which only two string members matter (conditions: type and
   * status; addresses: type and address), and a few `optional` ones worth saying (a
   * condition's reason, message and lastTransitionTime, redacted and kept to MAX_DETAIL characters, and
   * ignored when not strings): the rest is skipped. The two are required, as in the API's
   * schema. Null (a nil list) reads as absent.
   */
  pairs(field: string, first: string, second: string, optional: readonly string[] = []): Array<Record<string, string>> | undefined {
    if (!this.shape(field, LBRACKET, 'an array', true)) return undefined;
    const out: Array<Record<string, string>> = [];
    this.p++;
    if (this.peek() === RBRACKET) {
      this.p++;
      return out;
    }
    do {
      const at = `${field}[${out.length}]`;
      this.shape(at, LBRACE, 'an object');
      const entry: Record<string, string> = {};
      if (this.open()) {
        do {
          this.readKey();
          const extra = optional.find((k) => this.key(k));
          if (this.key(first)) entry[first] = this.printable(`${at}.${first}`, MAX_TEXT);
          else if (this.key(second)) entry[second] = this.printable(`${at}.${second}`, MAX_TEXT);
          // Printed only through the output's own cleaning (control characters dropped, cut).
          else if (extra !== undefined && this.peek() === QUOTE) entry[extra] = runRedactor.cut(this.string(`${at}.${extra}`), MAX_DETAIL);
          else this.skip();
        } while (this.more(RBRACE));
      }
      if (entry[first] === undefined) throw new NodeListShapeError(`${at}.${first}`, 'is missing');
      if (entry[second] === undefined) throw new NodeListShapeError(`${at}.${second}`, 'is missing');
      out.push(entry);
    } while (this.more(RBRACKET));
    return out;
  }

  /**
   * The string members `wanted` of an object (a node's allocatable pods, its kubelet version),
   * bounded and printable; other members and values of other kinds are skipped (a figure the
   * check cannot read costs that figure, not the node). Null reads as absent.
   */
  strings(field: string, wanted: readonly string[]): Record<string, string> | undefined {
    if (!this.shape(field, LBRACE, 'an object', true)) return undefined;
    const out: Record<string, string> = {};
    if (this.open()) {
      do {
        this.readKey();
        const k = wanted.find((w) => this.key(w));
        if (k !== undefined && this.peek() === QUOTE) out[k] = this.printable(`${field}.${k}`, MAX_TEXT);
        else this.skip();
      } while (this.more(RBRACE));
    }
    return out;
  }

  /**
   * A string only some options use (the provider id, the hostname label): kept when it is a
   * short printable string, else left out. Unlike the fields every run judges, an odd one
   * costs its own figure, never the check.
   */
  optionalText(): string | undefined {
    if (this.peek() !== QUOTE) {
      this.skip();
      return undefined;
    }
    const value = this.string('');
    return value.length <= MAX_TEXT && !hasControlCharacters(value) ? value : undefined;
  }

  /** The `wanted` members of an object of strings (labels), as optionalText reads them; the rest skipped. */
  optionalStrings(wanted: readonly string[]): Record<string, string> | undefined {
    if (this.peek() !== LBRACE) {
      this.skip();
      return undefined;
    }
    const out: Record<string, string> = {};
    if (this.open()) {
      do {
        this.readKey();
        const k = wanted.find((w) => this.key(w));
        const value = k !== undefined ? this.optionalText() : (this.skip(), undefined);
        if (k !== undefined && value !== undefined) out[k] = value;
      } while (this.more(RBRACE));
    }
    return out;
  }

  /** One item, reduced to the fields of `Node`; `at` is its path (`items[3]`) for errors. */
  node(at: string): Node {
    this.shape(at, LBRACE, 'an object (a node)');
    const node: Node = {};
    if (this.open()) {
      do {
        this.readKey();
        if (this.key('metadata')) {
          this.shape(`${at}.metadata`, LBRACE, 'an object');
          const metadata: NonNullable<Node['metadata']> = (node.metadata = {});
          if (this.open()) {
            do {
              this.readKey();
              if (this.key('name')) metadata.name = this.printable(`${at}.metadata.name`, MAX_NAME);
              else if (this.key('labels')) {
                const labels = this.optionalStrings([HOSTNAME_LABEL]);
                if (labels?.[HOSTNAME_LABEL] !== undefined) metadata.labels = labels;
              } else this.skip();
            } while (this.more(RBRACE));
          }
        } else if (this.key('spec')) {
          if (!this.shape(`${at}.spec`, LBRACE, 'an object', true)) continue;
          const spec: NonNullable<Node['spec']> = (node.spec = {});
          if (this.open()) {
            do {
              this.readKey();
              if (this.key('unschedulable')) {
                const c = this.peek();
                if (c !== LETTER_T && c !== LETTER_F && c !== LETTER_N) this.shape(`${at}.spec.unschedulable`, LETTER_T, 'a boolean');
                const v = this.value();
                if (v !== null) spec.unschedulable = v as boolean;
              } else if (this.key('providerID')) {
                const id = this.optionalText();
                if (id !== undefined) spec.providerID = id;
              } else this.skip();
            } while (this.more(RBRACE));
          }
        } else if (this.key('status')) {
          if (!this.shape(`${at}.status`, LBRACE, 'an object', true)) continue;
          const status: NonNullable<Node['status']> = (node.status = {});
          if (this.open()) {
            do {
              this.readKey();
              if (this.key('conditions')) {
                const list = this.pairs(`${at}.status.conditions`, 'type', 'status', ['reason', 'message', 'lastTransitionTime']);
                if (list) status.conditions = list as unknown as NodeCondition[];
              } else if (this.key('addresses')) {
                const list = this.pairs(`${at}.status.addresses`, 'type', 'address');
                if (list) status.addresses = list as unknown as NodeAddress[];
              } else if (this.key('allocatable')) status.allocatable = this.strings(`${at}.status.allocatable`, POD_LIMIT);
              else if (this.key('capacity')) status.capacity = this.strings(`${at}.status.capacity`, POD_LIMIT);
              else if (this.key('nodeInfo')) status.nodeInfo = this.strings(`${at}.status.nodeInfo`, KUBELET_VERSION);
              else this.skip();
            } while (this.more(RBRACE));
          }
        } else this.skip();
      } while (this.more(RBRACE));
    }
    // Every object the API server lists has a name; without one there is nothing to report.
    if (!node.metadata) throw new NodeListShapeError(`${at}.metadata`, 'is missing');
    if (node.metadata.name === undefined) throw new NodeListShapeError(`${at}.metadata.name`, 'is missing');
    if (node.metadata.name === '') throw new NodeListShapeError(`${at}.metadata.name`, 'is empty');
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
            else if (this.shape('metadata.continue', QUOTE, 'a string', true)) {
              const token = this.string('metadata.continue');
              if (token !== '') page.continue = token;
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
      const node = this.node(`items[${page.items}]`);
      visit?.(node);
      // Scanning is synchronous: let -t interrupt a page that takes long.
      if ((++page.items & 4095) === 0) checkDeadline('reading the node list');
    } while (this.more(RBRACKET));
  }
}

/**
 * Scans one page of `GET /api/v1/nodes`, calling `visit` with each node reduced to the
 * fields the check reads. `onHead` gets the page's continue token as soon as it is read,
 * when the server sends the list metadata before the items (the API server does), so that
 * the next page can be requested while this one is scanned. Throws NodeListSyntaxError when
 * the body is not well-formed, NodeListShapeError when an item is not shaped like a Node.
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

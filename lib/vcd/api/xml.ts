import { StringDecoder } from 'node:string_decoder';
import { checkDeadline } from '../../plugin/deadline';

/** An XML element reduced to what the vCD documents use: its name, namespace, attributes, children. */
export interface XmlElement {
  local: string;
  uri: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Character data (text and CDATA, entities decoded), kept only when XmlLimits.maxTextChars asks for it. */
  text?: string;
}

/** Bounds a caller sets for a document whose values it keeps (defaults: none beyond the body's size). */
export interface XmlLimits {
  /** A longer attribute value is refused: what the caller keeps stays small whatever the server sends. */
  maxAttributeChars?: number;
  /** Keep each element's character data, up to this many characters (more is refused). */
  maxTextChars?: number;
}

/** The vCD v1.5 namespace of CurrentUsage, HistoricUsage, Error. */
export const VCLOUD_NS = 'http://www.vmware.com/vcloud/v1.5';

const XML_URI = 'http://www.w3.org/XML/1998/namespace';

// Sticky patterns: each matches exactly at the scanner's position.
const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;
const CLOSE_END = /\s*>/y;
const ENTITY = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** More attributes on one element than any vCD document has (a Metric has 3, a Sample 2). */
export const MAX_ATTRIBUTES = 256;
/**
 * Far more elements than any vCD document this reads has (a 24-hour HistoricUsage holds
 * some 4,000 samples, a few times that with per-disk series): beyond it the tree, not the
 * body, would decide the memory used, and garbage collection the time.
 */
export const MAX_ELEMENTS = 200_000;

type Scope = Record<string, string>;

interface Open {
  qname: string;
  element: XmlElement;
  scope: Scope;
}

/** Why a document is not well-formed (or passes a limit): the message ends `at line N`. */
export class XmlSyntaxError extends Error {}
/** A document past one of the bounds on a markup (attributes, their length): said the same however it is read. */
class XmlLimitError extends XmlSyntaxError {}

function fail(text: string, at: number, why: string, kind = XmlSyntaxError): never {
  // Counted in place: a 60 MB body of short lines must not become millions of strings here.
  let line = 1;
  for (let n = text.indexOf('\n'); n >= 0 && n < at; n = text.indexOf('\n', n + 1)) line++;
  throw new kind(`${why} at line ${line}`);
}

function decode(value: string, text: string, at: number, where = 'attribute value'): string {
  if (!value.includes('&')) return value;
  // Every & must begin one of the references ENTITY knows (`&lol;`, `&#xZZ;`, a bare & are not).
  if (value.replace(ENTITY, '').includes('&')) fail(text, at, `unknown entity in ${where}`);
  return value.replace(ENTITY, (_m, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
    if (named) return PREDEFINED[named];
    const code = hex ? parseInt(hex, 16) : Number(dec);
    if (code > 0x10ffff || code === 0) fail(text, at, 'invalid character reference');
    return String.fromCodePoint(code);
  });
}

/**
 * Parses an XML document into a namespace-aware tree, or returns why it is not well-formed.
 *
 * A strict scanner for the documents vCD sends (elements with attributes, no text content
 * that matters): it reads a 24-hour HistoricUsage of some 4,000 samples in about 5 ms where
 * a general DOM-building parser (xml2js) took over 100 ms of a check that should cost
 * little more than Node's start-up. A DOCTYPE is refused outright, so no entity can expand.
 */
export function parseXml(text: string, limits: XmlLimits = {}): XmlElement | { error: string } {
  try {
    return scan(text, limits);
  } catch (error) {
    if (error instanceof XmlSyntaxError) return { error: error.message };
    throw error;
  }
}

function scan(text: string, limits: XmlLimits): XmlElement {
  const scanner = new Scanner(text, limits);
  scanner.run(true);
  return scanner.finish();
}

/**
 * Reads a document that arrives in pieces (a response body as it comes), handing each child of
 * the root element to `onChild` whole when it ends, and keeping none of them: what is held is
 * the markup under way (at most `maxMarkupChars`) and the open elements, never the document.
 * `write` and `end` throw XmlSyntaxError where parseXml would return its error.
 */
export class XmlChildReader {
  private readonly scanner: Scanner;
  private readonly decoder = new StringDecoder('utf8');
  private readonly maxMarkup: number;

  constructor(limits: XmlLimits & { maxMarkupChars: number }, onChild: (child: XmlElement, root: XmlElement) => void) {
    this.scanner = new Scanner('', limits, onChild);
    this.maxMarkup = limits.maxMarkupChars;
  }

  /** Reads the next piece of the body. */
  write(chunk: Buffer): void {
    const { scanner } = this;
    scanner.append(this.decoder.write(chunk));
    scanner.run(false);
    if (scanner.pending() <= this.maxMarkup) return;
    // Read as if the body ended here: a bound the markup passes is said as the whole document
    // would say it (`more than 256 attributes in <CurrentUsage>`), else this bound.
    try {
      scanner.run(true);
    } catch (error) {
      if (error instanceof XmlLimitError) throw error;
    }
    scanner.failHere(`more than ${this.maxMarkup} characters without the end of a markup`);
  }

  /** The body has ended: the root element, without the children handed over. */
  end(): XmlElement {
    const { scanner } = this;
    scanner.append(this.decoder.end());
    scanner.run(true);
    return scanner.finish();
  }
}

/** One pass over a document: markup by markup, the open elements on a stack. */
class Scanner {
  private i: number;
  private readonly stack: Open[] = [];
  private root: XmlElement | undefined;
  private readonly rootScope: Scope = { xml: XML_URI };
  private elements = 0;
  private readonly maxValue: number;
  private readonly maxText: number | undefined;
  /** Lines of the text already read and dropped (a document read in pieces): errors name the line in the whole document. */
  private linesBefore = 0;
  private started = false;

  constructor(
    private text: string,
    limits: XmlLimits,
    /** Set for a document read in pieces: the root's children are handed over, not kept. */
    private readonly onChild?: (child: XmlElement, root: XmlElement) => void,
  ) {
    this.i = 0;
    this.maxValue = limits.maxAttributeChars ?? Number.POSITIVE_INFINITY;
    this.maxText = limits.maxTextChars;
  }

  /** Adds the next piece of a document read in pieces, dropping what was read. */
  append(piece: string): void {
    const { text, i } = this;
    for (let n = text.indexOf('\n'); n >= 0 && n < i; n = text.indexOf('\n', n + 1)) this.linesBefore++;
    this.text = i < text.length ? text.slice(i) + piece : piece;
    this.i = 0;
  }

  /** Characters kept for the markup under way. */
  pending(): number {
    return this.text.length - this.i;
  }

  failHere(why: string): never {
    return this.renumbered(() => fail(this.text, this.text.length, why));
  }

  /** `work`, its error naming the line in the whole document, not in the piece kept. */
  private renumbered<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (this.linesBefore === 0 || !(error instanceof XmlSyntaxError)) throw error;
      throw new (error.constructor as typeof XmlSyntaxError)(
        error.message.replace(/at line (\d+)$/, (_m, n: string) => `at line ${Number(n) + this.linesBefore}`),
      );
    }
  }

  /**
   * Reads every markup of the text. With more to come (`final` false) it stops before a
   * markup that may be cut: a tag ends before the next `<` (no tag holds one), a comment,
   * CDATA section or processing instruction at its terminator.
   */
  run(final: boolean): void {
    const { text, stack } = this;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) this.i = 1;
    }
    const lastLt = final ? text.length : text.lastIndexOf('<');
    this.renumbered(() => {
      while (this.i < text.length) {
        const i = this.i;
        const lt = text.indexOf('<', i);
        if (lt < 0 && !final) return;
        const gapEnd = lt < 0 ? text.length : lt;
        if (stack.length === 0 && gapEnd > i && text.slice(i, gapEnd).trim() !== '') fail(text, i, 'text outside the root element');
        if (stack.length > 0 && gapEnd > i && this.maxText !== undefined) this.addText(text.slice(i, gapEnd), i, true);
        if (lt < 0) break;
        this.i = lt;
        const next = text.charCodeAt(lt + 1);
        if (!final && !this.whole(lt, next, lastLt)) return;
        if (next === 0x3f /* ? */) this.processingInstruction();
        else if (next === 0x21 /* ! */) this.declaration();
        else if (next === 0x2f /* / */) this.closeTag();
        else this.startTag();
      }
    });
  }

  /** Whether the markup at `lt` is all in the text read so far. */
  private whole(lt: number, next: number, lastLt: number): boolean {
    const { text } = this;
    if (lt + 1 >= text.length) return false;
    if (next === 0x3f /* ? */) return text.indexOf('?>', lt + 2) >= 0;
    if (next !== 0x21 /* ! */) return lt < lastLt;
    if (text.startsWith('<!--', lt)) return text.indexOf('-->', lt + 4) >= 0;
    if (text.length - lt < 9) return false;
    if (text.startsWith('<![CDATA[', lt)) return text.indexOf(']]>', lt + 9) >= 0;
    return true;
  }

  /** The document has ended: every element closed, and a root. */
  finish(): XmlElement {
    const { text, stack } = this;
    return this.renumbered(() => {
      if (stack.length > 0) fail(text, text.length, `unclosed element <${stack[stack.length - 1].qname}>`);
      if (!this.root) fail(text, text.length, 'no root element');
      return this.root;
    });
  }

  /**
   * Character data of the open element, read in pieces (comments and CDATA split it). Pieces
   * of blanks only are the indentation between elements, not text.
   */
  private addText(raw: string, at: number, entities: boolean): void {
    const { maxText, text } = this;
    if (maxText === undefined || /^\s*$/.test(raw)) return;
    const open = this.stack[this.stack.length - 1];
    // A character reference is at most 10 characters (`&#x10FFFF;`): a longer raw piece cannot fit.
    if (raw.length > 10 * maxText) fail(text, at, `more than ${maxText} characters of text in <${open.qname}>`);
    const joined = (open.element.text ?? '') + (entities ? decode(raw, text, at, 'text') : raw);
    if (joined.length > maxText) fail(text, at, `more than ${maxText} characters of text in <${open.qname}>`);
    open.element.text = joined;
  }

  private processingInstruction(): void {
    const end = this.text.indexOf('?>', this.i + 2);
    if (end < 0) fail(this.text, this.i, 'unterminated processing instruction');
    this.i = end + 2;
  }

  /** `<!--`, `<![CDATA[`; a DOCTYPE or any other `<!` is refused. */
  private declaration(): void {
    const { text, i } = this;
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) fail(text, i, 'unterminated comment');
      this.i = end + 3;
      return;
    }
    if (text.startsWith('<![CDATA[', i)) {
      if (this.stack.length === 0) fail(text, i, 'CDATA outside the root element');
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) fail(text, i, 'unterminated CDATA section');
      if (this.maxText !== undefined) this.addText(text.slice(i + 9, end), i, false);
      this.i = end + 3;
      return;
    }
    if (/^<!DOCTYPE/i.test(text.slice(i, i + 9))) fail(text, i, 'DOCTYPE declarations are not accepted (vCD sends none; entities are never expanded)');
    fail(text, i, 'unexpected markup "<!"');
  }

  private closeTag(): void {
    const { text, i } = this;
    NAME.lastIndex = i + 2;
    const name = NAME.exec(text);
    if (!name) fail(text, i, 'bad closing tag');
    CLOSE_END.lastIndex = NAME.lastIndex;
    if (!CLOSE_END.exec(text)) fail(text, i, `bad closing tag </${name[0]}`);
    const open = this.stack.pop();
    if (!open || open.qname !== name[0]) fail(text, i, `closing tag </${name[0]}> does not match <${open?.qname ?? ''}>`);
    this.i = CLOSE_END.lastIndex;
    if (this.onChild && this.stack.length === 1) this.onChild(open.element, this.stack[0].element);
  }

  /** An element's start tag: its attributes, its namespace, its place in the tree. */
  private startTag(): void {
    const { text, i, stack } = this;
    NAME.lastIndex = i + 1;
    const name = NAME.exec(text);
    if (!name) fail(text, i, 'bad start tag');
    if (stack.length === 0 && this.root) fail(text, i, 'more than one root element');
    if (++this.elements > MAX_ELEMENTS) fail(text, i, `more than ${MAX_ELEMENTS} elements`);
    // Parsing is synchronous: let -t interrupt a body that takes long.
    if ((this.elements & 1023) === 0) checkDeadline('parsing an XML document');
    const { names, values, declares, pos } = this.attributesOf(name[0], NAME.lastIndex);
    TAG_END.lastIndex = pos;
    const end = TAG_END.exec(text);
    if (!end) fail(text, pos, `malformed attributes in <${name[0]}>`);
    this.i = TAG_END.lastIndex;
    const parentScope = stack.length > 0 ? stack[stack.length - 1].scope : this.rootScope;
    const scope = declares ? declaredScope(parentScope, names, values) : parentScope;
    const element = this.elementOf(name[0], scope, names, values);
    // A child of the root read in pieces is handed over when it ends, never kept in the root.
    const handed = this.onChild !== undefined && stack.length === 1;
    if (stack.length === 0) this.root = element;
    else if (!handed) stack[stack.length - 1].element.children.push(element);
    if (!end[1]) stack.push({ qname: name[0], element, scope });
    else if (handed) this.onChild!(element, stack[0].element);
  }

  /** The attributes of a start tag as read (names still qualified); most elements have two or three. */
  private attributesOf(qname: string, from: number): { names: string[]; values: string[]; declares: boolean; pos: number } {
    const { text, maxValue } = this;
    const names: string[] = [];
    const values: string[] = [];
    // Duplicates are looked up in a set once there are more than a few (linear, not quadratic).
    let seen: Set<string> | undefined;
    let declares = false;
    let pos = from;
    for (;;) {
      ATTRIBUTE.lastIndex = pos;
      const a = ATTRIBUTE.exec(text);
      if (!a) break;
      if (names.length >= MAX_ATTRIBUTES) fail(text, pos, `more than ${MAX_ATTRIBUTES} attributes in <${qname}>`, XmlLimitError);
      if (seen ? seen.has(a[1]) : names.includes(a[1])) fail(text, pos, `duplicate attribute ${a[1]}`);
      const raw = a[2] ?? a[3];
      if (raw.length > maxValue) fail(text, pos, `attribute ${a[1]} of <${qname}> is ${raw.length} characters long, more than ${maxValue}`, XmlLimitError);
      if (seen) seen.add(a[1]);
      else if (names.length === 32) seen = new Set([...names, a[1]]);
      names.push(a[1]);
      values.push(decode(raw, text, pos));
      if (a[1].startsWith('xmlns')) declares = true;
      pos = ATTRIBUTE.lastIndex;
    }
    return { names, values, declares, pos };
  }

  /** The element of a start tag, its name and attributes' prefixes resolved in `scope`. */
  private elementOf(qname: string, scope: Scope, names: readonly string[], values: readonly string[]): XmlElement {
    const { text, i } = this;
    const attributes: Record<string, string> = {};
    for (let k = 0; k < names.length; k++) {
      const attribute = names[k];
      const colon = attribute.indexOf(':');
      if (colon < 0) {
        if (attribute !== 'xmlns') attributes[attribute] = values[k];
        continue;
      }
      const prefix = attribute.slice(0, colon);
      if (prefix === 'xmlns') continue;
      if (scope[prefix] === undefined) fail(text, i, `unbound namespace prefix ${prefix}`);
      attributes[attribute.slice(colon + 1)] = values[k];
    }
    const colon = qname.indexOf(':');
    const prefix = colon > 0 ? qname.slice(0, colon) : '';
    const uri = scope[prefix];
    if (prefix && uri === undefined) fail(text, i, `unbound namespace prefix ${prefix}`);
    return { local: colon > 0 ? qname.slice(colon + 1) : qname, uri: uri ?? '', attributes, children: [] };
  }
}

/** The scope of an element that declares namespaces: its parent's, with its own declarations over it. */
function declaredScope(parentScope: Scope, names: readonly string[], values: readonly string[]): Scope {
  let scope = parentScope;
  for (let k = 0; k < names.length; k++) {
    const qname = names[k];
    if (qname === 'xmlns' || qname.startsWith('xmlns:')) {
      if (scope === parentScope) scope = Object.create(parentScope) as Scope;
      scope[qname === 'xmlns' ? '' : qname.slice(6)] = values[k];
    }
  }
  return scope;
}

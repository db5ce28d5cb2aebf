// Just enough YAML for kubeconfig files as kubectl, oc and people write them: block mappings
// and sequences (indented or not), plain and quoted scalars, comments, literal/folded block
// scalars, small flow collections ({}, [], {a: b}) and JSON. Anchors, aliases, tags and
// multi-line plain scalars are refused with the line number rather than misread.

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export class YamlError extends Error {}

interface Line {
  indent: number;
  text: string;
  no: number;
}

/** Parses one YAML (or JSON) document into plain values. */
export function parseYaml(source: string): YamlValue {
  const text = source.replace(/^\uFEFF/, '');
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text) as YamlValue;
    } catch {
      // flow-style YAML that is not strict JSON: parse it as YAML below
    }
  }
  const raw = text.split(/\r?\n/);
  const lines: Line[] = [];
  for (let n = 0; n < raw.length; n++) {
    const r = raw[n];
    if (/^---(\s|$)/.test(r)) {
      if (lines.length > 0) break; // a second document: kubeconfig files hold one
      continue;
    }
    if (/^\.\.\.(\s|$)/.test(r)) break;
    const m = /^( *)(.*)$/.exec(r)!;
    if (m[2].startsWith('\t')) throw new YamlError(`line ${n + 1}: tab in indentation`);
    const body = stripComment(m[2], n + 1).trimEnd();
    if (body === '') continue;
    lines.push({ indent: m[1].length, text: body, no: n + 1 });
  }
  const p = new BlockParser(lines, raw);
  const value = p.block(0);
  if (p.i < lines.length) throw new YamlError(`line ${lines[p.i].no}: unexpected indentation`);
  return value;
}

/** Removes a `# comment` that is not inside quotes. */
function stripComment(text: string, no: number): string {
  let quote = '';
  for (let k = 0; k < text.length; k++) {
    const ch = text[k];
    if (quote) {
      if (quote === '"' && ch === '\\') k++;
      else if (ch === quote) {
        if (quote === "'" && text[k + 1] === "'") k++;
        else quote = '';
      }
    } else if (ch === '#' && (k === 0 || text[k - 1] === ' ')) return text.slice(0, k);
    else if ((ch === '"' || ch === "'") && (k === 0 || /[\s:[{,-]/.test(text[k - 1]))) quote = ch;
  }
  if (quote) throw new YamlError(`line ${no}: unterminated quoted string (multi-line strings are not supported)`);
  return text;
}

function isSeqItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** Index of the `:` that ends a mapping key (followed by a space or the end), or -1. */
function keyColon(text: string): number {
  let k = 0;
  if (text[0] === '"' || text[0] === "'") {
    k = closingQuote(text, 0) + 1;
    const rest = text.slice(k);
    return /^\s*:(\s|$)/.test(rest) ? text.indexOf(':', k) : -1;
  }
  if (text[0] === '{' || text[0] === '[') return -1;
  for (; k < text.length; k++) if (text[k] === ':' && (k + 1 === text.length || text[k + 1] === ' ')) return k;
  return -1;
}

function closingQuote(text: string, start: number): number {
  const q = text[start];
  for (let k = start + 1; k < text.length; k++) {
    if (q === '"' && text[k] === '\\') k++;
    else if (text[k] === q) {
      if (q === "'" && text[k + 1] === "'") k++;
      else return k;
    }
  }
  throw new YamlError(`unterminated quoted string ${text}`);
}

class BlockParser {
  i = 0;
  constructor(
    private readonly lines: Line[],
    private readonly raw: string[],
  ) {}

  /** The block whose first line is indented at least `min`. */
  block(min: number): YamlValue {
    const line = this.lines[this.i];
    if (!line || line.indent < min) return null;
    if (isSeqItem(line.text)) return this.sequence(line.indent);
    if (keyColon(line.text) >= 0) return this.mapping(line.indent);
    this.i++;
    return scalar(line.text, line.no);
  }

  sequence(indent: number): YamlValue[] {
    const out: YamlValue[] = [];
    for (let line = this.lines[this.i]; line && line.indent === indent && isSeqItem(line.text); line = this.lines[this.i]) {
      const rest = line.text.slice(1).replace(/^ +/, '');
      if (rest === '') {
        this.i++;
        out.push(this.block(indent + 1));
        continue;
      }
      // `- key: value` opens a mapping whose keys sit at the column after the dash.
      const column = indent + (line.text.length - rest.length);
      this.lines[this.i] = { indent: column, text: rest, no: line.no };
      out.push(this.block(column));
    }
    return out;
  }

  mapping(indent: number): { [key: string]: YamlValue } {
    const out: { [key: string]: YamlValue } = {};
    for (let line = this.lines[this.i]; line && line.indent >= indent; line = this.lines[this.i]) {
      if (line.indent > indent) throw new YamlError(`line ${line.no}: unexpected indentation`);
      if (isSeqItem(line.text)) throw new YamlError(`line ${line.no}: a list item where a key was expected`);
      const colon = keyColon(line.text);
      if (colon < 0) throw new YamlError(`line ${line.no}: expected "key: value" (multi-line plain values are not supported)`);
      const key = String(scalar(line.text.slice(0, colon).trim(), line.no) ?? 'null');
      const value = line.text.slice(colon + 1).trim();
      this.i++;
      const next = this.lines[this.i];
      if (value === '') {
        if (next && next.indent > indent) out[key] = this.block(next.indent);
        else if (next && next.indent === indent && isSeqItem(next.text)) out[key] = this.sequence(indent);
        else out[key] = null;
      } else if (/^[|>][+-]?$/.test(value)) {
        out[key] = this.blockScalar(value, indent, line.no);
      } else {
        out[key] = scalar(value, line.no);
      }
    }
    return out;
  }

  /** A literal (`|`) or folded (`>`) block scalar, read from the raw lines. */
  blockScalar(header: string, indent: number, headerNo: number): string {
    const body: string[] = [];
    let n = headerNo; // raw index of the line after the header
    let cut: number | undefined;
    for (; n < this.raw.length; n++) {
      const r = this.raw[n];
      if (r.trim() === '') {
        body.push('');
        continue;
      }
      const ind = /^ */.exec(r)![0].length;
      if (ind <= indent) break;
      cut ??= ind;
      body.push(r.slice(Math.min(cut, ind)));
    }
    while (this.i < this.lines.length && this.lines[this.i].no <= n) this.i++;
    while (body.length > 0 && body[body.length - 1] === '') body.pop();
    const text = header[0] === '|' ? body.join('\n') : body.join(' ').replace(/ ?\n ?/g, '\n');
    return header.endsWith('-') ? text : `${text}\n`;
  }
}

/** A scalar or a flow collection written on one line. */
function scalar(text: string, no: number): YamlValue {
  const t = text.trim();
  if (/^[&*!]/.test(t)) throw new YamlError(`line ${no}: anchors, aliases and tags are not supported`);
  if (t[0] === '{' || t[0] === '[') {
    const flow = new FlowParser(t, no);
    const value = flow.value();
    flow.end();
    return value;
  }
  if (t[0] === '"' || t[0] === "'") {
    const end = closingQuote(t, 0);
    if (t.slice(end + 1).trim() !== '') throw new YamlError(`line ${no}: text after a quoted string`);
    return unquote(t.slice(0, end + 1));
  }
  return plain(t);
}

function plain(t: string): YamlValue {
  if (t === '' || t === '~' || /^(null|Null|NULL)$/.test(t)) return null;
  if (/^(true|True|TRUE)$/.test(t)) return true;
  if (/^(false|False|FALSE)$/.test(t)) return false;
  if (/^[-+]?\d+$/.test(t) && Number.isSafeInteger(Number(t))) return Number(t);
  if (/^[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return t;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '"': '"', '\\': '\\', '/': '/', ' ': ' ', e: '\x1b', b: '\b', f: '\f' };

function unquote(q: string): string {
  const inner = q.slice(1, -1);
  if (q[0] === "'") return inner.replace(/''/g, "'");
  return inner.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e: string) =>
    e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : ESCAPES[e] ?? e,
  );
}

/** Flow collections on one line: `{}`, `[]`, `{a: b, c: "d"}`, `[x, y]`. */
class FlowParser {
  private k = 0;
  constructor(
    private readonly t: string,
    private readonly no: number,
  ) {}

  end(): void {
    this.space();
    if (this.k < this.t.length) throw new YamlError(`line ${this.no}: text after a flow collection`);
  }

  private space(): void {
    while (this.t[this.k] === ' ') this.k++;
  }

  value(): YamlValue {
    this.space();
    const ch = this.t[this.k];
    if (ch === '{') return this.collection('}');
    if (ch === '[') return this.collection(']');
    if (ch === '"' || ch === "'") {
      const end = closingQuote(this.t, this.k);
      const v = unquote(this.t.slice(this.k, end + 1));
      this.k = end + 1;
      return v;
    }
    const start = this.k;
    while (this.k < this.t.length && !/[,\]}]/.test(this.t[this.k]) && !(this.t[this.k] === ':' && /[\s,\]}]|^$/.test(this.t[this.k + 1] ?? ''))) this.k++;
    return plain(this.t.slice(start, this.k).trim());
  }

  private collection(close: string): YamlValue {
    this.k++;
    const list: YamlValue[] = [];
    const map: { [key: string]: YamlValue } = {};
    for (;;) {
      this.space();
      if (this.t[this.k] === close) {
        this.k++;
        return close === ']' ? list : map;
      }
      const item = this.value();
      this.space();
      if (close === '}') {
        if (this.t[this.k] !== ':') throw new YamlError(`line ${this.no}: expected ":" in a flow mapping`);
        this.k++;
        map[String(item)] = this.value();
      } else list.push(item);
      this.space();
      if (this.t[this.k] === ',') this.k++;
      else if (this.t[this.k] !== close) throw new YamlError(`line ${this.no}: expected "," or "${close}"`);
    }
  }
}

// The XML scanner against xml2js (the reference): same tree on every realistic document and
// on generated ones, and a clean refusal of what is not well-formed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeadlineError, setRunDeadline } from '../../../../lib/plugin/deadline';
import { MAX_ATTRIBUTES, MAX_ELEMENTS, parseXml, XmlChildReader, XmlSyntaxError, type XmlElement } from '../../../../lib/vcd/api/xml';
import { Parser } from 'xml2js';
import { cpuNow } from '../../../support/cpu-time';

interface RawElement {
  $?: Record<string, { value: string; local: string; uri: string }>;
  $ns?: { local: string; uri: string };
  [child: string]: unknown;
}

/** The tree as xml2js (namespace-aware, strict) sees it, in the scanner's shape. */
function reference(text: string): XmlElement | { error: true } {
  let out: XmlElement | { error: true } = { error: true };
  let done = false;
  new Parser({
    xmlns: true,
    explicitArray: true,
    explicitRoot: true,
    async: false,
    strict: true,
    explicitChildren: true,
    preserveChildrenOrder: true,
  }).parseString(text, (error: Error | null, result: Record<string, RawElement> | null) => {
    if (done) return;
    done = true;
    if (!error && result) out = convert(Object.values(result)[0]);
  });
  return out;
}

function convert(raw: RawElement): XmlElement {
  const attributes: Record<string, string> = {};
  for (const a of Object.values(raw.$ ?? {}))
    if (a.uri !== 'http://www.w3.org/2000/xmlns/' && !(a.local === 'xmlns' && a.uri === '')) attributes[a.local] = a.value;
  const children = ((raw.$$ as RawElement[] | undefined) ?? []).filter((c) => c && typeof c === 'object' && c.$ns).map(convert);
  return { local: raw.$ns?.local ?? '', uri: raw.$ns?.uri ?? '', attributes, children };
}

const fixtures = join(__dirname, '../../../fixtures/vcd');

describe('parseXml', () => {
  const files = readdirSync(fixtures).filter((f) => f.endsWith('.xml'));
  it.each(files)('reads %s as xml2js does', (file) => {
    const text = readFileSync(join(fixtures, file), 'utf8');
    const ref = reference(text);
    const ours = parseXml(text);
    if ('error' in ref) expect(ours).toHaveProperty('error');
    else expect(ours).toEqual(ref);
  });

  it('resolves prefixed and default namespaces, and decodes entities', () => {
    const doc = `<?xml version="1.0"?>\n<!-- c --><v:CurrentUsage xmlns:v="http://www.vmware.com/vcloud/v1.5" xmlns:x="urn:x"><v:Metric name="a&amp;b" x:extra='1 &lt; 2 &#x41;&#66;'/><Other/></v:CurrentUsage>`;
    expect(parseXml(doc)).toEqual({
      local: 'CurrentUsage',
      uri: 'http://www.vmware.com/vcloud/v1.5',
      attributes: {},
      children: [
        { local: 'Metric', uri: 'http://www.vmware.com/vcloud/v1.5', attributes: { name: 'a&b', extra: '1 < 2 AB' }, children: [] },
        { local: 'Other', uri: '', attributes: {}, children: [] },
      ],
    });
  });

  it.each([
    ['', /no root element/],
    ['not xml at all', /text outside the root element/],
    ['<a><b></a>', /does not match/],
    ['<a>', /unclosed element/],
    ['<a/><b/>', /more than one root/],
    ['<a x="1" x="2"/>', /duplicate attribute/],
    ['<p:a/>', /unbound namespace prefix p/],
    ['<a x="&lol;"/>', /unknown entity/],
    ['<a x="&#xZZ;"/>', /unknown entity/],
    ['<a x="fish & chips"/>', /unknown entity/],
    ['<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><a x="&lol2;"/>', /DOCTYPE declarations are not accepted/],
    ['<a x=1/>', /malformed attributes/],
    ['<html><body>502 Bad Gateway</body></html><!-- x', /unterminated comment/],
  ])('refuses %j', (text, why) => {
    const r = parseXml(text);
    expect(r).toHaveProperty('error');
    expect((r as { error: string }).error).toMatch(why);
  });

  it('parses a 24-hour history quickly', () => {
    const series = Array.from({ length: 18 }, (_, s) => {
      const samples = Array.from(
        { length: 288 },
        (_, k) =>
          `<Sample timestamp="2026-11-21T${String(Math.floor(k / 12)).padStart(2, '0')}:${String((k % 12) * 5).padStart(2, '0')}:03.120Z" value="${(k % 97) + 0.25}"/>`,
      ).join('\n');
      return `<MetricSeries name="m${s}" unit="PERCENT" expectedInterval="300">${samples}</MetricSeries>`;
    });
    const doc = `<HistoricUsage xmlns="http://www.vmware.com/vcloud/v1.5">${series.join('\n')}</HistoricUsage>`;
    const started = cpuNow();
    const tree = parseXml(doc) as XmlElement;
    const ms = cpuNow() - started;
    expect(tree.children).toHaveLength(18);
    expect(tree.children[17].children).toHaveLength(288);
    expect(ms).toBeLessThan(200); // generous: a guard against accidental quadratic work, not a benchmark
  });

  const attrValue = fc.stringMatching(/^[a-zA-Z0-9 .:_<>&"'-]{0,12}$/);
  const escape = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const element: fc.Memo<string> = fc.memo((depth) =>
    fc
      .tuple(
        fc.constantFrom('Metric', 'Sample', 'v:Metric', 'Link', 'MetricSeries'),
        fc.uniqueArray(fc.constantFrom('name', 'unit', 'value', 'timestamp', 'x:href'), { maxLength: 4 }),
        fc.array(attrValue, { minLength: 4, maxLength: 4 }),
        depth > 1 ? fc.array(element(depth - 1), { maxLength: 3 }) : fc.constant([] as string[]),
        fc.constantFrom(' ', '\n  ', ''),
      )
      .map(([tag, names, values, kids, ws]) => {
        const attrs = names.map((n, k) => ` ${n}="${escape(values[k])}"`).join('');
        return kids.length === 0 ? `<${tag}${attrs}/>` : `<${tag}${attrs}>${ws}${kids.join(ws)}${ws}</${tag}>`;
      }),
  );

  it('agrees with xml2js on generated documents', () => {
    fc.assert(
      fc.property(fc.array(element(3), { maxLength: 4 }), (kids) => {
        const doc = `<?xml version="1.0"?><HistoricUsage xmlns="http://www.vmware.com/vcloud/v1.5" xmlns:v="http://www.vmware.com/vcloud/v1.5" xmlns:x="urn:x">${kids.join('')}</HistoricUsage>`;
        expect(parseXml(doc)).toEqual(reference(doc));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const r = parseXml(`<a ${text}`);
        expect(typeof r).toBe('object');
        parseXml(text);
      }),
      { numRuns: 2000 },
    );
  });
});

// A hostile or broken server must not make parsing cost more than the body's size allows,
// nor outlast -t.
describe('parseXml stays bounded', () => {
  const attrs = (n: number, name = (i: number) => `a${i}`) => Array.from({ length: n }, (_, i) => ` ${name(i)}="v"`).join('');

  it('refuses an element with 200,000 attributes at once', () => {
    const started = cpuNow();
    expect(parseXml(`<CurrentUsage${attrs(200_000)}/>`)).toEqual({ error: `more than ${MAX_ATTRIBUTES} attributes in <CurrentUsage> at line 1` });
    expect(cpuNow() - started).toBeLessThan(1000);
  });

  it('finds a duplicate among many attributes in linear time, and takes as many distinct ones as allowed', () => {
    expect(parseXml(`<a${attrs(MAX_ATTRIBUTES - 1)} a7="again"/>`)).toEqual({ error: 'duplicate attribute a7 at line 1' });
    expect(parseXml(`<a${attrs(10)} a9="x"/>`)).toEqual({ error: 'duplicate attribute a9 at line 1' });
    const ok = parseXml(`<a${attrs(MAX_ATTRIBUTES)}/>`) as XmlElement;
    expect(Object.keys(ok.attributes)).toHaveLength(MAX_ATTRIBUTES);
  });

  it('refuses 66 MB of <a/> quickly, without building millions of elements', () => {
    const body = `<CurrentUsage xmlns="http://www.vmware.com/vcloud/v1.5">${'<a/>'.repeat(16_500_000)}</CurrentUsage>`;
    const before = process.memoryUsage().heapUsed;
    const started = cpuNow();
    expect(parseXml(body)).toEqual({ error: `more than ${MAX_ELEMENTS} elements at line 1` });
    expect(cpuNow() - started).toBeLessThan(3000);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(400 * 1024 * 1024);
  });

  it('gives up when the run’s deadline has passed (-t wins over a long parse)', () => {
    setRunDeadline(Date.now() - 1);
    try {
      expect(() => parseXml(`<r>${'<a/>'.repeat(5000)}</r>`)).toThrow(DeadlineError);
      expect(parseXml(`<r>${'<a/>'.repeat(100)}</r>`)).toHaveProperty('children');
    } finally {
      setRunDeadline(Number.POSITIVE_INFINITY);
    }
  });

  it('keeps character data only when asked, within its bound; attribute values within theirs', () => {
    const doc = '<r>\n  <v> 34.0 </v>\n  <w>a &amp; <!-- c --><![CDATA[<b>]]></w>\n</r>';
    expect((parseXml(doc) as XmlElement).children[0].text).toBeUndefined();
    const kept = parseXml(doc, { maxTextChars: 10 }) as XmlElement;
    expect(kept.text).toBeUndefined(); // indentation between elements is no text
    expect(kept.children.map((c) => c.text)).toEqual([' 34.0 ', 'a & <b>']);
    expect(parseXml(`<r><v>${'x'.repeat(11)}</v></r>`, { maxTextChars: 10 })).toEqual({ error: 'more than 10 characters of text in <v> at line 1' });
    expect(parseXml(`<r><v>${'x'.repeat(6)}<!---->${'x'.repeat(6)}</v></r>`, { maxTextChars: 10 })).toEqual({
      error: 'more than 10 characters of text in <v> at line 1',
    });
    expect(parseXml('<r><v>&lol;</v></r>', { maxTextChars: 10 })).toEqual({ error: 'unknown entity in text at line 1' });
    expect(parseXml(`<r a="${'x'.repeat(11)}"/>`, { maxAttributeChars: 10 })).toEqual({
      error: 'attribute a of <r> is 11 characters long, more than 10 at line 1',
    });
    expect(parseXml(`<r a="${'x'.repeat(10)}"/>`, { maxAttributeChars: 10 })).toHaveProperty('attributes.a', 'x'.repeat(10));
  });

  it('counts the line of an error without splitting the body', () => {
    expect(parseXml('<a>\n\n<b></a>')).toEqual({ error: 'closing tag </a> does not match <b> at line 3' });
  });
});

/** A document read by XmlChildReader in pieces of `size` bytes: the tree parseXml gives, or its error. */
function inPieces(text: string, size: number, maxMarkupChars = 1 << 20): XmlElement | { error: string } {
  const children: XmlElement[] = [];
  const reader = new XmlChildReader({ maxMarkupChars }, (child) => children.push(child));
  const body = Buffer.from(text, 'utf8');
  try {
    for (let at = 0; at < body.length; at += size) reader.write(body.subarray(at, at + size));
    const root = reader.end();
    return { ...root, children };
  } catch (error) {
    if (error instanceof XmlSyntaxError) return { error: error.message };
    throw error;
  }
}

// A page of 100,000 records is read as it arrives: the same tree and the same errors as the
// whole body gives, however the body is cut (within a character, a tag, an entity, a comment).
describe('XmlChildReader', () => {
  const files = readdirSync(fixtures).filter((f) => f.endsWith('.xml'));
  it.each(files)('reads %s in pieces as parseXml reads it whole', (file) => {
    const text = readFileSync(join(fixtures, file), 'utf8');
    for (const size of [1, 7, 100, 16384]) expect(inPieces(text, size), `${size}`).toEqual(parseXml(text));
  });

  it('agrees with parseXml on generated and broken documents cut anywhere', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120, unit: 'binary' }), fc.integer({ min: 1, max: 40 }), (inner, size) => {
        for (const text of [`<?xml version="1.0"?>\n<r xmlns:x="urn:x"><!-- < -->${inner}<a x:b="&amp;é"/><![CDATA[<]]></r>`, inner])
          expect(inPieces(text, size)).toEqual(parseXml(text));
      }),
      { numRuns: 500 },
    );
  });

  it('hands each child of the root over when it ends, keeping none', () => {
    const seen: string[] = [];
    const reader = new XmlChildReader({ maxMarkupChars: 100 }, (child, root) => seen.push(`${root.local}/${child.local}:${child.children.length}`));
    reader.write(Buffer.from('<Page total="2"><Rec a="1"/><Rec><Link/></Re'));
    expect(seen).toEqual(['Page/Rec:0']);
    reader.write(Buffer.from('c></Page>'));
    expect(seen).toEqual(['Page/Rec:0', 'Page/Rec:1']);
    expect(reader.end()).toEqual({ local: 'Page', uri: '', attributes: { total: '2' }, children: [] });
  });

  it('holds at most maxMarkupChars of a markup under way, and names the line in the whole body', () => {
    const reader = new XmlChildReader({ maxMarkupChars: 1000 }, () => undefined);
    reader.write(Buffer.from('<r>\n<a/>\n'));
    expect(() => {
      for (let n = 0; n < 100; n++) reader.write(Buffer.from(` b${n}="${'x'.repeat(20)}"`.replace(/^/, n === 0 ? '<c' : '')));
    }).toThrow(/^more than 1000 characters without the end of a markup at line 3$/);
    expect(inPieces('<r>\n<a/>\n\n<b></a>', 3)).toEqual({ error: 'closing tag </a> does not match <b> at line 4' });
    // A start tag of 200,000 attributes: refused for its attributes, as parseXml refuses it.
    const many = `<r${Array.from({ length: 200_000 }, (_, i) => ` a${i}="1"`).join('')}/>`;
    expect(inPieces(many, 16384, 100_000)).toEqual({ error: `more than ${MAX_ATTRIBUTES} attributes in <r> at line 1` });
  });
});

import type { Parser } from 'xml2js';

/** An XML element reduced to what the vCD documents use: its name, namespace, attributes, children. */
export interface XmlElement {
  local: string;
  uri: string;
  attributes: Record<string, string>;
  children: XmlElement[];
}

/** The vCD v1.5 namespace of CurrentUsage, HistoricUsage, Error (seed 2.5, 9.4). */
export const VCLOUD_NS = 'http://www.vmware.com/vcloud/v1.5';

interface RawAttribute {
  value: string;
  local: string;
  uri: string;
}
interface RawElement {
  $?: Record<string, RawAttribute>;
  $ns?: { local: string; uri: string };
  [child: string]: unknown;
}

let ParserClass: typeof Parser | undefined;

/**
 * Parses an XML document into a namespace-aware tree, or returns the parser's complaint.
 * The parser is loaded on first use only: plugins that never parse XML do not pay for it.
 */
export function parseXml(text: string): XmlElement | { error: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ParserClass ??= (require('xml2js/lib/parser') as { Parser: typeof Parser }).Parser;
  const parser = new ParserClass({ xmlns: true, explicitArray: true, explicitRoot: true, async: false, strict: true });
  let outcome: XmlElement | { error: string } = { error: 'empty document' };
  let done = false;
  // With async: false the callback runs before parseString returns; xml2js may call it twice on error.
  parser.parseString(text, (error: Error | null, result: Record<string, RawElement> | null) => {
    if (done) return;
    done = true;
    if (error) outcome = { error: error.message.split('\n')[0] };
    else if (result && typeof result === 'object') {
      const [root] = Object.values(result);
      outcome = root && typeof root === 'object' ? toElement(root) : { error: 'no root element' };
    }
  });
  return outcome;
}

function toElement(raw: RawElement): XmlElement {
  const attributes: Record<string, string> = {};
  for (const a of Object.values(raw.$ ?? {})) if (a.uri !== 'http://www.w3.org/2000/xmlns/') attributes[a.local] = a.value;
  const children: XmlElement[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$' || key === '$ns' || key === '_' || !Array.isArray(value)) continue;
    for (const child of value) if (child && typeof child === 'object') children.push(toElement(child as RawElement));
  }
  return { local: raw.$ns?.local ?? '', uri: raw.$ns?.uri ?? '', attributes, children };
}

// vCD's error bodies: the XML `Error` document of /api and the JSON error of /cloudapi, read
// into one shape and said in one phrase wherever an answer is refused.
import { countJsonContainers } from '../../plugin/json-bounds';
import { boundedExcerpt } from '../../plugin/server-text';
import { parseXml, type XmlElement } from './xml';

/** A vCD `Error` document. */
export interface VcdError {
  majorErrorCode?: string;
  minorErrorCode?: string;
  message?: string;
}

/** The fields of an `Error` element. */
export function errorFromElement(el: XmlElement): VcdError {
  return { majorErrorCode: el.attributes.majorErrorCode, minorErrorCode: el.attributes.minorErrorCode, message: el.attributes.message };
}

/** Objects and arrays in a /cloudapi error body: a handful. */
const MAX_ERROR_CONTAINERS = 1000;

/**
 * Reads a vCD error body: the XML `Error` document of /api, or the JSON error of /cloudapi.
 * Returns undefined when the body is neither.
 */
export function parseVcdError(text: string): VcdError | undefined {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    // An error of /cloudapi is a flat object: a body of thousands of objects and arrays is not
    // one, and JSON.parse would build them all (it cannot be interrupted).
    if (countJsonContainers(Buffer.from(trimmed), MAX_ERROR_CONTAINERS) > MAX_ERROR_CONTAINERS) return undefined;
    try {
      const json = JSON.parse(trimmed) as Record<string, unknown>;
      const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
      if (json.message !== undefined || json.minorErrorCode !== undefined) {
        return { majorErrorCode: str(json.majorErrorCode), minorErrorCode: str(json.minorErrorCode), message: str(json.message) };
      }
      if (json.error !== undefined) return { minorErrorCode: str(json.error), message: str(json.error_description) };
    } catch {
      return undefined;
    }
    return undefined;
  }
  if (!trimmed.startsWith('<')) return undefined;
  const root = parseXml(text);
  if ('error' in root || root.local !== 'Error') return undefined;
  return errorFromElement(root);
}

/** The error in one phrase: `message (minorErrorCode)`. */
export function describeVcdError(e: VcdError): string {
  const raw = e.minorErrorCode ?? e.majorErrorCode;
  const code = raw === undefined ? undefined : boundedExcerpt(raw, 80);
  // vCD starts messages with a request id, `[ 5f0e... ] `: noise on a plugin line. The rest
  // is server text: an excerpt of it, so that a flood of it never becomes the status line.
  const message = e.message === undefined ? undefined : boundedExcerpt(e.message.replace(/^\[\s*[\w-]+\s*\]\s*/, ''));
  if (message && code) return `${message} (${code})`;
  return message || code || 'no details';
}

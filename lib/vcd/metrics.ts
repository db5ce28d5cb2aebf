import { CheckError } from '../plugin/errors';
import { boundedExcerpt } from '../plugin/server-text';
import { parseXml, VCLOUD_NS, type XmlElement } from './xml';

/** The metric names of seed 2.7; anything else the server sends (per-disk, extra) is ignored. */
export const METRIC_NAMES = [
  'cpu.usage.average',
  'cpu.usage.maximum',
  'cpu.usagemhz.average',
  'mem.usage.average',
  'disk.write.average',
  'disk.read.average',
  'disk.provisioned.latest',
  'disk.used.latest',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

const KNOWN = new Set<string>(METRIC_NAMES);

/** One current value (`Metric` of CurrentUsage). */
export interface Metric {
  name: MetricName;
  unit: string;
  value: number;
}

/** One historic value (`Sample` of a MetricSeries); `time` is milliseconds since the epoch. */
export interface Sample {
  time: number;
  value: number;
}

/** One `MetricSeries` of HistoricUsage, samples sorted oldest first. */
export interface MetricSeries {
  name: MetricName;
  unit: string;
  /** Seconds between samples, as the server announces it. */
  expectedInterval: number;
  samples: Sample[];
}

export type CurrentUsage = Map<MetricName, Metric>;
export type HistoricUsage = Map<MetricName, MetricSeries>;

/** A vCD `Error` document. */
export interface VcdError {
  majorErrorCode?: string;
  minorErrorCode?: string;
  message?: string;
}

function parseRoot(text: string, expected: string, what: string): XmlElement {
  const root = parseXml(text);
  if ('error' in root) {
    const start = JSON.stringify(text.trimStart().slice(0, 40));
    throw new CheckError(`${what} is not XML (${root.error}; body starts ${start}); check --url points at the vCD API`);
  }
  if (root.local === 'Error' && root.uri === VCLOUD_NS) {
    throw new CheckError(`${what}: the server answered with an error: ${describeVcdError(errorFromElement(root))}`);
  }
  if (root.local !== expected || root.uri !== VCLOUD_NS) {
    const found = root.uri ? `{${root.uri}}${root.local}` : root.local;
    throw new CheckError(`${what} is not a vCD ${expected} document (root element ${found}, expected ${expected} in ${VCLOUD_NS})`);
  }
  return root;
}

function decimal(text: string | undefined, where: string): number {
  // vCD writes plain decimals; anything else (empty, NaN, a unit suffix) is a broken document.
  if (text === undefined || !/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(text)) {
    throw new CheckError(`${where} has no valid decimal value (${JSON.stringify(text ?? null)})`);
  }
  const value = Number(text);
  // `1e400` or 400 digits are decimals in form but not numbers a check can compare.
  if (!Number.isFinite(value)) throw new CheckError(`${where} has a value beyond any real measurement (${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)})`);
  return value;
}

function vcloudChildren(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => c.local === local && c.uri === VCLOUD_NS);
}

/** Parses a `CurrentUsage` document into its known metrics (seed 2.5). Throws a CheckError if it is not one. */
export function parseCurrentUsage(text: string, what = 'current metrics response'): CurrentUsage {
  const root = parseRoot(text, 'CurrentUsage', what);
  const out: CurrentUsage = new Map();
  for (const m of vcloudChildren(root, 'Metric')) {
    const name = m.attributes.name;
    if (!KNOWN.has(name)) continue;
    out.set(name as MetricName, { name: name as MetricName, unit: m.attributes.unit ?? '', value: decimal(m.attributes.value, `metric ${name}`) });
  }
  return out;
}

/**
 * Parses a `HistoricUsage` document into its known series (seed 2.6); series may come in any
 * order. With `wanted`, the samples of other series are not read (a check needs three or four
 * of the eight, and a day of samples of each).
 */
export function parseHistoricUsage(text: string, what = 'historic metrics response', wanted?: ReadonlySet<string>): HistoricUsage {
  const root = parseRoot(text, 'HistoricUsage', what);
  const out: HistoricUsage = new Map();
  for (const s of vcloudChildren(root, 'MetricSeries')) {
    const name = s.attributes.name;
    if (!KNOWN.has(name) || (wanted && !wanted.has(name))) continue;
    const interval = Number(s.attributes.expectedInterval);
    const samples: Sample[] = [];
    for (const sample of vcloudChildren(s, 'Sample')) {
      const time = Date.parse(sample.attributes.timestamp ?? '');
      if (Number.isNaN(time)) throw new CheckError(`series ${name} has a sample with an invalid timestamp ${JSON.stringify(sample.attributes.timestamp ?? null)}`);
      samples.push({ time, value: decimal(sample.attributes.value, `a sample of ${name}`) });
    }
    // The seed promises chronological order; sorting costs little and guards against proxies that merge pages.
    samples.sort((a, b) => a.time - b.time);
    out.set(name as MetricName, {
      name: name as MetricName,
      unit: s.attributes.unit ?? '',
      expectedInterval: Number.isFinite(interval) && interval > 0 ? interval : 300,
      samples,
    });
  }
  return out;
}

function errorFromElement(el: XmlElement): VcdError {
  return { majorErrorCode: el.attributes.majorErrorCode, minorErrorCode: el.attributes.minorErrorCode, message: el.attributes.message };
}

/**
 * Reads a vCD error body: the XML `Error` document of /api, or the JSON error of /cloudapi.
 * Returns undefined when the body is neither.
 */
export function parseVcdError(text: string): VcdError | undefined {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
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
  const code = e.minorErrorCode ?? e.majorErrorCode;
  // vCD starts messages with a request id, `[ 5f0e... ] `: noise on a plugin line. The rest
  // is server text: an excerpt of it, so that a flood of it never becomes the status line.
  const message = e.message === undefined ? undefined : boundedExcerpt(e.message.replace(/^\[\s*[\w-]+\s*\]\s*/, ''));
  if (message && code) return `${message} (${code})`;
  return message || code || 'no details';
}

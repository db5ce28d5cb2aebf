import { CheckError } from '../../plugin/errors';
import { boundedExcerpt } from '../../plugin/server-text';
import { describeVcdError, errorFromElement } from '../api/vcd-error';
import { parseXml, VCLOUD_NS, type XmlElement } from '../api/xml';

/** The whole-VM metric names the checks read; anything else the server sends (extra names) is ignored. */
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

/**
 * Per-disk names (`disk.used.latest.0`, `disk.read.average.2001`): some tenants' servers send
 * only these, without the whole-VM names, so they are read and summed when the whole is missing.
 */
const PER_DISK = /^(disk\.(?:used|provisioned)\.latest|disk\.(?:read|write)\.average)\.(\d{1,6})$/;

/** Values no VM produces (a KILOBYTE count beyond an exabyte, a MHz beyond any host). */
const IMPLAUSIBLE = 1e15;

/** The metric a name stands for: its whole-VM name (METRIC_NAMES), and the disk it is of (per-disk names). */
export function classifyMetricName(name: string): { base: MetricName; disk?: string } | undefined {
  if (KNOWN.has(name)) return { base: name as MetricName };
  const m = PER_DISK.exec(name);
  return m ? { base: m[1] as MetricName, disk: m[2] } : undefined;
}

/** One current value (`Metric` of CurrentUsage). */
export interface Metric {
  /** The name as sent: `disk.used.latest`, or per disk `disk.used.latest.0`. */
  name: string;
  base: MetricName;
  /** The disk's number for a per-disk name. */
  disk?: string;
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
  name: string;
  base: MetricName;
  disk?: string;
  unit: string;
  /**
   * The interval between samples as the server announces it: seconds by the schema reference,
   * milliseconds by the programming guide (see seriesInterval); undefined when absent.
   */
  expectedInterval?: number;
  samples: Sample[];
}

export type CurrentUsage = Map<string, Metric>;
export type HistoricUsage = Map<string, MetricSeries>;

/**
 * The last document parsed, and its tree: the three VM checks' judgements of one fleet VM read
 * the same document, each with its own selection of metrics and its own errors, and parse it
 * once. One entry: nothing but the latest document is kept.
 */
let lastParsed: { text: string; root: ReturnType<typeof parseXml> } | undefined;

function parseRoot(text: string, expected: string, what: string): XmlElement {
  if (lastParsed?.text !== text) lastParsed = { text, root: parseXml(text) };
  const root = lastParsed.root;
  if ('error' in root) {
    const start = JSON.stringify(boundedExcerpt(text.trimStart(), 40));
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

function decimal(text: string | undefined, where: string, unit = ''): number {
  // vCD writes plain decimals; anything else (empty, NaN, a unit suffix) is a broken document.
  if (text === undefined || !/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(text)) {
    throw new CheckError(`${where} has no valid decimal value (${JSON.stringify(text ?? null)})`);
  }
  const value = Number(text);
  // `1e308` or 400 digits are decimals in form but not measurements a check can compare or print.
  if (!Number.isFinite(value) || Math.abs(value) >= IMPLAUSIBLE) {
    throw new CheckError(
      `${where} has a value beyond any real measurement (${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}): the server's metrics are broken`,
    );
  }
  // A percentage outside 0-100 is a broken collector, not a load: judging it (or clamping it
  // to 100) would page or reassure on a number that means nothing.
  if (unit.toUpperCase() === 'PERCENT' && (value < 0 || value > 100)) {
    throw new CheckError(`${where} is ${text.trim()}%, outside 0-100: the server's metrics are broken (ask the vCD provider)`);
  }
  return value;
}

function vcloudChildren(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => c.local === local && c.uri === VCLOUD_NS);
}

/**
 * Parses a `CurrentUsage` document into its known metrics, whole-VM and per disk.
 * With `wanted` (names of METRIC_NAMES), other metrics are not read. Throws a CheckError if it is not one,
 * and for a metric sent twice: which of two values is right cannot be known.
 */
export function parseCurrentUsage(text: string, what = 'current metrics response', wanted?: ReadonlySet<string>): CurrentUsage {
  const root = parseRoot(text, 'CurrentUsage', what);
  const out: CurrentUsage = new Map();
  for (const m of vcloudChildren(root, 'Metric')) {
    const name = m.attributes.name;
    const kind = classifyMetricName(name);
    if (!kind || (wanted && !wanted.has(kind.base))) continue;
    const unit = m.attributes.unit ?? '';
    const value = decimal(m.attributes.value, `metric ${name}`, unit);
    const before = out.get(name);
    if (before) throw new CheckError(`the ${what} has metric ${name} twice (${before.value} and ${value}): cannot tell which is right`);
    out.set(name, { name, ...kind, unit, value });
  }
  return out;
}

/**
 * Parses a `HistoricUsage` document into its known series; series may come in any
 * order. With `wanted` (names of METRIC_NAMES), the samples of other series are not read (a check needs
 * three or four of the eight, and a day of samples of each). A series sent twice is refused.
 */
export function parseHistoricUsage(text: string, what = 'historic metrics response', wanted?: ReadonlySet<string>): HistoricUsage {
  const root = parseRoot(text, 'HistoricUsage', what);
  const out: HistoricUsage = new Map();
  for (const s of vcloudChildren(root, 'MetricSeries')) {
    const name = s.attributes.name;
    const kind = classifyMetricName(name);
    if (!kind || (wanted && !wanted.has(kind.base))) continue;
    if (out.has(name)) throw new CheckError(`the ${what} has series ${name} twice: cannot tell which is right`);
    const unit = s.attributes.unit ?? '';
    const interval = Number(s.attributes.expectedInterval);
    const samples: Sample[] = [];
    for (const sample of vcloudChildren(s, 'Sample')) {
      const time = Date.parse(sample.attributes.timestamp ?? '');
      if (Number.isNaN(time))
        throw new CheckError(`series ${name} has a sample with an invalid timestamp ${JSON.stringify(sample.attributes.timestamp ?? null)}`);
      samples.push({ time, value: decimal(sample.attributes.value, `a sample of ${name} (${sample.attributes.timestamp})`, unit) });
    }
    // vCD sends samples in chronological order; sorting costs little and guards against proxies that merge pages.
    samples.sort((a, b) => a.time - b.time);
    out.set(name, {
      name,
      ...kind,
      unit,
      expectedInterval: s.attributes.expectedInterval !== undefined && Number.isFinite(interval) && interval > 0 ? interval : undefined,
      samples,
    });
  }
  return out;
}

// A provider VDC's reservations, which no query record carries: the ComputeCapacity of its
// VMWProviderVdc document (GET /api/admin/extension/providervdc/<id>), whose Cpu and Memory
// (ProviderVdcCapacityType) say Units, Allocation, Reserved, Total, Used and Overhead. Read only
// for --basis reserved: one request per provider VDC, and where the document gives no Reserved,
// one more to the CloudAPI provider VDC metrics, which carry them too.
import { CheckError } from '../../plugin/errors';
import { countJsonContainers } from '../../plugin/json-bounds';
import { parseXml, type XmlElement } from '../api/xml';
import type { Figure } from './pvdc-query';

/** Reserved against Total, in MHz or MB. */
export interface Reservation {
  total: Figure;
  reserved: Figure;
}

/** What --basis reserved reads of one provider VDC. */
export interface ProviderVdcReservations {
  cpu: Reservation;
  memory: Reservation;
  /** Figures the document gave in a form that could not be read: said, and unknown. */
  odd: string[];
}

/** MHz and MB per unit the document may name. */
const SCALE: Record<string, number> = { mhz: 1, ghz: 1000, mb: 1, gb: 1024, tb: 1024 * 1024 };
/** A description is the longest text of the document; a longer text is no provider VDC. */
const MAX_TEXT_CHARS = 65_536;

function child(element: XmlElement | undefined, local: string): XmlElement | undefined {
  return element?.children.find((c) => c.local === local);
}

function capacityOf(element: XmlElement | undefined, what: string, odd: string[]): Reservation {
  if (element === undefined) {
    odd.push(`no ${what}`);
    return { total: undefined, reserved: undefined };
  }
  const units = child(element, 'Units')?.text?.trim().toLowerCase().slice(0, 20) ?? (what === 'Cpu' ? 'mhz' : 'mb');
  const scale = SCALE[units];
  if (scale === undefined) {
    odd.push(`${what} in units ${JSON.stringify(units)}`);
    return { total: undefined, reserved: undefined };
  }
  const value = (local: string): Figure => {
    const text = child(element, local)?.text?.trim();
    if (text === undefined) return undefined;
    if (/^\d{1,15}$/.test(text)) return Number(text) * scale;
    odd.push(`${what} ${local} ${JSON.stringify(text.slice(0, 40))}`);
    return undefined;
  };
  return { total: value('Total'), reserved: value('Reserved') };
}

/** Reads a VMWProviderVdc (or ProviderVdc) document's ComputeCapacity. */
export function parseProviderVdcReservations(body: string, what: string): ProviderVdcReservations {
  const root = parseXml(body, { maxTextChars: MAX_TEXT_CHARS, maxAttributeChars: 8192 });
  if ('error' in root) throw new CheckError(`unexpected ${what}: not XML (${root.error})`);
  if (root.local !== 'VMWProviderVdc' && root.local !== 'ProviderVdc')
    throw new CheckError(`unexpected ${what}: root element <${root.local}>, expected <VMWProviderVdc>`);
  const odd: string[] = [];
  const compute = child(root, 'ComputeCapacity');
  return { cpu: capacityOf(child(compute, 'Cpu'), 'Cpu', odd), memory: capacityOf(child(compute, 'Memory'), 'Memory', odd), odd };
}

/** The path of a provider VDC's extension document. */
export function providerVdcDocumentPath(id: string): string {
  return `/api/admin/extension/providervdc/${id}`;
}

/** A metrics answer has one object of a few numbers: more containers than this is no metrics answer. */
const MAX_METRICS_CONTAINERS = 64;
/** The metrics answer is some hundred bytes; a larger body is no metrics answer. */
const MAX_METRICS_BYTES = 65_536;

/**
 * A figure of the metrics answer: a whole number of MHz or MB, or undefined when absent or null
 * (null is the API's "unlimited", which has no percent).
 */
function metric(doc: Record<string, unknown>, key: string, odd: string[]): Figure {
  const value = doc[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  odd.push(`${key} ${JSON.stringify(String(value).slice(0, 40))}`);
  return undefined;
}

/**
 * Reads the CloudAPI provider VDC metrics (ProviderVdcMetrics, GET
 * /cloudapi/1.0.0/providerVdcs/{urn}/metrics), which renamed their reservations: up to 38.1
 * `cpuReservedMHz`/`memoryReservedMB` against `totalCpuMHz`/`totalMemoryMB`; from 39.1
 * `cpuReservationCommittedMHz`/`memoryReservationCommittedMB` (the reservations given to the
 * VDCs) against the reservation capacity `totalCpuReservationMHz`/`totalMemoryReservationMB`,
 * or the total where that is not sent.
 */
export function parseProviderVdcMetrics(body: Buffer, what: string): ProviderVdcReservations {
  if (body.length > MAX_METRICS_BYTES || countJsonContainers(body, MAX_METRICS_CONTAINERS) > MAX_METRICS_CONTAINERS)
    throw new CheckError(`unexpected ${what}: far larger than provider VDC metrics`);
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    throw new CheckError(`unexpected ${what}: not JSON`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new CheckError(`unexpected ${what}: not a JSON object of metrics`);
  const m = doc as Record<string, unknown>;
  const odd: string[] = [];
  const one = (unit: 'Cpu' | 'Memory'): Reservation => {
    const [old, committed, total, reservable] =
      unit === 'Cpu'
        ? ['cpuReservedMHz', 'cpuReservationCommittedMHz', 'totalCpuMHz', 'totalCpuReservationMHz']
        : ['memoryReservedMB', 'memoryReservationCommittedMB', 'totalMemoryMB', 'totalMemoryReservationMB'];
    if (committed in m) return { reserved: metric(m, committed, odd), total: metric(m, reservable, odd) ?? metric(m, total, odd) };
    return { reserved: metric(m, old, odd), total: metric(m, total, odd) };
  };
  return { cpu: one('Cpu'), memory: one('Memory'), odd };
}

/** The path of a provider VDC's CloudAPI metrics. */
export function providerVdcMetricsPath(id: string): string {
  return `/cloudapi/1.0.0/providerVdcs/urn:vcloud:providervdc:${id}/metrics`;
}

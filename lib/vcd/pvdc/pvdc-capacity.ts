// A provider VDC's reservations, which no query record carries: the ComputeCapacity of its
// VMWProviderVdc document (GET /api/admin/extension/providervdc/<id>), whose Cpu and Memory
// (ProviderVdcCapacityType) say Units, Allocation, Reserved, Total, Used and Overhead. Read only
// for --basis reserved: one request per provider VDC.
import { CheckError } from '../../plugin/errors';
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

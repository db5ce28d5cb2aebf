// A VM's SnapshotSection (GET /api/vApp/vm-<id>/snapshotSection, or inside the Vm document):
// vCD API reference, SnapshotSectionType and SnapshotType (since 5.1): one Snapshot element per
// snapshot, each with `created` (xs:dateTime), `size` (xs:long, bytes) and `poweredOn`.
import { CheckError } from '../../plugin/errors';
import { describeVcdError, parseVcdError } from '../api/vcd-error';
import { parseXml, VCLOUD_NS, type XmlElement } from '../api/xml';
import { parseDateTime } from '../api/vcd-time';

/** One snapshot as the section lists it. */
export interface Snapshot {
  /** ms since the epoch. */
  created: number;
  /** Bytes; undefined when the server left it out. */
  size?: number;
}

/** The elements a section may come in: its own document, or the VM's or vApp's. */
const HOLDERS = new Set(['Vm', 'VApp']);

/** The first child of `element` named `local` in the vCD namespace. */
export function vcloudChild(element: XmlElement, local: string): XmlElement | undefined {
  return element.children.find((c) => c.local === local && c.uri === VCLOUD_NS);
}

/** The section `local` of a document that is that section, or a Vm/VApp holding it; a CheckError for anything else. */
export function sectionOf(text: string, local: string, what: string, limits = {}): XmlElement {
  const root = parseXml(text, limits);
  if ('error' in root) throw new CheckError(`${what} is not XML (${root.error})`);
  if (root.local === 'Error') throw new CheckError(`${what}: the server answered with an error: ${describeVcdError(parseVcdError(text) ?? {})}`);
  if (root.uri === VCLOUD_NS && root.local === local) return root;
  const inside = root.uri === VCLOUD_NS && HOLDERS.has(root.local) ? vcloudChild(root, local) : undefined;
  if (inside) return inside;
  throw new CheckError(`${what} is not a vCD ${local} (root element ${root.uri ? `{${root.uri}}` : ''}${root.local})`);
}

/** The snapshots of a SnapshotSection; a snapshot without a readable date or with a size that is no size is a CheckError naming it. */
export function parseSnapshotSection(text: string, what = 'the snapshot section'): Snapshot[] {
  const section = sectionOf(text, 'SnapshotSection', what);
  const snapshots: Snapshot[] = [];
  for (const element of section.children) {
    if (element.local !== 'Snapshot' || element.uri !== VCLOUD_NS) continue;
    const { created: createdText, size: sizeText } = element.attributes;
    const created = createdText === undefined ? undefined : parseDateTime(createdText);
    const n = snapshots.length + 1;
    if (created === undefined)
      throw new CheckError(
        `${what}: snapshot ${n} has ${createdText === undefined ? 'no creation date' : `a creation date that does not parse (${JSON.stringify(createdText.slice(0, 64))})`}`,
      );
    const snapshot: Snapshot = { created };
    if (sizeText !== undefined) {
      if (!/^-?\d{1,19}$/.test(sizeText.trim()))
        throw new CheckError(`${what}: snapshot ${n} has a size that is no number of bytes (${JSON.stringify(sizeText.slice(0, 64))})`);
      const size = Number(sizeText);
      if (size < 0) throw new CheckError(`${what}: snapshot ${n} has a negative size (${size} bytes): the server's answer cannot be judged`);
      snapshot.size = size;
    }
    snapshots.push(snapshot);
  }
  return snapshots;
}

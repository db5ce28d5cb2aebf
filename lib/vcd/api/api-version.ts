import { CheckError } from '../../plugin/errors';
import { describeResponse, vcdRequest, type VcdConnection } from './connection';
import { parseXml, type XmlElement } from './xml';

/** API 34.0 (vCD 10.1), whose metrics and query documents the parsers follow: used whenever the server offers it. */
export const PREFERRED_VERSION = '34.0';
/** Versions whose metrics and query documents are known to be those of 34.0. */
const KNOWN_LOW = 33;
const KNOWN_HIGH = 39;
/** A hostile server's list is cut here: real ones offer a dozen or two. */
const MAX_VERSIONS = 500;

/** One VersionInfo of `GET /api/versions`. */
export interface OfferedVersion {
  version: string;
  deprecated: boolean;
}

/** The version a check uses and why (for -v). */
export interface ChosenVersion {
  version: string;
  reason: string;
}

function numeric(v: string): [number, number] | undefined {
  const m = /^(\d{1,4})\.(\d{1,4})$/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const compare = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/** Longer texts and attribute values than any versions document has (URLs of schemas are the longest). */
const MAX_VALUE_CHARS = 4096;

/**
 * Reads a SupportedVersions document (vCD `/api/versions`): VersionInfo elements with a
 * `deprecated` attribute and a Version child. It is read before any login, from a server not
 * yet trusted: one pass of the XML scanner, values bounded, nothing scanned twice.
 */
export function parseSupportedVersions(text: string): OfferedVersion[] | { error: string } {
  const root = parseXml(text, { maxTextChars: MAX_VALUE_CHARS, maxAttributeChars: MAX_VALUE_CHARS });
  if ('error' in root) return { error: `not XML (${root.error})` };
  if (root.local !== 'SupportedVersions') return { error: `root element <${root.local}>, expected <SupportedVersions>` };
  const infos = root.children.filter((c: XmlElement) => c.local === 'VersionInfo').slice(0, MAX_VERSIONS);
  if (infos.length === 0) return { error: 'no VersionInfo element' };
  const offered: OfferedVersion[] = [];
  for (const info of infos) {
    const version = info.children.find((c) => c.local === 'Version')?.text?.trim();
    if (version !== undefined && version !== '' && version.length <= 64) offered.push({ version, deprecated: info.attributes.deprecated === 'true' });
  }
  if (offered.length !== infos.length) return { error: `${infos.length} VersionInfo elements but ${offered.length} Version values` };
  return offered;
}

/**
 * Picks the version: 34.0 when offered; else the highest offered within 33.0-39.x;
 * else, on a server that speaks only older versions, its highest (the metrics documents have
 * not changed since 5.6). Alpha versions (`38.0.0-alpha`) are never chosen.
 */
export function chooseApiVersion(offered: readonly OfferedVersion[]): ChosenVersion | { error: string } {
  const plain = offered.filter((o) => numeric(o.version)).sort((a, b) => compare(numeric(a.version)!, numeric(b.version)!));
  if (plain.some((o) => o.version === PREFERRED_VERSION)) return { version: PREFERRED_VERSION, reason: `${PREFERRED_VERSION} is offered by the server` };
  const known = plain.filter((o) => numeric(o.version)![0] >= KNOWN_LOW && numeric(o.version)![0] <= KNOWN_HIGH);
  if (known.length > 0) {
    const v = known[known.length - 1].version;
    return { version: v, reason: `${PREFERRED_VERSION} is not offered, ${v} is the highest offered of ${KNOWN_LOW}.0-${KNOWN_HIGH}.x` };
  }
  const older = plain.filter((o) => numeric(o.version)![0] < KNOWN_LOW);
  if (older.length > 0) {
    const v = older[older.length - 1].version;
    return { version: v, reason: `the server offers only versions older than ${KNOWN_LOW}.0, ${v} is the highest` };
  }
  return { error: `offers none of the versions cloudchecks knows (${KNOWN_LOW}.0-${KNOWN_HIGH}.x)` };
}

/** `33.0, 34.0, ... 38.1`: an offer for a message, deprecated ones marked. */
export function describeOffer(offered: readonly OfferedVersion[]): string {
  const list = offered.map((o) => `${o.version}${o.deprecated ? ' (deprecated)' : ''}`);
  return list.length > 20 ? `${list.slice(0, 20).join(', ')} … ${list.length - 20} more` : list.join(', ');
}

/** GET /api/versions (no login needed) and its VersionInfo list; failures are CheckErrors. */
export async function fetchOfferedVersions(conn: VcdConnection): Promise<OfferedVersion[]> {
  conn.setPhase(`asking ${conn.base.origin} for its API versions`);
  const res = await vcdRequest(conn, 'GET', '/api/versions', { accept: 'application/*+xml' });
  if (res.status < 200 || res.status >= 300) {
    throw new CheckError(`${conn.base.origin}/api/versions answered ${describeResponse(res)}, give the version with --api-version, or check --url`);
  }
  const offered = parseSupportedVersions(res.body.toString('utf8'));
  if ('error' in offered)
    throw new CheckError(`unexpected response from ${conn.base.origin}/api/versions: ${offered.error}, give the version with --api-version, or check --url`);
  return offered;
}

/** The UNKNOWN of a forced --api-version the server refused, listing what it offers. */
export async function refusedForcedVersion(conn: VcdConnection, detail: string): Promise<CheckError> {
  let offer: string;
  try {
    const offered = await fetchOfferedVersions(conn);
    const chosen = chooseApiVersion(offered);
    offer = `it offers ${describeOffer(offered)}${'version' in chosen ? `, leave --api-version out to use ${chosen.version}` : ''}`;
  } catch (error) {
    offer = `its list of versions could not be read (${(error as Error).message})`;
  }
  return new CheckError(`${conn.base.origin} does not accept --api-version ${conn.apiVersion} (${detail}): ${offer}`);
}

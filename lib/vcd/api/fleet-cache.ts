import type { CacheBinding, PrivateCache } from '../../plugin/private-cache';
import type { ChosenVersion } from './api-version';
import { isVmId } from './ids';

/** A VM name resolved through the query service, and when. */
export interface CachedName {
  id: string;
  name: string;
  vapp: string;
  /** Its organisation (names resolved by a provider account). */
  org?: string;
  time: number;
}

/** What is remembered beside the session: the negotiated version, resolved names, and a refusal of the metrics spec. */
export interface FleetRecord {
  apiVersion?: ChosenVersion & { time: number };
  names?: Record<string, CachedName>;
  /** The server refused the metrics spec (POST …/metrics/…): why, and when. */
  metricsSpec?: { refused: string; time: number };
}

/** Names kept per entry (the most recent): a fleet checked by name fits, a runaway does not grow. */
const MAX_NAMES = 2000;
/** An entry of MAX_NAMES names stays well below this. */
const MAX_ENTRY_BYTES = 1024 * 1024;

/** The key of a name in the entry: the vApp (empty: any) and the name, after --tenant-org when given. */
export function nameKey(name: string, vapp: string | undefined, tenantOrg?: string): string {
  const key = `${vapp ?? ''}\u0000${name}`;
  return tenantOrg === undefined ? key : `${tenantOrg.toLowerCase()}\u0000${key}`;
}

/**
 * The entry kept beside a session (`<stem>.fleet.json`) in the session's own private cache
 * (see SessionCache.fleet), with the same binding (url, user, org): the API version chosen
 * from /api/versions and the VM names resolved to ids. Like the session it never fails a
 * check: a problem is a note of that cache and the server is asked again.
 */
export class FleetCache {
  private readonly entry: string;
  private record: FleetRecord | undefined;

  constructor(
    private readonly cache: PrivateCache,
    private readonly key: { readonly stem: string; readonly binding: CacheBinding },
  ) {
    this.entry = `${key.stem}.fleet.json`;
  }

  /** The entry's file, for messages. */
  get file(): string {
    return this.cache.path(this.entry);
  }

  /** The stored entry (read once per run), or an empty one. */
  read(): FleetRecord {
    this.record ??= this.cache.read(this.entry, this.key.binding, acceptRecord, { maxEntryBytes: MAX_ENTRY_BYTES })?.value ?? {};
    return this.record;
  }

  /** Changes the entry and stores it (atomically; a failure is a note). */
  update(change: (record: FleetRecord) => void): void {
    const record = this.read();
    change(record);
    const names = Object.entries(record.names ?? {});
    if (names.length > MAX_NAMES) record.names = Object.fromEntries(names.sort((a, b) => b[1].time - a[1].time).slice(0, MAX_NAMES));
    this.cache.write(this.entry, this.key.binding, record, { maxEntryBytes: MAX_ENTRY_BYTES });
  }
}

/** Keeps only well-typed fields: a file edited by hand or by a bug cannot steer a check. */
function acceptRecord(data: unknown): FleetRecord | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as FleetRecord;
  const out: FleetRecord = {};
  const v = d.apiVersion;
  if (v && typeof v.version === 'string' && /^\d{1,4}\.\d{1,4}$/.test(v.version) && typeof v.reason === 'string' && typeof v.time === 'number') {
    out.apiVersion = { version: v.version, reason: v.reason.slice(0, 200), time: v.time };
  }
  const m = d.metricsSpec;
  if (m && typeof m.refused === 'string' && typeof m.time === 'number') out.metricsSpec = { refused: m.refused.slice(0, 200), time: m.time };
  if (d.names && typeof d.names === 'object') {
    out.names = {};
    for (const [k, n] of Object.entries(d.names)) {
      if (n && typeof n.id === 'string' && isVmId(n.id) && typeof n.name === 'string' && typeof n.vapp === 'string' && typeof n.time === 'number') {
        out.names[k] = { id: n.id, name: n.name, vapp: n.vapp, ...(typeof n.org === 'string' && n.org.length <= 256 ? { org: n.org } : {}), time: n.time };
      }
    }
  }
  return out;
}

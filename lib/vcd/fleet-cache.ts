import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { ChosenVersion } from './api-version';

/** A VM name resolved through the query service, and when. */
export interface CachedName {
  id: string;
  name: string;
  vapp: string;
  time: number;
}

/** What is remembered beside the session: the negotiated version and resolved names. */
export interface FleetRecord {
  /** The url, user and org this entry belongs to: an entry moved to another key is ignored. */
  owner: string;
  apiVersion?: ChosenVersion & { time: number };
  names?: Record<string, CachedName>;
}

/** A hostile or broken file is not read past this. */
const MAX_BYTES = 1024 * 1024;
/** Names kept per entry: the oldest are dropped beyond this. */
const MAX_NAMES = 2000;

/** The key of a name in the entry: the vApp (empty: any) and the name. */
export function nameKey(name: string, vapp: string | undefined): string {
  return `${vapp ?? ''}\u0000${name}`;
}

/**
 * The entry stored beside a session file (`<key>.fleet.json`, same directory, same rules: a
 * regular 0600 file of this user, never followed through a symlink, replaced atomically
 * under an unpredictable temporary name). Like the session cache, it never fails a check:
 * a problem means asking the server again.
 */
export class FleetCache {
  readonly file: string;
  readonly notes: string[] = [];
  private record: FleetRecord | undefined;

  constructor(
    readonly dir: string,
    key: string,
    /** `url user@org`: written into the entry and checked on read. */
    private readonly owner: string,
  ) {
    this.file = `${dir}/${key}.fleet.json`;
  }

  /** The stored entry (read once per run), or an empty one. */
  read(): FleetRecord {
    if (this.record) return this.record;
    this.record = this.load() ?? { owner: this.owner };
    return this.record;
  }

  /** Changes the entry and stores it; a failure to store is a note. */
  update(change: (record: FleetRecord) => void): void {
    const record = this.read();
    change(record);
    const names = Object.entries(record.names ?? {});
    if (names.length > MAX_NAMES) record.names = Object.fromEntries(names.sort((a, b) => b[1].time - a[1].time).slice(0, MAX_NAMES));
    const tmp = `${this.file}.${randomBytes(8).toString('hex')}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, JSON.stringify(record));
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch (error) {
      this.notes.push(`could not store ${this.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
    }
  }

  private load(): FleetRecord | undefined {
    let fd: number;
    try {
      fd = openSync(this.file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') this.notes.push(`ignoring ${this.file} (${code})`);
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || (typeof process.getuid === 'function' && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0 || st.size > MAX_BYTES) {
        this.notes.push(`ignoring ${this.file}: not a regular file of this user, writable by others, or too large`);
        return undefined;
      }
      const buffer = Buffer.alloc(st.size);
      let got = 0;
      while (got < st.size) {
        const n = readSync(fd, buffer, got, st.size - got, got);
        if (n === 0) break;
        got += n;
      }
      const data = JSON.parse(buffer.subarray(0, got).toString('utf8')) as FleetRecord;
      if (typeof data !== 'object' || data === null || data.owner !== this.owner) {
        this.notes.push(`ignoring ${this.file}: it belongs to another server or account`);
        return undefined;
      }
      return sanitise(data, this.owner);
    } catch {
      this.notes.push(`ignoring ${this.file}: corrupt`);
      return undefined;
    } finally {
      closeSync(fd);
    }
  }
}

/** Keeps only well-typed fields: a file edited by hand or by a bug cannot steer a check. */
function sanitise(data: FleetRecord, owner: string): FleetRecord {
  const out: FleetRecord = { owner };
  const v = data.apiVersion;
  if (v && typeof v.version === 'string' && /^\d{1,4}\.\d{1,4}$/.test(v.version) && typeof v.reason === 'string' && typeof v.time === 'number') {
    out.apiVersion = { version: v.version, reason: v.reason.slice(0, 200), time: v.time };
  }
  if (data.names && typeof data.names === 'object') {
    out.names = {};
    for (const [k, n] of Object.entries(data.names)) {
      if (n && typeof n.id === 'string' && /^vm-[0-9a-f-]{36}$/.test(n.id) && typeof n.name === 'string' && typeof n.vapp === 'string' && typeof n.time === 'number') {
        out.names[k] = { id: n.id, name: n.name, vapp: n.vapp, time: n.time };
      }
    }
  }
  return out;
}

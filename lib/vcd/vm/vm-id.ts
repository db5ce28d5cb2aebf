import { hasControlCharacters } from '../../plugin/control-characters';
import { UsageError } from '../../plugin/errors';
import { UUID } from '../api/ids';

const VM_ID = new RegExp(`^(?:vm-|urn:vcloud:vm:)?(${UUID})$`, 'i');
const PREFIXED = new RegExp(`^vm-(${UUID})$`, 'i');

/**
 * Normalises --vm to `vm-<guid>`: accepts `vm-<guid>`, the bare GUID, `urn:vcloud:vm:<guid>`
 * (what the CloudAPI and the API explorer show), or the URL of the VM's page in the web
 * console (its last path segment, e.g. .../vm/vm-<guid>/general also works).
 */
export function parseVmId(text: string): string {
  const id = vmIdOf(text);
  if (id) return id;
  throw new UsageError(
    `invalid --vm ${JSON.stringify(text)}: expected vm-<guid>, the bare GUID, urn:vcloud:vm:<guid>, or the URL of the VM's page in the vCD web console`,
  );
}

/** What --vm names: a VM id, or a VM name to resolve through the query service. */
export type VmTarget = { kind: 'id'; id: string } | { kind: 'name'; name: string };

/**
 * --vm as given: an id form (see parseVmId), else a VM name. A URL without a VM id
 * in it is a usage error, not a name: nobody names a VM https://...
 */
export function parseVmTarget(text: string): VmTarget {
  const id = vmIdOf(text);
  if (id) return { kind: 'id', id };
  const name = text.trim();
  if (/^https?:\/\//i.test(name))
    throw new UsageError(
      `invalid --vm ${JSON.stringify(text)}: this URL holds no VM id (vm-<guid>); open the VM's own page in the web console and copy that URL, or give the VM's name`,
    );
  if (name === '') throw new UsageError('empty --vm: give the VM id (vm-<guid>) or its name');
  if (name.length > 256 || hasControlCharacters(name))
    throw new UsageError(`invalid --vm ${JSON.stringify(text.slice(0, 80))}: not a VM id, and not a VM name (control characters, or longer than 256)`);
  return { kind: 'name', name };
}

function vmIdOf(text: string): string | undefined {
  const t = text.trim();
  const direct = VM_ID.exec(t);
  if (direct) return `vm-${direct[1].toLowerCase()}`;
  if (/^https?:\/\//i.test(t)) {
    let url: URL | undefined;
    try {
      url = new URL(t);
    } catch {
      url = undefined;
    }
    if (url) {
      // The console routes pages by path, older ones by fragment (#/vm/vm-<guid>/general).
      const segments = `${url.pathname}/${url.hash.replace(/^#/, '').split('?')[0]}`
        .split('/')
        .filter((s) => s !== '')
        .map(safeDecode);
      const last = segments[segments.length - 1];
      const bare = last !== undefined ? VM_ID.exec(last) : null;
      if (bare) return `vm-${bare[1].toLowerCase()}`;
      // A tab of the VM page (.../vm-<guid>/general): the nearest vm-<guid> segment.
      for (let i = segments.length - 1; i >= 0; i--) {
        const m = PREFIXED.exec(segments[i]);
        if (m) return `vm-${m[1].toLowerCase()}`;
      }
    }
  }
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray % is not an id anyway
  }
}

import { UsageError } from '../plugin/errors';

const GUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const VM_ID = new RegExp(`^(?:vm-)?(${GUID})$`, 'i');
const PREFIXED = new RegExp(`^vm-(${GUID})$`, 'i');

/**
 * Normalises --vm to `vm-<guid>`: accepts `vm-<guid>`, the bare GUID, or the URL of the VM's
 * page in the web console (its last path segment, e.g. .../vm/vm-<guid>/general also works).
 */
export function parseVmId(text: string): string {
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
      const segments = `${url.pathname}/${url.hash.replace(/^#/, '').split('?')[0]}`.split('/').filter((s) => s !== '').map(decodeURIComponent);
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
  throw new UsageError(`invalid --vm ${JSON.stringify(text)}: expected vm-<guid>, the bare GUID, or the URL of the VM's page in the vCD web console`);
}

// vCD's ids, in the forms its APIs and its users write them: the UUID at the end of an href
// (`…/api/vdc/<uuid>`, `…/vApp/vm-<uuid>`), the CloudAPI's URN (`urn:vcloud:gateway:<uuid>`), and
// what an option such as --vdc or --edge is given (a UUID, its URN, an href or a portal URL, or
// else a name). --vm has its own reader (lib/vcd/vm/vm-id.ts) over the same forms.
import { UsageError } from '../../plugin/errors';

/** A UUID as vCD writes it (any case). */
export const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The UUID that ends an href after `/<segment>/` (`…/api/vdc/<uuid>`, a `/` after it allowed), as written; undefined when the href ends otherwise. */
export function uuidAfter(href: string | undefined, segment: string): string | undefined {
  return new RegExp(`/${escape(segment)}/(${UUID})/?$`, 'i').exec(href ?? '')?.[1];
}

/** The `<prefix>-<uuid>` id that ends an href (`…/vApp/vm-<uuid>`, `…/vApp/vapp-<uuid>`), as written. */
export function prefixedIdAfter(href: string | undefined, prefix: string): string | undefined {
  return new RegExp(`/(${escape(prefix)}-${UUID})/?$`, 'i').exec(href ?? '')?.[1];
}

/** The UUID of `urn:vcloud:<kind>:<uuid>`, as written; undefined for anything else (a value that is no string too). */
export function uuidOfUrn(urn: unknown, kind: string): string | undefined {
  return typeof urn === 'string' ? new RegExp(`^urn:vcloud:${escape(kind)}:(${UUID})$`, 'i').exec(urn)?.[1] : undefined;
}

/** Whether `id` is a VM's id as the checks keep it: `vm-<uuid>`, lower case. */
export function isVmId(id: string): boolean {
  return new RegExp(`^vm-${UUID}$`).test(id);
}

/** An object an option names: by its UUID (lower case), or by its name as given. */
export type ObjectTarget = { kind: 'id'; id: string } | { kind: 'name'; name: string };

/** How an option names one kind of object: `--vdc`, its URN's kind (`vdc`), the path segment before its UUID (`vdc`: `/vdc/` or `/vdcs/`) and its noun in messages. */
export interface TargetForms {
  option: string;
  urn: string;
  segment: string;
  noun: string;
}

/**
 * An option that names one object: a UUID, `urn:vcloud:<urn>:<uuid>`, or a URL whose path holds
 * `/<segment>/<uuid>` or `/<segment>s/<uuid>` (an API href, the tenant portal's page, the URN in
 * its place); anything else is a name. Empty is a usage error.
 */
export function parseObjectTarget(text: string, forms: TargetForms): ObjectTarget {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError(`${forms.option} is empty: give the ${forms.noun} name or its UUID`);
  const urn = `(?:urn:vcloud:${escape(forms.urn)}:)?`;
  const id =
    new RegExp(`^${urn}(${UUID})$`, 'i').exec(trimmed) ??
    new RegExp(`^https?://\\S*/${escape(forms.segment)}s?/${urn}(${UUID})(?:[/?#].*)?$`, 'i').exec(trimmed);
  return id ? { kind: 'id', id: id[1].toLowerCase() } : { kind: 'name', name: text };
}

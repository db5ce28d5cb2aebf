// One host group per organisation in the generated inventories of a provider account. The
// inventories are written per organisation, kind and format, often several to one directory
// and one engine, so a group must come out the same whichever file names it, and be defined
// once: Icinga 2 and Nagios both refuse a second object of the same name.
import { createHash } from 'node:crypto';

/** The prefix of every organisation's group name. */
export const ORG_GROUP_PREFIX = 'vcd-org-';

/** Longest encoded organisation kept whole in a group name; a longer one is cut and hashed. */
const MAX_ENCODED = 64;
const CUT = 40;

/**
 * The host group of an organisation: `vcd-org-` and the name with every byte other than
 * A-Z a-z 0-9 and `-` written `_xx` (its UTF-8 byte in hex), so that distinct names give
 * distinct groups (`a b` is `vcd-org-a_20b`, `a_b` is `vcd-org-a_5fb`) and the name holds only
 * characters both engines take in object names and no shell or macro syntax. An encoding over
 * 64 characters keeps its first 40 and adds `.` and 16 hex digits of the name's SHA-256: the
 * `.` appears in no other encoding, so a cut name never equals a whole one.
 */
export function orgGroupName(org: string): string {
  let encoded = '';
  for (const byte of Buffer.from(org, 'utf8')) {
    const c = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9-]/.test(c) ? c : `_${byte.toString(16).padStart(2, '0')}`;
  }
  if (encoded.length <= MAX_ENCODED) return ORG_GROUP_PREFIX + encoded;
  let cut = encoded.slice(0, CUT);
  // Never end inside an `_xx`.
  const underscore = cut.lastIndexOf('_');
  if (underscore > CUT - 3) cut = cut.slice(0, underscore);
  return `${ORG_GROUP_PREFIX}${cut}.${createHash('sha256').update(org, 'utf8').digest('hex').slice(0, 16)}`;
}

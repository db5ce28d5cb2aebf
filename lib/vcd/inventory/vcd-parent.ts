// The parent of a vCD's discovered services in Nagios: that vCD's own check_vcd. Several vCDs
// (regions) may share one Nagios, so each inventory names its own vCD's parent, by a
// servicegroup keyed by the vCD's URL host. The vcd service of that vCD joins the group; every
// inventory of the vCD (VMs, VDCs, provider VDCs, any account) writes the same group, in a file
// of its own beside the inventory, so that it is defined once, and a servicedependency of its
// hosts' services on the group. A group nobody joined yet holds nothing back.
import { createHash } from 'node:crypto';
import { nagiosText } from '../../plugin/engine-text';

/** The prefix of every vCD's parent servicegroup. */
export const VCD_PARENT_PREFIX = 'cloudchecks-vcd-parent-';

/** Longest encoded host kept whole in a group name; a longer one is cut and hashed. */
const MAX_ENCODED = 80;
const CUT = 56;

/** The vCD's host as its URL has it: lower case, the port when it is not the scheme's default. */
function urlHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}

/**
 * The parent servicegroup of the vCD at `url`: `cloudchecks-vcd-parent-` and the URL's host
 * (`vcd-eu1.example.com`; with a port other than the default, `vcd.example.com_3a8443`), every
 * byte other than a-z 0-9 `.` `-` written `_xx` (its hex), so that distinct hosts give distinct
 * groups and the name holds nothing Nagios or a shell reads as syntax. An encoding over 80
 * characters keeps its first 56 and adds `__` and 16 hex digits of the host's SHA-256 (`__`
 * appears in no whole encoding: `_` itself is `_5f`).
 */
export function vcdParentGroup(url: string): string {
  const host = urlHost(url);
  let encoded = '';
  for (const byte of Buffer.from(host, 'utf8')) {
    const c = String.fromCharCode(byte);
    encoded += /[a-z0-9.-]/.test(c) ? c : `_${byte.toString(16).padStart(2, '0')}`;
  }
  if (encoded.length <= MAX_ENCODED) return VCD_PARENT_PREFIX + encoded;
  let cut = encoded.slice(0, CUT);
  // Never end inside an `_xx`.
  const underscore = cut.lastIndexOf('_');
  if (underscore > CUT - 3) cut = cut.slice(0, underscore);
  return `${VCD_PARENT_PREFIX}${cut}__${createHash('sha256').update(host, 'utf8').digest('hex').slice(0, 16)}`;
}

/** The file of a vCD's parent servicegroup, in the directory of the inventory. */
export function vcdParentFileName(url: string): string {
  return `${vcdParentGroup(url)}.cfg`;
}

/** The definition of the vCD's parent servicegroup: the same text whichever inventory writes it. */
export function nagiosVcdParentGroup(url: string): string {
  return (
    `# The parent of the discovered services of the vCD at ${nagiosText(urlHost(url))}: its vcd service (check_vcd)\n` +
    `# joins this group (servicegroups in its definition): until one does, it holds nothing back.\n` +
    `define servicegroup {\n    servicegroup_name       ${vcdParentGroup(url)}\n    alias                   check_vcd of the Cloud Director at ${nagiosText(urlHost(url))}\n}\n`
  );
}

/**
 * The servicedependency of every service of `hosts` on their vCD's parent servicegroup, through
 * the dependency template `template` (cloudchecks-vcd-dependency of commands.cfg: notifications
 * and checks held back while the parent is UNKNOWN or CRITICAL). Nothing for no host.
 */
export function nagiosVcdDependency(hosts: readonly string[], url: string, template: string): string {
  if (hosts.length === 0) return '';
  return (
    `\n# Their notifications wait while this vCD's own check_vcd fails (group ${vcdParentGroup(url)}).\n` +
    `define servicedependency {\n    use                             ${template}\n    servicegroup_name               ${vcdParentGroup(url)}\n` +
    `    dependent_host_name             ${hosts.join(',')}\n    dependent_service_description   *\n}\n`
  );
}

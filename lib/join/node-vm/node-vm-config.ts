// check_nodes' --vcd-* options as the typed config of the VM lookup: the vCD connection read
// as the VM checks read theirs (lib/vcd/session-options.ts), from the options and from an
// ini section with the VM checks' own keys.
import { requireTlsUnlessAllowed, type HttpOptions } from '../../http/options';
import type { RunContext } from '../../plugin/context';
import { UsageError } from '../../plugin/errors';
import { expandExtraOpts } from '../../plugin/extra-opts';
import { defineOptions, parseOptions, positiveInteger } from '../../plugin/options';
import type { VcdSessionConfig } from '../../vcd/api/session-request';
import { MAX_NAME_CHARS } from '../../vcd/api/query-pages';
import { sessionConfigFrom } from '../../vcd/session-options';
import { baseUrl } from '../../vcd/vm/vm-config';
import { MAX_VCD_MAX_NODES } from './node-vm-options';

/** The --vcd-* options of check_nodes as parsed, and the shared ones the vCD side uses too. */
export interface NodeVmOptions extends Pick<HttpOptions, 'allow-http' | 'max-bytes'> {
  'vcd-url'?: string;
  'vcd-user'?: string;
  'vcd-org'?: string;
  'vcd-password-file'?: string;
  'vcd-ca-file'?: string;
  'vcd-extra-opts'?: string;
  'vcd-vapp'?: string;
  'vcd-max-nodes': number;
  'cache-dir'?: string;
  'no-cache': boolean;
}

/** What the VM lookup of check_nodes needs, every option read and checked. */
export interface NodeVmConfig {
  session: VcdSessionConfig;
  /** --vcd-vapp: the vApp the VMs found by name are in. */
  vapp?: string;
  /** --vcd-max-nodes. */
  maxNodes: number;
}

/** The keys of a --vcd-extra-opts section read here: the VM checks' own connection keys (the rest of such a section is theirs). */
const INI_KEYS = defineOptions([
  { long: 'url', type: 'string', description: '' },
  { long: 'user', type: 'string', description: '' },
  { long: 'org', type: 'string', description: '' },
  { long: 'password-file', type: 'string', description: '' },
  { long: 'password', type: 'string', secret: true, description: '' },
  { long: 'ca-file', type: 'string', description: '' },
  { long: 'insecure', type: 'boolean', description: '' },
  { long: 'cache-dir', type: 'string', description: '' },
  { long: 'api-version', type: 'string', description: '' },
]);
const INI_KEY_NAMES: ReadonlySet<string> = new Set(INI_KEYS.map((k) => k.long));

/**
 * The connection keys of the ini section, each secret registered at once. The section may be
 * a VM check's own (its vapp=, timeout=, window= are not the connection's, and left to it).
 */
function iniConnection(spec: string, context: RunContext) {
  const args = expandExtraOpts(spec, 'vcd', process.env, context.notes).filter((a) => INI_KEY_NAMES.has(a.slice(2).split('=')[0]));
  let ini;
  try {
    ini = parseOptions(args, INI_KEYS);
  } catch (error) {
    throw new UsageError(`--vcd-extra-opts ${spec}: ${(error as Error).message}`);
  }
  context.addSecret(ini.password);
  return ini;
}

/** --vcd-url (or the section's url=) as the VM checks read --url: its origin. */
function vcdBase(text: string | undefined): URL {
  if (!text) throw new UsageError('--vcd-* options without the vCD API host: give --vcd-url, or url= in the --vcd-extra-opts section');
  try {
    return baseUrl(text);
  } catch {
    throw new UsageError(`invalid --vcd-url ${JSON.stringify(text)}: expected https://host[:port]`);
  }
}

/** The --vcd-* options as the lookup's config; UsageErrors name the --vcd-* option to fix. */
export function nodeVmConfigFrom(options: NodeVmOptions, context: RunContext): NodeVmConfig {
  const ini = options['vcd-extra-opts'] !== undefined ? iniConnection(options['vcd-extra-opts'], context) : undefined;
  const base = vcdBase(options['vcd-url'] ?? ini?.url);
  // Said here with the option's own name; sessionConfigFrom notes an allowed http:// itself.
  if (!options['allow-http']) requireTlsUnlessAllowed(base, options, '--vcd-url', context.notes);
  const org = options['vcd-org'] ?? ini?.org;
  const user = options['vcd-user'] ?? ini?.user;
  if (!org) throw new UsageError('missing --vcd-org (the organisation of the vCD user; System for a provider account)');
  if (!user) throw new UsageError('missing --vcd-user (the vCD user that reads the node VMs)');
  const maxNodes = positiveInteger(options['vcd-max-nodes'], '--vcd-max-nodes');
  if (maxNodes > MAX_VCD_MAX_NODES)
    throw new UsageError(`invalid --vcd-max-nodes ${maxNodes}: at most ${MAX_VCD_MAX_NODES} failing nodes are looked up in one query`);
  const vapp = options['vcd-vapp'];
  if (vapp !== undefined && (vapp.trim() === '' || vapp.length > MAX_NAME_CHARS))
    throw new UsageError(`invalid --vcd-vapp ${JSON.stringify(vapp.slice(0, 60))}: give a vApp name`);
  const session = sessionConfigFrom(
    base,
    {
      org,
      user,
      'password-file': options['vcd-password-file'] ?? ini?.['password-file'],
      password: ini?.password,
      'allow-http': options['allow-http'],
      'ca-file': options['vcd-ca-file'] ?? ini?.['ca-file'],
      insecure: ini?.insecure ?? false,
      'max-bytes': options['max-bytes'],
      // The VM checks' cache directory, when their section names it: one login for both.
      'cache-dir': options['cache-dir'] ?? ini?.['cache-dir'],
      'no-cache': options['no-cache'],
      'api-version': ini?.['api-version'],
    },
    context,
  );
  return { session, vapp, maxNodes };
}

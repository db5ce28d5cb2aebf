// check_nodes' --vcd-* options as the typed config of the VM lookup: the vCD connection under
// the prefix vcd, read as the VM checks read theirs (lib/vcd/session-options.ts), from the
// options and from an ini section with the VM checks' own keys.
import { requireTlsUnlessAllowed, type HttpOptions } from '../../http/options';
import type { RunContext } from '../../plugin/context';
import { UsageError } from '../../plugin/errors';
import { positiveInteger } from '../../plugin/options';
import type { VcdSessionConfig } from '../../vcd/api/session-request';
import { MAX_NAME_CHARS } from '../../vcd/api/query-pages';
import { connectionUnder, sessionConfigFrom, type PrefixedConnectionOptions } from '../../vcd/frame/session-options';
import { baseUrl } from '../../vcd/vm/vm-config';
import { MAX_VCD_MAX_NODES } from './node-vm-options';

/** The --vcd-* options of check_nodes as parsed, and the shared ones the vCD side uses too. */
export interface NodeVmOptions extends Pick<HttpOptions, 'allow-http' | 'max-bytes'>, PrefixedConnectionOptions<'vcd'> {
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
  const vcd = connectionUnder('vcd', options, context);
  const base = vcdBase(vcd.url);
  // Said here with the option's own name; sessionConfigFrom notes an allowed http:// itself.
  if (!options['allow-http']) requireTlsUnlessAllowed(base, options, '--vcd-url', context.notes);
  const { org, user } = vcd;
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
      ...vcd,
      'allow-http': options['allow-http'],
      'max-bytes': options['max-bytes'],
      // The VM checks' cache directory, when their section names it: one login for both.
      'cache-dir': options['cache-dir'] ?? vcd['cache-dir'],
      'no-cache': options['no-cache'],
    },
    context,
  );
  // A refused login names this plugin's options (--vcd-user), not the VM checks' (--user).
  return { session: { ...session, creds: { ...session.creds, optionPrefix: 'vcd-' } }, vapp, maxNodes };
}

// A vCD plugin's edge: its connection, login, TLS, cache and scope options, each group read
// once by its own parser, in the order their notes and errors have always come, into the
// typed config lib/vcd/api opens the session from. The same connection given under a prefix
// (check_nodes' --vcd-*) is read here too, into the VM checks' own names.
import { HTTP_OPTIONS, maxBytesFrom, requireTlsUnlessAllowed, tlsSettingsFrom, type HttpOptions } from '../../http/options';
import type { RunContext } from '../../plugin/context';
import { UsageError } from '../../plugin/errors';
import { expandExtraOpts } from '../../plugin/extra-opts';
import { parseOptions, type OptionSpec, type OptionsOf } from '../../plugin/options';
import { forcedVersionFrom, VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../api/connection-options';
import { credentialsFrom, type CredentialOptions } from '../api/credentials';
import { vmScope } from '../api/scope';
import type { VcdSessionConfig } from '../api/session-request';
import { maxVmsFrom } from '../inventory/inventory-options';

/** The options a vCD session is opened from (see VCD_LOGIN_OPTIONS, HTTP_OPTIONS). */
export type VcdSessionOptions = CredentialOptions &
  Pick<HttpOptions, 'allow-http' | 'ca-file' | 'insecure' | 'max-bytes'> & {
    'cache-dir'?: string;
    'no-cache': boolean;
    'api-version': string | undefined;
    /** --max-vms, for the plugins that list VMs (the query's default bound for the others). */
    'max-vms'?: number;
    /** --tenant-org, for the plugins that take it. */
    'tenant-org'?: string;
  };

/**
 * The session config of a run against `base` from its options: credentials read (each secret
 * registered), TLS and bounds checked. `said` are the caller's notes about its own options,
 * said before those about the login.
 */
export function sessionConfigFrom(
  base: URL,
  options: VcdSessionOptions,
  context: RunContext,
  said: readonly (string | undefined)[] = [],
  sockets?: number,
): VcdSessionConfig {
  const { notes } = context;
  requireTlsUnlessAllowed(base, options, '--url', notes);
  for (const note of said) if (note !== undefined) notes.add(note);
  const creds = credentialsFrom(options, context, notes);
  // How the server is reached is part of what -v reports: a skipped verification.
  if (options.insecure) notes.add(`TLS certificate of ${base.host} not verified (-k/--insecure)`);
  return {
    base,
    creds,
    tls: tlsSettingsFrom(options),
    maxBytes: maxBytesFrom(options),
    ...(sockets !== undefined ? { sockets } : {}),
    cache: options['no-cache'] ? false : { dir: options['cache-dir'] },
    forcedVersion: forcedVersionFrom(options),
    maxVms: maxVmsFrom(options),
    scope: vmScope(creds, options['tenant-org']),
  };
}

/** The keys of a vCD connection: the VM checks' own options, and what a section giving one holds under any prefix. */
const CONNECTION_KEYS = ['url', 'user', 'org', 'password-file', 'password', 'ca-file', 'insecure', 'cache-dir', 'api-version'] as const;
type ConnectionKey = (typeof CONNECTION_KEYS)[number];

/** The VM checks' declarations of those keys, without the one-letter aliases (a section's keys are long names). */
const CONNECTION_SPECS: readonly OptionSpec[] = ([VCD_URL_OPTION, ...VCD_LOGIN_OPTIONS, ...HTTP_OPTIONS] as readonly OptionSpec[])
  .filter((spec) => (CONNECTION_KEYS as readonly string[]).includes(spec.long))
  .map(({ short: _short, ...spec }) => spec);

/** A vCD connection as the VM checks name its options, however it was given. */
export type VcdConnectionOptions = Pick<OptionsOf<readonly [typeof VCD_URL_OPTION, ...typeof VCD_LOGIN_OPTIONS, ...typeof HTTP_OPTIONS]>, ConnectionKey>;

/** The keys a prefixed group also takes as options of its own (`--vcd-url`); the others come from its section only. */
const PREFIXED_KEYS = ['url', 'user', 'org', 'password-file', 'ca-file'] as const;

/** A vCD connection given under `--<P>-`: those options, and `--<P>-extra-opts` naming the section with the rest. */
export type PrefixedConnectionOptions<P extends string> = { readonly [K in (typeof PREFIXED_KEYS)[number] | 'extra-opts' as `${P}-${K}`]?: string };

/**
 * A vCD connection given under `--<prefix>-` (check_nodes' --vcd-*), in the VM checks' own
 * names, ready for sessionConfigFrom: each `--<prefix>-<key>` wins over `<key>=` of the
 * `--<prefix>-extra-opts` section (section `<prefix>` by default), which holds the VM checks'
 * own keys, so one section serves both; its keys that are no connection's (a VM check's vapp=,
 * window=) are left to them. Each secret is registered at once. The VM checks' own group is the
 * unprefixed one: the runtime reads their --extra-opts section, and the command line wins the
 * same way.
 */
export function connectionUnder<P extends string>(prefix: P, options: PrefixedConnectionOptions<P>, context: RunContext): VcdConnectionOptions {
  const given = options as Readonly<Record<string, string | undefined>>;
  const section = connectionSection(given[`${prefix}-extra-opts`], prefix, context);
  const own = Object.fromEntries(PREFIXED_KEYS.map((key) => [key, given[`${prefix}-${key}`] ?? section[key]]));
  return { ...section, ...own };
}

/** The connection keys of the section `spec` names (none without it), each secret registered at once; errors name `--<prefix>-extra-opts`. */
function connectionSection(spec: string | undefined, prefix: string, context: RunContext): VcdConnectionOptions {
  const keys: ReadonlySet<string> = new Set(CONNECTION_KEYS);
  const args = spec === undefined ? [] : expandExtraOpts(spec, prefix, process.env, context.notes).filter((a) => keys.has(a.slice(2).split('=')[0]));
  let section: VcdConnectionOptions;
  try {
    section = parseOptions(args, CONNECTION_SPECS) as VcdConnectionOptions;
  } catch (error) {
    throw new UsageError(`--${prefix}-extra-opts ${spec}: ${(error as Error).message}`);
  }
  context.addSecret(section.password);
  return section;
}

// A vCD plugin's edge: its connection, login, TLS, cache and scope options, each group read
// once by its own parser, in the order their notes and errors have always come, into the
// typed config lib/vcd/api opens the session from.
import { maxBytesFrom, requireTlsUnlessAllowed, tlsSettingsFrom, type HttpOptions } from '../http/options';
import type { RunContext } from '../plugin/context';
import { forcedVersionFrom } from './api/connection-options';
import { credentialsFrom, type CredentialOptions } from './api/credentials';
import { vmScope } from './api/scope';
import type { VcdSessionConfig } from './api/session-request';
import { maxVmsFrom } from './fleet/fleet-options';

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

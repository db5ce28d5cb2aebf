import { UsageError } from '../plugin/errors';
import { defineOptions, type OptionsOf } from '../plugin/options';
import { readCaFile } from './ca-file';
import { DEFAULT_MAX_BYTES, type TlsSettings } from './request';
import type { Notes } from '../plugin/notes';

/** Options every plugin that speaks HTTPS has. */
export const HTTP_OPTIONS = defineOptions([
  {
    long: 'ca-file',
    type: 'string',
    arg: 'PATH',
    description:
      'PEM file with the CA that signed the server certificate. Cluster checks: the only CA trusted (as kubectl --certificate-authority, curl --cacert). VM checks: trusted in addition to the system CAs.',
  },
  { long: 'insecure', short: 'k', type: 'boolean', description: 'Do not verify the server certificate (not recommended: prefer --ca-file).' },
  { long: 'max-bytes', type: 'number', arg: 'BYTES', default: DEFAULT_MAX_BYTES, description: 'Refuse responses larger than this.' },
  {
    long: 'allow-http',
    type: 'boolean',
    description: 'Accept a plain http:// URL (the token or password then crosses the network in clear text; -v says so). Without it, http:// is refused.',
  },
]);

/** The HTTP options as parsed. */
export type HttpOptions = OptionsOf<typeof HTTP_OPTIONS>;

/**
 * Refuses a plain http:// URL unless --allow-http was given (credentials would travel in
 * clear text without a word); with it, adds a warning that -v shows. `from` names where
 * the URL came from (`--url`, `server of kubeconfig …`).
 */
export function requireTlsUnlessAllowed(url: URL, options: Pick<HttpOptions, 'allow-http'>, from: string, notes: Notes): void {
  if (url.protocol !== 'http:') return;
  if (!options['allow-http']) {
    throw new UsageError(
      `${from} ${url.origin} is plain http://, which would send the credentials in clear text; use https://, or add --allow-http if that is intended (a local test server)`,
    );
  }
  notes.add(`plain http:// to ${url.host} (--allow-http): credentials cross the network in clear text`);
}

/** Reads the TLS options: the CA file is read once here, with a clear error if it cannot be. */
export function tlsSettingsFrom(options: Pick<HttpOptions, 'ca-file' | 'insecure'>): TlsSettings {
  const caFile = options['ca-file'];
  if (options.insecure) return { insecure: true };
  if (!caFile) return {};
  return { ca: readCaFile(caFile, '--ca-file'), caSource: '--ca-file' };
}

/** Reads --max-bytes as a positive integer. */
export function maxBytesFrom(options: Pick<HttpOptions, 'max-bytes'>): number {
  const n = options['max-bytes'];
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`invalid --max-bytes ${n}: expected a positive whole number of bytes`);
  return n;
}

/** A --help note on what every HTTP plugin takes from the environment. */
export const HTTP_ENVIRONMENT_NOTE =
  'Proxies: HTTPS_PROXY (or HTTP_PROXY for http:// URLs) is used when set, except for hosts listed in NO_PROXY (comma-separated names, .domains, host:port, IP addresses, CIDR ranges such as 10.0.0.0/8, or *). Only http:// proxies (HTTP CONNECT) are supported; a socks5:// or other proxy is refused.';

// The options every vCD plugin has to reach the API and log in, in --help order.
import { UsageError } from '../../plugin/errors';
import { defineOptions } from '../../plugin/options';

/** --url: the API host. */
export const VCD_URL_OPTION = {
  long: 'url',
  short: 'u',
  type: 'string',
  arg: 'URL',
  description: 'The vCD API host of the region, e.g. https://vcd.example.com (any path is ignored).',
} as const;

/** The --api-version option: no default, so that "not given" means "negotiate". */
export const API_VERSION_OPTION = {
  long: 'api-version',
  type: 'string',
  arg: 'VERSION',
  description:
    'Force this vCD API version. Default: 34.0 when the server offers it, else the highest it offers of 33.0-39.x (asked at GET /api/versions once, then remembered with the session).',
} as const;

/** --api-version checked; undefined means negotiate. */
export function forcedVersionFrom(options: { 'api-version'?: string }): string | undefined {
  const v = options['api-version'];
  if (v === undefined) return undefined;
  if (!/^\d{1,4}\.\d{1,4}$/.test(v.trim())) throw new UsageError(`invalid --api-version ${JSON.stringify(v)}: expected a version such as 34.0 or 38.1`);
  return v.trim();
}

/** The login, the API version and the session cache. */
export const VCD_LOGIN_OPTIONS = defineOptions([
  { long: 'user', short: 'U', type: 'string', arg: 'NAME', description: 'vCD user name (without @org).' },
  { long: 'org', short: 'o', type: 'string', arg: 'ORG', description: 'vCD organisation of the user; System for a provider account.' },
  { long: 'password-file', type: 'string', arg: 'PATH', description: 'File holding the password (one line). Without it: --password, else $VCD_PASSWORD.' },
  {
    long: 'password',
    type: 'string',
    arg: 'TEXT',
    secret: true,
    description:
      'The password, when there is no --password-file. Put it in an --extra-opts file (password=...): on the command line every local user sees it in the process list.',
  },
  {
    long: 'api-token-file',
    type: 'string',
    arg: 'PATH',
    description: 'File holding a vCD API token (OAuth refresh token), used instead of a password; needs --org.',
  },
  API_VERSION_OPTION,
  {
    long: 'cache-dir',
    type: 'string',
    arg: 'DIR',
    description:
      "Where sessions are kept between runs (default $XDG_CACHE_HOME/cloudchecks when that is the user's own directory, else .cache/cloudchecks in the home directory of the user running the check; $HOME is not read).",
  },
  {
    long: 'cache-unusable-state',
    type: 'string',
    arg: 'STATE',
    default: 'OK',
    description:
      'State when the session cache cannot be used, so that every run logs in and out (OK, WARNING, CRITICAL, UNKNOWN; default OK: said at -v and in the long output).',
  },
  { long: 'no-cache', type: 'boolean', description: 'Do not keep the session: log in and log out on every run (vCD counts sessions; prefer the cache).' },
]);

import type { RunContext } from '../../plugin/context';
import { CheckError, UsageError } from '../../plugin/errors';
import { readSecretFile } from '../../plugin/secret-file';
import type { Credentials } from './login';
import type { Notes } from '../../plugin/notes';

/** Where a VM check's credentials may come from, as parsed. */
export interface CredentialOptions {
  org?: string;
  user?: string;
  'api-token-file'?: string;
  'password-file'?: string;
  password?: string;
}

/** A password or API token from its file: one trailing newline dropped, registered as a secret. */
function readCredentialFile(path: string, option: string, context: Pick<RunContext, 'addSecret'>, notes: Notes): string {
  const value = readSecretFile(path, option, notes).replace(/\r?\n$/, '');
  context.addSecret(value);
  if (value.trim() === '') throw new CheckError(`${option} ${path} is empty`);
  return value;
}

/**
 * `--user monitor@acme --org acme`: the org is given twice, and vCD would be asked for
 * `monitor@acme@acme`. The trailing `@<org>` is dropped (said at -v). Other `@` stay: users
 * imported from a directory are often named like mail addresses (`jane@example.com`).
 */
export function withoutOrg(user: string | undefined, org: string, notes: Notes): string | undefined {
  if (user === undefined) return undefined;
  const at = user.lastIndexOf('@');
  if (at <= 0 || user.slice(at + 1).toLowerCase() !== org.toLowerCase()) return user;
  notes.add(`--user ${user} already names the org: logging in as ${user.slice(0, at)}@${org} (give --user ${user.slice(0, at)})`);
  return user.slice(0, at);
}

/** The vCD login: an API token file, else a password (file, option, $VCD_PASSWORD); each secret registered at once. */
export function credentialsFrom(options: CredentialOptions, context: Pick<RunContext, 'addSecret'>, notes: Notes): Credentials {
  const { org } = options;
  if (!org) throw new UsageError('missing -o/--org (the vCD organisation; System for a provider account)');
  const user = withoutOrg(options.user, org, notes);
  const tokenFile = options['api-token-file'];
  if (tokenFile) return { kind: 'api-token', org, user, refreshToken: readCredentialFile(tokenFile, '--api-token-file', context, notes) };
  if (!user) throw new UsageError('missing -U/--user (or --api-token-file)');
  const file = options['password-file'];
  const password = file ? readCredentialFile(file, '--password-file', context, notes) : (options.password ?? process.env.VCD_PASSWORD);
  if (!password) throw new UsageError(`no password for ${user}@${org}: give --password-file, set VCD_PASSWORD, or put password= in an --extra-opts file`);
  context.addSecret(password);
  return { kind: 'password', user, org, password };
}

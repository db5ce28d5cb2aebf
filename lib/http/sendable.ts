import { createSecureContext } from 'node:tls';
import { hasControlCharacters } from '../plugin/control-characters';

/** The longest token kept or sent: the APIs issue a few KiB at most; more is no token. */
export const MAX_TOKEN_CHARS = 16384;

/**
 * Why `token` cannot be sent as a bearer token or session header, or undefined when it can.
 * A token is visible ASCII only (RFC 6750's b64token and vCD's session tokens are narrower
 * still): a line break or another control character would end the header, and Node refuses
 * to send it; spaces and other characters are no token any server issues. The reason never
 * quotes the token.
 */
export function tokenProblem(token: string): string | undefined {
  if (token === '') return 'is empty';
  if (token.length > MAX_TOKEN_CHARS) return `is longer than ${MAX_TOKEN_CHARS} characters`;
  if (/\s/.test(token) || hasControlCharacters(token)) return 'holds spaces or control characters';
  if (/[^\x21-\x7e]/.test(token)) return 'holds characters other than ASCII letters, digits and punctuation';
  return undefined;
}

/** Why a client certificate and its key cannot be used for TLS (unparsable, or not a pair), or undefined when they can. */
export function clientPairProblem(cert: string, key: string): string | undefined {
  try {
    createSecureContext({ cert, key });
    return undefined;
  } catch (e) {
    return String((e as Error).message ?? e).replace(/^error:[0-9A-F]+:/, '');
  }
}

import { readFileSync } from 'node:fs';
import { CheckError } from '../plugin/errors';

/**
 * Reads a PEM file of CA certificates (--ca-file, a kubeconfig's certificate-authority, the
 * service account's ca.crt), refusing an unreadable one or one without a certificate in
 * words that name `label` and the file. `fix` is what to do when it cannot be read.
 */
export function readCaFile(path: string, label: string, fix = 'check the path and permissions'): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CheckError(`cannot read ${label} ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'}); ${fix}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new CheckError(`${label} ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----); check the file`);
  return text;
}

/** The PEM certificate blocks of a text (a CA bundle holds several), in order. */
export function pemCertificateBlocks(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[^-]*-----END CERTIFICATE-----/g) ?? [];
}

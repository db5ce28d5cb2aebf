import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCaFile } from '../../../lib/http/ca-file';
import { tlsSettingsFrom } from '../../../lib/http/options';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('readCaFile: one reader for every CA file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-ca-'));
  const ca = join(dir, 'ca.pem');
  const key = join(dir, 'key.pem');
  writeFileSync(ca, PEM);
  writeFileSync(key, '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');
  it('returns the PEM text', () => expect(readCaFile(ca, '--ca-file')).toBe(PEM));
  it('names the file, the option and the fix when it cannot be read', () => {
    expect(() => readCaFile(join(dir, 'nope'), '--ca-file')).toThrow(`cannot read --ca-file ${join(dir, 'nope')} (ENOENT); check the path and permissions`);
    expect(() => readCaFile(join(dir, 'nope'), 'certificate-authority of x', 'give the CA with --ca-file')).toThrow(/\(ENOENT\); give the CA with --ca-file$/);
  });
  it('refuses a file without a certificate', () =>
    expect(() => readCaFile(key, '--ca-file')).toThrow(`--ca-file ${key} holds no PEM certificate (-----BEGIN CERTIFICATE-----); check the file`));
  it('is what --ca-file reads', () => {
    expect(tlsSettingsFrom({ 'ca-file': ca, insecure: false })).toEqual({ ca: PEM, caSource: '--ca-file' });
    expect(() => tlsSettingsFrom({ 'ca-file': key, insecure: false })).toThrow(/holds no PEM certificate .*; check the file$/);
  });
});

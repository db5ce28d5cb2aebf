// A vApp's LeaseSettingsSection (GET /api/vApp/vapp-<id>/leaseSettingsSection, or inside the
// VApp document): vCD API reference, LeaseSettingsSectionType (since 0.9). DeploymentLeaseInSeconds
// and StorageLeaseInSeconds of 0 never expire; the Expiration elements are dates, and a vApp
// that is not deployed has no DeploymentLeaseExpiration.
import { CheckError } from '../../plugin/errors';
import { type XmlElement } from '../api/xml';
import { sectionOf, vcloudChild } from './snapshot-section';

/** The lease section's elements, as sent (dates are parsed where they are judged). */
export interface LeaseSection {
  deploymentSeconds?: number;
  storageSeconds?: number;
  deploymentExpiration?: string;
  storageExpiration?: string;
}

/** Longer text is no number or date: a hostile server's megabyte of text is refused by the parser. */
const MAX_TEXT_CHARS = 4096;

function textOf(section: XmlElement, local: string): string | undefined {
  const text = vcloudChild(section, local)?.text?.trim();
  return text === undefined || text === '' ? undefined : text;
}

function secondsOf(section: XmlElement, local: string, what: string): number | undefined {
  const text = textOf(section, local);
  if (text === undefined) return undefined;
  if (!/^\d{1,12}$/.test(text)) throw new CheckError(`${what}: ${local} is no number of seconds (${JSON.stringify(text.slice(0, 64))})`);
  return Number(text);
}

/** Reads a LeaseSettingsSection (alone, or in its VApp). */
export function parseLeaseSection(text: string, what = 'the lease settings section'): LeaseSection {
  const section = sectionOf(text, 'LeaseSettingsSection', what, { maxTextChars: MAX_TEXT_CHARS });
  const lease: LeaseSection = {};
  const deploymentSeconds = secondsOf(section, 'DeploymentLeaseInSeconds', what);
  const storageSeconds = secondsOf(section, 'StorageLeaseInSeconds', what);
  const deploymentExpiration = textOf(section, 'DeploymentLeaseExpiration');
  const storageExpiration = textOf(section, 'StorageLeaseExpiration');
  if (deploymentSeconds !== undefined) lease.deploymentSeconds = deploymentSeconds;
  if (storageSeconds !== undefined) lease.storageSeconds = storageSeconds;
  if (deploymentExpiration !== undefined) lease.deploymentExpiration = deploymentExpiration;
  if (storageExpiration !== undefined) lease.storageExpiration = storageExpiration;
  return lease;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vmHygieneOf } from '../../../../lib/vcd/inventory/hygiene-record';
import { parseLeaseSection } from '../../../../lib/vcd/hygiene/lease-section';
import { parseSnapshotSection } from '../../../../lib/vcd/hygiene/snapshot-section';
import { parseVmRecords } from '../../../../lib/vcd/inventory/vm-query';

const FIXTURES = join(__dirname, '../../../fixtures/vcd');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const NS = 'xmlns="http://www.vmware.com/vcloud/v1.5"';

describe('SnapshotSection', () => {
  it('reads the snapshot of a real Vm document (vCD 9.0)', () => {
    expect(parseSnapshotSection(fixture('hygiene/vm-snapshot-vcd9.0.xml'))).toEqual([{ created: Date.UTC(2018, 3, 16, 7, 36, 59, 459), size: 4294967296 }]);
  });
  it("reads a real vApp's own (empty) section", () => expect(parseSnapshotSection(fixture('hygiene/vapp-storage-lease-expired-vcd9.0.xml'))).toEqual([]));
  it('reads a section of its own, with a prefix', () => {
    const text = `<v:SnapshotSection xmlns:v="http://www.vmware.com/vcloud/v1.5"><v:Snapshot created="2026-11-01T00:00:00Z" size="10"/><v:Snapshot created="2026-11-02T00:00:00Z"/></v:SnapshotSection>`;
    expect(parseSnapshotSection(text)).toEqual([{ created: Date.UTC(2026, 10, 1), size: 10 }, { created: Date.UTC(2026, 10, 2) }]);
  });
  it.each([
    [`<SnapshotSection ${NS}><Snapshot created="yesterday" size="1"/></SnapshotSection>`, 'snapshot 1 has a creation date that does not parse ("yesterday")'],
    [`<SnapshotSection ${NS}><Snapshot size="1"/></SnapshotSection>`, 'snapshot 1 has no creation date'],
    [`<SnapshotSection ${NS}><Snapshot created="2026-11-01T00:00:00Z" size="-5"/></SnapshotSection>`, 'snapshot 1 has a negative size (-5 bytes)'],
    [`<SnapshotSection ${NS}><Snapshot created="2026-11-01T00:00:00Z" size="1e9"/></SnapshotSection>`, 'a size that is no number of bytes ("1e9")'],
    [`<Task ${NS}/>`, 'is not a vCD SnapshotSection (root element {http://www.vmware.com/vcloud/v1.5}Task)'],
    ['<<<', 'is not XML'],
  ])('refuses %s', (text, message) => expect(() => parseSnapshotSection(text)).toThrow(message));
  it('10,000 snapshots are read, not refused', () => {
    const text = `<SnapshotSection ${NS}>${'<Snapshot created="2026-11-01T00:00:00Z" size="1"/>'.repeat(10_000)}</SnapshotSection>`;
    expect(parseSnapshotSection(text)).toHaveLength(10_000);
  });
});

describe('LeaseSettingsSection', () => {
  it('reads the expired storage lease of a real undeployed vApp (vCD 9.0)', () => {
    expect(parseLeaseSection(fixture('hygiene/vapp-storage-lease-expired-vcd9.0.xml'))).toEqual({
      deploymentSeconds: 604800,
      storageSeconds: 2592000,
      storageExpiration: '2018-04-13T16:45:36.711+02:00',
    });
  });
  it('reads a section of its own with both dates', () => {
    const text = `<LeaseSettingsSection ${NS} xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1"><ovf:Info>Lease settings section</ovf:Info><DeploymentLeaseInSeconds>86400</DeploymentLeaseInSeconds><StorageLeaseInSeconds>0</StorageLeaseInSeconds><DeploymentLeaseExpiration>2026-11-27T10:00:00Z</DeploymentLeaseExpiration></LeaseSettingsSection>`;
    expect(parseLeaseSection(text)).toEqual({ deploymentSeconds: 86400, storageSeconds: 0, deploymentExpiration: '2026-11-27T10:00:00Z' });
  });
  it('refuses seconds that are no number', () =>
    expect(() => parseLeaseSection(`<LeaseSettingsSection ${NS}><StorageLeaseInSeconds>-1</StorageLeaseInSeconds></LeaseSettingsSection>`)).toThrow(
      'StorageLeaseInSeconds is no number of seconds ("-1")',
    ));
});

describe('the hygiene attributes of query records', () => {
  it('are kept only when asked for', () => {
    const text = fixture('query-vm-records.xml');
    expect(parseVmRecords(text).records.every((r) => r.hygiene === undefined)).toBe(true);
    expect(parseVmRecords(text, 'q', true).records.some((r) => r.hygiene !== undefined)).toBe(true);
  });
  it('reads the 38.0 attributes', () => {
    expect(
      vmHygieneOf({
        vmToolsStatus: 'toolsOk',
        vmToolsVersion: '2147483647',
        snapshot: 'true',
        snapshotCreated: '2026-11-16T09:00:00.000Z',
        numOfSnapshots: '3',
        autoUndeployDate: '2026-12-01T00:00:00.000Z',
        autoDeleteDate: '2027-01-01T00:00:00.000Z',
        isExpired: 'false',
        isDeployed: 'true',
        container: 'https://vcd.example.com/api/vApp/vapp-0A1B2C3D-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      }),
    ).toEqual({
      toolsStatus: 'toolsOk',
      toolsVersion: 2147483647,
      snapshot: true,
      snapshotCreated: '2026-11-16T09:00:00.000Z',
      snapshots: 3,
      autoUndeployDate: '2026-12-01T00:00:00.000Z',
      autoDeleteDate: '2027-01-01T00:00:00.000Z',
      expired: false,
      deployed: true,
      vapp: 'vapp-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    });
  });
  it('a 5.x record has none of them', () => expect(vmHygieneOf({ name: 'x', status: 'POWERED_ON' })).toBeUndefined());
  it('cuts values no date or status is as long as', () => expect(vmHygieneOf({ vmToolsStatus: 'x'.repeat(10_000) })?.toolsStatus).toHaveLength(64));
});

// What the simulated cloud director stands on: its vCenter servers as the CloudAPI lists them
// (GET /cloudapi/1.0.0/virtualCenters: VCenterServer with vcId urn:vcloud:vimserver:<uuid>,
// name, url, isEnabled, isConnected, listenerState, clusterHealthStatus, vcVersion, …) and its
// datastores as the query service does (type=datastore: DatastoreRecord with storageMB,
// storageUsedMB, provisionedStorageMB, requestedStorageMB, isEnabled, isDeleted, vcName, …).
import { cloudApiPage } from './edges';
import { HOSTILE_NAMES } from './fleet';
import type { QueryRow } from './query';

/** One simulated vCenter server. */
export interface SimVCenter {
  id: string;
  name: string;
  enabled: boolean;
  connected: boolean;
  listener: string;
  health: string;
  version: string;
}

/** One simulated datastore. Units: MB. */
export interface SimDatastore {
  id: string;
  name: string;
  vc: string;
  enabled: boolean;
  capacity: number;
  used: number;
  provisioned: number;
}

const guid = (base: number, n: number) => `${(base + n).toString(16)}-4d2e-4f3a-9b4c-${n.toString(16).padStart(12, '0')}`;
const TB = 1024 * 1024;

/** The vCenters of a scenario: default has vc-prod-02 disconnected and vc-lab-03 disabled. */
export function scenarioVCenters(scenario: string): SimVCenter[] {
  const vc = (n: number, name: string, connected: boolean, health: string, enabled = true): SimVCenter => ({
    id: guid(0x7c000000, n),
    name,
    enabled,
    connected,
    listener: connected ? 'CONNECTED' : 'DISCONNECTED',
    health,
    version: '8.0.2',
  });
  if (scenario === 'default') return [vc(1, 'vc-prod-01', true, 'GREEN'), vc(2, 'vc-prod-02', false, 'GRAY'), vc(3, 'vc-lab-03', false, 'GRAY', false)];
  if (scenario === 'hostile') return [vc(1, 'vc-prod-01', true, 'GREEN'), ...HOSTILE_NAMES.slice(0, 3).map(([name], i) => vc(10 + i, name, i !== 0, 'GREEN'))];
  return [vc(1, 'vc-prod-01', true, 'GREEN')];
}

/** The datastores of a scenario (default: ds-silver-02 at 93 %), and `extra` more at 50 % on vc-prod-01. */
export function scenarioDatastores(scenario: string, extra = 0): SimDatastore[] {
  const ds = (n: number, name: string, vc: string, usedPct: number, provisionedPct: number, enabled = true): SimDatastore => ({
    id: guid(0xd5000000, n),
    name,
    vc,
    enabled,
    capacity: 10 * TB,
    used: Math.round((10 * TB * usedPct) / 100),
    provisioned: Math.round((10 * TB * provisionedPct) / 100),
  });
  const base =
    scenario === 'default'
      ? [
          ds(1, 'ds-gold-01', 'vc-prod-01', 55, 80),
          ds(2, 'ds-silver-02', 'vc-prod-01', 93, 140),
          ds(3, 'ds-nfs-03', 'vc-prod-02', 40, 180),
          ds(4, 'ds-old-04', 'vc-lab-03', 20, 20, false),
        ]
      : scenario === 'hostile'
        ? HOSTILE_NAMES.map(([name], i) => ds(100 + i, name, 'vc-prod-01', i % 2 === 0 ? 95 : 30, 100))
        : [ds(1, 'ds-gold-01', 'vc-prod-01', 55, 80)];
  const bulk: SimDatastore[] = [];
  for (let n = 0; n < extra; n++) bulk.push(ds(100_000 + n, `bulk-ds-${String(n).padStart(6, '0')}`, 'vc-prod-01', 50, 60));
  return [...base, ...bulk];
}

/** One vCenter as the CloudAPI writes it. */
function cloudApiVCenter(v: SimVCenter): Record<string, unknown> {
  return {
    vcId: `urn:vcloud:vimserver:${v.id}`,
    name: v.name,
    description: '',
    username: 'administrator@vsphere.local',
    password: null,
    url: `https://${v.name.replace(/[^a-z0-9.-]/gi, '') || 'vc'}.example.com`,
    isEnabled: v.enabled,
    vsphereWebClientServerUrl: null,
    hasProxy: false,
    rootFolder: null,
    vcNoneNetwork: null,
    tenantVisibleName: null,
    isConnected: v.connected,
    mode: 'CLOUD_DIRECTOR',
    listenerState: v.listener,
    clusterHealthStatus: v.health,
    vcVersion: v.version,
    buildNumber: '22617221',
    uuid: v.id,
    nsxVManager: null,
  };
}

/** A CloudAPI page of vCenters. */
export function cloudApiVCentersPage(vcenters: readonly SimVCenter[], page: number, pageSize: number, endless: boolean): string {
  return cloudApiPage(vcenters, page, pageSize, endless, cloudApiVCenter);
}

/** The datastores as DatastoreRecord rows. */
export function datastoreRows(datastores: readonly SimDatastore[], vcenters: readonly SimVCenter[], base: string): QueryRow[] {
  const vcIds = new Map(vcenters.map((v) => [v.name, v.id]));
  return datastores.map((d) => {
    const values = (): Record<string, string> => ({
      datastoreType: 'VMFS6',
      isDeleted: 'false',
      isEnabled: String(d.enabled),
      moref: `datastore-${parseInt(d.id.slice(0, 8), 16) & 0xffff}`,
      name: d.name,
      numberOfProviderVdcs: '1',
      provisionedStorageMB: String(d.provisioned),
      requestedStorageMB: String(d.provisioned),
      storageMB: String(d.capacity),
      storageUsedMB: String(d.used),
      vc: `${base}/api/admin/extension/vimServer/${vcIds.get(d.vc) ?? d.id}`,
      vcName: d.vc,
      href: `${base}/api/admin/extension/datastore/${d.id}`,
    });
    return {
      name: d.name,
      id: d.id,
      attr: (a) => values()[a],
      element: 'DatastoreRecord',
      get xml() {
        return Object.entries(values());
      },
      get json() {
        return { _type: 'QueryResultDatastoreRecordType', ...values() };
      },
    };
  });
}

// The cloud-director half of the simulator: login (CloudAPI, legacy /api/sessions, OAuth API
// tokens), sessions that expire, and the current/historic metrics of a set of VMs.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineOptions, type OptionsOf } from '../../lib/plugin/options';
import { send } from '../faults';
import { defineSimModule, type SimApi } from '../module';
import { Stats } from '../server';
import { currentUsage, errorDocument, historicUsage, sessionDocument, type XmlStyle } from './documents';
import { DEFAULT_FLEET_VMS, scenarioFleet, type Fleet, type SimOrg, type VmRecord } from './fleet';
import { ALL_VERSIONS, answerRecords, orgRows, parseVersionList, sendQueryError, sortedRows, versionsDocument, vmRows, type QueryRow } from './query';
import { cellRows, cellsPage, providerPolicyRows, providerVdcDocument, providerVdcMetrics, providerVdcRows, scenarioEstate, type Estate } from './pvdcs';
import { scenarioVdcs, storagePolicyRows, vdcRows, type SimVdc, type VdcSet } from './vdcs';
import { hygieneAttributes, leaseSectionDocument, simVappId, snapshotSectionDocument } from './hygiene';
import { currentRefusal, vmRecordDocument } from './vm-records';
import { scenarioTasks, taskRows, type SimTask } from './tasks';
import { cloudApiEdgesPage, edgeRows, scenarioEdges, type SimEdge } from './edges';
import { cloudApiVCentersPage, datastoreRows, scenarioDatastores, scenarioVCenters, type SimDatastore, type SimVCenter } from './backends';
import type { SimVm } from './vms';
import { readUsageSpec, type UsageFilter } from './usage-spec';

interface SimSession {
  auth: 'bearer' | 'legacy';
  expires: number;
  /** The organisation logged in to: System sees every organisation, a tenant its own. */
  org: string;
}

const XML_TYPE = 'application/*+xml;version=';
const JSON_TYPE = 'application/*+json;version=';

/**
 * A legacy (/api/sessions) session token as servers wrote it: hex (the default); base64 with
 * `+`, `/` and `=` (vCD 5.x-9.x); or base64 sent only in `Set-Cookie: vcloud-token`.
 */
function legacyToken(style: string): string {
  if (style === 'hex') return randomBytes(16).toString('hex');
  // Always carries the three characters a careless client would mangle.
  return `${randomBytes(12).toString('base64').replace(/=+$/, '')}+/${randomBytes(10).toString('base64').replace(/=+$/, '')}=`;
}

/** The options of the `vcd` module. */
const VCD_OPTIONS = defineOptions([
  {
    long: 'vcd-scenario',
    type: 'string',
    arg: 'NAME',
    default: 'default',
    choices: ['default', 'healthy', 'fleet', 'hostile', 'nodes'],
    description:
      "VMs served: default has a healthy, a busy (~85% cpu), a full-disk, a powered-off, a stale (history stopped 1h ago), a disk-less and a no-tools VM; healthy only calm ones; fleet 2,000 VMs in 40 vApps (two named 'twin' in vapp-01 and vapp-02, 'Web & DB 01' in 'Sales & Marketing', a template VM); hostile 8 VMs whose tenants chose names to attack the monitoring (macros, quotes, shell operators, a trailing backslash, line breaks); nodes the VMs of --cluster-scenario vcd (worker-2 powered off, worker-3 at 100% cpu, worker-5 at 93% memory, none for worker-4). Unknown ids get 403. Every scenario has organisation VDCs for check_vdc (default: a healthy one, one near its memory limit, a pay-as-you-go one, a disabled one, one with a failed VM), provider VDCs for check_pvdc (default: pvdc-gold-01 healthy, pvdc-silver-02 at 87% of its memory, pvdc-legacy-03 disabled; others one healthy) and cells for check_vcd (default: three, vcd-cell-03 down; others two, both serving); tasks for check_vcd_tasks (default: four failed vdcComposeVapp in the tenant organisation and a failed vappDeploy in globex within 15 minutes, and the ordinary work; hostile: failures named as the hostile VMs; others none failed); edge gateways for check_edge_gateways (default: acme-edge-01 realised, acme-edge-02 configuring, globex-edge-01 REALIZATION_FAILED with HA down, initech-edge-01 realised with HA degraded; hostile: the hostile names, every other one failed; others one realised); vCenter servers and datastores for check_vcd_backends (default: vc-prod-01 connected, vc-prod-02 disconnected, vc-lab-03 disabled; ds-silver-02 at 93% used and 140% provisioned, ds-nfs-03 180% provisioned, ds-old-04 disabled; hostile: vCenters and datastores with the hostile names, every other datastore at 95%; others one of each, healthy).",
  },
  {
    long: 'vcd-fleet-vms',
    type: 'number',
    arg: 'N',
    default: DEFAULT_FLEET_VMS,
    description: `VMs of the fleet scenario, in vApps of 50 (default ${DEFAULT_FLEET_VMS}); e.g. 100000 to measure a provider-sized fleet (query pages are written as they are served).`,
  },
  {
    long: 'vcd-versions',
    type: 'string',
    arg: 'LIST',
    default: ALL_VERSIONS.join(','),
    description: 'API versions served (GET /api/versions), e.g. 37.0,38.0,38.1: any other version in an Accept header gets 406.',
  },
  {
    long: 'vcd-legacy-token',
    type: 'string',
    arg: 'STYLE',
    default: 'hex',
    choices: ['hex', 'base64', 'cookie'],
    description: 'Token of POST /api/sessions: hex, base64 (with + / =), or base64 sent only as Set-Cookie: vcloud-token.',
  },
  { long: 'vcd-user', type: 'string', arg: 'NAME', default: 'monitor', description: 'User that may log in.' },
  { long: 'vcd-org', type: 'string', arg: 'ORG', default: 'acme', description: 'Org of the user (System: provider login).' },
  {
    long: 'vcd-provider-user',
    type: 'string',
    arg: 'NAME',
    default: 'provider',
    description:
      'A second user, of the System organisation, with the same password: a provider account that sees every organisation (the default scenario has acme, globex and initech) through the admin queries.',
  },
  {
    long: 'vcd-password',
    type: 'string',
    arg: 'TEXT',
    default: 'Sim-vcd-Passw0rd',
    description: 'Password of the user; written to <state-dir>/vcd-password (mode 0600).',
  },
  { long: 'vcd-no-cloudapi', type: 'boolean', description: 'Behave like vCD before 9.7: no CloudAPI session endpoint (404), only POST /api/sessions.' },
  { long: 'vcd-session-ttl', type: 'number', arg: 'SECONDS', default: 1800, description: 'Sessions expire this long after login (then 401).' },
  { long: 'vcd-xml-prefix', type: 'boolean', description: 'Write documents with a vcloud: namespace prefix instead of the default namespace.' },
  {
    long: 'vcd-latency',
    type: 'number',
    arg: 'MS',
    default: 0,
    description: 'Answer each metrics request this many milliseconds late, as a real cell does (50-300 ms): fleets are measured at real latencies.',
  },
  {
    long: 'vcd-max-operations',
    type: 'number',
    arg: 'N',
    default: 0,
    description:
      'Refuse a metrics request while N are under way already with HTTP 400 OPERATION_LIMITS_EXCEEDED, as vCD does beyond its simultaneous operations per user (0: no limit).',
  },
  {
    long: 'vcd-pvdcs',
    type: 'number',
    arg: 'N',
    default: 0,
    description:
      "N more provider VDCs beside the scenario's (pvdc-bulk-000001 on, one storage policy each, every 100th at 85% of its memory), e.g. 100000 for the listing of a very large estate.",
  },
  {
    long: 'vcd-tasks',
    type: 'number',
    arg: 'N',
    default: 0,
    description:
      "N more tasks of the tenant organisation in the last ten minutes beside the scenario's (every tenth a failed vdcComposeVapp), e.g. 100000 with --vcd-query-page-size 100000 for one page of 100,000 tasks.",
  },
  {
    long: 'vcd-edges',
    type: 'number',
    arg: 'N',
    default: 0,
    description:
      "N more edge gateways of the tenant organisation beside the scenario's (every 100th REALIZATION_FAILED), e.g. 100000 for a page of 100,000 with --vcd-cloudapi-page-size 100000.",
  },
  {
    long: 'vcd-datastores',
    type: 'number',
    arg: 'N',
    default: 0,
    description:
      "N more datastores on vc-prod-01 beside the scenario's (each 50% used), e.g. 100000 with --vcd-query-page-size 100000 for one page of 100,000.",
  },
  {
    long: 'vcd-cloudapi-page-size',
    type: 'number',
    arg: 'N',
    default: 0,
    description: 'Answer the CloudAPI edge gateway and vCenter lists in pages of N whatever pageSize asks (0: as asked, at most 128).',
  },
  {
    long: 'vcd-cloudapi-endless',
    type: 'boolean',
    description: 'The CloudAPI edge gateway and vCenter lists never end: every page says there is one more.',
  },
  {
    long: 'vcd-query-page-size',
    type: 'number',
    arg: 'N',
    default: 0,
    description:
      'Answer every query in pages of N records whatever pageSize asks, as a query service whose page size was raised past 128 (0: as asked, at most 128), e.g. 100000 with --vcd-pvdcs for one page of 100,000 provider VDCs.',
  },
  {
    long: 'vcd-refuse-spec',
    type: 'number',
    arg: 'STATUS',
    default: 0,
    description:
      'Refuse the metrics specs (POST …/metrics/current|historic with a CurrentUsageSpec or HistoricUsageSpec) with this HTTP status, as a server or proxy that takes only GET does (e.g. 405, 400, 415, 501; 0: take them and answer with the metrics and samples they ask for).',
  },
  {
    long: 'vcd-omit-attributes',
    type: 'string',
    arg: 'NAMES',
    default: '',
    description:
      'Leave these attributes (comma-separated, e.g. memoryLimitMB,storageUsedMB) out of every VDC and storage-policy record, as servers leave out optional ones (the schema makes every record attribute optional); Reserved leaves the ComputeCapacity Reserved out of the VMWProviderVdc documents (then the CloudAPI metrics carry them).',
  },
]);
type VcdSimOptions = OptionsOf<typeof VCD_OPTIONS>;

/** What the simulator serves and accepts, read once from its options. */
interface VcdConfig {
  user: string;
  org: string;
  providerUser: string;
  password: string;
  /** The API (refresh) token that /oauth/.../token exchanges. */
  apiToken: string;
  ttlMs: number;
  noCloudApi: boolean;
  /** The namespace prefix of the documents ('' for the default namespace). */
  prefix: string;
  versions: string[];
  tokenStyle: string;
  /** Delay of each metrics answer, in ms. */
  latencyMs: number;
  /** Metrics requests under way at most (0: any number). */
  maxOperations: number;
  /** Attributes left out of the VDC and storage-policy records. */
  omit: ReadonlySet<string>;
  /** The query service's page size whatever `pageSize` asks (0: as asked, at most 128). */
  queryPageSize: number;
  /** The status a posted metrics spec gets (0: the spec is taken). */
  refuseSpec: number;
}

function readConfig(options: VcdSimOptions): VcdConfig {
  return {
    user: options['vcd-user'],
    org: options['vcd-org'],
    providerUser: options['vcd-provider-user'],
    password: options['vcd-password'],
    apiToken: randomBytes(24).toString('base64url'),
    ttlMs: options['vcd-session-ttl'] * 1000,
    noCloudApi: options['vcd-no-cloudapi'],
    prefix: options['vcd-xml-prefix'] ? 'vcloud' : '',
    versions: parseVersionList(options['vcd-versions']),
    tokenStyle: options['vcd-legacy-token'],
    latencyMs: Math.max(0, options['vcd-latency']),
    maxOperations: Math.max(0, options['vcd-max-operations']),
    omit: new Set(options['vcd-omit-attributes'].split(',').filter((a) => a !== '')),
    queryPageSize: Math.min(Math.max(0, options['vcd-query-page-size']), 1_000_000),
    refuseSpec: Math.max(0, options['vcd-refuse-spec']),
  };
}

const CLOUDAPI_LOGIN = /^\/cloudapi\/1\.0\.0\/sessions(\/provider)?$/;
const OAUTH_TOKEN = /^\/oauth\/(?:tenant\/([^/]+)|(provider))\/token$/;
const METRICS = /^\/api\/vApp\/([^/]+)\/metrics\/(current|historic)$/;
const VM_RECORD = /^\/api\/vApp\/(vm-[^/]+)$/;
const SNAPSHOT_SECTION = /^\/api\/vApp\/(vm-[^/]+)\/snapshotSection\/?$/;
const LEASE_SECTION = /^\/api\/vApp\/(vapp-[^/]+)\/leaseSettingsSection\/?$/;
const PVDC_DOCUMENT = /^\/api\/admin\/extension\/providervdc\/([^/]+)$/;
const PVDC_METRICS = /^\/cloudapi\/1\.0\.0\/providerVdcs\/urn:vcloud:providervdc:([^/]+)\/metrics$/;

/** vCD does not reveal whether an id exists: unknown and forbidden look the same. */
const isSystem = (org: string) => org.toLowerCase() === 'system';

const forbiddenVm = (id: string) =>
  `Either you need some or all of the following rights [Organization vDC: View] to perform operations [VAPP_VM_VIEW] for com.vmware.vcloud.entity.vm:${id.replace(/^vm-/, '')} or the target entity is invalid.`;

/** One simulated cloud director: its logins, its sessions and the VMs of a scenario. */
/** A control's percentages (cpu=95, ...) as fractions, each absent when not given, or what to answer for a bad one. */
function fractionsOf<const K extends string>(q: URLSearchParams, names: readonly K[]): Partial<Record<K, number>> | string {
  const out: Partial<Record<K, number>> = {};
  for (const name of names) {
    const v = q.get(name);
    if (v === null) continue;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) return `${name}=${v}: give a percentage, e.g. ${name}=95`;
    out[name] = n / 100;
  }
  return out;
}

class VcdServer {
  readonly stats = new Stats();
  readonly vms: Map<string, SimVm>;
  /** The organisation of each VM, by id. */
  private readonly orgOf: Map<string, string>;
  /** Every organisation (System first, then the tenant's own). */
  private readonly orgs: SimOrg[];
  private readonly tenantOrg: string;
  private readonly sessions = new Map<string, SimSession>();
  private readonly supported: Set<string>;
  /** What the query service lists: the fleet's VMs and those only a VDC has (a failed one). */
  private readonly records: VmRecord[];
  /** The VM query's rows per viewer (see queryRows); emptied by every control. */
  private readonly vmRowCache = new Map<string, QueryRow[]>();

  constructor(
    private readonly cfg: VcdConfig,
    fleet: Fleet,
    private readonly vdcSet: VdcSet,
    private readonly estate: Estate,
    private readonly tasks: readonly SimTask[] = [],
    private readonly edges: readonly SimEdge[] = [],
    private readonly cloudApiPaging: { size: number; endless: boolean } = { size: 0, endless: false },
    private readonly backends: { vcenters: readonly SimVCenter[]; datastores: readonly SimDatastore[] } = { vcenters: [], datastores: [] },
  ) {
    this.vms = new Map(fleet.vms.map((vm) => [vm.id, vm]));
    this.orgOf = new Map(fleet.records.map((r) => [r.id, r.org]));
    this.orgs = fleet.orgs;
    this.tenantOrg = fleet.orgs[1]?.name ?? 'acme';
    this.supported = new Set(cfg.versions);
    this.records = [...fleet.records, ...vdcSet.records];
  }

  /** Routes a request: the logins and logout, then the API reads; anything else is 404. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): void {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path.startsWith('/_sim/vcd/')) return this.control(res, url, method);
    if (method === 'POST') {
      const cloudApi = CLOUDAPI_LOGIN.exec(path);
      if (cloudApi && !this.cfg.noCloudApi) return this.cloudApiLogin(req, res, cloudApi[1] !== undefined);
      if (path === '/api/sessions') return this.legacyLogin(req, res);
      const oauth = OAUTH_TOKEN.exec(path);
      if (oauth) return this.oauthLogin(res, oauth[2] ? 'System' : decodeURIComponent(oauth[1]), body);
      const metrics = METRICS.exec(path);
      if (metrics) return this.metricsOperation(req, res, metrics[1], metrics[2] as 'current' | 'historic', body);
    }
    if (method === 'DELETE' && ((path === '/cloudapi/1.0.0/sessions/current' && !this.cfg.noCloudApi) || path === '/api/session'))
      return this.logout(req, res, path);
    if (method === 'GET') {
      if (path === '/api/versions') return this.listVersions(req, res);
      if (path === '/api/query') return this.query(req, res, url);
      const metrics = METRICS.exec(path);
      if (metrics) return this.metricsOperation(req, res, metrics[1], metrics[2] as 'current' | 'historic');
      const record = VM_RECORD.exec(path);
      if (record) return this.vmRecord(req, res, record[1]);
      const snapshots = SNAPSHOT_SECTION.exec(path);
      if (snapshots) return this.snapshotSection(req, res, snapshots[1]);
      const leases = LEASE_SECTION.exec(path);
      if (leases) return this.leaseSection(req, res, leases[1]);
      if ((path === '/cloudapi/1.0.0/sessions/current' && !this.cfg.noCloudApi) || path === '/api/session') return this.currentSession(req, res, path);
      if (path === '/cloudapi/1.0.0/cells' && !this.cfg.noCloudApi) return this.cells(req, res);
      if (path === '/cloudapi/1.0.0/edgeGateways' && !this.cfg.noCloudApi) return this.edgeGateways(req, res, url);
      if (path === '/cloudapi/1.0.0/virtualCenters' && !this.cfg.noCloudApi) return this.virtualCenters(req, res, url);
      const pvdc = PVDC_DOCUMENT.exec(path);
      if (pvdc) return this.providerVdc(req, res, pvdc[1]);
      const pvdcMetrics = this.cfg.noCloudApi ? null : PVDC_METRICS.exec(decodeURIComponent(path));
      if (pvdcMetrics) return this.providerVdcMetrics(req, res, pvdcMetrics[1]);
    }
    if (path.startsWith('/cloudapi/')) return this.jsonError(res, 404, 'NOT_FOUND', `No resource found for ${path}`);
    return this.xmlError(req, res, 404, 'RESOURCE_NOT_FOUND', `Resource not found: ${path}`);
  }

  /**
   * Run-time changes, for rehearsing a break (PUT or POST; the answer says what is now):
   * `/_sim/vcd/power?vm=ID|NAME&state=on|off|suspended` powers a VM (its record, its metrics);
   * `/_sim/vcd/vdc?vdc=ID|NAME&cpu=PCT&memory=PCT&storage=PCT` sets a VDC's use in percent of
   * its limits (any of the three; storage for each of its policies);
   * `/_sim/vcd/pvdc?pvdc=ID|NAME&cpu=PCT&memory=PCT` sets a provider VDC's use in percent of its
   * capacity; `/_sim/vcd/snapshot?vm=ID|NAME&days=N` gives a VM one snapshot N days old
   * (`days=none`: no snapshot).
   */
  /** The one VM a control names by id or name, or what to answer when not exactly one has it. */
  private controlledVm(want: string): SimVm | string {
    const vms = [...this.vms.values()].filter((vm) => vm.id === want.toLowerCase() || vm.name === want);
    return vms.length === 1 ? vms[0] : `vm=${want}: ${vms.length} VMs have that id or name; give the id (vm-<guid>)`;
  }

  private control(res: ServerResponse, url: URL, method: string): void {
    const text = (status: number, body: string) => send(res, status, { 'content-type': 'text/plain' }, `${body}\n`);
    if (method !== 'PUT' && method !== 'POST') return text(405, 'use PUT');
    this.vmRowCache.clear();
    this.providerRowCache.clear();
    const q = url.searchParams;
    if (url.pathname === '/_sim/vcd/power') {
      const want = q.get('vm') ?? '';
      const state = q.get('state') ?? '';
      const status = { on: 'POWERED_ON', off: 'POWERED_OFF', suspended: 'SUSPENDED' }[state];
      if (!status) return text(400, `state=${state}: give state=on, off or suspended`);
      const vm = this.controlledVm(want);
      if (typeof vm === 'string') return text(404, vm);
      vm.power = state as SimVm['power'];
      for (const r of this.records) if (r.id === vm.id) r.status = status;
      return text(200, `${vm.id} (${vm.name}) is ${status}`);
    }
    if (url.pathname === '/_sim/vcd/vdc') {
      const want = q.get('vdc') ?? '';
      const vdc = this.vdcSet.vdcs.find((v) => v.id === want || v.name === want);
      if (!vdc) return text(404, `vdc=${want}: no such VDC; the VDCs are ${this.vdcSet.vdcs.map((v) => v.name).join(', ')}`);
      const use = fractionsOf(q, ['cpu', 'memory', 'storage'] as const);
      if (typeof use === 'string') return text(400, use);
      const { cpu, memory, storage } = use;
      if (cpu !== undefined) vdc.cpuUsedMhz = Math.round(vdc.cpuLimitMhz * cpu);
      if (memory !== undefined) vdc.memoryUsedMb = Math.round(vdc.memoryLimitMb * memory);
      if (storage !== undefined) for (const p of vdc.policies) p.usedMb = Math.round(p.limitMb * storage);
      return text(200, `${vdc.name}: cpu ${vdc.cpuUsedMhz} of ${vdc.cpuLimitMhz} MHz, memory ${vdc.memoryUsedMb} of ${vdc.memoryLimitMb} MB`);
    }
    if (url.pathname === '/_sim/vcd/pvdc') {
      const want = q.get('pvdc') ?? '';
      const pvdc = this.estate.pvdcs.find((p) => p.id === want.toLowerCase() || p.name === want);
      if (!pvdc)
        return text(
          404,
          `pvdc=${want}: no such provider VDC; the first are ${this.estate.pvdcs
            .slice(0, 5)
            .map((p) => p.name)
            .join(', ')}`,
        );
      const use = fractionsOf(q, ['cpu', 'memory'] as const);
      if (typeof use === 'string') return text(400, use);
      for (const name of ['cpu', 'memory'] as const) {
        const fraction = use[name];
        if (fraction !== undefined) pvdc[name].used = Math.round(pvdc[name].total * fraction);
      }
      return text(200, `${pvdc.name}: cpu ${pvdc.cpu.used} of ${pvdc.cpu.total} MHz, memory ${pvdc.memory.used} of ${pvdc.memory.total} MB`);
    }
    if (url.pathname === '/_sim/vcd/snapshot') {
      const want = q.get('vm') ?? '';
      const days = q.get('days') ?? '';
      const vm = this.controlledVm(want);
      if (typeof vm === 'string') return text(404, vm);
      if (days === 'none') {
        vm.snapshots = [];
        return text(200, `${vm.id} (${vm.name}) has no snapshot`);
      }
      const n = Number(days);
      if (days === '' || !Number.isFinite(n) || n < 0) return text(400, `days=${days}: give the snapshot's age in days, e.g. days=10, or days=none`);
      vm.snapshots = [{ age: Math.round(n * 86400), size: 2 * 1024 ** 3 }];
      return text(200, `${vm.id} (${vm.name}) has one snapshot ${n} days old`);
    }
    return text(404, `no control ${url.pathname}: /_sim/vcd/power, /_sim/vcd/vdc, /_sim/vcd/pvdc or /_sim/vcd/snapshot`);
  }

  /** CloudAPI login (vCD 9.7+): the access token comes back in a response header. */
  private cloudApiLogin(req: IncomingMessage, res: ServerResponse, provider: boolean): void {
    const { versions } = this.cfg;
    const asked = /^application\/json;\s*version=(\S+)$/.exec(req.headers.accept ?? '')?.[1];
    if (!asked) return this.jsonError(res, 406, 'NOT_ACCEPTABLE', 'The request has invalid accept header: expected application/json;version=<version>');
    if (!this.supported.has(asked))
      return this.jsonError(
        res,
        406,
        'NOT_ACCEPTABLE',
        `The request has invalid accept header: Invalid API version requested. Supported versions: ${versions.join(', ')}`,
      );
    const account = this.accountOf(req);
    if (!account || provider !== isSystem(account.org)) {
      this.stats.bump('login-failed');
      return this.jsonError(res, 401, 'UNAUTHORIZED', 'Invalid credentials');
    }
    const token = this.newSession('bearer', account.org);
    const doc = {
      id: `urn:vcloud:session:${randomBytes(8).toString('hex')}`,
      user: { name: account.user },
      org: { name: account.org },
      roles: [isSystem(account.org) ? 'System Administrator' : 'vApp Author'],
    };
    return send(
      res,
      200,
      { 'content-type': 'application/json;version=34.0', 'x-vmware-vcloud-access-token': token, 'x-vmware-vcloud-token-type': 'Bearer' },
      JSON.stringify(doc),
    );
  }

  /** The XML API's own login (all versions): token in x-vcloud-authorization, or only in the vcloud-token cookie. */
  private legacyLogin(req: IncomingMessage, res: ServerResponse): void {
    const account = this.accountOf(req);
    if (!account) {
      this.stats.bump('login-failed');
      return this.xmlError(req, res, 401, 'UNAUTHORIZED', 'Invalid credentials');
    }
    const token = this.newSession('legacy', account.org);
    const headers: Record<string, string> = { 'content-type': 'application/vnd.vmware.vcloud.session+xml;version=34.0' };
    if (this.cfg.tokenStyle === 'cookie') headers['set-cookie'] = `vcloud-token=${token}; Secure; HttpOnly; Path=/`;
    else headers['x-vcloud-authorization'] = token;
    return send(res, 200, headers, sessionDocument(this.styleOf(req), account.user, account.org));
  }

  /** OAuth: an API (refresh) token exchanged for a bearer access token (vCD 10.3.1+). */
  private oauthLogin(res: ServerResponse, forOrg: string, body: Buffer): void {
    const form = new URLSearchParams(body.toString('utf8'));
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== this.cfg.apiToken || forOrg.toLowerCase() !== this.cfg.org.toLowerCase()) {
      this.stats.bump('login-failed');
      return send(res, 400, { 'content-type': 'application/json' }, JSON.stringify({ error: 'invalid_grant', error_description: 'Invalid refresh token' }));
    }
    const token = this.newSession('bearer', this.cfg.org);
    return send(
      res,
      200,
      { 'content-type': 'application/json' },
      JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: this.cfg.ttlMs / 1000, refresh_token: null }),
    );
  }

  private logout(req: IncomingMessage, res: ServerResponse, path: string): void {
    const s = this.sessionOf(req);
    if (!s)
      return path.startsWith('/api')
        ? this.xmlError(req, res, 401, 'UNAUTHORIZED', 'This operation is denied.')
        : this.jsonError(res, 401, 'UNAUTHORIZED', 'Unauthorized');
    this.sessions.delete(s[0]);
    this.stats.bump('logout');
    return send(res, 204, {}, '');
  }

  /** No login needed, as on real servers: clients ask before they log in. */
  private listVersions(req: IncomingMessage, res: ServerResponse): void {
    this.stats.bump('versions');
    return send(res, 200, { 'content-type': 'application/vnd.vmware.vcloud.versions+xml' }, versionsDocument(this.styleOf(req).base, this.cfg.versions));
  }

  private query(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const accept = req.headers.accept ?? '';
    const json = accept.startsWith(JSON_TYPE);
    const version = accept.startsWith(XML_TYPE) ? accept.slice(XML_TYPE.length).trim() : json ? accept.slice(JSON_TYPE.length).trim() : undefined;
    if (!version || !this.supported.has(version)) return this.refuseVersion(req, res);
    const session = this.sessionOf(req);
    if (!session) return this.unauthorized(req, res);
    const viewer = { provider: isSystem(session[1].org), org: session[1].org };
    const rows = this.queryRows(url.searchParams.get('type') ?? '', this.styleOf(req).base, version, viewer);
    if (typeof rows === 'string')
      return sendQueryError(
        res,
        json,
        version,
        rows.startsWith('Unsupported') ? 400 : 403,
        rows,
        rows.startsWith('Unsupported') ? 'BAD_REQUEST' : 'ACCESS_TO_RESOURCE_IS_FORBIDDEN',
      );
    return answerRecords(res, url, this.styleOf(req).base, rows, json, version, (n) => this.stats.bump(n), this.cfg.queryPageSize);
  }

  /**
   * The rows of a query type, or why it is refused: the admin types need a System login, as on
   * vCD; a tenant sees its own organisation's VMs and organisation, a provider every one.
   */
  private queryRows(type: string, base: string, version: string, viewer: { provider: boolean; org: string }): QueryRow[] | string {
    const admin = type.startsWith('admin');
    if (admin && !viewer.provider) return 'This operation is denied.';
    const vdcHref = (r: VmRecord) => `${base}/api/vdc/${this.vdcSet.vdcOf(r, this.orgOfRecord(r))}`;
    const sees = (org: string) => viewer.provider || org.toLowerCase() === viewer.org.toLowerCase();
    switch (type) {
      case 'vm':
      case 'adminVM': {
        // The rows of one viewer, kept until a control changes a record: each page of a large
        // fleet is then served at the cost of the page (its records are written as served).
        const key = `${type} ${base} ${viewer.provider} ${viewer.org}`;
        let rows = this.vmRowCache.get(key);
        if (!rows) {
          rows = vmRows(
            this.records.filter((r) => sees(this.orgOfRecord(r))),
            base,
            vdcHref,
            admin ? { orgHref: (r) => this.orgHref(base, this.orgOfRecord(r)) } : undefined,
            (r) => hygieneAttributes(this.vms.get(r.id), r, admin, Date.now()),
          );
          this.vmRowCache.set(key, rows);
        }
        return rows;
      }
      case 'organization':
        return orgRows(
          this.orgs.filter((o) => sees(o.name)),
          base,
        );
      case 'orgVdc':
      case 'adminOrgVdc':
        return vdcRows(
          this.vdcSet.vdcs.filter((v) => sees(v.org)),
          base,
          admin,
          version,
          (v) => this.vmCounts(v),
          this.cfg.omit,
        );
      case 'orgVdcStorageProfile':
      case 'adminOrgVdcStorageProfile':
        return storagePolicyRows(
          this.vdcSet.vdcs.filter((v) => sees(v.org)),
          base,
          admin,
          this.cfg.omit,
        );
      // The provider's own types are for System only, as the API reference says ([SysAdmin]).
      case 'providerVdc':
        return viewer.provider ? this.providerRows('providerVdc', base, version) : 'This operation is denied.';
      case 'providerVdcStorageProfile':
        return viewer.provider ? this.providerRows('providerVdcStorageProfile', base, version) : 'This operation is denied.';
      case 'datastore':
        return viewer.provider ? datastoreRows(this.backends.datastores, this.backends.vcenters, base) : 'This operation is denied.';
      case 'cell':
        return viewer.provider ? cellRows(this.estate, base) : 'This operation is denied.';
      case 'edgeGateway':
        return edgeRows(
          this.edges.filter((e) => sees(e.org)),
          base,
        );
      case 'task':
      case 'adminTask':
        return this.taskRows(type, base, viewer, sees);
      default:
        return `Unsupported query type "${type}" in this simulator (only vm, adminVM, organization, orgVdc, adminOrgVdc, orgVdcStorageProfile, adminOrgVdcStorageProfile, providerVdc, providerVdcStorageProfile, cell, task, adminTask, edgeGateway, datastore)`;
    }
  }

  /** The task rows of a viewer, built once (their dates are written as each page is served). */
  private readonly taskRowCache = new Map<string, QueryRow[]>();
  private taskRows(type: string, base: string, viewer: { provider: boolean; org: string }, sees: (org: string) => boolean): QueryRow[] {
    const key = `${type} ${base} ${viewer.provider} ${viewer.org}`;
    let rows = this.taskRowCache.get(key);
    if (rows === undefined) {
      rows = taskRows(
        this.tasks.filter((t) => sees(t.org)),
        base,
        type === 'adminTask',
        (org) => this.orgHref(base, org),
      );
      this.taskRowCache.set(key, rows);
    }
    return rows;
  }

  /** The VMs (no templates) of a VDC, and how many run. */
  /** The provider records, built and sorted once per base URL and version: a bulk estate is paged through hundreds of times. */
  private readonly providerRowCache = new Map<string, QueryRow[]>();
  private providerRows(type: 'providerVdc' | 'providerVdcStorageProfile', base: string, version: string): QueryRow[] {
    const key = `${type} ${base} ${version}`;
    let rows = this.providerRowCache.get(key);
    if (rows === undefined) {
      rows = sortedRows(type === 'providerVdc' ? providerVdcRows(this.estate, base, version) : providerPolicyRows(this.estate, base, version));
      this.providerRowCache.set(key, rows);
    }
    return rows;
  }

  private vmCounts(vdc: SimVdc): { total: number; running: number } {
    // The other organisations' VMs of the default scenario are in no VDC of the set.
    const mine = this.records.filter(
      (r) => !r.template && this.vdcSet.vdcOf(r, this.orgOfRecord(r)) === vdc.id && this.orgOfRecord(r).toLowerCase() === vdc.org.toLowerCase(),
    );
    return { total: mine.length, running: mine.filter((r) => r.status === 'POWERED_ON').length };
  }

  /** A record's organisation: its own, or (a VDC-only record) the scenario's tenant organisation. */
  private orgOfRecord(r: VmRecord): string {
    return this.orgOf.get(r.id) ?? this.tenantOrg;
  }

  private orgHref(base: string, org: string): string {
    return `${base}/api/org/${this.orgs.find((o) => o.name.toLowerCase() === org.toLowerCase())?.id ?? '00000000-0000-4000-8000-000000000000'}`;
  }

  /** The session's own document: the cheap authenticated request check_vcd makes. */
  private currentSession(req: IncomingMessage, res: ServerResponse, path: string): void {
    const s = this.sessionOf(req);
    const cloudApi = path.startsWith('/cloudapi');
    if (!s) return cloudApi ? this.jsonError(res, 401, 'UNAUTHORIZED', 'Unauthorized') : this.unauthorized(req, res);
    this.stats.bump('session-read');
    const user = isSystem(s[1].org) ? this.cfg.providerUser : this.cfg.user;
    if (!cloudApi)
      return send(res, 200, { 'content-type': 'application/vnd.vmware.vcloud.session+xml;version=34.0' }, sessionDocument(this.styleOf(req), user, s[1].org));
    const doc = { id: `urn:vcloud:session:${randomBytes(8).toString('hex')}`, user: { name: user }, org: { name: s[1].org }, location: 'vcd-cell-01' };
    return send(res, 200, { 'content-type': 'application/json;version=34.0' }, JSON.stringify(doc));
  }

  /** The CloudAPI edge gateway list: a tenant's own, System every organisation's (filter=orgRef.name==X narrows). */
  private edgeGateways(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const s = this.sessionOf(req);
    if (!s) return this.jsonError(res, 401, 'UNAUTHORIZED', 'Unauthorized');
    const viewer = s[1].org;
    const version = /version=(\S+)/.exec(req.headers.accept ?? '')?.[1] ?? '34.0';
    const org = /^orgRef\.name==(.*)$/.exec(url.searchParams.get('filter') ?? '')?.[1];
    const edges = this.edges.filter(
      (e) => (isSystem(viewer) || e.org.toLowerCase() === viewer.toLowerCase()) && (org === undefined || e.org.toLowerCase() === org.toLowerCase()),
    );
    const asked = Math.min(128, Math.max(1, Number(url.searchParams.get('pageSize') ?? '25') || 25));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
    this.stats.bump('edge-gateways');
    const { size, endless } = this.cloudApiPaging;
    return send(res, 200, { 'content-type': `application/json;version=${version}` }, cloudApiEdgesPage(edges, page, size > 0 ? size : asked, endless));
  }

  /** The CloudAPI vCenter server list: System only. */
  private virtualCenters(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const s = this.sessionOf(req);
    if (!s) return this.jsonError(res, 401, 'UNAUTHORIZED', 'Unauthorized');
    if (!isSystem(s[1].org)) return this.jsonError(res, 403, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', 'Access is forbidden');
    const version = /version=(\S+)/.exec(req.headers.accept ?? '')?.[1] ?? '36.0';
    const asked = Math.min(128, Math.max(1, Number(url.searchParams.get('pageSize') ?? '25') || 25));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
    this.stats.bump('virtual-centers');
    const { size, endless } = this.cloudApiPaging;
    return send(
      res,
      200,
      { 'content-type': `application/json;version=${version}` },
      cloudApiVCentersPage(this.backends.vcenters, page, size > 0 ? size : asked, endless),
    );
  }

  /** The CloudAPI cells list: System only. */
  private cells(req: IncomingMessage, res: ServerResponse): void {
    const s = this.sessionOf(req);
    if (!s) return this.jsonError(res, 401, 'UNAUTHORIZED', 'Unauthorized');
    if (!isSystem(s[1].org)) return this.jsonError(res, 403, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', 'Access is forbidden');
    const version = /version=(\S+)/.exec(req.headers.accept ?? '')?.[1] ?? '34.0';
    this.stats.bump('cells');
    return send(res, 200, { 'content-type': `application/json;version=${version}` }, cellsPage(this.estate, version));
  }

  /** A provider VDC's CloudAPI metrics (ProviderVdcMetrics, named as the version asked for): System only. */
  private providerVdcMetrics(req: IncomingMessage, res: ServerResponse, id: string): void {
    const s = this.sessionOf(req);
    if (!s) return this.jsonError(res, 401, 'UNAUTHORIZED', 'Unauthorized');
    const pvdc = this.estate.pvdcs.find((p) => p.id === id.toLowerCase());
    if (!isSystem(s[1].org) || !pvdc) return this.jsonError(res, 403, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', 'Access is forbidden');
    const version = /version=(\S+)/.exec(req.headers.accept ?? '')?.[1] ?? '34.0';
    this.stats.bump('pvdc-metrics');
    return send(res, 200, { 'content-type': `application/json;version=${version}` }, providerVdcMetrics(pvdc, version));
  }

  /** A provider VDC's VMWProviderVdc document (its ComputeCapacity with Reserved): System only. */
  private providerVdc(req: IncomingMessage, res: ServerResponse, id: string): void {
    const s = this.sessionOf(req);
    if (!s) return this.unauthorized(req, res);
    const pvdc = this.estate.pvdcs.find((p) => p.id === id.toLowerCase());
    if (!isSystem(s[1].org) || !pvdc)
      return this.xmlError(
        req,
        res,
        403,
        'ACCESS_TO_RESOURCE_IS_FORBIDDEN',
        `Either you need some or all of the following rights [Provider VDC: View] or the target entity is invalid.`,
      );
    this.stats.bump('pvdc-document');
    return send(
      res,
      200,
      { 'content-type': 'application/vnd.vmware.admin.vmwprovidervdc+xml;version=34.0' },
      providerVdcDocument(pvdc, this.styleOf(req).base, this.cfg.omit),
    );
  }

  /** Metrics requests under way (answered late by --vcd-latency; limited by --vcd-max-operations). */
  private operations = 0;

  /** A metrics request: refused beyond --vcd-max-operations under way, answered after --vcd-latency. */
  private metricsOperation(req: IncomingMessage, res: ServerResponse, id: string, which: 'current' | 'historic', spec?: Buffer): void {
    const { latencyMs, maxOperations } = this.cfg;
    if (maxOperations > 0 && this.operations >= maxOperations && this.sessionOf(req)) {
      this.stats.bump('operation-limits');
      return this.xmlError(
        req,
        res,
        400,
        'OPERATION_LIMITS_EXCEEDED',
        `[ ${randomBytes(16).toString('hex')} ] The maximum number of simultaneous operations for user "${this.cfg.user}" on organization "${this.cfg.org}" has been reached.`,
      );
    }
    if (latencyMs === 0) return this.metrics(req, res, id, which, spec);
    this.operations++;
    this.stats.setMax('operations-max', this.operations);
    setTimeout(() => {
      this.operations--;
      if (!res.destroyed) this.metrics(req, res, id, which, spec);
    }, latencyMs);
  }

  /** GET (every metric; the whole day of history) or POST of a spec (the metrics and samples it asks for), after the version, session and VM are checked. */
  private metrics(req: IncomingMessage, res: ServerResponse, id: string, which: 'current' | 'historic', spec?: Buffer): void {
    const accept = req.headers.accept ?? '';
    const version = accept.startsWith(XML_TYPE) ? accept.slice(XML_TYPE.length).trim() : undefined;
    if (!version || !this.supported.has(version)) return this.refuseVersion(req, res);
    const session = this.sessionOf(req);
    if (!session) return this.unauthorized(req, res);
    const vm = this.visibleVm(session[1], id);
    if (!vm) return this.xmlError(req, res, 403, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', forbiddenVm(id));
    const now = Date.now();
    let filter: UsageFilter | undefined;
    if (spec) {
      if (this.cfg.refuseSpec > 0) {
        this.stats.bump(`metrics-spec-refused.${which}`);
        return this.xmlError(req, res, this.cfg.refuseSpec, 'BAD_REQUEST', `The operation POST ${req.url ?? ''} is not supported`);
      }
      const read = readUsageSpec(which, req.headers['content-type'], spec.toString('utf8'), now);
      if (!('filter' in read)) return this.xmlError(req, res, read.status, read.minor, read.message);
      filter = read.filter;
      this.stats.bump(`metrics-spec.${which}`);
    }
    this.stats.bump(`metrics.${which}`);
    if (which === 'historic') {
      return send(
        res,
        200,
        { 'content-type': 'application/vnd.vmware.vcloud.metrics.historicUsage+xml;version=34.0' },
        historicUsage(this.styleOf(req), vm, now, filter),
      );
    }
    const refusal = currentRefusal(vm);
    if (refusal) return this.xmlError(req, res, 400, refusal.minor, refusal.message);
    return send(
      res,
      200,
      { 'content-type': 'application/vnd.vmware.vcloud.metrics.currentUsage+xml;version=34.0' },
      currentUsage(this.styleOf(req), vm, now, filter),
    );
  }

  /** The VM's own record: its power state. */
  private vmRecord(req: IncomingMessage, res: ServerResponse, id: string): void {
    const session = this.sessionOf(req);
    if (!session) return this.xmlError(req, res, 401, 'UNAUTHORIZED', 'This operation is denied.');
    const vm = this.visibleVm(session[1], id);
    if (!vm) return this.xmlError(req, res, 403, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', forbiddenVm(id));
    this.stats.bump('vm-record');
    return send(
      res,
      200,
      { 'content-type': 'application/vnd.vmware.vcloud.vm+xml;version=34.0' },
      vmRecordDocument(this.styleOf(req).base, this.cfg.prefix, vm),
    );
  }

  /** A VM's SnapshotSection (check_vm_snapshot reads it when the record lists a snapshot). */
  private snapshotSection(req: IncomingMessage, res: ServerResponse, id: string): void {
    const session = this.sessionOf(req);
    if (!session) return this.unauthorized(req, res);
    const vm = this.visibleVm(session[1], id);
    if (!vm) return this.xmlError(req, res, 403, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', forbiddenVm(id));
    this.stats.bump('snapshot-section');
    return send(
      res,
      200,
      { 'content-type': 'application/vnd.vmware.vcloud.snapshotSection+xml;version=34.0' },
      snapshotSectionDocument(this.styleOf(req).base, this.cfg.prefix, vm, Date.now()),
    );
  }

  /** A vApp's LeaseSettingsSection (check_vm_lease reads it when the record has no lease date). */
  private leaseSection(req: IncomingMessage, res: ServerResponse, id: string): void {
    const session = this.sessionOf(req);
    if (!session) return this.unauthorized(req, res);
    const sees = (org: string) => isSystem(session[1].org) || org.toLowerCase() === session[1].org.toLowerCase();
    const members = this.records.filter((r) => !r.template && simVappId(r.vapp) === id.toLowerCase() && sees(this.orgOfRecord(r)));
    if (members.length === 0)
      return this.xmlError(
        req,
        res,
        403,
        'ACCESS_TO_RESOURCE_IS_FORBIDDEN',
        `Either you need some or all of the following rights [vApp: View] to perform operations [VAPP_VIEW] for ${id} or the target entity is invalid.`,
      );
    this.stats.bump('lease-section');
    const deployed = members.some((r) => r.status === 'POWERED_ON');
    return send(
      res,
      200,
      { 'content-type': 'application/vnd.vmware.vcloud.leaseSettingsSection+xml;version=34.0' },
      leaseSectionDocument(this.styleOf(req).base, this.cfg.prefix, id, members[0].vapp, deployed, Date.now()),
    );
  }

  /** A VM the session may see: a tenant only its own organisation's (as vCD: others are unknown ids). */
  private visibleVm(session: SimSession, id: string): SimVm | undefined {
    const vm = this.vms.get(id.toLowerCase());
    if (!vm || isSystem(session.org)) return vm;
    return this.orgOf.get(vm.id)?.toLowerCase() === session.org.toLowerCase() ? vm : undefined;
  }

  private newSession(auth: SimSession['auth'], org: string): string {
    const token = auth === 'bearer' ? `eyJhbGciOiJSUzI1NiJ9.${randomBytes(48).toString('base64url')}` : legacyToken(this.cfg.tokenStyle);
    this.sessions.set(token, { auth, expires: Date.now() + this.cfg.ttlMs, org });
    this.stats.bump('login');
    this.stats.bump(`login.${auth}`);
    return token;
  }

  /** The account of a Basic login: the configured user of its org, or the provider user of System. */
  private accountOf(req: IncomingMessage): { user: string; org: string } | undefined {
    const m = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    if (m === null) return undefined;
    const given = Buffer.from(m[1], 'base64').toString('utf8');
    const { user, org, providerUser, password } = this.cfg;
    if (given === `${user}@${org}:${password}`) return { user, org };
    if (!isSystem(org) && given === `${providerUser}@System:${password}`) return { user: providerUser, org: 'System' };
    return undefined;
  }

  /** The session a request carries, if valid; an expired one is forgotten. */
  private sessionOf(req: IncomingMessage): [string, SimSession] | undefined {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const legacy = req.headers['x-vcloud-authorization'] as string | undefined;
    const token = bearer ?? legacy;
    const s = token === undefined ? undefined : this.sessions.get(token);
    if (!token || !s || s.auth !== (bearer ? 'bearer' : 'legacy')) return undefined;
    if (s.expires < Date.now()) {
      this.sessions.delete(token);
      this.stats.bump('expired');
      return undefined;
    }
    return [token, s];
  }

  private styleOf(req: IncomingMessage): XmlStyle {
    return { prefix: this.cfg.prefix, base: `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host ?? '127.0.0.1'}` };
  }

  private unauthorized(req: IncomingMessage, res: ServerResponse): void {
    this.stats.bump('unauthorized');
    return this.xmlError(req, res, 401, 'UNAUTHORIZED', 'This operation is denied.');
  }

  /** The answer of a server asked for a version it does not speak. */
  private refuseVersion(req: IncomingMessage, res: ServerResponse): void {
    this.stats.bump('refused-version');
    return this.xmlError(
      req,
      res,
      406,
      'NOT_ACCEPTABLE',
      `The request has invalid accept header: Invalid API version requested. Supported versions: ${this.cfg.versions.join(', ')}`,
    );
  }

  private xmlError(req: IncomingMessage, res: ServerResponse, status: number, minor: string, message: string): void {
    return send(
      res,
      status,
      { 'content-type': 'application/vnd.vmware.vcloud.error+xml;version=34.0' },
      errorDocument(this.styleOf(req), status, minor, message),
    );
  }

  private jsonError(res: ServerResponse, status: number, minor: string, message: string): void {
    return send(res, status, { 'content-type': 'application/json;version=34.0' }, JSON.stringify({ minorErrorCode: minor, message, stackTrace: null }));
  }
}

/** What the start-up banner says of the VMs: the roles of a few (the fleet scenario has 2,000), and one healthy VM for scripts. */
function describeVms(vms: Map<string, SimVm>): { vms: string; healthyVm: string } {
  const all = [...vms.values()];
  const list =
    all
      .slice(0, 12)
      .map((vm) => `${vm.role}=${vm.id}`)
      .join(' ') + (vms.size > 12 ? ` (and ${vms.size - 12} more)` : '');
  const healthyVm = (all.find((vm) => vm.role === 'healthy') ?? all.find((vm) => vm.power === 'on'))?.id ?? '';
  return { vms: list, healthyVm };
}

/** --vcd-fleet-vms checked: a positive whole number. */
function fleetVmsFrom(options: VcdSimOptions): number {
  const n = options['vcd-fleet-vms'];
  if (!Number.isInteger(n) || n <= 0) throw new Error(`invalid --vcd-fleet-vms ${n}: expected a positive whole number`);
  return n;
}

function create(options: VcdSimOptions, stateDir: string): SimApi {
  const cfg = readConfig(options);
  const fleetOrg = isSystem(cfg.org) ? undefined : cfg.org;
  const scenario = options['vcd-scenario'];
  // Every organisation's VDCs: a tenant login sees its own, a provider login (the configured
  // System user, or the provider user beside a tenant one) every one.
  const fleet = scenarioFleet(scenario, fleetOrg, fleetVmsFrom(options));
  const server = new VcdServer(
    cfg,
    fleet,
    scenarioVdcs(scenario, cfg.org, true),
    scenarioEstate(scenario, Math.min(Math.max(0, options['vcd-pvdcs']), 1_000_000)),
    scenarioTasks(scenario, fleet.orgs[1]?.name ?? 'acme', Math.min(Math.max(0, options['vcd-tasks']), 1_000_000)),
    scenarioEdges(scenario, fleet.orgs[1]?.name ?? 'acme', Math.min(Math.max(0, options['vcd-edges']), 1_000_000)),
    { size: Math.min(Math.max(0, options['vcd-cloudapi-page-size']), 1_000_000), endless: options['vcd-cloudapi-endless'] },
    { vcenters: scenarioVCenters(scenario), datastores: scenarioDatastores(scenario, Math.min(Math.max(0, options['vcd-datastores']), 1_000_000)) },
  );
  const passwordFile = join(stateDir, 'vcd-password');
  const apiTokenFile = join(stateDir, 'vcd-api-token');
  writeFileSync(passwordFile, cfg.password + '\n', { mode: 0o600 });
  writeFileSync(apiTokenFile, cfg.apiToken + '\n', { mode: 0o600 });
  const { vms, healthyVm } = describeVms(server.vms);
  return {
    handler: (req, res, url, body) => server.handle(req, res, url, body),
    stats: server.stats,
    // healthyVm: the one VM scripts (bench, quick tries) need without parsing the list.
    info: {
      user: cfg.user,
      org: cfg.org,
      providerUser: isSystem(cfg.org) ? cfg.user : cfg.providerUser,
      passwordFile,
      apiTokenFile,
      scenario: options['vcd-scenario'],
      healthyVm,
      vms,
    },
  };
}

/** The `vcd` simulator module (cloudchecks-sim --vcd-*). */
export const VCD_MODULE = defineSimModule({ name: 'vcd', description: 'cloud-director API', options: VCD_OPTIONS, create });

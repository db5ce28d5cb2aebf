// The request budget of the hygiene services: Tools none, snapshots one only for a VM listed
// with a snapshot (or whose record cannot say), leases none with the dates and one per vApp
// without them. Served with the simulator's documents through a counting GET.
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../../lib/http/request';
import { State } from '../../../../lib/plugin/state';
import { configureLeases, configureSnapshots, configureTools, LEASE_OPTIONS } from '../../../../lib/vcd/hygiene/hygiene-options';
import { readHygieneRecord } from '../../../../lib/vcd/hygiene/hygiene-probe';
import { leaseService, snapshotService, toolsService, type HygieneVm } from '../../../../lib/vcd/hygiene/hygiene-service';
import { hygieneAttributes, leaseSectionDocument, simVappId, snapshotSectionDocument } from '../../../../sim/vcd/hygiene';
import { scenarioFleet } from '../../../../sim/vcd/fleet';
import { vmRows } from '../../../../sim/vcd/query';

const BASE = 'https://vcd.example.com';
const fleet = scenarioFleet('default');

/** A GET over the simulator's documents that counts what it is asked. */
function simGet(now: number) {
  const asked: string[] = [];
  const get = async (path: string): Promise<HttpResponse> => {
    asked.push(path.replace(/\?.*/, ''));
    const ok = (body: string): HttpResponse => ({ status: 200, headers: {}, body: Buffer.from(body), url: new URL(path, BASE) });
    const snap = /^\/api\/vApp\/(vm-[^/]+)\/snapshotSection$/.exec(path);
    if (snap)
      return ok(
        snapshotSectionDocument(
          BASE,
          '',
          fleet.vms.find((v) => v.id === snap[1])!,
          now,
        ),
      );
    const lease = /^\/api\/vApp\/(vapp-[^/]+)\/leaseSettingsSection$/.exec(path);
    if (lease) {
      const members = fleet.records.filter((r) => simVappId(r.vapp) === lease[1]);
      return ok(
        leaseSectionDocument(
          BASE,
          '',
          lease[1],
          members[0].vapp,
          members.some((r) => r.status === 'POWERED_ON'),
          now,
        ),
      );
    }
    if (path.startsWith('/api/query?type=vm')) {
      const id = /id%3D%3D([0-9a-f-]+)/.exec(path)![1];
      const rows = vmRows(
        fleet.records.filter((r) => r.id === `vm-${id}`),
        BASE,
        () => `${BASE}/api/vdc/x`,
        undefined,
        (r) =>
          hygieneAttributes(
            fleet.vms.find((v) => v.id === r.id),
            r,
            false,
            now,
          ),
      );
      const records = rows.map((r) => `<VMRecord ${r.xml.map(([k, v]) => `${k}="${v.replace(/&/g, '&amp;')}"`).join(' ')}/>`).join('');
      return ok(`<QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" total="${rows.length}" page="1" pageSize="8">${records}</QueryResultRecords>`);
    }
    return { status: 404, headers: {}, body: Buffer.alloc(0), url: new URL(path, BASE) };
  };
  return { get, asked };
}

async function subject(name: string, now: number): Promise<HygieneVm> {
  const vm = fleet.vms.find((v) => v.name === name)!;
  const { get } = simGet(now);
  const record = await readHygieneRecord(get, vm.id, 'vm');
  return { id: record.id, hygiene: record.hygiene, status: record.status, label: record.id };
}

const NOW = Date.UTC(2026, 10, 26, 12, 30);
const snapshots = snapshotService(
  configureSnapshots({
    'age-warning': '3d',
    'age-critical': '7d',
    'size-warning': undefined,
    'size-critical': undefined,
    'count-warning': undefined,
    'count-critical': undefined,
  }).thresholds,
);
const tools = toolsService(configureTools({ 'outdated-state': 'WARNING', 'not-running-state': 'WARNING' }));
const leaseThresholds = configureLeases({ warning: LEASE_OPTIONS[0].default, critical: LEASE_OPTIONS[1].default }).thresholds;

describe('the simulated VMs through the services', () => {
  it.each([
    ['web-01', State.OK, 'no snapshot', []],
    ['build-02', State.OK, '1 snapshot', ['/api/vApp/vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d/snapshotSection']],
    ['db-03', State.CRITICAL, 'oldest 10d', ['/api/vApp/vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f/snapshotSection']],
    ['batch-05', State.OK, '12 snapshots', ['/api/vApp/vm-5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9/snapshotSection']],
  ])('snapshots of %s', async (name, state, summary, requests) => {
    const vm = await subject(name, NOW);
    const { get, asked } = simGet(NOW);
    const r = await snapshots.judge(vm, get, NOW);
    expect([r.state, r.summary]).toEqual([state, expect.stringContaining(summary)]);
    expect(asked).toEqual(requests);
  });
  it.each([
    ['web-01', State.OK, 'running and current'],
    ['build-02', State.WARNING, 'out of date'],
    ['appliance-06', State.OK, 'guest-managed'],
    ['legacy-07', State.WARNING, 'not installed'],
    ['files-08', State.WARNING, 'not running'],
    ['old-04', State.UNKNOWN, 'powered off'],
  ])('Tools of %s, with no request', async (name, state, summary) => {
    const vm = await subject(name, NOW);
    const { get, asked } = simGet(NOW);
    const r = await tools.judge(vm, get, NOW);
    expect([r.state, r.summary]).toEqual([state, expect.stringContaining(summary)]);
    expect(asked).toEqual([]);
  });
  it('leases: none with the dates, one per vApp without', async () => {
    const service = leaseService(leaseThresholds);
    const { get, asked } = simGet(NOW);
    const results = new Map<string, [State, string]>();
    for (const name of ['web-01', 'db-03', 'build-02', 'batch-05', 'old-04', 'appliance-06']) {
      const r = await service.judge(await subject(name, NOW), get, NOW);
      results.set(name, [r.state, r.summary]);
    }
    // shop never expires: its record has no date, its section is read once for its two VMs.
    expect(asked).toEqual([`/api/vApp/${simVappId('shop')}/leaseSettingsSection`]);
    expect(results.get('web-01')).toEqual([State.OK, 'no expiry on vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70']);
    expect(results.get('build-02')).toEqual([State.CRITICAL, expect.stringContaining('runtime lease expires in 1d 5h')]);
    expect(results.get('old-04')).toEqual([State.WARNING, expect.stringContaining('storage lease expires in 4d 23h')]);
  });
});

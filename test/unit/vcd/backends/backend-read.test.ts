// The vCenter servers and datastores as check_vcd_backends reads them, from a published vCenter
// document and documents built from the API reference (test/fixtures/vcd/backends/README.md),
// and its judgement of each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordsPageReader } from '../../../../lib/vcd/api/query-pages';
import { State } from '../../../../lib/plugin/state';
import { ScalarContext } from '../../../../lib/plugin/scalar-context';
import { datastoreFromRecord, vcenterFromCloudApi, vcenterFromRecord, type Datastore, type VCenter } from '../../../../lib/vcd/backends/backend-read';
import { judgeBackends, MAX_PERFDATA_VALUES, type BackendThresholds } from '../../../../lib/vcd/backends/backend-report';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd/backends', name));

function records<T>(file: string, names: string[], take: (e: Parameters<typeof vcenterFromRecord>[0]) => T): T[] {
  const out: T[] = [];
  const reader = new RecordsPageReader('query response', names, (e) => out.push(take(e)));
  reader.write(fixture(file));
  reader.end();
  return out;
}

const datastores = (): Datastore[] =>
  records('datastore-records-schema-api36.xml', ['DatastoreRecord'], (e) => datastoreFromRecord(e, 'query response')).filter(
    (d): d is Datastore => d !== undefined,
  );

const cloudVCenters = (): VCenter[] =>
  (JSON.parse(fixture('virtualCenters-cloudapi-schema-api36.json').toString('utf8')) as { values: Array<Record<string, unknown>> }).values.map((v) =>
    vcenterFromCloudApi(v)!,
  );

const thresholds = (over: Partial<BackendThresholds> = {}): BackendThresholds => ({
  storage: ScalarContext.fromOptions({ warning: '80', critical: '90' }),
  overcommit: ScalarContext.NONE,
  disabledState: State.OK,
  ...over,
});

describe('vCenter servers', () => {
  it('reads the published VCenterServer body: no vcId (named by its name), listener INITIAL, no version', () => {
    const v = vcenterFromCloudApi(JSON.parse(fixture('virtualCenters-published-blog-2024.json').toString('utf8')) as Record<string, unknown>)!;
    expect(v).toEqual({ id: 'vCenter01', name: 'vCenter01', enabled: true, connected: true, listener: 'INITIAL', health: 'GRAY' });
    const r = judgeBackends([v], [], thresholds());
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('vCenter vCenter01: not connected (listener INITIAL), cluster health GRAY, version not reported');
    expect(r.metrics).toEqual([{ label: 'vcenter01_h802f705d__connected', value: 0, min: 0, max: 1 }]);
  });

  it('reads the CloudAPI list: connected, listener, cluster health, version; hostile names inert; missing fields cost only themselves', () => {
    const vcs = cloudVCenters();
    expect(vcs.map((v) => [v.id, v.name, v.enabled, v.connected, v.listener, v.health, v.version])).toEqual([
      ['0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'vc-prod-01', true, true, 'CONNECTED', 'YELLOW', '8.0.2'],
      ['1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e', 'vc-dr-02 $USER1$', true, false, 'DISCONNECTED', 'RED', '7.0.3'],
      ['2c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f', 'vc-lab-03', false, false, 'DISCONNECTED', undefined, undefined],
      ['3d4e5f6a-7b8c-4d9e-9f0a-2b3c4d5e6f70', 'vc-old-04', undefined, undefined, undefined, undefined, undefined],
    ]);
    const r = judgeBackends(vcs, [], thresholds());
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe(
      '4 vCenters: vCenter vc-dr-02 $USER1$ not connected (listener DISCONNECTED), cluster health RED, vCenter vc-old-04 connection not reported by this vCD, vCenter vc-prod-01 cluster health YELLOW',
    );
    expect(r.items!.map((i) => [i.state, i.text])).toEqual([
      [State.CRITICAL, 'vCenter vc-dr-02 $USER1$: not connected (listener DISCONNECTED), cluster health RED, version 7.0.3'],
      [State.OK, 'vCenter vc-lab-03: disabled, not connected (listener DISCONNECTED), version not reported'],
      [State.UNKNOWN, 'vCenter vc-old-04: connection not reported by this vCD, version not reported'],
      [State.WARNING, 'vCenter vc-prod-01: connected, cluster health YELLOW, version 8.0.2'],
    ]);
    expect(r.metrics!.map((m) => [m.label, m.value])).toEqual([
      ['vc-dr-02_user1_h' + r.metrics![0].label.split('_h')[1].split('__')[0] + '__connected', 0],
      ['vc-lab-03__connected', 0],
      ['vc-old-04__connected', null],
      ['vc-prod-01__connected', 1],
    ]);
    expect(judgeBackends([vcs[2]], [], thresholds({ disabledState: State.WARNING })).state).toBe(State.WARNING);
  });

  it('reads the virtualCenter query records where there is no CloudAPI list', () => {
    const vcs = records('virtualCenter-records-schema-api33.xml', ['VirtualCenterRecord'], vcenterFromRecord);
    expect(vcs).toEqual([
      { id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', name: 'vc-prod-01', enabled: true, listener: 'CONNECTED', version: '6.7.0' },
      { id: '1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e', name: 'vc-dr-02', enabled: true, listener: 'RECONNECTING', version: '6.7.0' },
    ]);
    expect(judgeBackends(vcs, [], thresholds()).summary).toBe('2 vCenters: vCenter vc-dr-02 not connected (listener RECONNECTING)');
  });
});

describe('datastores', () => {
  it('reads the records: capacity, used, provisioned (else requested), disabled, an odd figure; a deleted one left out', () => {
    const ds = datastores();
    expect(ds.map((d) => [d.name, d.vc, d.type, d.enabled, d.capacityMB, d.usedMB, d.provisionedMB, d.odd])).toEqual([
      ['ds-gold-01', 'vc-prod-01', 'VMFS6', true, 10485760, 5767168, 8388608, []],
      ['nfs "silver" | 02', 'vc-prod-01', 'NFS41', true, 10485760, 9751756, 15728640, []],
      ['vsan-lab', 'vc-lab-03', 'VSAN', false, 4194304, 419430, 1048576, []],
      ['ds-new', 'vc-prod-01', 'VMFS5', true, undefined, undefined, undefined, ['storageMB "n/a"']],
    ]);
  });

  it('judges used % against --storage-*, provisioned % against --overcommit-* only when given; unknown figures are U', () => {
    const ds = datastores();
    const r = judgeBackends([], ds, thresholds());
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('4 datastores: datastore nfs "silver" | 02 93% used of 10240 GiB');
    expect(r.items!.map((i) => [i.state, i.text])).toEqual([
      [State.OK, 'datastore vsan-lab (vCenter vc-lab-03, VSAN): disabled, 10% used of 4096 GiB, 25% provisioned'],
      [State.OK, 'datastore ds-gold-01 (vCenter vc-prod-01, VMFS6): 55% used of 10240 GiB, 80% provisioned'],
      [State.OK, 'datastore ds-new (vCenter vc-prod-01, VMFS5): used unknown (capacity not reported), not numbers: storageMB "n/a"'],
      [State.CRITICAL, 'datastore nfs "silver" | 02 (vCenter vc-prod-01, NFS41): 93% used of 10240 GiB, 150% provisioned'],
    ]);
    const labels = r.metrics!.map((m) => m.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const l of labels) expect(l).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(r.metrics!.find((m) => m.label === 'vc-prod-01__ds-new__used_pct')!.value).toBeNull();
    const over = judgeBackends(
      [],
      ds,
      thresholds({ overcommit: ScalarContext.fromOptions({ warning: '120', critical: '200' }), disabledState: State.CRITICAL }),
    );
    expect(over.summary).toBe('4 datastores: datastore vsan-lab disabled, datastore nfs "silver" | 02 93% used of 10240 GiB, 150% provisioned');
  });

  it('100,000 datastores: judged, perfdata and long output bounded, the cut said', () => {
    const many: Datastore[] = [];
    for (let n = 0; n < 100_000; n++)
      many.push({ id: String(n), name: `ds-${n}`, vc: 'vc', type: 'VMFS6', enabled: true, capacityMB: 100, usedMB: n % 1000 === 0 ? 95 : 10, odd: [] });
    const started = process.cpuUsage();
    const r = judgeBackends([], many, thresholds());
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(5000);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.metrics!.length).toBeLessThanOrEqual(MAX_PERFDATA_VALUES);
    expect(r.items!.length).toBeLessThan(5000);
    expect(r.items![0].text).toMatch(/^perfdata for the first 500 of 100000 vCenters and datastores/);
    expect(r.summary).toMatch(/^100000 datastores: datastore ds-0 95% used of 0.1 GiB, .* … 90 more$/);
  });
});

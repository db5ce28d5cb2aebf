// readClusterOperatorList and readClusterVersion on documents real clusters returned
// (test/fixtures/cluster/operators/README.md says where each came from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readClusterOperatorList } from '../../../lib/cluster/cluster-operator';
import { readClusterVersion } from '../../../lib/cluster/cluster-version';

const FIXTURES = join(__dirname, '../../fixtures/cluster/operators');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

describe('readClusterOperatorList', () => {
  it('a 4.14.1 cluster (oc get clusteroperators -o yaml, a List envelope): 33 named operators with their versions', () => {
    const ops = readClusterOperatorList(fixture('clusteroperators-4.14.1-healthy.json'), 1000);
    expect(ops).toHaveLength(33);
    expect(ops[0].name).toBe('authentication');
    expect(ops.find((o) => o.name === 'etcd')?.version).toBe('4.14.1');
    // image-registry reports no Upgradeable condition at all.
    expect(ops.find((o) => o.name === 'image-registry')?.conditions.map((c) => c.type)).not.toContain('Upgradeable');
  });

  it('the API form (ClusterOperatorList of an ARO 4.6.26 cluster, with the ARO operator)', () => {
    const ops = readClusterOperatorList(fixture('clusteroperators-4.6.26-aro-healthy.json'), 1000);
    expect(ops.map((o) => o.name)).toEqual(['aro', 'authentication', 'cloud-credential', 'cluster-autoscaler', 'config-operator', 'console']);
  });

  it('conditions without reason (4.14.1 machine-config) keep reason undefined; multi-line messages are kept whole', () => {
    const ops = readClusterOperatorList(fixture('clusteroperators-4.14.1-degraded-etcd-unavailable-cpms.json'), 1000);
    const mco = ops.find((o) => o.name === 'machine-config')!;
    expect(mco.conditions.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'True', reason: undefined, message: 'Working towards 4.14.1' });
    const etcd = ops.find((o) => o.name === 'etcd')!.conditions.find((c) => c.type === 'Degraded')!;
    expect(etcd.message?.split('\n')).toHaveLength(3);
  });

  it('refuses more operators than --max-operators, an item without a name, and a list without items', () => {
    expect(() => readClusterOperatorList(fixture('clusteroperators-4.14.1-healthy.json'), 10)).toThrow(
      'items holds 33 operators, more than --max-operators 10',
    );
    expect(() => readClusterOperatorList({ kind: 'ClusterOperatorList', items: [{ metadata: {}, status: {} }] }, 10)).toThrow(
      'items[0].metadata.name is missing or not a string',
    );
    expect(() =>
      readClusterOperatorList({ kind: 'ClusterOperatorList', items: [{ metadata: { name: 'etcd' }, status: { conditions: [{ type: 'Degraded' }] } }] }, 10),
    ).toThrow('items[0] (etcd).status.conditions[0].status is missing');
    expect(() => readClusterOperatorList({ kind: 'NodeList', items: [] }, 10)).toThrow('kind is "NodeList", not ClusterOperatorList');
    expect(() => readClusterOperatorList({ kind: 'ClusterOperatorList' }, 10)).toThrow('items is missing');
  });
});

describe('readClusterVersion', () => {
  it('4.14.1 healthy: desired version, channel, one Completed entry, availableUpdates null', () => {
    const cv = readClusterVersion(fixture('clusterversion-4.14.1-healthy.json'));
    expect(cv.desiredVersion).toBe('4.14.1');
    expect(cv.latest?.state).toBe('Completed');
    expect(cv.availableUpdates).toEqual([]);
    expect(cv.conditions.find((c) => c.type === 'Failing')?.status).toBe('False');
  });

  it('an update in progress (4.14.0 → 4.14.1): history newest first is Partial, ten updates offered', () => {
    const cv = readClusterVersion(fixture('clusterversion-4.14.1-updating-available-updates.json'));
    expect(cv.latest).toMatchObject({ state: 'Partial', version: '4.14.1' });
    expect(cv.latest?.completionTime).toBeUndefined();
    expect(cv.availableUpdates).toHaveLength(10);
  });

  it('the Insights archive form (4.7.16) has no apiVersion or kind and is read all the same', () => {
    const cv = readClusterVersion(fixture('clusterversion-4.7.16-upgradeable-false-available-updates.json'));
    expect(cv.desiredVersion).toBe('4.7.16');
    expect(cv.availableUpdates).toEqual(['4.7.18']);
  });

  it('OKD (4.19.0-okd-scos.16) and a 4.20 nightly with managedFields and newer condition types', () => {
    expect(readClusterVersion(fixture('clusterversion-okd-4.19.0-okd-scos.16.json')).channel).toBe('stable-scos-4');
    const nightly = readClusterVersion(fixture('clusterversion-4.20-nightly-updating-managedfields.json'));
    expect(nightly.conditions.map((c) => c.type)).toContain('UpgradeableClusterOperators');
    expect(nightly.latest?.state).toBe('Partial');
  });

  it('refuses a document of another kind and fields of the wrong shape', () => {
    expect(() => readClusterVersion({ kind: 'ClusterOperator' })).toThrow('kind is "ClusterOperator", not ClusterVersion');
    expect(() => readClusterVersion({ kind: 'ClusterVersion', status: { availableUpdates: 'many' } })).toThrow('status.availableUpdates is a string');
    expect(() => readClusterVersion({ kind: 'ClusterVersion', status: { history: {} } })).toThrow('status.history is an object');
    expect(() => readClusterVersion({ kind: 'ClusterVersion', status: { availableUpdates: [{ image: 'x' }] } })).toThrow(
      'status.availableUpdates[0].version is missing',
    );
  });
});

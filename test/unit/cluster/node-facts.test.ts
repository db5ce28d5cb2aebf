// Pod limits and kubelet versions read from node lists real clusters published
// (test/fixtures/cluster/control-plane, its README says where each came from), through the
// node-list scanner as check_nodes reads them, and judged against the version skew policy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKubeVersion } from '../../../lib/cluster/kube-version';
import { NodeFacts } from '../../../lib/cluster/node-facts';
import { scanNodeList } from '../../../lib/cluster/node-list-scan';
import { judgeSkew } from '../../../lib/cluster/version-skew';
import { State } from '../../../lib/plugin/state';

const FIXTURES = join(__dirname, '../../fixtures/cluster/control-plane');

function factsOf(name: string) {
  const facts = new NodeFacts();
  const page = scanNodeList(readFileSync(join(FIXTURES, name)), (n) => facts.add(n));
  const nodes = [...facts.byName].map(([node, f]) => ({ name: node, ...f }));
  return { page, nodes };
}

describe('NodeFacts on published node lists', () => {
  it('OpenShift 4.7 (six nodes with managedFields): allocatable.pods 250 and kubelet v1.20.0+bafe72f each', () => {
    const { page, nodes } = factsOf('nodelist-openshift-4.7-insights.json');
    expect(page.items).toBe(6);
    expect(nodes.map((n) => n.name)).toEqual([
      'ci-ln-ywdpkbt-f76d1-vw6lz-master-0',
      'ci-ln-ywdpkbt-f76d1-vw6lz-master-1',
      'ci-ln-ywdpkbt-f76d1-vw6lz-master-2',
      'ci-ln-ywdpkbt-f76d1-vw6lz-worker-b-tdhq6',
      'ci-ln-ywdpkbt-f76d1-vw6lz-worker-c-k5w6k',
      'ci-ln-ywdpkbt-f76d1-vw6lz-worker-d-rmh8w',
    ]);
    expect(new Set(nodes.map((n) => `${n.podLimit} ${n.kubeletVersion}`))).toEqual(new Set(['250 v1.20.0+bafe72f']));
    expect(nodes[5].providerID).toBe('gce://openshift-gce-devel-ci/us-east1-d/ci-ln-ywdpkbt-f76d1-vw6lz-worker-d-rmh8w');
  });

  it('OpenShift 4.4: allocatable.pods 250, kubelet v1.17.1+9d33dd3', () => {
    const { nodes } = factsOf('nodelist-openshift-4.4-insights.json');
    expect(nodes).toHaveLength(6);
    expect(new Set(nodes.map((n) => `${n.podLimit} ${n.kubeletVersion}`))).toEqual(new Set(['250 v1.17.1+9d33dd3']));
  });

  it('Kubernetes 0.19 (2015): no allocatable, so the limit is capacity.pods (100)', () => {
    const { nodes } = factsOf('nodelist-kubernetes-0.19-vagrant-skuber.json');
    expect(nodes.map((n) => [n.name, n.podLimit, n.kubeletVersion, n.hostLabel])).toEqual([
      ['10.245.1.3', 100, 'v0.19.3', '10.245.1.3'],
      ['10.245.1.4', 100, 'v0.19.3', '10.245.1.4'],
      ['10.245.1.5', 100, 'v0.19.3', '10.245.1.5'],
    ]);
  });

  it('Kubernetes 1.8 minikube (a taint with timeAdded null): allocatable.pods 110, kubelet v1.8.0', () => {
    const { nodes } = factsOf('nodelist-kubernetes-1.8-minikube-skuber.json');
    expect(nodes.map((n) => [n.name, n.podLimit, n.kubeletVersion])).toEqual([['minikube', 110, 'v1.8.0']]);
  });
});

describe('judgeSkew on the published kubelet versions', () => {
  const kubelets = (name: string) => factsOf(name).nodes.map(({ name: node, kubeletVersion }) => ({ name: node, kubeletVersion }));

  it("OpenShift 4.4's kubelets against an API server of their own build: OK, no skew, no patch noted", () => {
    const v = judgeSkew(parseKubeVersion('v1.17.1+9d33dd3')!, kubelets('nodelist-openshift-4.4-insights.json'));
    expect(v.kubelets.map((k) => k.state)).toEqual(Array(6).fill(State.OK));
    expect(v.patchDiffers).toEqual([]);
    expect([...v.byMinor.keys()]).toEqual(['v1.17']);
  });

  it("OpenShift 4.7's kubelets (v1.20) under OpenShift 4.14's API server (v1.27): each 7 minors behind, WARNING", () => {
    const v = judgeSkew(parseKubeVersion('v1.27.10+28ed2d7')!, kubelets('nodelist-openshift-4.7-insights.json'));
    expect(v.kubelets.map((k) => k.state)).toEqual(Array(6).fill(State.WARNING));
    expect(v.kubelets[0].text).toBe(
      'ci-ln-ywdpkbt-f76d1-vw6lz-master-0: kubelet v1.20.0+bafe72f is 7 minors behind the API server v1.27.10+28ed2d7 (at most 2)',
    );
  });

  it('OpenShift 4.4 (v1.17) under an OpenShift 4.7 API server (v1.20): 3 minors behind a 1.20 server, beyond its 2', () => {
    const v = judgeSkew(parseKubeVersion('v1.20.0+bafe72f')!, kubelets('nodelist-openshift-4.4-insights.json'));
    expect(v.kubelets.every((k) => k.state === State.WARNING && k.behind === 3)).toBe(true);
  });

  it('a kubelet of 2015 (v0.19.3): of an older major version, WARNING, not "1000 minors behind"', () => {
    const v = judgeSkew(parseKubeVersion('v1.8.0')!, kubelets('nodelist-kubernetes-0.19-vagrant-skuber.json'));
    expect(v.kubelets.map((k) => k.state)).toEqual([State.WARNING, State.WARNING, State.WARNING]);
    expect(v.kubelets[0].text).toBe('10.245.1.3: kubelet v0.19.3 is of an older major version than the API server v1.8.0');
    expect(v.kubelets[0].behind).toBeUndefined();
    expect(Object.fromEntries(v.byMinor)).toEqual({ 'v1.8': [], 'v0.19': ['10.245.1.3', '10.245.1.4', '10.245.1.5'] });
  });

  it('minikube v1.8.0 under a v1.27 API server: 19 minors behind; under v1.8.0 itself: OK', () => {
    expect(judgeSkew(parseKubeVersion('v1.27.10')!, kubelets('nodelist-kubernetes-1.8-minikube-skuber.json')).kubelets[0]).toMatchObject({
      state: State.WARNING,
      behind: 19,
    });
    expect(judgeSkew(parseKubeVersion('v1.8.0')!, kubelets('nodelist-kubernetes-1.8-minikube-skuber.json')).kubelets[0].state).toBe(State.OK);
  });
});

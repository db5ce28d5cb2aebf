import { describe, expect, it } from 'vitest';
import { parseKubeVersion } from '../../../lib/cluster/kube-version';
import { judgeSkew, supportedSkew } from '../../../lib/cluster/version-skew';
import { State } from '../../../lib/plugin/state';

describe('parseKubeVersion: what servers and kubelets report', () => {
  it.each([
    ['v1.27.10+28ed2d7', 1, 27, 10], // OpenShift 4.14 (the node lists of test/fixtures/cluster)
    ['v1.33.5+abc123', 1, 33, 5],
    ['v1.29.3-eks-adc7111', 1, 29, 3],
    ['v1.30.4-gke.1348000', 1, 30, 4],
    ['v1.27.10+k3s1', 1, 27, 10],
    ['v1.8.0-alpha.3.660+81b2731c0dde69-dirty', 1, 8, 0], // kubernetes/kubernetes#51966
    ['v1.12.6', 1, 12, 6],
  ])('%s', (text, major, minor, patch) => expect(parseKubeVersion(text)).toMatchObject({ major, minor, patch }));

  it.each([undefined, '', 'latest', 'v1.27', '1.x.3', 42])('refuses %j', (text) => expect(parseKubeVersion(text)).toBeUndefined());
});

describe('judgeSkew: the version skew policy', () => {
  const server = parseKubeVersion('v1.27.10+28ed2d7')!;
  const nodes = (...versions: Array<string | undefined>) => versions.map((v, i) => ({ name: `n${i}`, kubeletVersion: v }));

  it('supports 2 minors before 1.28, 3 from then on', () => {
    expect(supportedSkew(server)).toBe(2);
    expect(supportedSkew(parseKubeVersion('v1.28.0')!)).toBe(3);
    expect(supportedSkew(parseKubeVersion('v1.33.5+abc123')!)).toBe(3);
  });

  it('OpenShift builds equal their version; a patch difference is no skew, only noted', () => {
    const v = judgeSkew(server, nodes('v1.27.10+28ed2d7', 'v1.27.10', 'v1.27.8+aaaa'));
    expect(v.kubelets.map((k) => k.state)).toEqual([State.OK, State.OK, State.OK]);
    expect(v.patchDiffers).toEqual(['n2 v1.27.8+aaaa']);
    expect([...v.byMinor.keys()]).toEqual(['v1.27']);
  });

  it('older within the skew: OK and grouped by minor; beyond: WARNING; newer: CRITICAL', () => {
    const v = judgeSkew(server, nodes('v1.25.16', 'v1.24.17+3f4e5a8', 'v1.28.1', 'v1.27.10'));
    expect(v.kubelets.map((k) => k.state)).toEqual([State.OK, State.WARNING, State.CRITICAL, State.OK]);
    expect(v.kubelets[1].text).toBe('n1: kubelet v1.24.17+3f4e5a8 is 3 minors behind the API server v1.27.10+28ed2d7 (at most 2)');
    expect(v.kubelets[2].text).toBe('n2: kubelet v1.28.1 is newer than the API server v1.27.10+28ed2d7');
    expect(Object.fromEntries(v.byMinor)).toEqual({ 'v1.27': ['n3'], 'v1.25': ['n0'], 'v1.24': ['n1'], 'v1.28': ['n2'] });
  });

  it('--max-skew overrides the policy', () => {
    expect(judgeSkew(server, nodes('v1.24.17'), 3).kubelets[0].state).toBe(State.OK);
    expect(judgeSkew(server, nodes('v1.26.1'), 0).kubelets[0].state).toBe(State.WARNING);
  });

  it('another major is outside the policy: older WARNING, newer CRITICAL, neither counted in minors', () => {
    const v = judgeSkew(server, nodes('v0.19.3', 'v2.0.1'));
    expect(v.kubelets.map((k) => [k.state, k.behind, k.text])).toEqual([
      [State.WARNING, undefined, 'n0: kubelet v0.19.3 is of an older major version than the API server v1.27.10+28ed2d7'],
      [State.CRITICAL, undefined, 'n1: kubelet v2.0.1 is of a newer major version than the API server v1.27.10+28ed2d7'],
    ]);
  });

  it('a version a node does not report, or reports unreadably, costs that figure only', () => {
    const v = judgeSkew(server, nodes(undefined, 'garbage\u0000'));
    expect(v.kubelets.map((k) => k.state)).toEqual([State.OK, State.OK]);
    expect(v.kubelets[0].text).toBe('n0: kubelet version not reported');
  });

  it('50,000 nodes of one minor are judged in linear time (CPU time, not the wall clock of a loaded machine)', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => ({ name: `worker-${i}`, kubeletVersion: 'v1.26.3' }));
    const before = process.cpuUsage();
    const v = judgeSkew(server, many);
    const used = process.cpuUsage(before);
    expect(v.byMinor.get('v1.26')).toHaveLength(50_000);
    // Linear: some tens of milliseconds. Copying the minor's list per node took over 10 s.
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });
});

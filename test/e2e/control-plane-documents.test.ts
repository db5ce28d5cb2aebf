// check_apiserver, check_cluster_certs and check_nodes --pods/--version-skew on documents real
// clusters published (test/fixtures/cluster/control-plane, its README says where each came from):
// the simulator serves the published node lists as its nodes, and the published /readyz body, pod
// Tables and CSR lists (built from published `kubectl get csr` listings) in place of its own
// answers, over HTTPS. Run `node build.mjs dist` first.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { podsOnNode } from '../../sim/cluster/control-plane';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { parsePluginOutput } from '../support/perfdata-parse';
import { clusterArgs, expectClean, runPlugin } from '../support/control-plane-run';
import { csrListFromListing } from '../support/csr-listing';
import { MICROSHIFT_READYZ_FAILED } from '../support/microshift-readyz';
import type { RunResult } from '../support/spawn';

const DIST = resolve(__dirname, '../../dist');
const DOCS = resolve(__dirname, '../fixtures/cluster/control-plane');
const doc = (name: string) => readFileSync(join(DOCS, name), 'utf8');

const LISTS = {
  openshift47: 'nodelist-openshift-4.7-insights.json',
  openshift44: 'nodelist-openshift-4.4-insights.json',
  kube019: 'nodelist-kubernetes-0.19-vagrant-skuber.json',
} as const;
const sims = {} as Record<keyof typeof LISTS, Simulator>;

beforeAll(async () => {
  for (const p of ['check_apiserver', 'check_cluster_certs', 'check_nodes'])
    if (!existsSync(resolve(DIST, p))) throw new Error(`dist/${p} is missing: run \`node build.mjs dist\` first`);
  await Promise.all(
    Object.entries(LISTS).map(async ([key, file]) => {
      sims[key as keyof typeof LISTS] = await startSimulatorFromArgs(['--cluster-scenario', join(DOCS, file)], [CLUSTER_MODULE]);
    }),
  );
});
afterAll(async () => {
  await Promise.all(Object.values(sims).map((s) => s.close()));
});
afterEach(() => {
  for (const s of Object.values(sims)) s.apis.cluster.faults.set([]);
});

const perf = (r: RunResult, label: string) => parsePluginOutput(r.stdout).perfdata.find((m) => m.label === label)?.value;

describe('check_apiserver on a published /readyz', () => {
  it('MicroShift starting up (HTTP 500, 7 of 40 checks failed): CRITICAL naming each failed check; livez ok', async () => {
    sims.openshift47.apis.cluster.faults.set([{ path: '^/readyz$', kind: 'status', status: 500, body: doc('readyz-microshift-failed.txt') }]);
    const r = await runPlugin('check_apiserver', clusterArgs(sims.openshift47));
    expectClean(
      r,
      2,
      /^APISERVER CRITICAL - API server v1\.27\.10\+28ed2d7: readyz failed: api-openshift-apiserver-available \(reason withheld\), api-openshift-oauth-apiserver-available \(reason withheld\), informer-sync \(reason withheld\), /,
    );
    for (const check of MICROSHIFT_READYZ_FAILED) expect(r.stdout).toContain(`[CRITICAL] readyz: [-]${check} failed: reason withheld`);
    expect(perf(r, 'readyz_failed')).toBe(7);
    expect(perf(r, 'livez_failed')).toBe(0);
  });
});

describe('check_nodes --version-skew on published node lists', () => {
  it("OpenShift 4.7's kubelets (v1.20.0+bafe72f) under the simulator's OpenShift 4.14 API server (v1.27.10): WARNING, 7 minors behind each", async () => {
    const r = await runPlugin('check_nodes', clusterArgs(sims.openshift47, ['--version-skew']));
    expectClean(r, 1, /ci-ln-ywdpkbt-f76d1-vw6lz-master-0: kubelet v1\.20\.0\+bafe72f is 7 minors behind the API server v1\.27\.10\+28ed2d7 \(at most 2\)/);
    expect(r.stdout).toMatch(/and 1 more/); // six nodes, five named on the status line
    expect(perf(r, 'kubelet_minors_behind')).toBe(7);
  });

  it('OpenShift 4.4 (v1.17.1+9d33dd3) under an API server of OpenShift 4.7 (v1.20.0+bafe72f): 3 minors behind a 1.20 server, WARNING; --max-skew 3 is OK', async () => {
    // The /version document is the simulator's, with the gitVersion of the 4.7 build.
    const version = JSON.stringify({ major: '1', minor: '20', gitVersion: 'v1.20.0+bafe72f', platform: 'linux/amd64' });
    sims.openshift44.apis.cluster.faults.set([{ path: '^/version$', kind: 'body', contentType: 'application/json', body: version }]);
    expectClean(
      await runPlugin('check_nodes', clusterArgs(sims.openshift44, ['--version-skew'])),
      1,
      /kubelet v1\.17\.1\+9d33dd3 is 3 minors behind the API server v1\.20\.0\+bafe72f \(at most 2\)/,
    );
    expectClean(
      await runPlugin('check_nodes', clusterArgs(sims.openshift44, ['--version-skew', '--max-skew', '3'])),
      0,
      /kubelets off the API server's v1\.20: v1\.17 on ci-ln-3z9y7mt-f76d1-69jcr-master-0/,
    );
  });

  it('the 2015 kubelets (v0.19.3): of an older major version, WARNING, no minors counted', async () => {
    const r = await runPlugin('check_nodes', clusterArgs(sims.kube019, ['--version-skew']));
    expectClean(r, 1, /10\.245\.1\.3: kubelet v0\.19\.3 is of an older major version than the API server v1\.27\.10\+28ed2d7/);
    expect(r.stdout).not.toMatch(/1000 minors/);
    expect(perf(r, 'kubelet_minors_behind')).toBe(0);
  });
});

describe('check_nodes --pods on published node lists and pod Tables', () => {
  it("2015 nodes without allocatable: each judged against capacity.pods (100), the simulator's pods on them", async () => {
    const names = ['10.245.1.3', '10.245.1.4', '10.245.1.5'];
    const pods = names.map((n, i) => podsOnNode(n, i));
    const r = await runPlugin('check_nodes', clusterArgs(sims.kube019, ['--pods', '--pods-warning', `${pods[1] - 1}`, '--pods-critical', `${pods[2] - 1}`]));
    expectClean(r, 2, new RegExp(`10\\.245\\.1\\.5 ${pods[2]}/100 pods \\(${pods[2]}%\\), 10\\.245\\.1\\.4 ${pods[1]}/100 pods \\(${pods[1]}%\\)`));
    expect(perf(r, 'pods_max_pct')).toBe(pods[2]);
    expect(r.stdout).not.toMatch(/without a pod limit/);
  });

  it('a published v1beta1 pod Table: read in the Table form (its pod on a node not in the list), every listed node at 0 of 250', async () => {
    sims.openshift47.apis.cluster.faults.set([
      { path: '^/api/v1/pods$', kind: 'body', contentType: 'application/json', body: doc('podtable-v1beta1-dockin.json') },
    ]);
    const r = await runPlugin('check_nodes', clusterArgs(sims.openshift47, ['--pods', '-v']));
    expectClean(r, 0, /^NODES OK - /);
    expect(perf(r, 'pods_max_pct')).toBe(0);
    expect(perf(r, 'pods')).toBe(0);
    expect(r.stdout).toContain('1 pods counted in 1 page (Table form)');
  });

  it('a published Table without a Node column (namespaces): UNKNOWN naming the missing column', async () => {
    sims.openshift47.apis.cluster.faults.set([
      { path: '^/api/v1/pods$', kind: 'body', contentType: 'application/json', body: doc('namespacetable-v1beta1-dockin.json') },
    ]);
    expectClean(await runPlugin('check_nodes', clusterArgs(sims.openshift47, ['--pods'])), 3, /^NODES UNKNOWN - the pod Table has no Node column/);
  });
});

describe('check_cluster_certs on CSR lists built from published listings', () => {
  // Built when the check runs: each CSR as old as the listing's AGE says.
  const serveListing = (file: string) =>
    sims.openshift47.apis.cluster.faults.set([
      { path: 'certificatesigningrequests', kind: 'body', contentType: 'application/json', body: JSON.stringify(csrListFromListing(doc(file), Date.now())) },
    ]);

  it('EKS, six kubelet-serving CSRs pending 10h-18h: WARNING naming the three oldest, each of the six WARNING, csr_pending 6', async () => {
    serveListing('kubectl-get-csr-eks-perf-tests-189.txt');
    const r = await runPlugin('check_cluster_certs', clusterArgs(sims.openshift47));
    expectClean(
      r,
      1,
      /^CERTS WARNING - nearest expiry: API server certificate localhost expires in \d+d \(2126-10-29\), 6 kubelet CSRs pending over 1h: csr-28tx9 \(kubelet-serving, system:node:ip-10-0-102-158\.us-west-2\.compute\.internal, pending 18h\), csr-6qqdp \(.*pending 16h\), csr-42ftc \(kubelet-serving, system:node:ip-10-0-100-240\.us-west-2\.compute\.internal, pending 15h\) and 3 more \(approve with /,
    );
    for (const name of ['csr-28tx9', 'csr-2rbzf', 'csr-42ftc', 'csr-4ww4k', 'csr-6kzcz', 'csr-6qqdp'])
      expect(r.stdout).toContain(`[WARNING] CSR ${name} (kubelet-serving, `);
    expect(perf(r, 'csr_pending')).toBe(6);
  });

  it('a cluster from before signers, bootstrap-token CSRs read as legacy-unknown and waiting up to 17h: WARNING naming them as kubelet CSRs', async () => {
    serveListing('kubectl-get-csr-kubernetes-65843.txt');
    const r = await runPlugin('check_cluster_certs', clusterArgs(sims.openshift47));
    expectClean(
      r,
      1,
      /^CERTS WARNING - nearest expiry: .*, 10 kubelet CSRs pending over 1h: node-csr-5_qpNQP8nifREkdMYpZmKYofn1u7bNu0fX3uaDzeG7Q \(legacy-unknown, system:bootstrap:2fjd18, pending 17h\), /,
    );
    // The row of 1h was made 1h before the check ran, so it is over the grace by then: 10.
    expect(r.stdout).not.toContain('none for kubelets');
    expect(perf(r, 'csr_pending')).toBe(11);
  });

  it("OKD 4.5, node-bootstrapper's client CSRs of 12m-90m: WARNING naming the one of 90m; under --csr-grace 30m also the one of 59m", async () => {
    serveListing('oc-get-csr-okd-4.5-issue-373.txt');
    const r = await runPlugin('check_cluster_certs', clusterArgs(sims.openshift47));
    expectClean(
      r,
      1,
      /^CERTS WARNING - nearest expiry: .*, 1 kubelet CSR pending over 1h: csr-hkcvq \(kube-apiserver-client-kubelet, system:serviceaccount:openshift-machine-config-operator:node-bootstrapper, pending 90m\) \(approve /,
    );
    expect(r.stdout).toContain(
      '[OK] CSR csr-k4w4j (kube-apiserver-client-kubelet, system:serviceaccount:openshift-machine-config-operator:node-bootstrapper, pending 59m)',
    );
    expect(perf(r, 'csr_pending')).toBe(4);
    const shorter = await runPlugin('check_cluster_certs', clusterArgs(sims.openshift47, ['--csr-grace', '30m']));
    expectClean(shorter, 1, /^CERTS WARNING - .*, 2 kubelet CSRs pending over 30m: csr-hkcvq \(.*pending 90m\), csr-k4w4j \(.*pending 59m\) \(approve /);
    expect(shorter.stdout).toContain('[OK] CSR csr-5rb7n');
  });

  it('OpenShift Local, two client CSRs Approved,Issued and one pending for 3m19s: OK counting the one pending', async () => {
    serveListing('oc-get-csr-crc-snc-631.txt');
    const r = await runPlugin('check_cluster_certs', clusterArgs(sims.openshift47, ['-v']));
    expectClean(r, 0, /^CERTS OK - nearest expiry: .*, 1 CSR pending, none for kubelets over 1h \| /);
    expect(r.stdout).toContain(
      '[OK] CSR csr-c28jv (kube-apiserver-client-kubelet, system:serviceaccount:openshift-machine-config-operator:node-bootstrapper, pending 3m)',
    );
    expect(r.stdout).not.toMatch(/csr-b4gb2|csr-f9f7d/);
    expect(perf(r, 'csr_pending')).toBe(1);
  });
});

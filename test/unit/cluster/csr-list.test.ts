// The CSR reader and check_cluster_certs' judgement on CSR lists built from published
// `kubectl get csr` / `oc get csr` listings (test/fixtures/cluster/control-plane/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { evaluateCertificates } from '../../../lib/cluster/certs-report';
import type { ClusterTarget } from '../../../lib/cluster/client';
import { CSR_PATH, isKubeletCsr, listPendingCsrs, readPendingCsr } from '../../../lib/cluster/csr-list';
import { State } from '../../../lib/plugin/state';
import { DAYS, TimeLeft } from '../../../lib/plugin/time-left';
import { csrListFromListing, listingAgeSeconds, listingRows } from '../../support/csr-listing';
import { useNockBoundary } from '../../support/nock-boundary';

const DOCS = join(__dirname, '../../fixtures/cluster/control-plane');
const listing = (name: string) => readFileSync(join(DOCS, name), 'utf8');
const EKS = listing('kubectl-get-csr-eks-perf-tests-189.txt');
const OKD = listing('oc-get-csr-okd-4.5-issue-373.txt');
const CRC = listing('oc-get-csr-crc-snc-631.txt');
const BOOTSTRAP = listing('kubectl-get-csr-kubernetes-65843.txt');
const API = 'https://api.prod-eu1.example.com:6443';
const target: ClusterTarget = { url: new URL(API), token: 'test-token', tokenSource: '--token-file /etc/nagios/cluster.token', tls: {} };
/** The listings' own instant is not published (only the comment's day): any fixed one serves, the ages are what count. */
const NOW = Date.parse('2022-04-21T12:00:00Z');
const H = 3600_000;

useNockBoundary();

async function read(text: string) {
  nock(API)
    .get(CSR_PATH)
    .query(true)
    .reply(200, JSON.stringify(csrListFromListing(text, NOW)), { 'content-type': 'application/json' });
  return listPendingCsrs(target, { maxCsrs: 1000 });
}

const judge = (summary: Awaited<ReturnType<typeof read>>, csrGrace = 3600) =>
  evaluateCertificates(
    { certificates: [], csrs: summary },
    { daysLeft: new TimeLeft({ warning: 30 * 86_400, critical: 7 * 86_400 }, DAYS), csrGrace, now: NOW },
  );

describe('the published listings as CSR lists', () => {
  it('one item per row, each field from its column', () => {
    const list = csrListFromListing(EKS, NOW) as { items: unknown[] };
    expect(list.items).toHaveLength(6);
    expect(list.items[3]).toEqual({
      metadata: { name: 'csr-4ww4k', creationTimestamp: '2022-04-20T22:00:00Z' },
      spec: { signerName: 'kubernetes.io/kubelet-serving', username: 'system:node:ip-10-0-100-5.us-west-2.compute.internal' },
      status: {},
    });
    expect(listingRows(OKD).map((r) => r.age)).toEqual(['28m', '12m', '90m', '59m']);
  });

  it("kubectl's ages, and a decided row is not pending", () => {
    expect(['45s', '28m', '18h', '4h19m', '2d3h'].map(listingAgeSeconds)).toEqual([45, 1680, 64800, 15540, 183600]);
    expect(() => listingAgeSeconds('<invalid>')).toThrow('not an age');
    const decided = 'NAME        AGE   REQUESTOR           CONDITION\ncsr-zjq5k   2h    kubelet-bootstrap   Approved,Issued\n';
    expect(csrListFromListing(decided, NOW)).toMatchObject({
      items: [{ spec: { username: 'kubelet-bootstrap' }, status: { conditions: [{ type: 'Approved', status: 'True' }] } }],
    });
  });
});

describe('listPendingCsrs and the judgement on published listings', () => {
  it('EKS (awslabs/eks-perf-tests #189): six kubelet-serving CSRs pending 10h-18h, all pending, oldest first; WARNING naming the three oldest', async () => {
    const summary = await read(EKS);
    expect(summary.total).toBe(6);
    expect(summary.pending.map((c) => c.name)).toEqual(['csr-28tx9', 'csr-6qqdp', 'csr-42ftc', 'csr-4ww4k', 'csr-6kzcz', 'csr-2rbzf']);
    expect(summary.pending[0]).toEqual({
      name: 'csr-28tx9',
      signer: 'kubernetes.io/kubelet-serving',
      username: 'system:node:ip-10-0-102-158.us-west-2.compute.internal',
      created: NOW - 18 * H,
    });
    const r = judge(summary);
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toBe(
      '6 kubelet CSRs pending over 1h: csr-28tx9 (kubelet-serving, system:node:ip-10-0-102-158.us-west-2.compute.internal, pending 18h), ' +
        'csr-6qqdp (kubelet-serving, system:node:ip-10-0-102-158.us-west-2.compute.internal, pending 16h), ' +
        'csr-42ftc (kubelet-serving, system:node:ip-10-0-100-240.us-west-2.compute.internal, pending 15h) and 3 more ' +
        '(approve with oc adm certificate approve / kubectl certificate approve)',
    );
    expect(r.items?.filter((i) => i.state === State.WARNING)).toHaveLength(6);
    expect(r.metrics?.find((m) => m.label === 'csr_pending')?.value).toBe(6);
    // A grace longer than the oldest wait: nothing overdue, the six still counted.
    expect(judge(summary, 19 * 3600)).toMatchObject({ state: State.OK, summary: '6 CSRs pending, none for kubelets over 19h' });
  });

  it('a cluster from before signers (kubernetes/kubernetes #65843): legacy-unknown CSRs of bootstrap tokens are kubelet CSRs, 9 over 1h, the oldest 17h', async () => {
    const summary = await read(BOOTSTRAP);
    expect(summary.total).toBe(12);
    expect(summary.pending).toHaveLength(11);
    expect(summary.pending[0]).toMatchObject({ signer: 'kubernetes.io/legacy-unknown', username: 'system:bootstrap:2fjd18', created: NOW - 17 * H });
    const r = judge(summary);
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toMatch(
      /^9 kubelet CSRs pending over 1h: node-csr-5_qpNQP8nifREkdMYpZmKYofn1u7bNu0fX3uaDzeG7Q \(legacy-unknown, system:bootstrap:2fjd18, pending 17h\), .* and 6 more \(approve/,
    );
  });

  it('the legacy signer is a kubelet CSR by its requestor or groups only: a webhook CSR of an admin is not', () => {
    const csr = (spec: Record<string, unknown>) => readPendingCsr({ metadata: { name: 'c' }, spec }, 'item')!;
    expect(isKubeletCsr(csr({ username: 'system:node:worker-6' }))).toBe(true);
    expect(isKubeletCsr(csr({ username: 'kubelet-bootstrap', groups: ['system:bootstrappers', 'system:authenticated'] }))).toBe(true);
    expect(isKubeletCsr(csr({ username: 'u', groups: ['system:bootstrappers:kubelet:default-node-token'] }))).toBe(true);
    expect(isKubeletCsr(csr({ username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] }))).toBe(false);
    expect(isKubeletCsr(csr({ signerName: 'example.com/webhook', username: 'system:node:worker-6' }))).toBe(false);
  });

  it("OKD 4.5 (okd-project/okd #373): node-bootstrapper's client CSRs; over 1h only the one of 90m, over 30m also the one of 59m", async () => {
    const summary = await read(OKD);
    expect(summary.pending.map((c) => `${c.name} ${(NOW - c.created!) / 60_000}m`)).toEqual([
      'csr-hkcvq 90m',
      'csr-k4w4j 59m',
      'csr-5rb7n 28m',
      'csr-7fr7l 12m',
    ]);
    const r = judge(summary);
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toBe(
      '1 kubelet CSR pending over 1h: csr-hkcvq (kube-apiserver-client-kubelet, system:serviceaccount:openshift-machine-config-operator:node-bootstrapper, pending 90m) ' +
        '(approve with oc adm certificate approve / kubectl certificate approve)',
    );
    expect(r.metrics?.find((m) => m.label === 'csr_pending')?.value).toBe(4);
    expect(judge(summary, 1800).summary).toMatch(/^2 kubelet CSRs pending over 30m: csr-hkcvq \(.*pending 90m\), csr-k4w4j \(.*pending 59m\) \(approve/);
  });

  it('OpenShift Local (crc-org/snc #631, with the REQUESTEDDURATION column): two client CSRs Approved,Issued, the one of 3m19s pending: OK, 1 counted', async () => {
    const summary = await read(CRC);
    expect(summary.total).toBe(3);
    expect(summary.pending).toEqual([
      {
        name: 'csr-c28jv',
        signer: 'kubernetes.io/kube-apiserver-client-kubelet',
        username: 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper',
        created: NOW - 199_000,
      },
    ]);
    const r = judge(summary);
    expect(r).toMatchObject({ state: State.OK, summary: '1 CSR pending, none for kubelets over 1h' });
    expect(r.metrics?.find((m) => m.label === 'csr_pending')?.value).toBe(1);
    expect(judge(summary, 60).summary).toMatch(/^1 kubelet CSR pending over 1m: csr-c28jv \(kube-apiserver-client-kubelet, .*, pending 3m\)/);
  });
});

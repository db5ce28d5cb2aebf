// The control plane as a Kubernetes 1.27 API server (OpenShift 4.14) serves it: /readyz and
// /livez (?verbose), /version, the CertificateSigningRequests of certificates.k8s.io/v1 and
// the pods of every namespace, as a PodList or as the server-side Table
// (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), paged, with the field
// selector on status.phase.
//
// Where the shapes come from: the health-check lines and closing line of the generic API
// server's healthz handler, the `kubectl get --raw /readyz?verbose` captures in
// test/fixtures/cluster/control-plane, the CSR objects kubelets create (signer, username,
// usages, the Approved condition the approver sets) and the Table of `kubectl get pods -o wide`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { send } from '../faults';
import type { Stats } from '../server';
import { SIM_KUBE_VERSION } from './node-factory';
import type { ResourceApi } from './resource-api';

export const CONTROL_PLANE_SCENARIOS = ['healthy', 'sick', 'csr-flood'] as const;
export type ControlPlaneScenario = (typeof CONTROL_PLANE_SCENARIOS)[number];

/** What the control plane needs of the node list: names, in list order. */
export interface NodeNames {
  readonly nodes: ReadonlyArray<{ name: string }>;
}

const READYZ_CHECKS = [
  'ping',
  'log',
  'etcd',
  'etcd-readiness',
  'informer-sync',
  'api-openshift-apiserver-available',
  'api-openshift-oauth-apiserver-available',
  'poststarthook/start-kube-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/priority-and-fairness-config-consumer',
  'poststarthook/priority-and-fairness-filter',
  'poststarthook/storage-object-count-tracker-hook',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/start-system-namespaces-controller',
  'poststarthook/bootstrap-controller',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/start-cluster-authentication-info-controller',
  'poststarthook/start-kube-apiserver-identity-lease-controller',
  'poststarthook/start-kube-apiserver-identity-lease-garbage-collector',
  'poststarthook/start-legacy-token-tracking-controller',
  'poststarthook/aggregator-reload-proxy-client-cert',
  'poststarthook/start-kube-aggregator-informers',
  'poststarthook/apiservice-registration-controller',
  'poststarthook/apiservice-status-available-controller',
  'poststarthook/kube-apiserver-autoregistration',
  'autoregister-completion',
  'poststarthook/apiservice-openapi-controller',
  'poststarthook/apiservice-openapiv3-controller',
  'shutdown',
];
// /livez lists the same checks but the readiness-only ones.
const NOT_LIVEZ = new Set(['etcd-readiness', 'informer-sync', 'api-openshift-apiserver-available', 'api-openshift-oauth-apiserver-available', 'shutdown']);

/** The verbose body and status of /readyz or /livez; in the sick scenario etcd fails. */
function healthBody(which: 'readyz' | 'livez', scenario: ControlPlaneScenario): { status: number; body: string } {
  const failing = scenario === 'sick' ? new Set(['etcd', ...(which === 'readyz' ? ['etcd-readiness'] : [])]) : new Set<string>();
  const lines = READYZ_CHECKS.filter((c) => which === 'readyz' || !NOT_LIVEZ.has(c)).map((c) =>
    failing.has(c) ? `[-]${c} failed: reason withheld` : `[+]${c} ok`,
  );
  const ok = failing.size === 0;
  lines.push(`${which} check ${ok ? 'passed' : 'failed'}`);
  return { status: ok ? 200 : 500, body: lines.join('\n') + '\n' };
}

const VERSION_DOC = {
  major: '1',
  minor: '27',
  gitVersion: SIM_KUBE_VERSION,
  gitCommit: '28ed2d7d8d2fc7d76ad2bfe13b29ee3e2dfd0a96',
  gitTreeState: 'clean',
  buildDate: '2024-02-21T03:45:16Z',
  goVersion: 'go1.20.12 X:strictfipsruntime',
  compiler: 'gc',
  platform: 'linux/amd64',
};

// A PKCS#10 request in base64 as kubelets send it (its content is never read by the checks).
const REQUEST = Buffer.from(
  `-----BEGIN CERTIFICATE REQUEST-----\n${randomBytes(300)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE REQUEST-----\n`,
).toString('base64');

interface Csr {
  name: string;
  node: string;
  signer: 'kubernetes.io/kubelet-serving' | 'kubernetes.io/kube-apiserver-client-kubelet';
  ageSeconds: number;
  approved: boolean;
}

/** The CSRs of a scenario: approved ones of the last hour, and in sick two pending for hours (in csr-flood, most of the pending tenth). */
function csrsOf(scenario: ControlPlaneScenario, nodes: NodeNames): Csr[] {
  if (scenario === 'csr-flood')
    return Array.from({ length: 100_000 }, (_, i) => ({
      name: `csr-${i.toString(36).padStart(5, '0')}`,
      node: nodes.nodes[i % nodes.nodes.length]?.name ?? 'worker-1',
      signer: i % 2 === 0 ? 'kubernetes.io/kubelet-serving' : 'kubernetes.io/kube-apiserver-client-kubelet',
      // Issued ones within the hour (the API server deletes them after one); the pending
      // tenth from 30 min to 2.5 h old, so that most wait over the 1 h grace however fast the
      // check reads the list.
      ageSeconds: i % 10 === 0 ? 1800 + (i % 7200) : 600 + (i % 3000),
      approved: i % 10 !== 0,
    }));
  const csrs: Csr[] = nodes.nodes.slice(0, 6).map((n, i) => ({
    name: `csr-${(0x5a3f1 + i * 7919).toString(36)}`,
    node: n.name,
    signer: 'kubernetes.io/kubelet-serving',
    ageSeconds: 1200 + i * 300,
    approved: true,
  }));
  if (scenario === 'sick') {
    // A node that was shut down for weeks: its kubelet asks for new certificates and waits.
    const node = nodes.nodes[nodes.nodes.length - 1]?.name ?? 'worker-6';
    csrs.push({ name: 'csr-8wq4t', node, signer: 'kubernetes.io/kubelet-serving', ageSeconds: 3 * 3600 + 720, approved: false });
    csrs.push({ name: 'csr-n2x7k', node, signer: 'kubernetes.io/kube-apiserver-client-kubelet', ageSeconds: 3 * 3600 + 750, approved: false });
    // Pending, but for less than the default grace.
    csrs.push({ name: 'csr-zr5hd', node: nodes.nodes[0]?.name ?? 'master-0', signer: 'kubernetes.io/kubelet-serving', ageSeconds: 240, approved: false });
  }
  return csrs;
}

/**
 * One CSR as the API server serialises it, written as text: 100,000 of them (csr-flood) are
 * served page by page, and building each as an object to stringify would make the simulator,
 * not the check, the slow part of that test.
 */
function csrJson(c: Csr, now: number): string {
  const created = new Date(now - c.ageSeconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const serving = c.signer === 'kubernetes.io/kubelet-serving';
  const short = c.node.split('.')[0];
  const spec = serving
    ? `"usages":["digital signature","server auth"],"username":"system:node:${short}","groups":["system:nodes","system:authenticated"]`
    : '"usages":["digital signature","client auth"],"username":"system:serviceaccount:openshift-machine-config-operator:node-bootstrapper","groups":["system:serviceaccounts","system:serviceaccounts:openshift-machine-config-operator","system:authenticated"]';
  const status = c.approved
    ? `{"conditions":[{"type":"Approved","status":"True","reason":"NodeCSRApprove","message":"This CSR was approved by the Node CSR Approver (cluster-machine-approver)","lastUpdateTime":"${created}","lastTransitionTime":"${created}"}],"certificate":"${REQUEST}"}`
    : '{}';
  const uid = `5c1f${(c.ageSeconds * 2654435761 + c.name.length).toString(16).padStart(28, '0').slice(-28)}`;
  return `{"metadata":{"name":"${c.name}","generateName":"csr-","uid":"${uid}","resourceVersion":"48210377","creationTimestamp":"${created}"},"spec":{"request":"${REQUEST}","signerName":"${c.signer}",${spec}},"status":${status}}`;
}

/** Pods bound to a node: a full one and a nearly full one in the sick cluster, 30 a node in a large one. */
export function podsOnNode(name: string, index: number): number {
  const short = name.split('.')[0];
  if (short === 'worker-4') return 240;
  if (short === 'worker-5') return 229;
  return 18 + ((index * 7) % 25);
}

const TABLE_COLUMNS = [
  ['Name', 'name', 'Name must be unique within a namespace.', 0],
  ['Ready', '', 'The aggregate readiness state of this pod for accepting traffic.', 0],
  ['Status', '', 'The aggregate status of the containers in this pod.', 0],
  ['Restarts', '', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.', 0],
  ['Age', '', 'CreationTimestamp is a timestamp representing the server time when this object was created.', 0],
  ['IP', '', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1],
  ['Node', '', 'NodeName is a request to schedule this pod onto a specific node.', 1],
  ['Nominated Node', '', 'nominatedNodeName is set only when this pod preempts other pods on the node.', 1],
  ['Readiness Gates', '', 'If specified, all readiness gates will be evaluated for pod readiness.', 1],
].map(([name, format, description, priority]) => ({ name, type: name === 'Restarts' ? 'string' : 'string', format, description, priority }));

interface PodRow {
  name: string;
  namespace: string;
  node: string;
  phase: 'Running' | 'Succeeded' | 'Failed' | 'Pending';
}

/**
 * The pod at `offset` of the whole list (nodes in order, their pods, then one Completed job
 * pod in ten nodes and one unscheduled pod): pages are made on demand, never the whole list.
 */
class PodList {
  readonly total: number;
  private readonly starts: number[] = [];
  constructor(private readonly nodes: NodeNames) {
    let n = 0;
    nodes.nodes.forEach((node, i) => {
      this.starts.push(n);
      n += podsOnNode(node.name, i) + (i % 10 === 0 ? 1 : 0);
    });
    this.starts.push(n);
    this.total = n + 1;
  }
  at(offset: number): PodRow {
    if (offset >= this.total - 1) return { name: 'image-pruner-29412480-x7k2p', namespace: 'openshift-image-registry', node: '', phase: 'Pending' };
    let lo = 0;
    let hi = this.nodes.nodes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    const node = this.nodes.nodes[lo].name;
    const k = offset - this.starts[lo];
    const running = podsOnNode(node, lo);
    const short = node.split('.')[0];
    if (k >= running)
      return { name: `collect-profiles-29412465-${short.slice(-5)}`, namespace: 'openshift-operator-lifecycle-manager', node, phase: 'Succeeded' };
    return { name: `app-${short}-${k.toString(36).padStart(3, '0')}`, namespace: `team-${k % 12}`, node, phase: 'Running' };
  }
}

function podCells(p: PodRow, i: number): unknown[] {
  const status = p.phase === 'Succeeded' ? 'Completed' : p.phase;
  return [
    p.name,
    p.phase === 'Running' ? '1/1' : '0/1',
    status,
    0,
    '3d4h',
    p.node ? `10.128.${(i >> 8) & 255}.${i & 255}` : '<none>',
    p.node || '<none>',
    '<none>',
    '<none>',
  ];
}

function podObject(p: PodRow): Record<string, unknown> {
  return {
    metadata: {
      name: p.name,
      namespace: p.namespace,
      uid: randomBytes(16).toString('hex'),
      resourceVersion: '48210377',
      creationTimestamp: '2026-11-23T06:12:40Z',
    },
    spec: { ...(p.node ? { nodeName: p.node } : {}), containers: [{ name: 'app', image: 'registry.example.com/team/app:1.4.2' }] },
    status: { phase: p.phase },
  };
}

/** `status.phase!=Succeeded,status.phase!=Failed` and the like: the phases a field selector leaves out, or undefined when it is not one. */
function excludedPhases(selector: string): Set<string> | undefined {
  const out = new Set<string>();
  for (const term of selector.split(',').filter((t) => t !== '')) {
    const m = /^status\.phase!=?=?([A-Za-z]+)$/.exec(term.trim());
    if (!m || !term.includes('!=')) return undefined;
    out.add(m[1]);
  }
  return out;
}

function pageOf<T>(url: URL, total: number, at: (i: number) => T, keep: (t: T) => boolean): { rows: Array<[T, number]>; next?: number } {
  const limit = Math.max(0, Number.parseInt(url.searchParams.get('limit') ?? '0', 10) || 0);
  const start = Number.parseInt(Buffer.from(url.searchParams.get('continue') ?? '', 'base64url').toString() || '0', 10) || 0;
  const rows: Array<[T, number]> = [];
  let i = start;
  for (; i < total && (limit === 0 || rows.length < limit); i++) {
    const row = at(i);
    if (keep(row)) rows.push([row, i]);
  }
  return { rows, next: i < total ? i : undefined };
}

function listMetadata(next: number | undefined): Record<string, unknown> {
  return { resourceVersion: '48210377', ...(next === undefined ? {} : { continue: Buffer.from(String(next)).toString('base64url') }) };
}

const TABLE = /as=Table/;

/** The control-plane resources of a scenario; `account` (in handle) set means a token without cluster-reader. */
export function createControlPlaneApi(scenario: ControlPlaneScenario, nodes: NodeNames, stats: Stats): ResourceApi {
  const headers = (type = 'application/json') => ({ 'content-type': type, 'cache-control': 'no-cache, private', 'audit-id': randomBytes(16).toString('hex') });
  let csrs: Csr[] | undefined;
  let pods: PodList | undefined;
  const podPages = new Map<string, { type: string; body: Buffer }>();
  let podPageBytes = 0;
  const keep = (key: string, type: string, body: string): Buffer => {
    const bytes = Buffer.from(body);
    if (podPageBytes + bytes.length > 256 * 1024 * 1024) {
      podPages.clear();
      podPageBytes = 0;
    }
    podPages.set(key, { type, body: bytes });
    podPageBytes += bytes.length;
    return bytes;
  };
  const CSR_PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
  return {
    handles: (pathname) => pathname === '/readyz' || pathname === '/livez' || pathname === '/version' || pathname === CSR_PATH || pathname === '/api/v1/pods',
    handle(req: IncomingMessage, res: ServerResponse, url, account, sendStatus) {
      const path = url.pathname;
      if (path === '/readyz' || path === '/livez') {
        stats.bump(path.slice(1));
        const { status, body } = healthBody(path === '/readyz' ? 'readyz' : 'livez', scenario);
        // Without ?verbose a healthy server says only "ok".
        send(res, status, headers('text/plain; charset=utf-8'), url.searchParams.has('verbose') || status !== 200 ? body : 'ok');
        return;
      }
      if (path === '/version') {
        send(res, 200, headers(), JSON.stringify(VERSION_DOC, null, 2));
        return;
      }
      if (account !== undefined) {
        stats.bump('forbidden');
        const [resource, group] = path === CSR_PATH ? ['certificatesigningrequests', 'certificates.k8s.io'] : ['pods', ''];
        sendStatus(
          res,
          403,
          'Forbidden',
          `${group ? `${resource}.${group}` : resource} is forbidden: User "${account}" cannot list resource "${resource}" in API group "${group}" at the cluster scope`,
          { ...(group ? { group } : {}), kind: resource },
        );
        return;
      }
      const now = Date.now();
      if (path === CSR_PATH) {
        stats.bump('csr-pages');
        const all = (csrs ??= csrsOf(scenario, nodes));
        const page = pageOf(
          url,
          all.length,
          (i) => all[i],
          () => true,
        );
        const items = page.rows.map(([c]) => csrJson(c, now));
        send(
          res,
          200,
          headers(),
          `{"kind":"CertificateSigningRequestList","apiVersion":"certificates.k8s.io/v1","metadata":${JSON.stringify(listMetadata(page.next))},"items":[${items.join(',')}]}`,
        );
        return;
      }
      stats.bump('pod-pages');
      // Pods do not change: a page once written is served again from memory, so that a
      // benchmark of 150,000 pods measures the check, not the simulator writing them.
      const key = `${url.search}|${String(req.headers.accept ?? '')}`;
      const cached = podPages.get(key);
      if (cached) {
        send(res, 200, headers(cached.type), cached.body);
        return;
      }
      const list = (pods ??= new PodList(nodes));
      const field = url.searchParams.get('fieldSelector') ?? '';
      const excluded = field === '' ? new Set<string>() : excludedPhases(field);
      if (excluded === undefined) {
        sendStatus(
          res,
          400,
          'BadRequest',
          `"${field}" is not a known field selector: only "metadata.name", "metadata.namespace", "spec.nodeName", "status.phase" …`,
        );
        return;
      }
      const page = pageOf(
        url,
        list.total,
        (i) => list.at(i),
        (p) => !excluded.has(p.phase),
      );
      const meta = JSON.stringify(listMetadata(page.next));
      if (TABLE.test(String(req.headers.accept ?? ''))) {
        const rows = page.rows.map(([p, i]) =>
          JSON.stringify({
            cells: podCells(p, i),
            object:
              url.searchParams.get('includeObject') === 'None'
                ? undefined
                : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: p.name, namespace: p.namespace } },
          }),
        );
        const type = 'application/json;as=Table;v=v1;g=meta.k8s.io';
        const body = `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":${meta},"columnDefinitions":${JSON.stringify(TABLE_COLUMNS)},"rows":[${rows.join(',')}]}`;
        send(res, 200, headers(type), keep(key, type, body));
        return;
      }
      const items = page.rows.map(([p]) => JSON.stringify(podObject(p)));
      send(res, 200, headers(), keep(key, 'application/json', `{"kind":"PodList","apiVersion":"v1","metadata":${meta},"items":[${items.join(',')}]}`));
    },
  };
}

// Hostile and broken servers: bodies built to exhaust memory or time, pages that
// never end, messages meant to flood the status line. Every one must still end as one short
// UNKNOWN line within -t (on a loaded machine moving 60 MB may take all of -t: then the
// timeout is that line). The big bodies are built on first use, once.
import type { FaultCase } from './matrix';

function once(make: () => string): () => string {
  let value: string | undefined;
  return () => (value ??= make());
}

const list = (items: string) => `{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[${items}]}`;
// 63 MiB of `{}` items: once 33 s, 4.5 GB and V8's heap-limit abort (exit 134, no output).
const emptyNodes = once(() =>
  list(
    Array(Math.floor((63 * 1024 * 1024) / 3))
      .fill('{}')
      .join(','),
  ),
);
// Well-formed nodes, as many as fit in 48 MB (1.5 million): bounded by --max-nodes, not by memory.
const tinyNodes = once(() => list(Array.from({ length: 1_500_000 }, (_, i) => `{"metadata":{"name":"n${i}"}}`).join(',')));
// A million `{}` in 3 MB: once 41 MB of long output.
const millionEmpty = once(() => list(Array(1_000_000).fill('{}').join(',')));
const nestedName = once(() => list(`{"metadata":{"name":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}}`));
const longStatus = once(() =>
  JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `etcdserver: ${'request timed out, '.repeat(3000)}`,
    reason: 'InternalError',
    code: 500,
  }),
);

// Alertmanager's answer, hostile: 300,000 well-formed firing alerts (24 MB, 900,000 objects: under
// the bound of objects parsed, over --max-alerts).
const ALERTS_ONLY = ['check_cluster_alerts'];
const manyAlerts = once(
  () => `[${Array.from({ length: 300_000 }, (_, i) => `{"labels":{"alertname":"A${i}","severity":"critical"},"status":{"state":"active"}}`).join(',')}]`,
);

const usage = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?><CurrentUsage xmlns="http://www.vmware.com/vcloud/v1.5">${inner}</CurrentUsage>`;
// 200,000 attributes on one element: once 36 s (a quadratic duplicate check), then OK.
const manyAttributes = once(
  () => `<?xml version="1.0"?><CurrentUsage xmlns="http://www.vmware.com/vcloud/v1.5"${Array.from({ length: 200_000 }, (_, i) => ` a${i}="1"`).join('')}/>`,
);
// 66 MB of <a/>: once OK after the deadline, and 3 GB.
const manyElements = once(() => usage('<a/>'.repeat(16_500_000)));
// A 30 MB error message: once a 30 MB status line.
const hugeError = once(
  () =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="INTERNAL_SERVER_ERROR" message="[ 0f3c9a1e-1111-4222-8333-444455556666 ] simulated failure ${'x'.repeat(30_000_000)}" majorErrorCode="500"/>`,
);

// /api/versions, read before any login: 480 KB of `<!--` where the XML allows them (a processing
// instruction), once 30 s of a second pass over the text at -t 5.
const versionsFlood = once(
  () =>
    `<?xml version="1.0" encoding="UTF-8"?><?x ${'<!--'.repeat(120_000)}?><SupportedVersions xmlns="http://www.vmware.com/vcloud/versions"><VersionInfo deprecated="false"><Version>34.0</Version><LoginUrl>/api/sessions</LoginUrl></VersionInfo></SupportedVersions>`,
);
// One query page of 150,000 VMRecords: once "Maximum call stack size exceeded".
const queryRecords = once(
  () =>
    `<?xml version="1.0" encoding="UTF-8"?><QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" total="150000">${Array.from({ length: 150_000 }, (_, i) => `<VMRecord name="vm-${i}" containerName="big" status="POWERED_ON" isVAppTemplate="false" href="/api/vApp/vm-00000000-0000-4000-8000-${String(i).padStart(12, '0')}"/>`).join('')}</QueryResultRecords>`,
);
// 20 MB of `[` in a /cloudapi error: JSON.parse would build 10 million arrays (1 GB, seconds).
const nestedJsonError = once(() => `{"message":${'['.repeat(10_000_000)}${']'.repeat(10_000_000)}}`);
/** The query and versions readers are shared by the VM checks: one of them carries the hostile pages. */
const VM_READERS = ['check_vm_cpu'];
const QUERY_PATH = '/api/query$';
const monitoringConfig = (yaml: string) =>
  JSON.stringify({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: 'cluster-monitoring-config', namespace: 'openshift-monitoring' },
    data: { 'config.yaml': yaml },
  });
const yamlKeys = (n: number, value: (i: number) => string) =>
  `enableUserWorkload: true\n${Array.from({ length: n }, (_, i) => `k${i}: ${value(i)}`).join('\n')}`;
// 60,000 keys or 45,000 anchors in config.yaml: once 14-37 s at -t 5.
const manyConfigKeys = once(() => monitoringConfig(yamlKeys(60_000, () => 'v')));
const manyConfigAnchors = once(() => monitoringConfig(yamlKeys(45_000, (i) => `&a${i} v`)));

/** The node-list bodies are shaped for check_nodes' reader. */
const NODE_LIST = ['check_nodes'];
/** The pod-list, ClusterOperator and ConfigMap bodies, for check_cluster_monitoring's readers. */
const MONITORING = ['check_cluster_monitoring'];
// Where check_cluster_monitoring's other reads go (its target's path is the platform pod list).
const OPERATOR_PATH = '/apis/config\\.openshift\\.io/v1/clusteroperators/monitoring$';
const CONFIGMAP_PATH = '/api/v1/namespaces/openshift-monitoring/configmaps/cluster-monitoring-config$';

const podList = (items: string) => `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"81920"},"items":[${items}]}`;
// 900,000 `{}`: under the parser's bound on objects, so the reader itself must refuse it.
const manyEmptyPods = once(() => podList(Array(900_000).fill('{}').join(',')));
const nestedPodName = once(() => podList(`{"metadata":{"name":${'['.repeat(900_000)}${']'.repeat(900_000)}}}`));
const pod = (name: unknown, conditions: unknown) =>
  JSON.stringify({ metadata: { name, namespace: 'openshift-monitoring' }, status: { phase: 'Running', conditions } });
// A ClusterOperator as `oc get co monitoring -o json` prints it, with a Degraded condition the server chose.
const operator = (degraded: Record<string, unknown>, kind: string = '"ClusterOperator"') =>
  `{"apiVersion":"config.openshift.io/v1","kind":${kind},"metadata":{"name":"monitoring"},"status":{"conditions":[${JSON.stringify({ type: 'Degraded', lastTransitionTime: '2026-11-23T06:12:02Z', ...degraded })},{"type":"Available","status":"True","reason":"RollOutDone"}],"versions":[{"name":"operator","version":"4.14.38"}]}}`;
const hugeOperatorMessage = once(() =>
  operator({ status: 'True', reason: 'UpdatingPrometheusK8SFailed', message: `Failed to rollout the stack. Error: ${'x'.repeat(30_000_000)}` }),
);
const nestedOperatorKind = once(() => operator({ status: 'False' }, `${'['.repeat(900_000)}${']'.repeat(900_000)}`));

export const HOSTILE_CASES: FaultCase[] = [
  {
    id: 'hostile: a 480 KB /api/versions answer full of "<!--", before any login',
    only: 'vm',
    exes: VM_READERS,
    extraArgs: ['--no-cache'],
    maxRssMb: 200,
    get faults() {
      return [
        { kind: 'body' as const, path: '/api/versions$', contentType: 'application/vnd.vmware.vcloud.versions+xml', body: versionsFlood() },
        { kind: 'status' as const, status: 503, body: '' },
      ];
    },
    cause: { nodes: /never/, vm: /HTTP 503/ },
  },
  // Each page is refused at its first name, at once; memory is that of one page.
  ...(
    [
      [30, 250],
      [60, 320],
    ] as const
  ).map(([mb, maxRssMb]): FaultCase => ({
    id: `hostile: endless query pages of VMs named with ${mb} MB each`,
    only: 'vm',
    exes: VM_READERS,
    setArgs: { '--vm': 'web-endless' },
    timeoutSeconds: 10,
    maxRssMb,
    faults: [{ kind: 'endless-query', path: QUERY_PATH, count: 1, nameChars: mb * 1_000_000 }],
    cause: {
      nodes: /never/,
      vm: new RegExp(`unexpected query response from .*: not XML \\(attribute name of <VMRecord> is ${mb}000000 characters long, more than 8192`),
    },
  })),
  {
    // Names of a few bytes kept from each page must not keep the pages themselves in memory.
    id: 'hostile: endless query pages of 128 VMs and 8 MB of comment each',
    only: 'vm',
    exes: VM_READERS,
    setArgs: { '--vm': 'web-endless' },
    // Pages arrive until -t: 5 s is dozens of them, enough to show that none is kept.
    timeoutSeconds: 5,
    maxRssMb: 250,
    faults: [{ kind: 'endless-query', path: QUERY_PATH, padChars: 8_000_000 }],
    cause: { nodes: /never/, vm: /timed out after 5s while reading page \d+ of the VM list|listed more than 100000 VMs/ },
  },
  {
    id: 'hostile: endless query pages, bounded by --max-vms',
    only: 'vm',
    exes: VM_READERS,
    setArgs: { '--vm': 'web-endless' },
    extraArgs: ['--max-vms', '500'],
    maxRssMb: 200,
    faults: [{ kind: 'endless-query', path: QUERY_PATH }],
    cause: {
      nodes: /never/,
      vm: /the query service of .* listed more than 500 VMs, narrow it with --vapp \(or raise --max-vms if the organisation is really that large\)/,
    },
  },
  {
    id: 'hostile: one query page of 150,000 VMs',
    only: 'vm',
    exes: VM_READERS,
    setArgs: { '--vm': 'web-big' },
    // Time to move and read 20 MB on a loaded machine; the bound, not -t, must end it.
    timeoutSeconds: 10,
    maxRssMb: 400,
    get faults() {
      return [{ kind: 'body' as const, path: QUERY_PATH, contentType: 'application/vnd.vmware.vcloud.query.records+xml;version=34.0', body: queryRecords() }];
    },
    cause: { nodes: /never/, vm: /the query service of .* listed more than 100000 VMs, narrow it with --vapp/ },
  },
  {
    id: 'hostile: a 20 MB /cloudapi-style error of nested arrays',
    only: 'vm',
    exes: VM_READERS,
    timeoutSeconds: 5,
    maxRssMb: 300,
    get faults() {
      return [{ kind: 'status' as const, status: 500, contentType: 'application/json', body: nestedJsonError() }];
    },
    cause: { nodes: /never/, vm: /HTTP 500/ },
  },
  ...(
    [
      ['60,000 keys', manyConfigKeys],
      ['45,000 anchors', manyConfigAnchors],
    ] as const
  ).map(([what, body]): FaultCase => ({
    id: `hostile: a config.yaml of ${what}`,
    only: 'nodes',
    exes: MONITORING,
    maxRssMb: 200,
    get faults() {
      return [{ kind: 'body' as const, path: CONFIGMAP_PATH, contentType: 'application/json', body: body() }];
    },
    cause: { nodes: /config\.yaml holds more than 100000 YAML tokens, far more than any monitoring configuration/, vm: /never/ },
  })),
  {
    id: 'hostile: a 63 MiB page of empty node objects',
    only: 'nodes',
    exes: NODE_LIST,
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: emptyNodes() }];
    },
    cause: { nodes: /unexpected response from .*: items\[0\]\.metadata is missing|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: 1.5 million nodes in one 48 MB page',
    only: 'nodes',
    exes: NODE_LIST,
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: tinyNodes() }];
    },
    cause: { nodes: /listed more than 100000 nodes[;,] raise --max-nodes|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: a million {} items in 3 MB',
    only: 'nodes',
    exes: NODE_LIST,
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: millionEmpty() }];
    },
    cause: { nodes: /items\[0\]\.metadata is missing/, vm: /never/ },
  },
  {
    id: 'hostile: endless pages with new continue tokens',
    only: 'nodes',
    exes: NODE_LIST,
    faults: [{ kind: 'endless-list' }],
    cause: { nodes: /listed more than 100000 nodes|more than \d+ pages of nodes|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: a million-deep array as a node name',
    only: 'nodes',
    exes: NODE_LIST,
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: nestedName() }];
    },
    cause: { nodes: /items\[0\]\.metadata\.name is an array, not a string/, vm: /never/ },
  },
  {
    // The same flood for a reader that parses its list whole (the pod list).
    id: 'hostile: a 63 MiB list of empty objects, for a reader that parses it whole',
    only: 'nodes',
    exes: ['check_cluster_monitoring', 'check_cluster_operators'],
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: emptyNodes() }];
    },
    cause: { nodes: /holds more than 1000000 JSON objects and arrays|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: endless pages of pods with new continue tokens',
    only: 'nodes',
    exes: MONITORING,
    faults: [{ kind: 'endless-list', listKind: 'PodList' }],
    cause: { nodes: /listed more than 20000 pods in namespace openshift-monitoring[;,] raise --max-pods|more than \d+ pages of pods/, vm: /never/ },
  },
  {
    id: 'hostile: a page of 900,000 {} pod items',
    only: 'nodes',
    exes: MONITORING,
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: manyEmptyPods() }];
    },
    cause: { nodes: /unexpected response from .*\/pods: items\[0\]\.metadata is missing \(not a pod|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: a pod item whose name is not a string',
    only: 'nodes',
    exes: MONITORING,
    faults: [
      { kind: 'body', contentType: 'application/json', body: podList([pod('prometheus-k8s-0', [{ type: 'Ready', status: 'True' }]), pod(42, [])].join(',')) },
    ],
    cause: { nodes: /unexpected response from .*\/pods: items\[1\]\.metadata\.name is a number, not a string/, vm: /never/ },
  },
  {
    id: 'hostile: a pod item whose conditions are not an array',
    only: 'nodes',
    exes: MONITORING,
    faults: [{ kind: 'body', contentType: 'application/json', body: podList(pod('prometheus-k8s-0', 'Ready=True')) }],
    cause: { nodes: /unexpected response from .*\/pods: items\[0\]\.status\.conditions is a string, not an array/, vm: /never/ },
  },
  {
    id: 'hostile: a pod name with control and line-separator characters',
    only: 'nodes',
    exes: MONITORING,
    faults: [
      {
        kind: 'body',
        contentType: 'application/json',
        body: podList(pod('prometheus-k8s-0\nMONITORING OK - fine\u2028\u0000', [{ type: 'Ready', status: 'True' }])),
      },
    ],
    cause: { nodes: /items\[0\]\.metadata\.name holds control or line-separator characters/, vm: /never/ },
  },
  {
    id: 'hostile: a 900,000-deep array as a pod name',
    only: 'nodes',
    exes: MONITORING,
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: nestedPodName() }];
    },
    cause: { nodes: /items\[0\]\.metadata\.name is an array, not a string|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: a 30 MB message in a ClusterOperator condition',
    only: 'nodes',
    exes: MONITORING,
    get faults() {
      return [{ kind: 'body' as const, path: OPERATOR_PATH, contentType: 'application/json', body: hugeOperatorMessage() }];
    },
    cause: {
      nodes:
        /unexpected response from .*\/clusteroperators\/monitoring: status\.conditions\[0\]\.message is 30000036 characters long, more than an API object may hold/,
      vm: /never/,
    },
  },
  {
    id: 'hostile: a 30 MB message in a condition of the ClusterOperator list',
    only: 'nodes',
    exes: ['check_cluster_operators'],
    // Moving 30 MB through HTTP and JSON.parse takes seconds on a loaded machine: the point is the line, not the speed.
    timeoutSeconds: 8,
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: `{"kind":"ClusterOperatorList","items":[${hugeOperatorMessage()}]}` }];
    },
    cause: {
      nodes:
        /unexpected response from .*\/clusteroperators: items\[0\] \(monitoring\)\.status\.conditions\[0\]\.message is 30000036 characters long, more than an API object may hold/,
      vm: /never/,
    },
  },
  {
    id: 'hostile: control and line-separator characters in a Status message of the pod list',
    only: 'nodes',
    exes: MONITORING,
    faults: [
      {
        kind: 'status',
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'etcdserver:\u0000 request\u000b timed\u2028out\u001b[2J\u0085again\rMONITORING OK - fine',
          reason: 'InternalError',
          code: 500,
        }),
      },
    ],
    cause: {
      nodes:
        /^(?!.*[\u0000-\u001f\u007f-\u009f\u2028\u2029]).*HTTP 500 from .*\/pods: .*server says: etcdserver: request timed out \[2J again MONITORING OK - fine\)/,
      vm: /never/,
    },
  },
  {
    id: 'hostile: a 900,000-deep array as the ClusterOperator kind',
    only: 'nodes',
    exes: MONITORING,
    get faults() {
      return [{ kind: 'body' as const, path: OPERATOR_PATH, contentType: 'application/json', body: nestedOperatorKind() }];
    },
    cause: {
      nodes: /unexpected response from .*\/clusteroperators\/monitoring: kind is an array, not the string ClusterOperator|timed out after 3s/,
      vm: /never/,
    },
  },
  {
    id: 'hostile: a config.yaml nested 400,000 deep',
    only: 'nodes',
    exes: MONITORING,
    faults: [
      {
        kind: 'body',
        path: CONFIGMAP_PATH,
        contentType: 'application/json',
        body: JSON.stringify({
          kind: 'ConfigMap',
          apiVersion: 'v1',
          metadata: { name: 'cluster-monitoring-config', namespace: 'openshift-monitoring' },
          data: { 'config.yaml': `enableUserWorkload: ${'['.repeat(400_000)}${']'.repeat(400_000)}` },
        }),
      },
    ],
    cause: { nodes: /config\.yaml nests collections more than 256 deep/, vm: /never/ },
  },
  {
    id: 'hostile: a 60 KB Status message',
    only: 'nodes',
    exes: NODE_LIST,
    get faults() {
      return [{ kind: 'status' as const, status: 500, contentType: 'application/json', body: longStatus() }];
    },
    cause: { nodes: /HTTP 500 .*etcdserver: request timed out.*more characters/, vm: /never/ },
  },
  {
    id: 'hostile: a chunked body over --max-bytes',
    // 200: a metrics answer to the spec (only the metrics asked for) is a few hundred bytes.
    extraArgs: ['--max-bytes', '200'],
    faults: [{ kind: 'chunked' }],
    cause: { nodes: /larger than --max-bytes 200/, vm: /larger than --max-bytes 200/ },
  },
  {
    id: 'hostile: an XML element with 200,000 attributes',
    only: 'vm',
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/xml', body: manyAttributes() }];
    },
    cause: { nodes: /never/, vm: /more than 256 attributes in <CurrentUsage>/ },
  },
  {
    id: 'hostile: 66 MB of <a/>',
    only: 'vm',
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/xml', body: manyElements() }];
    },
    // check_pvdc reads its query pages as they arrive: it refuses the root element before the flood.
    cause: { nodes: /never/, vm: /more than 200000 elements|timed out after 3s|root element <CurrentUsage>, expected <QueryResultRecords>/ },
  },
  {
    id: 'hostile: a 30 MB vCD error message',
    only: 'vm',
    get faults() {
      return [{ kind: 'status' as const, status: 500, contentType: 'application/vnd.vmware.vcloud.error+xml;version=34.0', body: hugeError() }];
    },
    cause: { nodes: /never/, vm: /simulated failure x+… \(\d+ more characters\)/ },
  },
  {
    id: 'hostile: 300,000 firing alerts in one 24 MB answer',
    only: 'nodes',
    exes: ALERTS_ONLY,
    get faults() {
      return [{ kind: 'body' as const, contentType: 'application/json', body: manyAlerts() }];
    },
    cause: { nodes: /holds 300000 alerts, more than --max-alerts 50000|timed out after 3s/, vm: /never/ },
  },
  {
    id: 'hostile: an endless alerts answer, bounded by --max-bytes',
    only: 'nodes',
    exes: ALERTS_ONLY,
    extraArgs: ['--max-bytes', '5000000'],
    faults: [{ kind: 'flood', bytes: 200 * 1024 * 1024 }],
    cause: { nodes: /larger than --max-bytes 5000000/, vm: /never/ },
  },
];

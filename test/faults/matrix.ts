// The fault matrix: every way the network, the server or the user can fail a check, for
// every plugin over HTTPS, and for the first of each family over plain HTTP too (its
// transport faults: the hostile documents meet the same readers either way). A plugin that
// runs on another's seam takes a sample (Target.only). Each case must end as exactly one
// UNKNOWN line (or the state stated) naming the cause, within -t + 0.5 s, no stack trace,
// nothing on stderr, no secret anywhere.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Fault } from '../../sim/faults';
import type { Simulator } from '../../sim/simulator';
import { HOSTILE_CASES } from './hostile';

export const DIST = resolve(__dirname, '../../dist');

/**
 * Set by scripts/run-tests on the tested Node.js versions other than the host's: there the
 * fault suites take a sample (each file says which), the host's run takes everything.
 */
export const SAMPLED = process.env.CLOUDCHECKS_FAULT_SAMPLE === '1';

export type Family = 'nodes' | 'vm';
export type Transport = 'http' | 'https';

/** One plugin as the matrix drives it. */
export interface Target {
  exe: string;
  family: Family;
  /** The API the plugin talks to, and the path its main request goes to (faults aim there). */
  api: 'cluster' | 'vcd';
  path: string;
  /** Arguments that reach `url` with working credentials (and a warm session cache). */
  args(sim: Simulator, url: string, transport: Transport): string[];
  /** Secret values that must never be printed. */
  secrets(sim: Simulator): string[];
  /** Cases that do not apply (their fault is no failure for this plugin), by id. */
  skip?: readonly string[];
  /** The exit code of a fault of the server (default 3); usage errors stay UNKNOWN (3). check_vcd: 2. */
  serverFaultCode?: number;
  /**
   * Only these cases, by id: a plugin that is another one of the matrix with a different
   * profile (check_vm_disk and check_vm_mem are check_vm_cpu's seam, connection, session cache
   * and metrics reader, judging other metrics) takes the cases whose outcome its profile can
   * change; the one it shares its seam with takes every case.
   */
  only?: readonly string[];
}

export const VM_ID = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
const vmCache = mkdtempSync(join(tmpdir(), 'cc-faults-cache-'));

const vmTarget = (exe: string): Target => ({
  exe,
  family: 'vm',
  api: 'vcd',
  path: '/metrics/',
  args: (sim, url, transport) => [
    '--url',
    url,
    '--vm',
    VM_ID,
    '--user',
    'monitor',
    '--org',
    'acme',
    '--password-file',
    sim.apis.vcd.info.passwordFile,
    '--cache-dir',
    vmCache,
    ...(transport === 'https' ? ['--ca-file', sim.caFile] : ['--allow-http']),
  ],
  secrets: (sim) => [readFileSync(sim.apis.vcd.info.passwordFile, 'utf8').trim()],
});

/** Cases about the VM metrics document (CurrentUsage, its values, a 400 on current metrics): check_vdc reads none. */
const METRICS_ONLY = [
  'XML of the wrong kind',
  'deeply nested XML',
  'huge attribute value',
  'non-numeric metric value',
  'non-finite metric value',
  'metric value beyond double range',
  'HTTP 400 without a body',
];

/**
 * What a plugin that shares another's seam takes (see Target.only): one transport fault of
 * each kind, a usage fault, the server's refusals, as the sign that it runs on that seam.
 */
const SEAM_CASES = [
  'empty body',
  'truncated body',
  'connection reset',
  'server never answers',
  'query answer of the wrong kind',
  'usage error: unknown option',
  "HTTP 400 with the server's error document",
  "HTTP 404 with the server's error document",
  "HTTP 503 with the server's error document",
];

/** check_vm_disk and check_vm_mem: also the metrics document's cases, whose values their profiles read. */
const PROFILE_CASES = [...METRICS_ONLY, ...SEAM_CASES];

/** check_vdc: the VM checks' connection and session cache; faults aim at the query service. */
const vdcTarget = (): Target => {
  const vm = vmTarget('check_vdc');
  return {
    ...vm,
    path: '/api/query$',
    args: (sim, url, transport) => {
      const args = vm.args(sim, url, transport);
      args.splice(args.indexOf('--vm'), 2, '--vdc', 'acme-prod');
      return args;
    },
    skip: METRICS_ONLY,
  };
};

/**
 * check_pvdc: a System account (the provider user); faults aim at the query service. The
 * provider user has no session in the shared cache (the VM checks log in as the tenant), so
 * every case logs in, and the case that withholds the CA would hold that login's failure
 * for the next cases: --no-cache keeps each case to its own fault.
 */
const pvdcTarget = (): Target => {
  const vm = vmTarget('check_pvdc');
  return {
    ...vm,
    path: '/api/query$',
    args: (sim, url, transport) => {
      const args = vm.args(sim, url, transport);
      args.splice(args.indexOf('--vm'), 2);
      args[args.indexOf('--user') + 1] = sim.apis.vcd.info.providerUser;
      args[args.indexOf('--org') + 1] = 'System';
      args.splice(args.indexOf('--cache-dir'), 2, '--no-cache');
      return args;
    },
    // -w is --cpu-warning here, and the refusal names that option.
    skip: [...METRICS_ONLY, 'usage error: malformed threshold'],
  };
};

/**
 * check_vcd_tasks: the query service's seam (the VM checks' connection and session cache, the
 * paged reader check_pvdc takes every case of); faults aim at the task query. No -w of a range
 * of percent, no metrics document: the seam's sample.
 */
const tasksTarget = (): Target => {
  const vm = vmTarget('check_vcd_tasks');
  return {
    ...vm,
    path: '/api/query$',
    args: (sim, url, transport) => {
      const args = vm.args(sim, url, transport);
      args.splice(args.indexOf('--vm'), 2);
      return args;
    },
    skip: METRICS_ONLY,
    only: SEAM_CASES,
  };
};

/**
 * check_edge_gateways: faults aim at its first read, the CloudAPI list (a JSON page: the
 * XML-shaped cases are no case of its); the query seam's sample beside it.
 */
const edgesTarget = (): Target => ({
  ...tasksTarget(),
  exe: 'check_edge_gateways',
  path: '/cloudapi/1.0.0/edgeGateways',
  // An empty body is "not JSON" there (the case names the XML reader's words), and a 404 is a
  // server without the list, read from the query service instead: e2e tests both.
  skip: [...METRICS_ONLY, 'empty body', "HTTP 404 with the server's error document"],
});

/**
 * check_vcd_backends: a System account (as check_pvdc, --no-cache for the same reason); faults
 * aim at its first read, the CloudAPI vCenter list (a JSON page, as check_edge_gateways'); the
 * query seam's sample beside it.
 */
const backendsTarget = (): Target => ({
  ...pvdcTarget(),
  exe: 'check_vcd_backends',
  path: '/cloudapi/1.0.0/virtualCenters',
  // An empty body is "not JSON" there, and a 404 is a server without the list, read from the
  // query service's virtualCenter records instead: the unit tests read those.
  skip: [...METRICS_ONLY, 'empty body', "HTTP 404 with the server's error document"],
  only: SEAM_CASES,
});

/** check_vcd: the service itself, whose every server fault is CRITICAL; faults aim at /api/versions, its first read. */
const serviceTarget = (): Target => {
  const vm = vmTarget('check_vcd');
  return {
    ...vm,
    path: '/api/versions$',
    args: (sim, url, transport) => {
      const args = vm.args(sim, url, transport);
      args.splice(args.indexOf('--vm'), 2);
      args.splice(args.indexOf('--cache-dir'), 2);
      return args;
    },
    skip: METRICS_ONLY,
    serverFaultCode: 2,
  };
};

/** A cluster check: the cluster's URL and token file; faults aim at `path`. */
const clusterTarget = (exe: string, path: string, skip?: readonly string[]): Target => ({
  exe,
  family: 'nodes',
  api: 'cluster',
  path,
  args: (sim, url, transport) => [
    '--url',
    url,
    '--token-file',
    sim.apis.cluster.info.tokenFile,
    ...(transport === 'https' ? ['--ca-file', sim.caFile] : ['--allow-http']),
  ],
  secrets: (sim) => [readFileSync(sim.apis.cluster.info.tokenFile, 'utf8').trim()],
  ...(skip ? { skip } : {}),
});

export const TARGETS: Target[] = [
  clusterTarget('check_nodes', '/api/v1/nodes'),
  // Faults aim at the platform pod list: the one read whose every failure must surface
  // (a 404 of the ClusterOperator or the ConfigMap means "absent", not an error). A PodList
  // is the right kind there.
  clusterTarget('check_cluster_monitoring', '/api/v1/namespaces/openshift-monitoring/pods', ['JSON/XML of the wrong kind']),
  // Faults aim at the operator list (the ClusterVersion is read beside it). No -w/-c: each
  // operator is judged by its conditions.
  clusterTarget('check_cluster_operators', '/apis/config.openshift.io/v1/clusteroperators', ['usage error: malformed threshold']),
  // Faults aim at /readyz (/livez and /version are read beside it). A 500 or 503 there is the
  // API server saying it is not ready: CRITICAL by design, not a failure to check. Its body
  // is a text list, so the NodeList-shaped cases do not apply.
  clusterTarget('check_apiserver', '/readyz', [
    'JSON/XML of the wrong kind',
    'HTTP 500 without a body',
    "HTTP 500 with the server's error document",
    'HTTP 503 without a body',
    "HTTP 503 with the server's error document",
  ]),
  // Faults aim at the CSR list (the chain is read from the handshake beside it). An expired
  // serving certificate is its finding (CRITICAL), and -w/-c are durations, not ranges.
  clusterTarget('check_cluster_certs', '/apis/certificates.k8s.io/v1/certificatesigningrequests', ['expired certificate', 'usage error: malformed threshold']),
  // Faults aim at the Alertmanager's alerts (the simulator serves it on the cluster listener;
  // --alertmanager-url is the URL under test, the cluster options' token and CA its own). A
  // NodeList there is refused as not Alertmanager's list, in words of its own; no -w.
  {
    ...clusterTarget('check_cluster_alerts', '/api/v2/alerts', ['JSON/XML of the wrong kind', 'usage error: malformed threshold']),
    args: (sim, url, transport) => [
      '--alertmanager-url',
      url,
      '--token-file',
      sim.apis.cluster.info.tokenFile,
      ...(transport === 'https' ? ['--ca-file', sim.caFile] : ['--allow-http']),
    ],
  },
  vmTarget('check_vm_cpu'),
  { ...vmTarget('check_vm_disk'), only: PROFILE_CASES },
  { ...vmTarget('check_vm_mem'), only: PROFILE_CASES },
  // The fleet's own reads are the login and the VM list: faults aim at the query service (a
  // VM's failing metrics are that VM's result, not the plugin's). Documents shaped for a
  // metrics reader, -w (it has --cpu-warning and the like) and the refusal of current metrics
  // are no case of its.
  {
    ...vmTarget('check_vm_fleet'),
    path: '/api/query',
    args: (sim, url, transport) =>
      vmTarget('check_vm_fleet')
        .args(sim, url, transport)
        .filter((a, i, all) => a !== '--vm' && all[i - 1] !== '--vm'),
    skip: [...METRICS_ONLY, 'usage error: malformed threshold', "HTTP 400 with the server's error document"],
  },
  // The hygiene checks read the VM's query record first (their main request), then at most one
  // section, which test/faults/hygiene-hostile.test.ts aims its documents at. No -w of theirs
  // is a range (check_vm_lease's is a duration), and no metrics document is read.
  // check_vm_snapshot takes every case; check_vm_tools and check_vm_lease read the same record
  // through the same probe (lib/vcd/hygiene) and take the seam's sample.
  ...(['check_vm_snapshot', 'check_vm_tools', 'check_vm_lease'] as const).map((exe): Target => ({
    ...vmTarget(exe),
    path: '/api/query$',
    skip: [...METRICS_ONLY, 'usage error: malformed threshold'],
    ...(exe === 'check_vm_snapshot' ? {} : { only: SEAM_CASES }),
  })),
  vdcTarget(),
  pvdcTarget(),
  serviceTarget(),
  tasksTarget(),
  edgesTarget(),
  backendsTarget(),
];

/** One fault: what the server does, extra arguments, and the cause the line must name. */
export interface FaultCase {
  id: string;
  faults?: Fault[];
  extraArgs?: string[];
  timeoutSeconds?: number;
  /** Only for this family (documents of the other kind make no sense). */
  only?: Family;
  /** Only for these executables (a body shaped for one reader, such as the node list). */
  exes?: readonly string[];
  /** Only over this transport (TLS cases). */
  transport?: Transport;
  /** The simulator variant needed (certificate kinds). */
  sim?: 'main' | 'wrong-host' | 'expired';
  /** Replace the URL (connection refused, DNS). */
  url?: (transport: Transport) => Promise<string> | string;
  /** Drop --ca-file from the arguments. */
  noCaFile?: boolean;
  /** Run in a network namespace of its own, so a DNS query cannot leave the machine. */
  isolated?: boolean;
  /** The cause the line must name, per family. */
  cause: Record<Family, RegExp>;
  /** Exit code other than 3, when the fault has a stated state. */
  code?: number;
  /** The peak resident memory the run may reach, in MiB (measured with GNU time). */
  maxRssMb?: number;
  /** Arguments whose value the case replaces (`--vm` by a name), by option. */
  setArgs?: Record<string, string>;
}

const kubeStatus = (code: number, reason: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `simulated ${code} failure`, reason, code });
const vcdError = (code: number, minor: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Error xmlns="http://www.vmware.com/vcloud/v1.5" minorErrorCode="${minor}" message="[ 0f3c9a1e-1111-4222-8333-444455556666 ] simulated ${code} failure" majorErrorCode="${code}"/>`;

const STATUS_REASONS: Record<number, [string, string]> = {
  400: ['BadRequest', 'BAD_REQUEST'],
  401: ['Unauthorized', 'UNAUTHORIZED'],
  403: ['Forbidden', 'ACCESS_TO_RESOURCE_IS_FORBIDDEN'],
  404: ['NotFound', 'RESOURCE_NOT_FOUND'],
  406: ['NotAcceptable', 'NOT_ACCEPTABLE'],
  409: ['Conflict', 'BUSY_ENTITY'],
  410: ['Expired', 'GONE'],
  429: ['TooManyRequests', 'TOO_MANY_REQUESTS'],
  500: ['InternalError', 'INTERNAL_SERVER_ERROR'],
  502: ['BadGateway', 'BAD_GATEWAY'],
  503: ['ServiceUnavailable', 'SERVICE_UNAVAILABLE'],
  504: ['Timeout', 'GATEWAY_TIMEOUT'],
};

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  return new Promise((resolvePort) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

const nestedJson = '['.repeat(200_000) + ']'.repeat(200_000);
const nestedXml = '<a>'.repeat(50_000) + '</a>'.repeat(50_000);
const entityBomb = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>
<CurrentUsage xmlns="http://www.vmware.com/vcloud/v1.5"><Metric name="cpu.usage.average" unit="PERCENT" value="&lol2;"/></CurrentUsage>`;
const usage = (value: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><CurrentUsage xmlns="http://www.vmware.com/vcloud/v1.5">${[
    'cpu.usage.average',
    'cpu.usage.maximum',
    'cpu.usagemhz.average',
    'mem.usage.average',
    'disk.write.average',
    'disk.read.average',
    'disk.provisioned.latest',
    'disk.used.latest',
  ]
    .map((n) => `<Metric name="${n}" unit="PERCENT" value="${value}"/>`)
    .join('')}</CurrentUsage>`;

const both = (re: RegExp): Record<Family, RegExp> => ({ nodes: re, vm: re });
/** A HistoricUsage of about `bytes` bytes: one series of samples a minute apart. */
const historicOf = (bytes: number) => {
  const sample = (i: number) => `<Sample timestamp="${new Date(Date.now() - i * 60_000).toISOString()}" value="${(i % 100).toFixed(2)}"/>`;
  const rows = Array.from({ length: Math.ceil(bytes / 70) }, (_, i) => sample(i)).reverse();
  return `<?xml version="1.0"?><HistoricUsage xmlns="http://www.vmware.com/vcloud/v1.5"><MetricSeries name="cpu.usage.average" unit="PERCENT" expectedInterval="60">${rows.join('')}</MetricSeries></HistoricUsage>`;
};

export const CASES: FaultCase[] = [
  { id: 'connection refused', url: async (t) => `${t}://127.0.0.1:${await closedPort()}`, cause: both(/connection refused by 127\.0\.0\.1:\d+/) },
  { id: 'DNS failure', url: (t) => `${t}://cluster.invalid:6443`, isolated: true, cause: both(/cannot resolve host "cluster\.invalid"/) },
  {
    id: 'TLS hostname mismatch',
    transport: 'https',
    sim: 'wrong-host',
    cause: both(/not valid for the name "127\.0\.0\.1": it carries DNS:wrong\.example, use one of those names in the URL.*-k\/--insecure/),
  },
  {
    id: 'self-signed CA without --ca-file',
    transport: 'https',
    noCaFile: true,
    cause: both(/TLS verification of 127\.0\.0\.1:\d+ failed: .*--ca-file.*-k\/--insecure/),
  },
  {
    id: 'expired certificate',
    transport: 'https',
    sim: 'expired',
    cause: both(/certificate has expired, renew the server's certificate, or check this host's clock/),
  },
  { id: 'delay before headers beyond -t', faults: [{ kind: 'delay', ms: 5000 }], timeoutSeconds: 1, cause: both(/timed out after 1s/) },
  { id: 'delay in the middle of the body beyond -t', faults: [{ kind: 'delay-body', ms: 5000 }], timeoutSeconds: 1, cause: both(/timed out after 1s/) },
  { id: 'server never answers', faults: [{ kind: 'hang' }], timeoutSeconds: 1, cause: both(/timed out after 1s/) },
  { id: 'connection reset', faults: [{ kind: 'reset' }], cause: both(/reset/) },
  { id: 'truncated body', faults: [{ kind: 'truncate' }], cause: both(/truncated|closed before the whole response/) },
  { id: 'empty body', faults: [{ kind: 'empty' }], cause: { nodes: /empty|not JSON/i, vm: /not XML \(no root element/ } },
  {
    id: '200 with an HTML page',
    faults: [
      {
        kind: 'body',
        body: '<!DOCTYPE html>\n<html><head><title>Login</title></head><body><form action="/login"></form></body></html>',
        contentType: 'text/html',
      },
    ],
    cause: { nodes: /not JSON|HTML/i, vm: /not XML \(DOCTYPE declarations are not accepted/ },
  },
  {
    id: 'JSON/XML of the wrong kind',
    faults: [
      {
        kind: 'body',
        contentType: 'application/json',
        body: JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'p' } }] }),
      },
    ],
    only: 'nodes',
    cause: { nodes: /PodList|not a NodeList/, vm: /never/ },
  },
  {
    id: 'XML of the wrong kind',
    faults: [
      {
        kind: 'body',
        contentType: 'application/vnd.vmware.vcloud.vm+xml',
        body: '<?xml version="1.0"?><Vm xmlns="http://www.vmware.com/vcloud/v1.5" name="web-01"/>',
      },
    ],
    only: 'vm',
    cause: { nodes: /never/, vm: /not a vCD CurrentUsage document \(root element \{http:\/\/www\.vmware\.com\/vcloud\/v1\.5\}Vm/ },
  },
  {
    id: 'JSON where XML belongs',
    faults: [{ kind: 'body', contentType: 'application/json', body: '{"values":[]}' }],
    only: 'vm',
    cause: { nodes: /never/, vm: /not XML/ },
  },
  { id: 'body over --max-bytes', extraArgs: ['--max-bytes', '200'], cause: both(/larger than --max-bytes 200/) },
  {
    // The spec of --window posted, and a server that answers it with far more than a window:
    // the answer is bounded as the GET's is, chunked without a length or not.
    id: 'the window spec answered beyond --max-bytes, chunked',
    only: 'vm',
    exes: ['check_vm_cpu', 'check_vm_mem', 'check_vm_disk'],
    extraArgs: ['--window', '1h', '--max-bytes', '200000'],
    faults: [{ method: 'POST', kind: 'chunked', body: historicOf(400_000) }],
    cause: { nodes: /never/, vm: /larger than --max-bytes 200000/ },
    maxRssMb: 120,
  },
  {
    id: 'deeply nested JSON',
    only: 'nodes',
    faults: [{ kind: 'body', contentType: 'application/json', body: nestedJson }],
    cause: { nodes: /JSON|NodeList/, vm: /never/ },
  },
  {
    id: 'deeply nested XML',
    only: 'vm',
    faults: [{ kind: 'body', contentType: 'application/xml', body: nestedXml }],
    cause: { nodes: /never/, vm: /not a vCD CurrentUsage document \(root element a/ },
  },
  {
    id: 'XML entity bomb',
    only: 'vm',
    faults: [{ kind: 'body', contentType: 'application/xml', body: entityBomb }],
    cause: { nodes: /never/, vm: /DOCTYPE declarations are not accepted/ },
  },
  {
    id: 'huge attribute value',
    only: 'vm',
    faults: [{ kind: 'body', contentType: 'application/xml', body: usage('9'.repeat(2_000_000)) }],
    cause: { nodes: /never/, vm: /no valid decimal value|beyond any real measurement/ },
  },
  {
    id: 'non-numeric metric value',
    only: 'vm',
    faults: [{ kind: 'body', contentType: 'application/xml', body: usage('n/a') }],
    cause: { nodes: /never/, vm: /no valid decimal value \("n\/a"\)/ },
  },
  {
    id: 'non-finite metric value',
    only: 'vm',
    faults: [{ kind: 'body', contentType: 'application/xml', body: usage('Infinity') }],
    cause: { nodes: /never/, vm: /no valid decimal value \("Infinity"\)/ },
  },
  {
    id: 'metric value beyond double range',
    only: 'vm',
    faults: [{ kind: 'body', contentType: 'application/xml', body: usage('1e999') }],
    cause: { nodes: /never/, vm: /no valid decimal value|beyond any real measurement/ },
  },
  {
    id: 'query answer of the wrong kind',
    exes: ['check_vdc'],
    faults: [
      {
        kind: 'body',
        contentType: 'application/vnd.vmware.vcloud.vm+xml',
        body: '<?xml version="1.0"?><Vm xmlns="http://www.vmware.com/vcloud/v1.5" name="web-01"/>',
      },
    ],
    cause: { nodes: /never/, vm: /unexpected query response from .*: root element <Vm>, expected <QueryResultRecords>/ },
  },
  {
    id: 'VDC figure that is no number',
    exes: ['check_vdc'],
    faults: [
      {
        kind: 'body',
        contentType: 'application/vnd.vmware.vcloud.query.records+xml',
        body: `<QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5"><OrgVdcRecord name="acme-prod" orgName="acme" cpuUsedMhz="n/a" cpuLimitMhz="${'9'.repeat(5000)}" memoryUsedMB="1" memoryLimitMB="2" href="https://x/api/vdc/7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f"/></QueryResultRecords>`,
      },
    ],
    cause: { nodes: /never/, vm: /OrgVdcRecord "acme-prod": cpuUsedMhz is "n\/a", not a whole number/ },
  },
  { id: 'usage error: malformed threshold', extraArgs: ['-w', '10:5'], cause: both(/invalid range "10:5" for -w\/--warning: start is greater than end/) },
  { id: 'usage error: unknown option', extraArgs: ['--frobnicate'], cause: both(/unknown option --frobnicate/) },
  { id: 'usage error: bad timeout', extraArgs: ['-t', 'soon'], cause: both(/invalid -t\/--timeout "soon"/) },
];

for (const [code, [reason, minor]] of Object.entries(STATUS_REASONS).map(([c, r]) => [Number(c), r] as const)) {
  const named = new RegExp(`\\b${code}\\b`);
  // VM checks: a 400 on current metrics of a VM whose record says it runs is a refusal like any other.
  const vmCause = code === 400 ? /HTTP 400.*its record says POWERED_ON/ : named;
  CASES.push({
    id: `HTTP ${code} without a body`,
    faults: [{ kind: 'status', status: code, body: '' }],
    cause: { nodes: named, vm: vmCause },
  });
  CASES.push({
    id: `HTTP ${code} with the server's error document`,
    faults: [
      // The cluster API and vCD each answer in their own format; the matrix sends both kinds
      // through the path of the plugin under test (see faultsFor).
      { kind: 'status', status: code, body: kubeStatus(code, reason), contentType: 'application/json' },
      { kind: 'status', status: code, body: vcdError(code, minor), contentType: 'application/vnd.vmware.vcloud.error+xml;version=34.0' },
    ],
    cause: {
      nodes: new RegExp(`\\b${code}\\b.*simulated ${code} failure|simulated ${code} failure.*\\b${code}\\b`),
      vm: new RegExp(`simulated ${code} failure`),
    },
  });
}

CASES.push(...HOSTILE_CASES);

/** The faults of a case as the simulator of `target` must hold them (aimed at its path). */
export function faultsFor(c: FaultCase, target: Target): Fault[] {
  const list = c.faults ?? [];
  const aimed = list.length === 2 && c.id.includes('error document') ? [list[target.family === 'nodes' ? 0 : 1]] : list;
  return aimed.map((f) => ({ path: target.path, ...f }));
}

/** True when this machine can run a command in a network namespace of its own (root, unshare). */
export function canIsolateNetwork(): boolean {
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

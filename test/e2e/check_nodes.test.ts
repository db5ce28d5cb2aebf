// check_nodes as a monitoring engine runs it: the built dist/check_nodes against the
// simulator's cluster API over HTTPS. Run `node build.mjs dist` (or `make`) first.
import { existsSync, mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { parsePluginOutput } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_nodes');
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

let healthy: Simulator;
let sick: Simulator;
let large: Simulator;

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_nodes is missing: run `node build.mjs dist` first');
  [healthy, sick, large] = await Promise.all([
    startSimulatorFromArgs(['--cluster-scenario', 'healthy'], [CLUSTER_MODULE]),
    startSimulatorFromArgs(['--cluster-scenario', 'sick'], [CLUSTER_MODULE]),
    startSimulatorFromArgs(['--cluster-scenario', 'large'], [CLUSTER_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([healthy, sick, large].filter(Boolean).map((s) => s.close()));
});
afterEach(() => {
  for (const s of [healthy, sick, large]) s?.apis.cluster.faults.set([]);
});

const api = (s: Simulator) => s.apis.cluster;
const tokenFile = (s: Simulator) => api(s).info.tokenFile;
const token = (s: Simulator) => readFileSync(tokenFile(s), 'utf8').trim();
/** URL, CA and token file of a simulator, then the extra arguments. */
const args = (s: Simulator, extra: string[] = []) => ['--url', api(s).httpsUrl, '--ca-file', s.caFile, '--token-file', tokenFile(s), ...extra];
const run = (argv: string[], env: NodeJS.ProcessEnv = ENV): Promise<RunResult> => runExecutable(PLUGIN, argv, { env });
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];

const SICK_SUMMARY =
  '4 of 10 nodes failing: worker-2.prod-eu1.example.com (kubelet stopped posting status (Ready, MemoryPressure, DiskPressure, PIDPressure Unknown)), worker-3.prod-eu1.example.com (Ready=False), worker-4.prod-eu1.example.com (DiskPressure=True), worker-5.prod-eu1.example.com (KernelDeadlock=True), 1 cordoned';

describe('scenarios over HTTPS with --ca-file: exit code, first line, strict perfdata', () => {
  it('healthy: OK', async () => {
    const r = await run(args(healthy));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toBe('NODES OK - 6 of 6 nodes healthy | nodes=6;;;0 healthy=6;;;0 failing=0;;0;0;6 cordoned=0;;;0');
    const out = parsePluginOutput(r.stdout);
    expect(out.perfdata.map((m) => [m.label, m.value])).toEqual([
      ['nodes', 6],
      ['healthy', 6],
      ['failing', 0],
      ['cordoned', 0],
    ]);
    // Quiet by default: one line counts the healthy nodes.
    expect(out.longOutput).toEqual(['[OK] 6 nodes healthy (--list-all lists them)']);
    expect(r.stderr).toBe('');
    const all = parsePluginOutput((await run(args(healthy, ['--list-all']))).stdout);
    expect(all.longOutput).toEqual(
      ['master-0', 'master-1', 'master-2', 'worker-1', 'worker-2', 'worker-3'].map((n) => `[OK] ${n}.prod-eu1.example.com (host ${n}): healthy`),
    );
  });

  it('sick: CRITICAL naming the failing nodes and why; a long-output line per node not healthy', async () => {
    const r = await run(args(sick));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toBe(`NODES CRITICAL - ${SICK_SUMMARY} | nodes=10;;;0 healthy=6;;;0 failing=4;;0;0;10 cordoned=1;;;0`);
    const out = parsePluginOutput(r.stdout);
    expect(out.perfdata.find((m) => m.label === 'failing')).toMatchObject({ value: 4, crit: '0', min: 0, max: 10 });
    // Ages depend on the clock: compared as AGE.
    // The whole message (its end is the fix), and since when.
    expect(out.longOutput.map((l) => l.replace(/ for \d+[smhd], since 20\d\d-\d\d-\d\dT\d\d:\d\dZ/g, ' for AGE'))).toEqual([
      '[CRITICAL] worker-2.prod-eu1.example.com (host worker-2): kubelet stopped posting status (Ready, MemoryPressure, DiskPressure, PIDPressure Unknown) for AGE',
      '[CRITICAL] worker-3.prod-eu1.example.com (host worker-3): Ready=False for AGE (KubeletNotReady: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/.)',
      '[CRITICAL] worker-4.prod-eu1.example.com (host worker-4): DiskPressure=True for AGE (KubeletHasDiskPressure: kubelet has disk pressure)',
      '[CRITICAL] worker-5.prod-eu1.example.com (host worker-5): KernelDeadlock=True for AGE (DockerHung: kernel: INFO: task docker:20744 blocked for more than 120 seconds.)',
      '[OK] worker-6.prod-eu1.example.com (host worker-6): healthy, cordoned',
      '[OK] 5 more nodes healthy (--list-all lists them)',
    ]);
    // No Hostname address: the name alone.
    expect((await run(args(sick, ['--list-all']))).stdout).toContain('\n[OK] infra-1.prod-eu1.example.com: healthy\n');
  });

  it('large (5000 nodes, 10 pages): CRITICAL, within 20 MiB of what Node itself needs to receive the list', async () => {
    const time = existsSync('/usr/bin/time');
    const r = time ? await runExecutable('/usr/bin/time', ['-f', 'maxrss=%M', PLUGIN, ...args(large, ['-v'])], { env: ENV }) : await run(args(large, ['-v']));
    expect(r.code).toBe(2);
    const out = parsePluginOutput(r.stdout);
    expect(out.summary).toMatch(
      /^11 of 5000 nodes failing: worker-0498\.large\.example\.com \(Ready=False\), .* and 6 more, 5 cordoned \[5000 listed in 10 pages\]$/,
    );
    expect(out.perfdata.map((m) => [m.label, m.value])).toEqual([
      ['nodes', 5000],
      ['healthy', 4989],
      ['failing', 11],
      ['cordoned', 5],
    ]);
    // The 11 failing, the healthy cordoned ones, and one line counting the rest: not 5000 lines.
    expect(out.longOutput.length).toBeLessThan(20);
    expect(out.longOutput.at(-1)).toMatch(/^\[OK\] \d+ more nodes healthy \(--list-all lists them\)$/);
    expect(api(large).stats.counts.pages).toBeGreaterThanOrEqual(10);
    if (time) {
      // Node's own floor differs by version (77-88 MiB for a client that keeps no byte, Node 18 to
      // 24; parsing every page whole added about 65 MiB): measured on the same Node, same list.
      // The check frees the socket's chunks as it reads (young collections) and reuses its two
      // page buffers: it peaked 12 MiB over the floor on Node 24 and at it on Node 20 (it was
      // 16-25 MiB over before that).
      const bare = join(__dirname, '../support/bare-node-list-client.cjs');
      const floor = await runExecutable('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, bare, api(large).httpsUrl, large.caFile, token(large)], {
        env: ENV,
      });
      const maxrss = (x: RunResult) => Number(/maxrss=(\d+)/.exec(x.stderr)?.[1]) / 1024;
      expect(floor.code).toBe(0);
      expect(maxrss(r)).toBeLessThan(maxrss(floor) + 20);
    }
  });

  it('over plain HTTP only with --allow-http, saying so at -v', async () => {
    const refused = await run(['--url', api(healthy).httpUrl, '--token-file', tokenFile(healthy)]);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe(
      `NODES UNKNOWN - --url ${api(healthy).httpUrl} is plain http://, which would send the credentials in clear text, use https://, or add --allow-http if that is intended (a local test server) (see --help)\n`,
    );
    const r = await run(['--url', api(healthy).httpUrl, '--token-file', tokenFile(healthy), '--allow-http']);
    expect(firstLine(r)).toMatch(/^NODES OK - 6 of 6 nodes healthy \|/);
    expect(firstLine(r)).not.toContain('clear text');
    const v = await run(['--url', api(healthy).httpUrl, '--token-file', tokenFile(healthy), '--allow-http', '-v']);
    expect(firstLine(v)).toMatch(
      /^NODES OK - 6 of 6 nodes healthy \[.*plain http:\/\/ to 127\.0\.0\.1:\d+ \(--allow-http\): credentials cross the network in clear text\] \|/,
    );
  });
});

describe('TLS', () => {
  it('-k/--insecure skips verification', async () => {
    const r = await run(['--url', api(healthy).httpsUrl, '-k', '--token-file', tokenFile(healthy)]);
    expect(r.code).toBe(0);
  });

  it('with a --ca-file that did not sign the certificate: says so instead of asking for --ca-file', async () => {
    const other = join(mkdtempSync(join(tmpdir(), 'cc-ca-')), 'other-ca.pem');
    writeFileSync(other, (await import('node:tls')).rootCertificates[0] + '\n');
    const r = await run(['--url', api(healthy).httpsUrl, '--ca-file', other, '--token-file', tokenFile(healthy)]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^NODES UNKNOWN - TLS verification of 127\.0\.0\.1:\d+ failed: the certificate was issued by an unknown CA \(issuer CN=cloudchecks simulator CA\), the CA given \(--ca-file\) did not sign it: give the CA that signed the server's certificate, or skip verification with -k\/--insecure\n$/,
    );
  });

  it('without --ca-file or -k: UNKNOWN naming both remedies', async () => {
    const r = await run(['--url', api(healthy).httpsUrl, '--token-file', tokenFile(healthy)]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^NODES UNKNOWN - TLS verification of 127\.0\.0\.1:\d+ failed: the certificate was issued by an unknown CA \(issuer CN=cloudchecks simulator CA\), pass the CA that signed it with --ca-file PATH, or skip verification with -k\/--insecure\n$/,
    );
    expect(r.stderr).toBe('');
  });
});

describe('options against the simulator', () => {
  it('-w/-c ranges on failing nodes, --percent, --ignore-cordoned', async () => {
    expect((await run(args(sick, ['-w', '2', '-c', '5']))).code).toBe(1);
    const pct = await run(args(sick, ['--percent', '-w', '30', '-c', '50', '--ignore-cordoned']));
    expect(pct.code).toBe(1);
    const out = parsePluginOutput(pct.stdout);
    expect(out.summary).toMatch(/^4 of 9 nodes failing \(44\.4%\): .*, 1 cordoned skipped$/);
    expect(out.perfdata.find((m) => m.label === 'failing_pct')).toMatchObject({ value: 44.44, uom: '%', warn: '30', crit: '50', min: 0, max: 100 });
    expect(out.longOutput).toContain('[OK] worker-6.prod-eu1.example.com (host worker-6): skipped (cordoned, --ignore-cordoned)');
    // "1 cordoned skipped" and the perfdata agree.
    expect(out.perfdata.find((m) => m.label === 'cordoned')).toMatchObject({ value: 1 });
  });

  it('-l/--selector is applied by the API; --include/--exclude on names', async () => {
    const workers = parsePluginOutput((await run(args(sick, ['-l', 'node-role.kubernetes.io/worker']))).stdout);
    expect(workers.perfdata[0]).toMatchObject({ label: 'nodes', value: 6 });
    const masters = await run(args(sick, ['-l', 'node-role.kubernetes.io/master', '--exclude=-2$']));
    expect(firstLine(masters)).toMatch(/^NODES OK - 2 of 2 nodes healthy \|/);
    const bad = await run(args(sick, ['-l', 'a in (b']));
    expect(firstLine(bad)).toMatch(/^NODES UNKNOWN - HTTP 400 from .*: request refused \(server says: unable to parse requirement/);
  });

  it('--condition and --ignore-condition', async () => {
    const r = await run(args(sick, ['--ignore-condition', 'KernelDeadlock', '--ignore-condition', 'DiskPressure']));
    expect(firstLine(r)).toMatch(
      /^NODES CRITICAL - 2 of 10 nodes failing: worker-2\.prod-eu1\.example\.com .*, worker-3\.prod-eu1\.example\.com \(Ready=False: container runtime [^()]* \/etc\/kubernetes\/cni\/net\.d\/\.\), 1 cordoned \|/,
    );
    // Declared True: worker-5's KernelDeadlock=True is now fine, worker-6's False is not.
    const flipped = await run(args(sick, ['--condition', 'KernelDeadlock=True']));
    expect(firstLine(flipped)).toMatch(
      /^NODES CRITICAL - 4 of 10 nodes failing: worker-2\S+ .*, worker-3\S+ \(Ready=False\), worker-4\S+ \(DiskPressure=True\), worker-6\S+ \(KernelDeadlock=False\), 1 cordoned \|/,
    );
  });

  it('--min-nodes', async () => {
    expect(firstLine(await run(args(healthy, ['--min-nodes', '7'])))).toMatch(/^NODES CRITICAL - only 6 nodes, expected at least 7: 6 of 6 nodes healthy \|/);
    const none = await run(args(healthy, ['--include', '^nothing$']));
    expect(none.code).toBe(3);
    expect((await run(args(healthy, ['--include', '^nothing$', '--min-nodes', '0']))).code).toBe(0);
  });

  it('--discovery prints the Zabbix LLD array and exits 0; --node checks one node', async () => {
    const d = await run(args(sick, ['--discovery', '-vv']));
    expect(d.code).toBe(0);
    const doc = JSON.parse(d.stdout) as Array<Record<string, string>>;
    const hosts = ['master-0', 'master-1', 'master-2', 'worker-1', 'worker-2', 'worker-3', 'worker-4', 'worker-5', 'worker-6'];
    expect(doc).toEqual([
      { '{#NODE}': 'infra-1.prod-eu1.example.com', '{#NODE.HOST}': 'infra-1.prod-eu1.example.com' },
      ...hosts.map((h) => ({ '{#NODE}': `${h}.prod-eu1.example.com`, '{#NODE.HOST}': h })),
    ]);
    // --node takes either the name or the host name.
    for (const name of ['worker-3', 'worker-3.prod-eu1.example.com']) {
      const one = await run(args(sick, ['--node', name]));
      expect(firstLine(one)).toBe(
        'NODES CRITICAL - 1 of 1 nodes failing: worker-3.prod-eu1.example.com (Ready=False: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/.) | nodes=1;;;0 healthy=0;;;0 failing=1;;0;0;1 cordoned=0;;;0',
      );
    }
    expect(firstLine(await run(args(sick, ['--include', 'prod-eu1', '--exclude', '^worker-[2-5]$'])))).toMatch(
      /^NODES OK - 6 of 6 nodes healthy, 1 cordoned \|/,
    );
    // One node asked for by name is named in the long output, healthy or not.
    const healthy = await run(args(sick, ['--node', 'worker-1']));
    expect(healthy.code).toBe(0);
    expect(healthy.stdout.split('\n')[1]).toBe('[OK] worker-1.prod-eu1.example.com (host worker-1): healthy');
    expect(firstLine(await run(args(sick, ['--node', 'worker-9'])))).toBe('NODES CRITICAL - node worker-9 not found among 10 listed nodes');
  });

  it('--grace keeps a node that went bad minutes ago at WARNING, saying so', async () => {
    // A NodeList (Kubernetes API reference, v1 NodeList) with one node rebooting: its Ready
    // condition turned False 2 minutes ago, as the kubelet reports while the node restarts.
    const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().replace(/\.\d+Z$/, 'Z');
    const node = (name: string, ready: Record<string, string>) => ({
      metadata: { name: `${name}.prod-eu1.example.com`, labels: { 'kubernetes.io/hostname': name } },
      spec: {},
      status: {
        addresses: [
          { type: 'InternalIP', address: '10.0.130.7' },
          { type: 'Hostname', address: name },
        ],
        conditions: [
          {
            type: 'MemoryPressure',
            status: 'False',
            reason: 'KubeletHasSufficientMemory',
            message: 'kubelet has sufficient memory available',
            lastHeartbeatTime: at(10_000),
            lastTransitionTime: at(86_400_000),
          },
          { type: 'Ready', lastHeartbeatTime: at(10_000), ...ready },
        ],
      },
    });
    const list = {
      kind: 'NodeList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '81273' },
      items: [
        node('worker-1', { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastTransitionTime: at(86_400_000) }),
        node('worker-3', {
          status: 'False',
          reason: 'KubeletNotReady',
          message: 'PLEG is not healthy: pleg has yet to be successful',
          lastTransitionTime: at(120_000),
        }),
      ],
    };
    api(healthy).faults.set([{ kind: 'body', path: '/api/v1/nodes', body: JSON.stringify(list), contentType: 'application/json' }] as never);
    const strict = await run(args(healthy));
    expect(strict.code).toBe(2);
    const graced = await run(args(healthy, ['--grace', '10m']));
    expect(graced.code).toBe(1);
    expect(firstLine(graced)).toBe(
      'NODES WARNING - 1 of 2 nodes failing: worker-3.prod-eu1.example.com (Ready=False: PLEG is not healthy: pleg has yet to be successful), 1 within --grace 10m, so WARNING | nodes=2;;;0 healthy=1;;;0 failing=0;;0;0;2 cordoned=0;;;0 failing_in_grace=1;;;0;2',
    );
    expect(graced.stdout).toMatch(
      /\n\[WARNING\] worker-3\.prod-eu1\.example\.com \(host worker-3\): Ready=False for 2m, since \S+ \(KubeletNotReady: PLEG is not healthy: pleg has yet to be successful\), within --grace 10m\n/,
    );
    expect((await run(args(healthy, ['--grace', '1m']))).code).toBe(2);
    expect(firstLine(await run(args(healthy, ['--grace', '10'])))).toMatch(/^NODES UNKNOWN - invalid --grace "10": a duration needs a unit: 10s, 10m or 10h/);
  });

  it('a repeated single-value option is a usage error naming it', async () => {
    for (const argv of [
      ['--node', 'a', '--node', 'b'],
      ['-w', '50', '-w', '95'],
      ['--include', 'a', '--include', 'b'],
      ['-l', 'a=', '-l', 'b='],
    ]) {
      const r = await run(args(healthy, argv));
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(/^NODES UNKNOWN - (-\w\/)?--[a-z]+ given 2 times \(.*\), give it once \(see --help\)\n$/);
    }
  });

  it('-w above -c: a note at -v', async () => {
    const r = await run(args(healthy, ['-w', '3', '-c', '1', '-v']));
    expect(firstLine(r)).toMatch(/^NODES OK - 6 of 6 nodes healthy \[.*-w 3 is above -c 1: WARNING can never show \(swap them\?\)\] \|/);
    expect(firstLine(await run(args(healthy, ['-w', '3', '-c', '1'])))).not.toContain('swap');
  });

  it('--kubeconfig with the server, CA data and a tokenFile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-kubeconfig-'));
    const kc = join(dir, 'config');
    writeFileSync(
      kc,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- cluster:',
        `    certificate-authority-data: ${Buffer.from(readFileSync(healthy.caFile)).toString('base64')}`,
        `    server: ${api(healthy).httpsUrl}`,
        '  name: sim',
        'contexts:',
        '- context:',
        '    cluster: sim',
        '    user: monitoring',
        '  name: sim',
        'current-context: sim',
        'users:',
        '- name: monitoring',
        '  user:',
        `    tokenFile: ${tokenFile(healthy)}`,
        '',
      ].join('\n'),
    );
    const r = await run(['--kubeconfig', kc]);
    expect(firstLine(r)).toMatch(/^NODES OK - 6 of 6 nodes healthy \|/);
    const viaEnv = await run(['--kubeconfig'], { ...ENV, KUBECONFIG: kc });
    expect(viaEnv.code).toBe(0);
  });

  it('a continue token that expires mid-list restarts the list once', async () => {
    await fetch(`${api(large).httpUrl}/_sim/cluster/expire`, { method: 'POST' });
    const r = await run(args(large, ['-v']));
    expect(r.code).toBe(2);
    expect(parsePluginOutput(r.stdout).summary).toMatch(/\[5000 listed in 1[01] pages \(restarted after 410 Gone\)\]$/);
  });
});

describe('failures are one UNKNOWN line that names cause and fix', () => {
  it.each([
    [
      'a wrong token',
      (s: Simulator) => ['--url', api(s).httpsUrl, '--ca-file', s.caFile, '--token', 'not-the-token'],
      /^NODES UNKNOWN - HTTP 401 from https:\/\/127\.0\.0\.1:\d+\/api\/v1\/nodes: token rejected \(expired or revoked\?\) \(server says: Unauthorized\), check --token\n$/,
    ],
    [
      'an account without cluster-reader',
      (s: Simulator) => ['--url', api(s).httpsUrl, '--ca-file', s.caFile, '--token-file', api(s).info.noReaderTokenFile],
      /^NODES UNKNOWN - HTTP 403 from .*: the account may not list nodes \(server says: nodes is forbidden: User "system:serviceaccount:openshift-infra:no-reader" cannot list resource "nodes" in API group "" at the cluster scope\), grant it the cluster-reader role/,
    ],
    [
      'the wrong URL path',
      (s: Simulator) => ['--url', `${api(s).httpsUrl}/console`, '--ca-file', s.caFile, '--token-file', tokenFile(s)],
      /^NODES UNKNOWN - HTTP 404 from .*\/console\/api\/v1\/nodes: not a Kubernetes API at that URL/,
    ],
    [
      'a missing token file',
      (s: Simulator) => ['--url', api(s).httpsUrl, '--ca-file', s.caFile, '--token-file', '/nonexistent/token'],
      /^NODES UNKNOWN - cannot read --token-file \/nonexistent\/token \(ENOENT\), check the path and that the monitoring user may read it\n$/,
    ],
    ['a closed port', () => ['--url', 'https://127.0.0.1:1', '--token', 'abcdefgh'], /^NODES UNKNOWN - connection refused by 127\.0\.0\.1:1, check the port/],
    [
      'no cluster',
      () => ['--token', 'abcdefgh'],
      /^NODES UNKNOWN - no cluster given: use --url URL, -H HOST \[-p PORT\] or --kubeconfig \[PATH\] \(see --help\)\n$/,
    ],
  ])('%s', async (_, argv, pattern) => {
    const r = await run(argv(healthy));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(pattern);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe('');
  });

  it('an empty token file', async () => {
    const f = join(mkdtempSync(join(tmpdir(), 'cc-token-')), 'token');
    writeFileSync(f, '\n');
    expect(firstLine(await run(['--url', api(healthy).httpsUrl, '--token-file', f]))).toMatch(/^NODES UNKNOWN - --token-file .* is empty/);
  });

  it.each([
    [
      'a 503 with a Status body',
      [
        {
          path: '^/api/v1/nodes$',
          kind: 'status',
          status: 503,
          contentType: 'application/json',
          body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server is currently unable to handle the request","reason":"ServiceUnavailable","code":503}',
        },
      ],
      /^NODES UNKNOWN - HTTP 503 from .*: API server error \(server says: the server is currently unable to handle the request\)/,
    ],
    [
      'an HTML page with 200',
      [{ kind: 'body', body: '<html><body>Application is not available</body></html>' }],
      /^NODES UNKNOWN - response from .* is not JSON \(text\/html, \d+ bytes, starts "<html>/,
    ],
    ['a reset connection', [{ kind: 'reset' }], /^NODES UNKNOWN - connection to 127\.0\.0\.1:\d+ was reset/],
    [
      'a truncated body',
      [{ kind: 'truncate' }],
      /^NODES UNKNOWN - connection to 127\.0\.0\.1:\d+ closed before the whole response was received \(truncated body\)/,
    ],
  ])('%s', async (_, faults, pattern) => {
    api(sick).faults.set(faults as never);
    const r = await run(args(sick));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(pattern);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('a server that stalls: UNKNOWN at -t, naming what it was doing', async () => {
    api(healthy).faults.set([{ kind: 'delay', ms: 5000 }]);
    const r = await run(args(healthy, ['-t', '1']));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^NODES UNKNOWN - timed out after 1s while listing nodes from https:\/\/127\.0\.0\.1:\d+, raise -t\/--timeout/);
    expect(r.ms).toBeLessThan(1500);
  });
});

describe('the token never appears in the output', () => {
  it('at any -v level, from a token file, $KUBE_TOKEN or --token, in success and failure', async () => {
    const secret = token(sick);
    const worldReadable = join(mkdtempSync(join(tmpdir(), 'cc-token-')), 'token');
    writeFileSync(worldReadable, `${secret}\n`);
    chmodSync(worldReadable, 0o644);
    const runs: RunResult[] = [];
    for (const v of [[], ['-v'], ['-vv'], ['-vvv']]) {
      runs.push(await run(args(sick, v)));
      runs.push(await run(['--url', api(sick).httpsUrl, '--ca-file', sick.caFile, '--token', secret, ...v]));
      runs.push(await run(['--url', api(sick).httpsUrl, '--ca-file', sick.caFile, ...v], { ...ENV, KUBE_TOKEN: secret }));
      runs.push(await run(['--url', api(healthy).httpsUrl, '--ca-file', healthy.caFile, '--token', secret, ...v])); // rejected: 401
      runs.push(await run(['--url', api(sick).httpsUrl, '--ca-file', sick.caFile, '--token-file', worldReadable, ...v]));
    }
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect([0, 1, 2, 3]).toContain(r.code);
    }
    const trace = runs.at(-1)!;
    expect(trace.stderr).toMatch(/> authorization: <redacted>/);
    const warned = runs.find((r) => r.stdout.includes('readable by others'));
    expect(warned?.stdout).toMatch(/\[10 listed in 1 page, --token-file .* is readable by others \(mode 0644\), chmod 600 it\]/);
  });
});

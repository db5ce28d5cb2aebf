// check_apiserver, check_cluster_certs and check_nodes --pods/--version-skew as a monitoring
// engine runs them: the built dist/ executables against the simulator's control plane over
// HTTPS, healthy and sick, and against hostile answers. Run `node build.mjs dist` first.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { makeChain, opensslDate } from '../support/cert-chain';
import { parsePluginOutput } from '../support/perfdata-parse';
import { clusterArgs, expectClean, firstLine, runPlugin } from '../support/control-plane-run';

const DIST = resolve(__dirname, '../../dist');
let healthy: Simulator;
let sick: Simulator;
let flood: Simulator;

beforeAll(async () => {
  for (const p of ['check_apiserver', 'check_cluster_certs', 'check_nodes'])
    if (!existsSync(resolve(DIST, p))) throw new Error(`dist/${p} is missing: run \`node build.mjs dist\` first`);
  [healthy, sick, flood] = await Promise.all([
    startSimulatorFromArgs(['--cluster-scenario', 'healthy'], [CLUSTER_MODULE]),
    startSimulatorFromArgs(['--cluster-scenario', 'sick'], [CLUSTER_MODULE]),
    startSimulatorFromArgs(['--cluster-control-plane', 'csr-flood'], [CLUSTER_MODULE]),
  ]);
});
afterAll(async () => {
  await Promise.all([healthy, sick, flood].map((s) => s.close()));
});
afterEach(() => {
  for (const s of [healthy, sick, flood]) s.apis.cluster.faults.set([]);
});

describe('check_apiserver', () => {
  it('healthy: OK with the version, every check counted, both times in perfdata with -w/-c', async () => {
    const r = await runPlugin('check_apiserver', clusterArgs(healthy, ['-w', '5', '-c', '9']));
    expectClean(
      r,
      0,
      /^APISERVER OK - API server v1\.27\.10\+28ed2d7: readyz ok \(33 checks, [\d.]+ s\), livez ok \(28 checks, [\d.]+ s\) \| readyz_time=[\d.]+s;5;9;0 livez_time=[\d.]+s;5;9;0 readyz_failed=0;;;0 livez_failed=0;;;0$/,
    );
    expect(parsePluginOutput(r.stdout).perfdata.map((m) => m.label)).toEqual(['readyz_time', 'livez_time', 'readyz_failed', 'livez_failed']);
  });

  it('etcd failing: CRITICAL naming the failed checks of both endpoints', async () => {
    const r = await runPlugin('check_apiserver', clusterArgs(sick));
    expectClean(
      r,
      2,
      /^APISERVER CRITICAL - API server v1\.27\.10\+28ed2d7: readyz failed: etcd \(reason withheld\), etcd-readiness \(reason withheld\), livez failed: etcd \(reason withheld\) \|/,
    );
    expect(r.stdout).toContain('[CRITICAL] readyz: [-]etcd failed: reason withheld');
  });

  it('slower than -w: WARNING saying how long', async () => {
    healthy.apis.cluster.faults.set([{ path: '^/livez', kind: 'delay', ms: 300 }]);
    const r = await runPlugin('check_apiserver', clusterArgs(healthy, ['-w', '0.2', '-c', '5']));
    expectClean(r, 1, /^APISERVER WARNING - .*livez took 0\.\d+ s/);
  });

  it('a readyz body of 8 MB of check lines: one clean result, its failures counted, or one UNKNOWN, within -t', async () => {
    const body = `${'[+]ping ok\n'.repeat(400_000)}[-]etcd failed: reason withheld\n${'x'.repeat(3_000_000)}\nreadyz check failed\n`;
    healthy.apis.cluster.faults.set([{ path: '^/readyz', kind: 'status', status: 500, body, contentType: 'text/plain; charset=utf-8' }]);
    const started = Date.now();
    const r = await runPlugin('check_apiserver', clusterArgs(healthy, ['-t', '8']));
    // On a loaded machine the transfer alone may outlast -t: then the timeout's one line.
    expect([2, 3]).toContain(r.code);
    expectClean(r, r.code!, /^APISERVER (CRITICAL - API server v1\.27\.10\+28ed2d7: readyz failed: etcd \(reason withheld\)|UNKNOWN - timed out after 8s)/);
    expect(Date.now() - started).toBeLessThan(9500);
  });

  it('a 200 answer that is JSON, or empty: one UNKNOWN naming what came', async () => {
    healthy.apis.cluster.faults.set([{ path: '^/readyz', kind: 'body', contentType: 'application/json', body: '{"kind":"Status"}' }]);
    expectClean(
      await runPlugin('check_apiserver', clusterArgs(healthy)),
      3,
      /^APISERVER UNKNOWN - .*\/readyz answered JSON \(application\/json\), not the text list of checks/,
    );
    healthy.apis.cluster.faults.set([{ path: '^/livez', kind: 'body', contentType: 'text/plain', body: '' }]);
    expectClean(await runPlugin('check_apiserver', clusterArgs(healthy)), 3, /^APISERVER UNKNOWN - .*\/livez answered 200 with an empty body/);
  });

  it('both endpoints refused: readyz named every time, whichever answer came first', async () => {
    const refuse = (path: string, ms: number) => ({ path, kind: 'status' as const, status: 403, ms, body: '', contentType: 'text/plain' });
    for (const [readyzMs, livezMs] of [
      [300, 0],
      [0, 300],
    ]) {
      healthy.apis.cluster.faults.set([refuse('^/readyz', readyzMs), refuse('^/livez', livezMs)]);
      expectClean(await runPlugin('check_apiserver', clusterArgs(healthy)), 3, /^APISERVER UNKNOWN - HTTP 403 from \S+\/readyz\b.*may not get \/readyz[;,]/);
    }
  });

  it('403: UNKNOWN naming the permission and where docs/tokens.md says who has it', async () => {
    healthy.apis.cluster.faults.set([{ path: '^/readyz', kind: 'status', status: 403, body: '', contentType: 'text/plain' }]);
    expectClean(
      await runPlugin('check_apiserver', clusterArgs(healthy)),
      3,
      /^APISERVER UNKNOWN - HTTP 403 .*may not get \/readyz.*system:public-info-viewer.*docs\/tokens\.md/,
    );
  });
});

describe('check_cluster_certs', () => {
  it('healthy: OK, the nearest expiry named by CN, days left and CSRs in perfdata', async () => {
    const r = await runPlugin('check_cluster_certs', clusterArgs(healthy));
    expectClean(
      r,
      0,
      /^CERTS OK - nearest expiry: API server certificate localhost expires in \d+d \(2126-10-29\), 0 CSRs pending \| cert_days_left=[\d.]+;30:;7: csr_pending=0;;;0$/,
    );
  });

  it('a certificate near expiry by -w: WARNING naming it and the CA that signed it', async () => {
    const r = await runPlugin('check_cluster_certs', clusterArgs(healthy, ['-w', '36600d', '-c', '7d']));
    expectClean(r, 1, /^CERTS WARNING - API server certificate localhost expires in \d+d \(2126-10-29\), root CA cloudchecks simulator CA expires in/);
  });

  it('kubelet CSRs pending for 3h: WARNING naming them; the one pending for minutes is not', async () => {
    const r = await runPlugin('check_cluster_certs', clusterArgs(sick));
    expectClean(
      r,
      1,
      /^CERTS WARNING - nearest expiry: .*2 kubelet CSRs pending over 1h: csr-n2x7k \(kube-apiserver-client-kubelet, .*pending 3h\), csr-8wq4t \(kubelet-serving, system:node:worker-6, pending 3h\)/,
    );
    expect(r.stdout).toContain('[OK] CSR csr-zr5hd');
    expect(parsePluginOutput(r.stdout).perfdata.find((m) => m.label === 'csr_pending')?.value).toBe(3);
  });

  it('a serving certificate that really expires in 5 days (made at the simulator start): CRITICAL by default, WARNING under -c 3d', async () => {
    const near = await startSimulatorFromArgs(['--cert', 'near-expiry'], [CLUSTER_MODULE]);
    try {
      const r = await runPlugin('check_cluster_certs', clusterArgs(near, ['--skip-csrs']));
      expectClean(r, 2, /^CERTS CRITICAL - API server certificate localhost expires in 4d \(\d{4}-\d\d-\d\d\)/);
      // The figure cut as the words are: 4.99 beside "4d", never 5.
      const days = parsePluginOutput(r.stdout).perfdata.find((m) => m.label === 'cert_days_left')?.value ?? NaN;
      expect(days).toBeGreaterThan(4.9);
      expect(days).toBeLessThan(5);
      const warn = await runPlugin('check_cluster_certs', clusterArgs(near, ['--skip-csrs', '-c', '3d']));
      expectClean(warn, 1, /^CERTS WARNING - API server certificate localhost expires in 4d \(\d{4}-\d\d-\d\d\) \| cert_days_left=[\d.]+;30:;3:$/);
      expect(warn.stdout).toContain('cloudchecks simulator short-lived CA');
    } finally {
      await near.close();
    }
  });

  it('an expired serving certificate: CRITICAL (its finding), not a TLS error; without --skip-csrs, the token is not sent to it', async () => {
    const expired = await startSimulatorFromArgs(['--cert', 'expired'], [CLUSTER_MODULE]);
    try {
      const r = await runPlugin('check_cluster_certs', clusterArgs(expired, ['--skip-csrs']));
      expectClean(r, 2, /^CERTS CRITICAL - API server certificate localhost expired \d+d ago \(2020-01-02\)/);
      const withCsrs = await runPlugin('check_cluster_certs', clusterArgs(expired));
      expectClean(withCsrs, 2, /^CERTS CRITICAL - API server certificate localhost expired \d+d ago \(2020-01-02\)[;,] CSRs not read \|/);
      expect(withCsrs.stdout).toContain(
        "[UNKNOWN] CSRs not read: the server's chain does not verify now (CERT_HAS_EXPIRED), and the token is sent only over one that does",
      );
      // The chain was read in a handshake alone: no HTTP request, so no token, reached the server.
      expect(expired.apis.cluster.stats.counts.requests ?? 0).toBe(0);
    } finally {
      await expired.close();
    }
  });

  describe('trust before dates (chains made with openssl)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-certs-chains-'));
    const VALID = { from: opensslDate(-30), until: opensslDate(300) };
    const EXPIRED = { from: '20190101000000Z', until: '20200102000000Z' };
    const cluster = makeChain([{ cn: 'cluster CA', ...VALID }]);
    /** A simulator presenting `chain` (its server certificate first) with `ca` as the --ca-file the plugin is given. */
    async function presenting(name: string, chain: string[], key: string, ca: string, run: (s: Simulator) => Promise<void>): Promise<void> {
      const files = { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`), ca: join(dir, `${name}-ca.pem`) };
      writeFileSync(files.cert, chain.join(''));
      writeFileSync(files.key, key);
      writeFileSync(files.ca, ca);
      const s = await startSimulatorFromArgs(['--tls-cert', files.cert, '--tls-key', files.key, '--tls-ca', files.ca], [CLUSTER_MODULE]);
      try {
        await run(s);
      } finally {
        await s.close();
      }
    }

    it("an impostor's chain holding an expired root: UNKNOWN naming the trust failure, its dates never judged", async () => {
      const impostor = makeChain([
        { cn: 'impostor root', ...EXPIRED },
        { cn: 'impostor intermediate', ...VALID },
        { cn: 'localhost', ...VALID },
      ]);
      await presenting('impostor', [...impostor.certs].reverse(), impostor.key, cluster.certs[0], async (s) => {
        const r = await runPlugin('check_cluster_certs', clusterArgs(s, ['--skip-csrs']));
        expectClean(r, 3, /^CERTS UNKNOWN - TLS verification of 127\.0\.0\.1:\d+ failed: the certificate was issued by an unknown CA/);
        expect(r.stdout).not.toMatch(/expired|CRITICAL|impostor root expires/);
      });
    });

    it('an untrusted chain of 12 whose expired root lies beyond the 10 judged: UNKNOWN, not OK', async () => {
      const long = makeChain([
        { cn: 'far root', ...EXPIRED },
        ...Array.from({ length: 10 }, (_, i) => ({ cn: `ca-${i}`, ...VALID })),
        { cn: 'localhost', ...VALID },
      ]);
      await presenting('long', [...long.certs].reverse(), long.key, cluster.certs[0], async (s) => {
        expectClean(await runPlugin('check_cluster_certs', clusterArgs(s, ['--skip-csrs'])), 3, /^CERTS UNKNOWN - TLS verification of .* failed: /);
      });
    });

    it('a serving certificate of the trusted CA that is not valid yet: CRITICAL naming it and from when, the token not sent', async () => {
      const early = makeChain([
        { cn: 'cluster CA', ...VALID },
        { cn: 'localhost', from: opensslDate(10), until: opensslDate(400) },
      ]);
      await presenting('early', [early.certs[1]], early.key, early.certs[0], async (s) => {
        const r = await runPlugin('check_cluster_certs', clusterArgs(s));
        expectClean(r, 2, /^CERTS CRITICAL - API server certificate localhost is not valid before \d{4}-\d\d-\d\d[;,] CSRs not read/);
        expect(s.apis.cluster.stats.counts.requests ?? 0).toBe(0);
      });
    });
  });

  it('a certificate for another host is still refused: UNKNOWN', async () => {
    const wrong = await startSimulatorFromArgs(['--cert', 'wrong-host'], [CLUSTER_MODULE]);
    try {
      expectClean(
        await runPlugin('check_cluster_certs', clusterArgs(wrong, ['--skip-csrs'])),
        3,
        /^CERTS UNKNOWN - .*(wrong\.example|does not match|not valid for)/,
      );
    } finally {
      await wrong.close();
    }
  });

  it('100,000 CSRs: one clean result within -t (the whole list, or the timeout on a loaded machine)', async () => {
    // The plugin's -t is what answers for time here: a result after it is refused by the run
    // itself (lib/plugin/run.ts), so the line says which way it ended. The wall-clock bound
    // leaves twice -t: a CI host running three lanes on two cores has stalled a process start
    // for seconds; the fault matrix (a server that never answers, a body that stalls) holds -t.
    const r = await runPlugin('check_cluster_certs', clusterArgs(flood, ['-t', '15']), 45_000);
    expect([1, 3], r.stdout + r.stderr).toContain(r.code);
    expect(firstLine(r)).toMatch(/^CERTS (WARNING - .*kubelet CSRs pending over 1h|UNKNOWN - .*timed out after 15s)/);
    expect(r.stderr).toBe('');
    expect(r.ms).toBeLessThan(2 * 15_000);
    if (r.code === 1) expect(parsePluginOutput(r.stdout).perfdata.find((m) => m.label === 'csr_pending')?.value).toBe(10_000);
  });

  it('--max-csrs below the list: UNKNOWN naming the bound', async () => {
    expectClean(
      await runPlugin('check_cluster_certs', clusterArgs(flood, ['--max-csrs', '1000'])),
      3,
      /^CERTS UNKNOWN - .*listed more than 1000 items[;,] raise --max-csrs/,
    );
  });

  it('a CSR list of another kind: one UNKNOWN naming it', async () => {
    healthy.apis.cluster.faults.set([
      { path: 'certificatesigningrequests', kind: 'body', contentType: 'application/json', body: '{"kind":"PodList","items":[]}' },
    ]);
    expectClean(await runPlugin('check_cluster_certs', clusterArgs(healthy)), 3, /^CERTS UNKNOWN - .*kind is "PodList", not CertificateSigningRequestList/);
  });
});

describe('check_nodes --pods and --version-skew', () => {
  it('--pods: the full node CRITICAL, the nearly full WARNING, with count and limit', async () => {
    const r = await runPlugin('check_nodes', clusterArgs(sick, ['--pods', '-c', '10']));
    expectClean(
      r,
      2,
      /2 nodes near the pod limit: worker-4\.prod-eu1\.example\.com 240\/250 pods \(96%\), worker-5\.prod-eu1\.example\.com 229\/250 pods \(92%\)/,
    );
    const perf = parsePluginOutput(r.stdout).perfdata;
    expect(perf.find((m) => m.label === 'pods_max_pct')?.value).toBe(96);
  });

  it('--pods on a healthy cluster: OK, and --pods-warning/--pods-critical move the line', async () => {
    expectClean(await runPlugin('check_nodes', clusterArgs(healthy, ['--pods'])), 0, /^NODES OK - .*pods_max_pct=[\d.]+%;90;95;0;100/);
    expectClean(await runPlugin('check_nodes', clusterArgs(healthy, ['--pods', '--pods-warning', '5', '--pods-critical', '90'])), 1, /near the pod limit/);
  });

  it('a pod Table without its Node column: one UNKNOWN naming it', async () => {
    const table = {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: {},
      columnDefinitions: [{ name: 'Name', type: 'string' }],
      rows: [{ cells: ['p'] }],
    };
    healthy.apis.cluster.faults.set([{ path: '^/api/v1/pods', kind: 'body', contentType: 'application/json', body: JSON.stringify(table) }]);
    expectClean(await runPlugin('check_nodes', clusterArgs(healthy, ['--pods'])), 3, /^NODES UNKNOWN - the pod Table has no Node column/);
  });

  it('a pod Table whose rows lack cells: one UNKNOWN', async () => {
    const table = {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: {},
      columnDefinitions: ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node'].map((name) => ({ name, type: 'string' })),
      rows: [{ cells: ['p', '1/1'] }],
    };
    healthy.apis.cluster.faults.set([{ path: '^/api/v1/pods', kind: 'body', contentType: 'application/json', body: JSON.stringify(table) }]);
    expectClean(await runPlugin('check_nodes', clusterArgs(healthy, ['--pods'])), 3, /^NODES UNKNOWN - a row of the pod Table has no cell 7 \(Node\)/);
  });

  it('--version-skew: a kubelet three minors behind a 1.27 API server is WARNING, fine with --max-skew 3', async () => {
    expectClean(
      await runPlugin('check_nodes', clusterArgs(sick, ['--version-skew', '-c', '10', '-w', '10'])),
      1,
      /worker-1\.prod-eu1\.example\.com: kubelet v1\.24\.17\+3f4e5a8 is 3 minors behind the API server v1\.27\.10\+28ed2d7 \(at most 2\)/,
    );
    const r = await runPlugin('check_nodes', clusterArgs(sick, ['--version-skew', '--max-skew', '3', '-c', '10', '-w', '10']));
    expectClean(r, 0, /kubelets off the API server's v1\.27: v1\.24 on worker-1\.prod-eu1\.example\.com/);
  });

  it('--version-skew: a kubelet newer than the API server is CRITICAL', async () => {
    healthy.apis.cluster.faults.set([
      { path: '^/version', kind: 'body', contentType: 'application/json', body: JSON.stringify({ major: '1', minor: '26', gitVersion: 'v1.26.15' }) },
    ]);
    expectClean(
      await runPlugin('check_nodes', clusterArgs(healthy, ['--version-skew'])),
      2,
      /kubelet v1\.27\.10\+28ed2d7 is newer than the API server v1\.26\.15/,
    );
  });

  it('a timeout after the listing names what was under way then, not the listing', async () => {
    healthy.apis.cluster.faults.set([{ path: '^/version$', kind: 'hang' }]);
    expectClean(
      await runPlugin('check_nodes', clusterArgs(healthy, ['--version-skew', '-t', '2'])),
      3,
      /^NODES UNKNOWN - timed out after 2s while reading the API server's version \(\/version\)[;,] raise -t/,
    );
  });

  it('--max-skew without --version-skew is a usage error', async () => {
    expectClean(await runPlugin('check_nodes', clusterArgs(healthy, ['--max-skew', '2'])), 3, /--max-skew goes with --version-skew/);
  });
});

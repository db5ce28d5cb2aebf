// No secret is ever printed: every plugin at -v, -vv and -vvv, succeeding and failing, with
// token, password and session values that are easy to find; and the session cache keeps its
// files private and its names free of secrets.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable } from '../support/spawn';
import { DIST, SAMPLED, VM_ID } from './matrix';

const TOKEN = 'sEcReT-cluster-token-' + 'Q'.repeat(158); // 179 characters, like a real one
const WRONG_TOKEN = 'sEcReT-wrong-token-' + 'W'.repeat(60);
const PASSWORD = 'sEcReT-vcd-password-42';
const WRONG_PASSWORD = 'sEcReT-wrong-password-7';
const LEVELS = [[], ['-v'], ['-vv'], ['-vvv']];

let sim: Simulator;
let dir: string;
const file = (name: string, content: string, mode = 0o600) => {
  const p = join(dir, name);
  writeFileSync(p, content + '\n', { mode });
  chmodSync(p, mode);
  return p;
};

beforeAll(async () => {
  sim = await startSimulatorFromArgs(['--cluster-scenario', 'sick', '--cluster-token', TOKEN, '--vcd-password', PASSWORD], [CLUSTER_MODULE, VCD_MODULE]);
  dir = mkdtempSync(join(tmpdir(), 'cc-secrets-'));
});
afterAll(() => sim?.close());

const env = (extra: NodeJS.ProcessEnv = {}) => ({ PATH: process.env.PATH, HOME: dir, ...extra });

/** Every secret a run could know: the given ones plus the session tokens in the cache. */
function secretsIn(cacheDir: string | undefined, given: string[]): string[] {
  const found = [...given];
  if (cacheDir) {
    for (const f of readdirSync(cacheDir)) {
      // The entry beside the session holds the API version and VM names: public, printed at -v.
      if (f.endsWith('.fleet.json')) continue;
      try {
        const doc = JSON.parse(readFileSync(join(cacheDir, f), 'utf8')) as Record<string, unknown>;
        // Entries keep their data (the session token) one level down: { binding, data: { token } }.
        const values = (o: unknown): unknown[] => (o && typeof o === 'object' ? Object.values(o).flatMap(values) : [o]);
        for (const v of values(doc)) if (typeof v === 'string' && v.length >= 16 && !v.includes('/')) found.push(v);
      } catch {
        // lock or failure marker: not a session document
      }
    }
  }
  return found;
}

async function expectNoLeak(exe: string, args: string[], runEnv: NodeJS.ProcessEnv, secrets: string[], cacheDir?: string) {
  for (const level of LEVELS) {
    const r = await runExecutable(join(DIST, exe), [...args, ...level], { env: runEnv });
    expect([0, 1, 2, 3]).toContain(r.code);
    const all = r.stdout + r.stderr;
    for (const s of secretsIn(cacheDir, secrets)) expect(all, `${exe} ${level.join(' ')} leaked`).not.toContain(s);
    // Where a request was traced, its credentials show as redacted.
    if (/^> (GET|POST) /m.test(r.stderr)) expect(r.stderr).toMatch(/authorization: <redacted>/i);
  }
}

describe('check_nodes never prints the token', () => {
  const base = () => ['--url', sim.apis.cluster.httpsUrl, '--ca-file', sim.caFile];
  it('from --token-file, succeeding (CRITICAL on the sick cluster) and rejected', async () => {
    await expectNoLeak('check_nodes', [...base(), '--token-file', file('token', TOKEN)], env(), [TOKEN]);
    await expectNoLeak('check_nodes', [...base(), '--token-file', file('wrong', WRONG_TOKEN)], env(), [WRONG_TOKEN]);
  });
  it('from KUBE_TOKEN and from --token', async () => {
    await expectNoLeak('check_nodes', base(), env({ KUBE_TOKEN: TOKEN }), [TOKEN]);
    await expectNoLeak('check_nodes', [...base(), '--token', WRONG_TOKEN], env(), [WRONG_TOKEN]);
  });
  it('in a server failure and a timeout', async () => {
    sim.apis.cluster.faults.set([{ kind: 'status', status: 500, body: 'boom' }]);
    await expectNoLeak('check_nodes', [...base(), '--token-file', file('token', TOKEN)], env(), [TOKEN]);
    sim.apis.cluster.faults.set([{ kind: 'hang' }]);
    await expectNoLeak('check_nodes', [...base(), '--token-file', file('token', TOKEN), '-t', '1'], env(), [TOKEN]);
    sim.apis.cluster.faults.set([]);
  });
  it('warns at -v about a token file others may read', async () => {
    const loose = file('loose-token', TOKEN, 0o644);
    const r = await runExecutable(join(DIST, 'check_nodes'), [...base(), '--token-file', loose, '-v'], { env: env() });
    expect(r.stdout.split('\n')[0]).toMatch(/--token-file .*loose-token is readable by others \(mode 0644\), chmod 600 it/);
  });
});

describe('check_nodes --vcd-* never prints the vCD password or its session token', () => {
  // The sick cluster's failing nodes make the VM lookup log in and query.
  const base = (cacheDir: string) => [
    '--url',
    sim.apis.cluster.httpsUrl,
    '--ca-file',
    sim.caFile,
    '--token-file',
    file('token', TOKEN),
    '--vcd-url',
    sim.apis.vcd.httpsUrl,
    '--vcd-ca-file',
    sim.caFile,
    '--vcd-user',
    'monitor',
    '--vcd-org',
    'acme',
    '--cache-dir',
    cacheDir,
  ];
  it('password file, $VCD_PASSWORD and a --vcd-extra-opts section; success, wrong password, vCD failing and hanging', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'cc-secrets-nodes-vcd-'));
    await expectNoLeak('check_nodes', [...base(cache), '--vcd-password-file', file('pw', PASSWORD)], env(), [TOKEN, PASSWORD], cache);
    await expectNoLeak('check_nodes', base(cache), env({ VCD_PASSWORD: PASSWORD }), [TOKEN, PASSWORD], cache);
    const ini = file('nodes-vcd.ini', `[vcd]\npassword=${PASSWORD}`);
    await expectNoLeak('check_nodes', [...base(cache), '--vcd-extra-opts', `vcd@${ini}`, '--no-cache'], env(), [TOKEN, PASSWORD], cache);
    const wrongCache = mkdtempSync(join(tmpdir(), 'cc-wrong-nodes-'));
    await expectNoLeak('check_nodes', [...base(wrongCache), '--vcd-password-file', file('wrong-pw', WRONG_PASSWORD)], env(), [TOKEN, WRONG_PASSWORD]);
    sim.apis.vcd.faults.set([{ path: '^/api/query', kind: 'status', status: 503, body: 'down' }]);
    await expectNoLeak('check_nodes', [...base(cache), '--vcd-password-file', file('pw', PASSWORD)], env(), [TOKEN, PASSWORD], cache);
    sim.apis.vcd.faults.set([{ kind: 'hang' }]);
    await expectNoLeak('check_nodes', [...base(mkdtempSync(join(tmpdir(), 'cc-hang-nodes-'))), '--vcd-password-file', file('pw', PASSWORD), '-t', '3'], env(), [
      TOKEN,
      PASSWORD,
    ]);
    sim.apis.vcd.faults.set([]);
  });
});

// On the other tested Node.js versions (SAMPLED): check_nodes and check_vm_cpu, the first plugin
// of each family, as in the fault matrix; the host's run takes every plugin.
if (!SAMPLED)
  describe('check_cluster_monitoring never prints the token', () => {
    const base = () => ['--url', sim.apis.cluster.httpsUrl, '--ca-file', sim.caFile];
    it('from --token-file, KUBE_TOKEN, --extra-opts and --token; succeeding, rejected, failing, timing out', async () => {
      const exe = 'check_cluster_monitoring';
      await expectNoLeak(exe, [...base(), '--token-file', file('token', TOKEN)], env(), [TOKEN]);
      await expectNoLeak(exe, base(), env({ KUBE_TOKEN: TOKEN }), [TOKEN]);
      await expectNoLeak(exe, [...base(), '--extra-opts', `@${file('m.ini', `[${exe}]\ntoken=${TOKEN}`)}`], env(), [TOKEN]);
      await expectNoLeak(exe, [...base(), '--token', WRONG_TOKEN], env(), [WRONG_TOKEN]);
      sim.apis.cluster.faults.set([{ path: '/pods$', kind: 'status', status: 500, body: 'boom' }]);
      await expectNoLeak(exe, [...base(), '--token-file', file('token', TOKEN)], env(), [TOKEN]);
      sim.apis.cluster.faults.set([{ kind: 'hang' }]);
      await expectNoLeak(exe, [...base(), '--token-file', file('token', TOKEN), '-t', '1'], env(), [TOKEN]);
      sim.apis.cluster.faults.set([]);
    });
  });

describe('the VM checks never print the password or a session token', () => {
  const base = (cacheDir: string) => [
    '--url',
    sim.apis.vcd.httpsUrl,
    '--ca-file',
    sim.caFile,
    '--vm',
    VM_ID,
    '--user',
    'monitor',
    '--org',
    'acme',
    '--cache-dir',
    cacheDir,
  ];
  for (const exe of SAMPLED ? ['check_vm_cpu'] : ['check_vm_cpu', 'check_vm_disk', 'check_vm_mem']) {
    it(`${exe}: password file, env and --extra-opts; success, wrong password, server failure`, async () => {
      const cache = mkdtempSync(join(tmpdir(), 'cc-secrets-cache-'));
      await expectNoLeak(exe, [...base(cache), '--password-file', file('pw', PASSWORD)], env(), [PASSWORD], cache);
      await expectNoLeak(exe, [...base(cache), '--window', '1h'], env({ VCD_PASSWORD: PASSWORD }), [PASSWORD], cache);
      const ini = file('p.ini', `[${exe}]\npassword=${PASSWORD}`);
      await expectNoLeak(exe, [...base(cache), '--extra-opts', `@${ini}`, '--no-cache'], env(), [PASSWORD], cache);
      await expectNoLeak(exe, [...base(mkdtempSync(join(tmpdir(), 'cc-wrong-'))), '--password-file', file('wrong-pw', WRONG_PASSWORD)], env(), [
        WRONG_PASSWORD,
      ]);
      sim.apis.vcd.faults.set([{ path: '/metrics/', kind: 'status', status: 503, body: 'down' }]);
      await expectNoLeak(exe, [...base(cache), '--password-file', file('pw', PASSWORD)], env(), [PASSWORD], cache);
      sim.apis.vcd.faults.set([]);

      // The cache: a private directory, private files, names that give nothing away.
      expect(statSync(cache).mode & 0o777).toBe(0o700);
      for (const f of readdirSync(cache)) {
        expect(statSync(join(cache, f)).mode & 0o777, f).toBe(0o600);
        for (const s of secretsIn(cache, [PASSWORD, 'monitor', 'acme'])) expect(f).not.toContain(s);
      }
    });
  }
  it('warns at -v about a password file others may read', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'cc-secrets-cache-'));
    const r = await runExecutable(join(DIST, 'check_vm_cpu'), [...base(cache), '--password-file', file('loose-pw', PASSWORD, 0o640), '-v'], { env: env() });
    expect(r.stdout.split('\n')[0]).toMatch(/--password-file .*loose-pw is readable by others \(mode 0640\), chmod 600 it/);
    expect(r.stdout).not.toContain(PASSWORD);
  });
});

describe('check_nodes with a kubeconfig: what an exec plugin or a proxy-url could leak', () => {
  const JWT = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InNpbSJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6bW9uaXRvcmluZyJ9.' + 'U2lnbmF0dXJl'.repeat(12);
  const ENV_SECRET = 'Sommerzeit';
  /** A kubeconfig for the simulator's cluster whose user runs `plugin` (a node script). */
  const kubeconfig = (name: string, plugin: string, proxyUrl?: string) => {
    const command = file(`${name}-plugin`, `#!${process.execPath}\n${plugin}`, 0o700);
    return file(
      `${name}-kubeconfig`,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: sim',
        'contexts: [{name: sim, context: {cluster: sim, user: sim}}]',
        `clusters: [{name: sim, cluster: {server: ${JSON.stringify(sim.apis.cluster.httpsUrl)}, certificate-authority: ${JSON.stringify(sim.caFile)}${proxyUrl ? `, proxy-url: ${JSON.stringify(proxyUrl)}` : ''}}}]`,
        `users: [{name: sim, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ${JSON.stringify(command)}, env: [{name: AZURE_CLIENT_SECRET, value: ${ENV_SECRET}}], interactiveMode: Never}}}]`,
      ].join('\n'),
    );
  };

  it('a failing plugin: its klog header dropped, the useful part kept, a JWT and the env secret redacted, at every -v', async () => {
    const said = [
      `I1123 10:00:00.000001   4242 cred.go:98] token cache: ${JWT}`,
      `F1123 10:00:00.000002   4242 cred.go:145] print credential failed with error: token ${JWT} rejected with client secret ${ENV_SECRET}: You do not currently have an active account selected.`,
      'Please run:',
      '  $ gcloud auth login',
    ].join('\n');
    const kc = kubeconfig('failing', `process.stderr.write(${JSON.stringify(said)} + '\\n'); process.exit(1);`);
    for (const level of LEVELS) {
      const r = await runExecutable(join(DIST, 'check_nodes'), ['--kubeconfig', kc, '--no-cache', ...level], { env: env() });
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /^NODES UNKNOWN - exec credential plugin ".*failing-plugin" failed \(exit 1\): print credential failed with error: token <redacted> rejected with client secret <redacted>: You do not currently have an active account selected\. Please run: \$ gcloud auth login, run it by hand/,
      );
      const all = r.stdout + r.stderr;
      for (const leak of ['eyJhbGci', 'U2lnbmF0dXJl', ENV_SECRET, 'F1123', 'cred.go', 'token cache'])
        expect(all, `${level.join(' ')}: ${leak}`).not.toContain(leak);
    }
  });

  it('a plugin whose token cannot be sent: one clear line, nothing kept; mended, the next check works', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'cc-exec-cache-'));
    const broken = join(dir, 'exec-broken');
    writeFileSync(broken, '');
    const expires = new Date(Date.now() + 3600_000).toISOString();
    const kc = kubeconfig(
      'newline',
      `const fs = require('fs'); const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
       const token = fs.existsSync(${JSON.stringify(broken)}) ? ${JSON.stringify(`${TOKEN}\nX-Injected: 1`)} : ${JSON.stringify(TOKEN)};
       process.stdout.write(JSON.stringify({ kind: 'ExecCredential', apiVersion: info.apiVersion, status: { token, expirationTimestamp: ${JSON.stringify(expires)} } }));`,
    );
    for (let i = 0; i < 2; i++) {
      const r = await runExecutable(join(DIST, 'check_nodes'), ['--kubeconfig', kc, '--cache-dir', cache], { env: env() });
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /^NODES UNKNOWN - exec credential plugin ".*newline-plugin" returned a token that holds spaces or control characters, check the plugin \(nothing was kept\)/,
      );
      expect(r.stdout).not.toContain(TOKEN);
    }
    expect(readdirSync(cache).filter((f) => f.startsWith('kube-exec'))).toEqual([]);
    unlinkSync(broken);
    const mended = await runExecutable(join(DIST, 'check_nodes'), ['--kubeconfig', kc, '--cache-dir', cache], { env: env() });
    expect(mended.code, mended.stdout).toBe(2); // the sick cluster: CRITICAL, as with --token-file
  });

  it('an invalid proxy-url is named without its user and password, as HTTPS_PROXY is', async () => {
    const kc = kubeconfig('proxy', 'process.exit(1);', 'http://monitor:Pr0xy-Passw0rd@proxy.example.com:99999');
    for (const level of LEVELS) {
      const r = await runExecutable(join(DIST, 'check_nodes'), ['--kubeconfig', kc, ...level], { env: env() });
      expect(r.stdout).toMatch(/^NODES UNKNOWN - proxy-url of cluster "sim" in kubeconfig .* "http:\/\/<user>@proxy\.example\.com:99999" is not a URL/);
      expect(r.stdout + r.stderr).not.toMatch(/Pr0xy-Passw0rd|monitor:/);
    }
    const env2 = env({ HTTPS_PROXY: 'http://monitor:Pr0xy-Passw0rd@proxy.example.com:99999' });
    const r = await runExecutable(
      join(DIST, 'check_nodes'),
      ['--url', sim.apis.cluster.httpsUrl, '--ca-file', sim.caFile, '--token-file', file('token', TOKEN)],
      { env: env2 },
    );
    expect(r.stdout).toMatch(/^NODES UNKNOWN - HTTPS_PROXY "http:\/\/<user>@proxy\.example\.com:99999" is not a valid proxy URL/);
  });
});

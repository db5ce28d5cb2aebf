// dist/check_nodes with kubeconfigs as kind, k3s, EKS and friends write them, against test API
// servers on 127.0.0.1: one that requires a client certificate, one that requires a bearer
// token, one whose certificate chains to a "public" CA. Run `node build.mjs dist` first.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs } from '../../sim/simulator';
import { openTunnel } from '../support/connect-tunnel';
import { runExecutable, type RunResult } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_nodes');
const TLS = resolve(__dirname, '../fixtures/cluster/tls');
const pem = (name: string) => readFileSync(join(TLS, name), 'utf8');
const b64 = (text: string) => Buffer.from(text).toString('base64');

const NODES = JSON.stringify({
  kind: 'NodeList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '48213' },
  items: ['master-0', 'worker-1'].map((name) => ({
    metadata: { name },
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False' },
        { type: 'Ready', status: 'True' },
      ],
    },
  })),
});

interface TestServer {
  url: string;
  port: number;
  requests: Array<{ authorization?: string; clientCN?: string }>;
  close(): Promise<void>;
}

const servers: TestServer[] = [];
const sockets = new Set<Socket>();

/** An API server on 127.0.0.1: `accept` judges each request (true: the node list, false: 401). */
async function apiServer(options: https.ServerOptions, accept: (req: http.IncomingMessage) => boolean): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = https.createServer(options, (req, res) => {
    const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate?.();
    requests.push({ authorization: req.headers.authorization, clientCN: peer && 'subject' in peer ? peer.subject?.CN : undefined });
    if (!req.url?.startsWith('/api/v1/nodes')) {
      res.writeHead(404).end();
      return;
    }
    if (!accept(req)) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(NODES);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const s: TestServer = { url: `https://127.0.0.1:${port}`, port, requests, close: () => new Promise((done) => server.close(() => done())) };
  servers.push(s);
  return s;
}

let certServer: TestServer;
let tokenServer: TestServer;
let publicServer: TestServer;
let proxy: http.Server;
let proxyPort = 0;
let tlsProxy: https.Server;
let tlsProxyPort = 0;
let tunnels = 0;
const validTokens = new Set<string>();

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_nodes is missing: run `node build.mjs dist` first');
  certServer = await apiServer(
    { key: pem('server-by-cluster-ca.key'), cert: pem('server-by-cluster-ca.pem'), ca: pem('cluster-ca.pem'), requestCert: true, rejectUnauthorized: true },
    (req) => (req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject?.CN === 'monitoring',
  );
  tokenServer = await apiServer({ key: pem('server-by-cluster-ca.key'), cert: pem('server-by-cluster-ca.pem') }, (req) =>
    validTokens.has((req.headers.authorization ?? '').replace(/^Bearer /, '')),
  );
  publicServer = await apiServer({ key: pem('server-by-public-ca.key'), cert: pem('server-by-public-ca.pem') }, () => true);
  proxy = http.createServer((_, res) => res.writeHead(405).end());
  // The same CONNECT proxy behind TLS: proxy-url https://.
  tlsProxy = https.createServer({ key: pem('server-by-cluster-ca.key'), cert: pem('server-by-cluster-ca.pem') }, (_, res) => res.writeHead(405).end());
  for (const p of [proxy, tlsProxy])
    p.on('connect', (req, socket: Socket, head) => {
      tunnels++;
      sockets.add(socket);
      openTunnel(req, socket, head, (upstream) => sockets.add(upstream));
    });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  proxyPort = (proxy.address() as AddressInfo).port;
  await new Promise<void>((done) => tlsProxy.listen(0, '127.0.0.1', done));
  tlsProxyPort = (tlsProxy.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => s.close()));
  await new Promise((done) => proxy?.close(done));
  await new Promise((done) => tlsProxy?.close(done));
});

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
const run = (argv: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> => runExecutable(PLUGIN, argv, { env: { ...ENV, ...env } });
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'cc-kc-e2e-'));
}

function write(dir: string, name: string, text: string, mode = 0o600): string {
  const f = join(dir, name);
  writeFileSync(f, text);
  chmodSync(f, mode);
  return f;
}

/** A kubeconfig of one context, as kubectl writes it; `user` and `cluster` are YAML lines. */
function kubeconfig(server: string, user: string[], cluster: string[] = [`certificate-authority-data: ${b64(pem('cluster-ca.pem'))}`], name = 'test'): string {
  return [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    ...cluster.map((l) => `    ${l}`),
    `    server: ${server}`,
    `  name: ${name}`,
    'contexts:',
    '- context:',
    `    cluster: ${name}`,
    `    user: ${name}`,
    `  name: ${name}`,
    `current-context: ${name}`,
    'kind: Config',
    'preferences: {}',
    'users:',
    `- name: ${name}`,
    '  user:',
    ...user.map((l) => `    ${l}`),
    '',
  ].join('\n');
}

const OK_LINE = /^NODES OK - 2 of 2 nodes healthy( \[[^\]]*\])? \| /;

describe('a server that requires a client certificate (kind, k3s, kubeadm)', () => {
  it('client-certificate-data / client-key-data of a kind-shaped kubeconfig', async () => {
    const dir = tmp();
    const kc = write(
      dir,
      'config',
      kubeconfig(certServer.url, [`client-certificate-data: ${b64(pem('client.pem'))}`, `client-key-data: ${b64(pem('client.key'))}`], undefined, 'kind-kind'),
    );
    const before = certServer.requests.length;
    const r = await run(['--kubeconfig', kc, '-vv']);
    expect(firstLine(r)).toMatch(OK_LINE);
    expect(r.code).toBe(0);
    expect(certServer.requests.slice(before)).toEqual([{ authorization: undefined, clientCN: 'monitoring' }]);
    expect(r.stdout).toContain(
      `client certificate from the client certificate of user "kind-kind" of context "kind-kind" in ${kc}, TLS: only the certificate-authority-data of cluster "kind-kind"`,
    );
    expect(r.stdout).not.toContain('PRIVATE KEY');
  });

  it('client-certificate / client-key files relative to the kubeconfig, and --client-cert / --client-key', async () => {
    const dir = tmp();
    write(dir, 'monitoring.crt', pem('client.pem'));
    write(dir, 'monitoring.key', pem('client.key'));
    write(dir, 'ca.crt', pem('cluster-ca.pem'));
    const kc = write(
      dir,
      'config',
      kubeconfig(certServer.url, ['client-certificate: monitoring.crt', 'client-key: monitoring.key'], ['certificate-authority: ca.crt']),
    );
    expect(firstLine(await run(['--kubeconfig', kc]))).toMatch(OK_LINE);
    const flags = await run([
      '--url',
      certServer.url,
      '--ca-file',
      join(dir, 'ca.crt'),
      '--client-cert',
      join(dir, 'monitoring.crt'),
      '--client-key',
      join(dir, 'monitoring.key'),
    ]);
    expect(firstLine(flags)).toMatch(OK_LINE);
  });

  it('a key file others may read: a warning at -v', async () => {
    const dir = tmp();
    const key = write(dir, 'monitoring.key', pem('client.key'), 0o644);
    const r = await run([
      '--url',
      certServer.url,
      '--ca-file',
      join(TLS, 'cluster-ca.pem'),
      '--client-cert',
      join(TLS, 'client.pem'),
      '--client-key',
      key,
      '-v',
    ]);
    expect(firstLine(r)).toMatch(new RegExp(`^NODES OK - .*--client-key ${key} is readable by others \\(mode 0644\\), chmod 600 it`));
  });

  it('a client certificate from another CA, or none: one clean UNKNOWN line', async () => {
    const other = await run([
      '--url',
      certServer.url,
      '--ca-file',
      join(TLS, 'cluster-ca.pem'),
      '--client-cert',
      join(TLS, 'client-other.pem'),
      '--client-key',
      join(TLS, 'client-other.key'),
    ]);
    expect(other.code).toBe(3);
    expect(other.stdout).toMatch(/^NODES UNKNOWN - [^\n]+\n$/);
    expect(other.stderr).toBe('');
    const none = await run(['--url', certServer.url, '--ca-file', join(TLS, 'cluster-ca.pem'), '--token', 'no-client-cert-token']);
    expect(none.code).toBe(3);
    expect(none.stdout).toMatch(/^NODES UNKNOWN - [^\n]+\n$/);
  });
});

describe('the cluster CA is the only trust anchor (as kubectl)', () => {
  // The "public" CA becomes the system trust store for the run: Node reads OpenSSL's store
  // (as distribution builds of Node do), and that store is this one file.
  const system = { NODE_OPTIONS: '--use-openssl-ca', SSL_CERT_FILE: join(TLS, 'public-ca.pem') };

  it('control: the public CA is trusted as a system root when no cluster CA is named', async () => {
    const r = await run(['--url', publicServer.url, '--token', 'a-token-for-the-public-server'], system);
    expect(firstLine(r)).toMatch(OK_LINE);
  });

  it('a server with a public-CA certificate is refused when the kubeconfig names the cluster CA; the token is never sent', async () => {
    const dir = tmp();
    const token = 'sha256~c2VjcmV0LW5ldmVyLXNlbnQtdG8tdGhlLXdyb25nLXNlcnZlcg';
    const kc = write(dir, 'config', kubeconfig(publicServer.url, [`token: ${token}`]));
    const before = publicServer.requests.length;
    const r = await run(['--kubeconfig', kc], system);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^NODES UNKNOWN - TLS verification of 127\.0\.0\.1:\d+ failed: the certificate was issued by an unknown CA/);
    expect(publicServer.requests.length).toBe(before);
    expect(r.stdout).not.toContain(token);
  });

  it('--ca-file replaces the system roots too', async () => {
    const r = await run(['--url', publicServer.url, '--ca-file', join(TLS, 'cluster-ca.pem'), '--token', 'a-token-for-the-public-server'], system);
    expect(r.stdout).toMatch(/^NODES UNKNOWN - TLS verification of .* failed: the certificate was issued by an unknown CA/);
  });

  it('tls-server-name is the name checked in the certificate', async () => {
    const dir = tmp();
    validTokens.add('tls-server-name-token');
    const good = write(
      dir,
      'good',
      kubeconfig(
        tokenServer.url,
        ['token: tls-server-name-token'],
        [`certificate-authority-data: ${b64(pem('cluster-ca.pem'))}`, 'tls-server-name: api.cluster.internal'],
      ),
    );
    expect(firstLine(await run(['--kubeconfig', good]))).toMatch(OK_LINE);
    const bad = write(
      dir,
      'bad',
      kubeconfig(
        tokenServer.url,
        ['token: tls-server-name-token'],
        [`certificate-authority-data: ${b64(pem('cluster-ca.pem'))}`, 'tls-server-name: wrong.example'],
      ),
    );
    const r = await run(['--kubeconfig', bad]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^NODES UNKNOWN - .*wrong\.example/);
  });

  it('proxy-url of the cluster tunnels through that proxy', async () => {
    const dir = tmp();
    validTokens.add('proxy-url-token');
    const kc = write(
      dir,
      'config',
      kubeconfig(
        tokenServer.url,
        ['token: proxy-url-token'],
        [`certificate-authority-data: ${b64(pem('cluster-ca.pem'))}`, `proxy-url: http://127.0.0.1:${proxyPort}`],
      ),
    );
    const before = tunnels;
    expect(firstLine(await run(['--kubeconfig', kc]))).toMatch(OK_LINE);
    expect(tunnels).toBe(before + 1);
    // An https:// proxy, whose own certificate the system trusts (NODE_EXTRA_CA_CERTS here).
    const viaTls = write(
      dir,
      'tls-proxy',
      kubeconfig(
        tokenServer.url,
        ['token: proxy-url-token'],
        [`certificate-authority-data: ${b64(pem('cluster-ca.pem'))}`, `proxy-url: https://127.0.0.1:${tlsProxyPort}`],
      ),
    );
    expect(firstLine(await run(['--kubeconfig', viaTls], { NODE_EXTRA_CA_CERTS: join(TLS, 'cluster-ca.pem') }))).toMatch(OK_LINE);
    expect(tunnels).toBe(before + 2);
    const socks = write(dir, 'socks', kubeconfig(tokenServer.url, ['token: proxy-url-token'], [`proxy-url: socks5://127.0.0.1:1080`]));
    expect((await run(['--kubeconfig', socks])).stdout).toMatch(
      /^NODES UNKNOWN - proxy-url of cluster "test" in kubeconfig .* is a socks5 proxy, which cluster checks do not support, use an http:\/\/ proxy/,
    );
  });
});

/** An exec plugin (a node script) that counts its runs and prints what `mode` says. */
function execPlugin(dir: string): { command: string; runs: () => number; set: (mode: object) => void } {
  const counter = join(dir, 'runs');
  const modeFile = join(dir, 'mode.json');
  const command = write(
    dir,
    'get-token',
    `#!${process.execPath}
const fs = require('fs');
fs.appendFileSync(${JSON.stringify(counter)}, 'x');
const mode = JSON.parse(fs.readFileSync(${JSON.stringify(modeFile)}, 'utf8'));
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
if (info.spec.interactive !== false) { process.stderr.write('expected a non-interactive run\\n'); process.exit(2); }
if (mode.hang) setInterval(() => {}, 1000);
else if (mode.fail) { process.stderr.write(mode.fail + '\\nat line two ' + process.env.PLUGIN_SECRET + '\\n'); process.exit(1); }
else if (mode.cert) process.stdout.write(JSON.stringify({ kind: 'ExecCredential', apiVersion: info.apiVersion, status: { clientCertificateData: mode.cert, clientKeyData: mode.key, expirationTimestamp: new Date(Date.now() + mode.validMs).toISOString() } }));
else process.stdout.write(JSON.stringify({ kind: 'ExecCredential', apiVersion: info.apiVersion, spec: {}, status: { token: mode.token, expirationTimestamp: new Date(Date.now() + mode.validMs).toISOString() } }));
`,
    0o755,
  );
  const set = (mode: object) => writeFileSync(modeFile, JSON.stringify(mode));
  return { command, runs: () => (existsSync(counter) ? readFileSync(counter, 'utf8').length : 0), set };
}

function execKubeconfig(dir: string, command: string, name = 'eks', server = tokenServer.url): string {
  return write(
    dir,
    `config-${name}`,
    kubeconfig(
      server,
      [
        'exec:',
        '  apiVersion: client.authentication.k8s.io/v1beta1',
        `  command: ${command}`,
        '  args: [eks, get-token, --cluster-name, prod]',
        '  env:',
        '  - name: PLUGIN_SECRET',
        '    value: s3cr3t-env-value-for-the-plugin',
        '  interactiveMode: IfAvailable',
        '  provideClusterInfo: false',
      ],
      undefined,
      name,
    ),
  );
}

describe('an exec credential plugin (aws eks get-token and friends)', () => {
  it('three checks run the plugin once; the token is never printed', async () => {
    const dir = tmp();
    const p = execPlugin(dir);
    p.set({ token: 'k8s-aws-v1.dGhyZWUtY2hlY2tzLW9uZS1ydW4', validMs: 15 * 60_000 });
    validTokens.add('k8s-aws-v1.dGhyZWUtY2hlY2tzLW9uZS1ydW4');
    const kc = execKubeconfig(dir, p.command);
    const cache = join(dir, 'cache');
    for (let i = 0; i < 3; i++) {
      const r = await run(['--kubeconfig', kc, '--cache-dir', cache, '-vvv']);
      expect(firstLine(r)).toMatch(OK_LINE);
      expect(r.stdout + r.stderr).not.toContain('dGhyZWUtY2hlY2tzLW9uZS1ydW4');
    }
    expect(p.runs()).toBe(1);
  });

  it('a plugin that returns a client certificate pair (kept too, the key never printed)', async () => {
    const dir = tmp();
    const p = execPlugin(dir);
    p.set({ cert: pem('client.pem'), key: pem('client.key'), validMs: 3600_000 });
    const kc = execKubeconfig(dir, p.command, 'cert', certServer.url);
    const before = certServer.requests.length;
    for (let i = 0; i < 2; i++) {
      const r = await run(['--kubeconfig', kc, '--cache-dir', join(dir, 'cache'), '-vv']);
      expect(firstLine(r)).toMatch(OK_LINE);
      expect(r.stdout).toContain('client certificate from the exec credential plugin');
      expect(r.stdout).not.toContain('PRIVATE KEY');
    }
    expect(certServer.requests.slice(before).map((q) => q.clientCN)).toEqual(['monitoring', 'monitoring']);
    expect(p.runs()).toBe(1);
  });

  it('an expired credential runs the plugin again', async () => {
    const dir = tmp();
    const p = execPlugin(dir);
    p.set({ token: 'k8s-aws-v1.ZXhwaXJlZC1jcmVkZW50aWFs', validMs: -1000 });
    validTokens.add('k8s-aws-v1.ZXhwaXJlZC1jcmVkZW50aWFs');
    const kc = execKubeconfig(dir, p.command);
    for (let i = 0; i < 2; i++) expect(firstLine(await run(['--kubeconfig', kc, '--cache-dir', join(dir, 'cache')]))).toMatch(OK_LINE);
    expect(p.runs()).toBe(2);
  });

  it('a 401 drops the kept credential and runs the plugin once more', async () => {
    const dir = tmp();
    const p = execPlugin(dir);
    const cache = join(dir, 'cache');
    const kc = execKubeconfig(dir, p.command);
    p.set({ token: 'k8s-aws-v1.b2xkLXRva2VuLXJldm9rZWQ', validMs: 15 * 60_000 });
    validTokens.add('k8s-aws-v1.b2xkLXRva2VuLXJldm9rZWQ');
    expect(firstLine(await run(['--kubeconfig', kc, '--cache-dir', cache]))).toMatch(OK_LINE);
    validTokens.delete('k8s-aws-v1.b2xkLXRva2VuLXJldm9rZWQ'); // revoked on the server
    p.set({ token: 'k8s-aws-v1.bmV3LXRva2VuLWFmdGVyLTQwMQ', validMs: 15 * 60_000 });
    validTokens.add('k8s-aws-v1.bmV3LXRva2VuLWFmdGVyLTQwMQ');
    expect(firstLine(await run(['--kubeconfig', kc, '--cache-dir', cache]))).toMatch(OK_LINE);
    expect(p.runs()).toBe(2);
    expect(firstLine(await run(['--kubeconfig', kc, '--cache-dir', cache]))).toMatch(OK_LINE);
    expect(p.runs()).toBe(2);
    // A fresh credential that is rejected: one UNKNOWN naming the plugin, no loop.
    validTokens.delete('k8s-aws-v1.bmV3LXRva2VuLWFmdGVyLTQwMQ');
    p.set({ token: 'k8s-aws-v1.bmV2ZXItYWNjZXB0ZWQ', validMs: 15 * 60_000 });
    const rejected = await run(['--kubeconfig', kc, '--cache-dir', cache]);
    expect(rejected.stdout).toMatch(
      /^NODES UNKNOWN - HTTP 401 from .*: token rejected \(expired or revoked\?\) \(server says: Unauthorized\), check the exec credential plugin ".*get-token" of user "eks"/,
    );
    expect(p.runs()).toBe(3);
  });

  it('a failing plugin: one clean UNKNOWN with the command and what it said on stderr, secrets redacted', async () => {
    const dir = tmp();
    const p = execPlugin(dir);
    p.set({ fail: 'An error occurred (ExpiredTokenException) when calling the GetCallerIdentity operation: s3cr3t-env-value-for-the-plugin' });
    const r = await run(['--kubeconfig', execKubeconfig(dir, p.command), '--cache-dir', join(dir, 'cache'), '-vv']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^NODES UNKNOWN - exec credential plugin ".*get-token" failed \(exit 1\): An error occurred \(ExpiredTokenException\) when calling the GetCallerIdentity operation: .*, run it by hand as the monitoring user to see why\n/,
    );
    expect(r.stdout).not.toContain('s3cr3t-env-value-for-the-plugin');
    expect(r.stdout.split('\n')[0]).toContain('<redacted> at line two <redacted>');
    expect(r.stderr).toBe('');
  });

  it('a plugin that hangs ends with -t, naming the plugin', async () => {
    const dir = tmp();
    const p = execPlugin(dir);
    p.set({ hang: true });
    const r = await run(['--kubeconfig', execKubeconfig(dir, p.command), '--cache-dir', join(dir, 'cache'), '-t', '2']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^NODES UNKNOWN - (timed out after 2s while running the exec credential plugin ".*get-token"|exec credential plugin ".*get-token" did not answer before the timeout)/,
    );
    expect(r.ms).toBeLessThan(2500 + 1000);
  });

  it("a plugin that is not installed: its name and the kubeconfig's installHint", async () => {
    const dir = tmp();
    const kc = write(dir, 'config', readFileSync(resolve(__dirname, '../fixtures/cluster/kubeconfig/gke-gcloud.yaml'), 'utf8'));
    // The PATH of the monitoring user holds node (the plugins' interpreter) but not the plugin.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const r = await run(['--kubeconfig', kc, '--cache-dir', join(dir, 'cache')], { PATH: bin });
    expect(r.stdout).toBe(
      'NODES UNKNOWN - exec credential plugin "gke-gcloud-auth-plugin" not found (not in PATH of the monitoring user), Install gke-gcloud-auth-plugin for use with kubectl by following https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin\n',
    );
  });
});

describe('--context and a KUBECONFIG of two files', () => {
  it('the current-context of the first file; --context reaches a context of the second', async () => {
    const dir = tmp();
    validTokens.add('team-token-first-file');
    validTokens.add('monitoring-token-second-file');
    const first = write(dir, 'team', kubeconfig(tokenServer.url, ['token: team-token-first-file'], undefined, 'team'));
    const second = write(
      dir,
      'monitoring',
      kubeconfig(
        certServer.url,
        [`client-certificate-data: ${b64(pem('client.pem'))}`, `client-key-data: ${b64(pem('client.key'))}`],
        undefined,
        'monitoring',
      ).replace('current-context: monitoring', 'current-context: team'),
    );
    const env = { KUBECONFIG: `${first}:${second}` };
    const before = tokenServer.requests.length;
    expect(firstLine(await run(['--kubeconfig'], env))).toMatch(OK_LINE);
    expect(tokenServer.requests.slice(before).map((q) => q.authorization)).toEqual(['Bearer team-token-first-file']);
    const beforeCert = certServer.requests.length;
    expect(firstLine(await run(['--context', 'monitoring'], env))).toMatch(OK_LINE);
    expect(certServer.requests.slice(beforeCert).map((q) => q.clientCN)).toEqual(['monitoring']);
    expect((await run(['--context', 'nope'], env)).stdout).toMatch(
      /^NODES UNKNOWN - kubeconfig .* has no context named "nope" \(it has team, monitoring\), check --context or the current-context\n$/,
    );
  });
});

describe('-H forms', () => {
  it.each([
    [
      ['-H', '127.0.0.1:16443'],
      'NODES UNKNOWN - invalid -H/--hostname "127.0.0.1:16443": give the port with -p, as -H 127.0.0.1 -p 16443 (or use --url https://127.0.0.1:16443) (see --help)\n',
    ],
    [
      ['-H', 'https://api.example.com:6443'],
      'NODES UNKNOWN - invalid -H/--hostname "https://api.example.com:6443": -H takes a host name, not a URL, use --url https://api.example.com:6443 (see --help)\n',
    ],
  ])('%j: a usage error saying what to write', async (argv, line) => {
    const r = await run([...argv, '--token', 'usage-error-token']);
    expect(r.stdout).toBe(line);
    expect(r.code).toBe(3);
  });

  it('-H 127.0.0.1 -p PORT and -H ::1 reach the server', async () => {
    validTokens.add('h-form-token');
    const r = await run(['-H', '127.0.0.1', '-p', String(tokenServer.port), '--ca-file', join(TLS, 'cluster-ca.pem'), '--token', 'h-form-token']);
    expect(firstLine(r)).toMatch(OK_LINE);
    // ::1 is parsed as a host; whether this machine has IPv6 loopback is not the point here.
    const v6 = await run(['-H', '[::1]', '-p', '1', '--ca-file', join(TLS, 'cluster-ca.pem'), '--token', 'h-form-token', '-t', '3']);
    expect(v6.stdout).toMatch(/^NODES UNKNOWN - .*\[::1\]:1/);
    expect(v6.stdout).not.toMatch(/invalid|internal error/i);
  });
});

describe('check_cluster_monitoring takes the same kubeconfig credentials', () => {
  it('an exec plugin against the simulator: one run for two checks', async () => {
    const sim = await startSimulatorFromArgs(['--cluster-scenario', 'healthy'], [CLUSTER_MODULE]);
    try {
      const dir = tmp();
      const p = execPlugin(dir);
      p.set({ token: readFileSync(sim.apis.cluster.info.tokenFile, 'utf8').trim(), validMs: 15 * 60_000 });
      const kc = write(
        dir,
        'config',
        kubeconfig(
          sim.apis.cluster.httpsUrl,
          ['exec:', '  apiVersion: client.authentication.k8s.io/v1', `  command: ${p.command}`, '  interactiveMode: Never'],
          [`certificate-authority-data: ${b64(readFileSync(sim.caFile, 'utf8'))}`],
        ),
      );
      const monitoring = resolve(__dirname, '../../dist/check_cluster_monitoring');
      for (let i = 0; i < 2; i++) {
        const r = await runExecutable(monitoring, ['--kubeconfig', kc, '--cache-dir', join(dir, 'cache')], { env: ENV });
        expect(r.stdout).toMatch(/^MONITORING OK - /);
      }
      expect(p.runs()).toBe(1);
    } finally {
      await sim.close();
    }
  });
});

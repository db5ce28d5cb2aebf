import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpStatusError } from '../../../lib/cluster/api-error';
import { CLUSTER_OPTIONS, clusterTargetFrom, describeTarget, readCluster, readTokenFile, urlFromHost, type ClusterOptions } from '../../../lib/cluster/target';
import type { ClusterTarget } from '../../../lib/cluster/client';
import { HTTP_OPTIONS } from '../../../lib/http/options';
import { parseOptions } from '../../../lib/plugin/options';
import { Notes } from '../../../lib/plugin/notes';

const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6Im1vbml0b3JpbmcifQ.payload.signature';
const KC = join(__dirname, '../../fixtures/cluster/kubeconfig');
const TLS = join(__dirname, '../../fixtures/cluster/tls');

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'cc-target-'));
}

function tokenFile(text = `${TOKEN}\n`, mode = 0o600): string {
  const f = join(tmp(), 'token');
  writeFileSync(f, text);
  chmodSync(f, mode);
  return f;
}

/** The options as parsed from no arguments (every default), with the given ones on top. */
const NO_OPTIONS: ClusterOptions = parseOptions([], [...CLUSTER_OPTIONS, ...HTTP_OPTIONS]);

async function resolve(given: Partial<ClusterOptions>, env: NodeJS.ProcessEnv = {}, saDir = '/nonexistent') {
  const secrets: string[] = [];
  const notes = new Notes();
  const options = { ...NO_OPTIONS, ...given };
  const target = await clusterTargetFrom(options, { addSecret: (s) => s && secrets.push(s) }, notes, env, saDir);
  return { target, secrets, notes };
}

describe('urlFromHost: -H/-p', () => {
  it.each([
    ['api.prod.example.com', undefined, 'https://api.prod.example.com:6443/'],
    ['ocp.prod.example.com', undefined, 'https://ocp.prod.example.com:8443/'],
    ['OCP.legacy.example.com', undefined, 'https://ocp.legacy.example.com:8443/'],
    ['10.0.0.5', undefined, 'https://10.0.0.5:6443/'],
    ['fd00::5', undefined, 'https://[fd00::5]:6443/'],
    ['api.prod.example.com', 443, 'https://api.prod.example.com/'],
  ])('%s port %s is %s', (host, port, url) => {
    expect(urlFromHost(host, port).href).toBe(url);
  });

  it.each([
    ['::1', 'https://[::1]:6443/'],
    ['[::1]', 'https://[::1]:6443/'],
    ['[fd00::5]', 'https://[fd00::5]:6443/'],
  ])('takes the IPv6 literal %s with or without brackets', (host, url) => {
    expect(urlFromHost(host).href).toBe(url);
  });

  it.each([
    [
      '127.0.0.1:16443',
      /^invalid -H\/--hostname "127\.0\.0\.1:16443": give the port with -p, as -H 127\.0\.0\.1 -p 16443 \(or use --url https:\/\/127\.0\.0\.1:16443\) \(see --help\)$/,
    ],
    ['api.x:6443', /as -H api\.x -p 6443 \(or use --url https:\/\/api\.x:6443\)/],
    ['[::1]:6443', /as -H ::1 -p 6443 \(or use --url https:\/\/\[::1\]:6443\)/],
    ['https://api.x:6443', /^invalid -H\/--hostname "https:\/\/api\.x:6443": -H takes a host name, not a URL; use --url https:\/\/api\.x:6443/],
    ['api.x/console', /give a host name or IP address such as api\.cluster\.example\.com, 10\.0\.0\.5 or ::1/],
    ['[api.x]', /brackets hold an IPv6 address/],
    ['', /give a host name or IP address/],
  ])('refuses -H %j with what to write instead', (host, message) => {
    expect(() => urlFromHost(host)).toThrow(message);
  });

  it('refuses a bad port', () => {
    expect(() => urlFromHost('api.x', 70000)).toThrow(/invalid -p\/--port 70000/);
  });
});

describe('readTokenFile', () => {
  it('strips the trailing newline', () => {
    expect(readTokenFile(tokenFile(), '--token-file', new Notes())).toBe(TOKEN);
    expect(readTokenFile(tokenFile(`${TOKEN}\r\n\n`), '--token-file', new Notes())).toBe(TOKEN);
  });

  it('refuses a missing, unreadable or empty file with the path and a fix', () => {
    expect(() => readTokenFile('/nonexistent/token', '--token-file', new Notes())).toThrow(
      'cannot read --token-file /nonexistent/token (ENOENT); check the path and that the monitoring user may read it',
    );
    expect(() => readTokenFile(tmp(), '--token-file', new Notes())).toThrow(/cannot read --token-file .* \(EISDIR\)/);
    expect(() => readTokenFile(tokenFile('\n'), '--token-file', new Notes())).toThrow(/--token-file .* is empty; put the service account's token in it/);
  });

  it('warns when others may read the file', () => {
    const notes = new Notes();
    const f = tokenFile(TOKEN, 0o644);
    readTokenFile(f, '--token-file', notes);
    expect(notes.all).toEqual([`--token-file ${f} is readable by others (mode 0644); chmod 600 it`]);
    const quiet = new Notes();
    readTokenFile(tokenFile(TOKEN, 0o600), '--token-file', quiet);
    expect(quiet.all).toEqual([]);
  });
});

describe('clusterTargetFrom', () => {
  it('--url with --token-file; the token is a secret at once', async () => {
    const f = tokenFile();
    const { target, secrets } = await resolve({ url: 'https://api.x:6443', 'token-file': f });
    expect(target).toMatchObject({ token: TOKEN, tokenSource: `--token-file ${f}`, tls: {} });
    expect(target.url.href).toBe('https://api.x:6443/');
    expect(secrets).toContain(TOKEN);
  });

  it('token precedence: --token-file, --token, $KUBE_TOKEN, kubeconfig, service account', async () => {
    const f = tokenFile();
    expect((await resolve({ url: 'https://a', token: 'from-option' }, { KUBE_TOKEN: 'from-env' })).target.tokenSource).toBe('--token');
    expect((await resolve({ url: 'https://a' }, { KUBE_TOKEN: 'from-env' })).target).toMatchObject({ token: 'from-env', tokenSource: '$KUBE_TOKEN' });
    expect((await resolve({ url: 'https://a', 'token-file': f }, { KUBE_TOKEN: 'from-env' })).target.token).toBe(TOKEN);
    const kc = await resolve({ kubeconfig: join(KC, 'kubeconfig.json') }, { KUBE_TOKEN: 'from-env' });
    expect(kc.target.token).toBe('from-env');
  });

  it('reads the current context of --kubeconfig: server, token, CA; --ca-file and -k win', async () => {
    const { target, secrets } = await resolve({ kubeconfig: join(KC, 'oc-login.yaml') });
    expect(target.url.href).toBe('https://api.prod-eu1.example.com:6443/');
    expect(target.tls).toMatchObject({ ca: expect.stringContaining('BEGIN CERTIFICATE'), caOnly: true });
    expect(target.tokenSource).toMatch(
      /^the token of user "system:serviceaccount:openshift-infra:monitoring\/.*" of context "openshift-infra\/.*" in .*oc-login.yaml$/,
    );
    expect(secrets).toContain(target.token);
    expect((await resolve({ kubeconfig: join(KC, 'oc-login.yaml'), insecure: true })).target.tls).toEqual({ insecure: true });
    const caFile = join(KC, 'ca/prod-ca.pem');
    expect((await resolve({ kubeconfig: join(KC, 'oc-login.yaml'), 'ca-file': caFile })).target).toMatchObject({
      tls: { caOnly: true },
      trustSource: `only --ca-file ${caFile}`,
    });
    expect((await resolve({ kubeconfig: join(KC, 'kubeconfig.json') })).target.tls).toEqual({ insecure: true });
    const viaUrl = await resolve({ kubeconfig: join(KC, 'kubeconfig.json'), url: 'https://other:6443' });
    expect(viaUrl.target.url.host).toBe('other:6443');
  });

  it('reads tokenFile and certificate-authority of a kubeconfig relative to it', async () => {
    const { target } = await resolve({ kubeconfig: join(KC, 'hand-written.yaml') });
    expect(target.url.href).toBe('https://ocp.prod.example.com:8443/');
    expect(target.token).toMatch(/^eyJhbGciOiJSUzI1NiJ9\./);
    expect(target.tls).toMatchObject({ ca: expect.stringContaining('BEGIN CERTIFICATE'), caOnly: true });
  });

  it('$KUBECONFIG alone names the cluster when no --url or -H does', async () => {
    const env = { KUBECONFIG: join(KC, 'kubeconfig.json') };
    expect((await resolve({}, env)).target.url.host).toBe('api.prod-eu1.example.com:6443');
    // In a pod too, as kubectl prefers a kubeconfig to the in-cluster account.
    expect((await resolve({}, { ...env, KUBERNETES_SERVICE_HOST: '172.30.0.1' })).target.url.host).toBe('api.prod-eu1.example.com:6443');
    const withUrl = await resolve({ url: 'https://other:6443', token: 't0ken' }, env);
    expect(withUrl.target).toMatchObject({ token: 't0ken', tls: {} });
  });

  it('--kubeconfig without a path uses $KUBECONFIG', async () => {
    const { target } = await resolve({ kubeconfig: '' }, { KUBECONFIG: join(KC, 'kubeconfig.json') });
    expect(target.url.host).toBe('api.prod-eu1.example.com:6443');
  });

  it('a kubeconfig user with a client certificate: no token, the pair in the TLS settings, the key a secret', async () => {
    const { target, secrets } = await resolve({ kubeconfig: join(KC, 'kind.yaml') });
    expect(target.token).toBeUndefined();
    expect(target.credential).toBe('client certificate');
    expect(target.tokenSource).toMatch(/^the client certificate of user "kind-kind" of context "kind-kind" in .*kind\.yaml$/);
    expect(target.tls).toMatchObject({ cert: expect.stringContaining('BEGIN CERTIFICATE'), key: expect.stringContaining('PRIVATE KEY'), caOnly: true });
    expect(secrets).toContain(target.tls.key);
    // A token given otherwise wins over the kubeconfig's user.
    expect((await resolve({ kubeconfig: join(KC, 'kind.yaml'), 'token-file': tokenFile() })).target).toMatchObject({ token: TOKEN, credential: 'token' });
  });

  it('an AKS user with both a certificate and a token sends both', async () => {
    const { target } = await resolve({ kubeconfig: join(KC, 'aks-client-cert.yaml') });
    expect(target.token).toMatch(/^3f9c2b7e/);
    expect(target.tls.cert).toContain('BEGIN CERTIFICATE');
  });

  it('--context picks another context; tls-server-name and proxy-url reach the TLS settings', async () => {
    const { target } = await resolve({ context: 'lab' }, { KUBECONFIG: [join(KC, 'merge-team.yaml'), join(KC, 'merge-monitoring.yaml')].join(':') });
    expect(target.url.href).toBe('https://api.lab.example.com:6443/');
    expect(target.tls).toMatchObject({ serverName: 'api.lab.internal', caOnly: true });
    expect(target.tls.proxy?.href).toBe('http://proxy.lab.example.com:3128/');
    expect(target.tokenSource).toMatch(/^the tokenFile .*monitoring\.token of user "monitoring" of context "lab"/);
  });

  it("an exec plugin's env: values under a secret's name are secrets at any length, others only when they cannot be words", async () => {
    const file = join(tmp(), 'config');
    const env = [
      ['AWS_PROFILE', 'default'],
      ['AWS_STS_REGIONAL_ENDPOINTS', 'regional'],
      ['VERBOSE', '1'],
      ['AZURE_CLIENT_SECRET', 'Mai'],
      ['VAULT_TOKEN', 'hvs1'],
      ['AWS_REGION', 'eu-central-1'],
    ];
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'current-context: c',
        'contexts: [{name: c, context: {cluster: k, user: u}}]',
        'clusters: [{name: k, cluster: {server: "https://api.k.example.com:6443"}}]',
        `users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: /nonexistent/get-token, env: [${env.map(([n, v]) => `{name: ${n}, value: "${v}"}`).join(', ')}]}}}]`,
      ].join('\n'),
      { mode: 0o600 },
    );
    const secrets: string[] = [];
    await expect(
      clusterTargetFrom({ ...NO_OPTIONS, kubeconfig: file, 'no-cache': true }, { addSecret: (s) => s && secrets.push(s) }, new Notes(), {}, '/nonexistent'),
    ).rejects.toThrow(/not found/);
    expect(secrets.sort()).toEqual(['Mai', 'eu-central-1', 'hvs1']);
  });

  it('an invalid proxy-url is named without its user and password, as an invalid HTTPS_PROXY is', async () => {
    const file = join(tmp(), 'config');
    const kubeconfig = (proxy: string) =>
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: c',
        'contexts: [{name: c, context: {cluster: k, user: u}}]',
        `clusters: [{name: k, cluster: {server: "https://api.k.example.com:6443", proxy-url: ${JSON.stringify(proxy)}}}]`,
        `users: [{name: u, user: {token: ${TOKEN}}}]`,
      ].join('\n');
    for (const proxy of ['http://monitor:pr0xy-s3cret@[bad', 'http://monitor:p@ss:pr0xy-s3cret@proxy:99999']) {
      writeFileSync(file, kubeconfig(proxy), { mode: 0o600 });
      const error = String(await resolve({ kubeconfig: file }).catch((e: Error) => e));
      expect(error).toMatch(/proxy-url of cluster "k" in .* "http:\/\/<user>@.*" is not a URL; check the kubeconfig/);
      expect(error).not.toMatch(/s3cret|monitor/);
    }
  });

  it('--client-cert and --client-key: the pair, the key a secret, a warning when others may read the key', async () => {
    const dir = tmp();
    const cert = join(dir, 'client.pem');
    const key = join(dir, 'client.key');
    writeFileSync(cert, readFileSync(join(TLS, 'client.pem')));
    writeFileSync(key, readFileSync(join(TLS, 'client.key')));
    chmodSync(key, 0o644);
    const { target, secrets, notes } = await resolve({ url: 'https://api.x:6443', 'client-cert': cert, 'client-key': key });
    expect(target).toMatchObject({ credential: 'client certificate', tokenSource: `--client-cert ${cert} and --client-key ${key}` });
    expect(target.token).toBeUndefined();
    expect(secrets).toContain(readFileSync(key, 'utf8'));
    expect(notes.all).toEqual([`--client-key ${key} is readable by others (mode 0644); chmod 600 it`]);
    await expect(resolve({ url: 'https://a', 'client-cert': cert })).rejects.toThrow(/--client-cert and --client-key go together/);
    await expect(resolve({ url: 'https://a', 'client-cert': key, 'client-key': key })).rejects.toThrow(/--client-cert .* holds no PEM certificate/);
    await expect(resolve({ url: 'https://a', 'client-cert': cert, 'client-key': cert })).rejects.toThrow(/--client-key .* holds no PEM private key/);
  });

  it("a key that is not the certificate's, a broken key or CA: one message naming where they came from", async () => {
    const dir = tmp();
    const cert = join(dir, 'client.pem');
    writeFileSync(cert, readFileSync(join(TLS, 'client.pem')));
    const other = join(dir, 'other.key');
    writeFileSync(other, readFileSync(join(TLS, 'client-other.key')));
    chmodSync(other, 0o600);
    await expect(resolve({ url: 'https://a', 'client-cert': cert, 'client-key': other })).rejects.toThrow(
      `cannot use the client certificate and key of --client-cert ${cert} and --client-key ${other}: x509 certificate routines::key values mismatch; check that the key is the PEM private key of that certificate`,
    );
    const broken = join(dir, 'broken.key');
    writeFileSync(broken, '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n');
    chmodSync(broken, 0o600);
    await expect(resolve({ url: 'https://a', 'client-cert': cert, 'client-key': broken })).rejects.toThrow(
      /^cannot use the client certificate and key of --client-cert .*; check that the key is the PEM private key of that certificate$/,
    );
    const kc = join(dir, 'config');
    writeFileSync(
      kc,
      readFileSync(join(KC, 'kind.yaml'), 'utf8').replace(
        /certificate-authority-data: \S+/,
        `certificate-authority-data: ${Buffer.from('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA\n-----END CERTIFICATE-----\n').toString('base64')}`,
      ),
    );
    chmodSync(kc, 0o600);
    await expect(resolve({ kubeconfig: kc })).rejects.toThrow(
      /^cannot use the CA \(only the certificate-authority-data of cluster "kind-kind"\): .*; check that it is a PEM certificate$/,
    );
    await expect(resolve({ url: 'https://a', token: 't0ken', 'ca-file': cert.replace('client.pem', 'other.key') })).rejects.toThrow(
      /--ca-file .* holds no PEM certificate/,
    );
  });

  it('names a kubeconfig that holds a secret and that others may read', async () => {
    const f = join(tmp(), 'config');
    writeFileSync(f, readFileSync(join(KC, 'kind.yaml')));
    chmodSync(f, 0o644);
    const { notes } = await resolve({ kubeconfig: f });
    expect(notes.all).toEqual([`kubeconfig ${f} holds a secret and is readable by others; chmod 600 it`]);
  });

  it('an exec plugin that is not installed: its name and the installHint', async () => {
    await expect(resolve({ kubeconfig: join(KC, 'gke-gcloud.yaml'), 'no-cache': true }, { PATH: '/nonexistent' })).rejects.toThrow(
      /^exec credential plugin "gke-gcloud-auth-plugin" not found \(not in PATH of the monitoring user\); Install gke-gcloud-auth-plugin for use with kubectl by following https:/,
    );
  });

  it('in a pod: the service host, CA and token of the service account', async () => {
    const sa = tmp();
    writeFileSync(join(sa, 'token'), TOKEN);
    chmodSync(join(sa, 'token'), 0o600);
    writeFileSync(join(sa, 'ca.crt'), readFileSync(join(TLS, 'cluster-ca.pem')));
    const { target } = await resolve({}, { KUBERNETES_SERVICE_HOST: '172.30.0.1', KUBERNETES_SERVICE_PORT: '443' }, sa);
    expect(target.url.href).toBe('https://172.30.0.1/');
    expect(target.token).toBe(TOKEN);
    expect(target.tls).toMatchObject({ ca: expect.stringContaining('BEGIN CERTIFICATE'), caOnly: true });
    expect(target.tokenSource).toMatch(/service-account token/);
  });

  it.each([
    [{ url: 'https://a', hostname: 'b' }, /give either --url or -H\/--hostname, not both/],
    [{ port: 6443, token: 't0ken' }, /-p\/--port needs -H\/--hostname/],
    [{ url: 'https://a', token: 'x', 'token-file': '/t' }, /give either --token-file or --token/],
    [{ url: 'ftp://a', token: 't0ken' }, /expected an https:\/\/ URL/],
    [{ url: 'not a url', token: 't0ken' }, /invalid --url "not a url"/],
    [{ token: 't0ken' }, /no cluster given: use --url URL, -H HOST \[-p PORT\] or --kubeconfig/],
    [{ url: 'https://a' }, /no credentials given: use --token-file PATH, \$KUBE_TOKEN, --token, --client-cert with --client-key, or --kubeconfig/],
    [{ url: 'https://a', token: 'two words' }, /holds spaces or control characters/],
  ])('refuses %j', async (options, message) => {
    await expect(resolve(options)).rejects.toThrow(message);
  });
});

describe('readCluster', () => {
  const context = () => {
    const log: string[] = [];
    const phases: string[] = [];
    return { log, phases, ctx: { log: (_level: number, line: string) => void log.push(line), setPhase: (p: string) => void phases.push(p) } };
  };

  it('says where it goes (-vv) and what it reads from the origin, then reads', async () => {
    const { target } = await resolve({ url: 'https://api.prod.example.com:6443', 'token-file': tokenFile() });
    const { log, phases, ctx } = context();
    expect(await readCluster(target, ctx, 'listing nodes', async (t) => t.url.host)).toBe('api.prod.example.com:6443');
    expect(log).toEqual([describeTarget(target)]);
    expect(phases).toEqual(['listing nodes from https://api.prod.example.com:6443']);
  });

  it('a 401 is read again once with a renewed credential; without one, the 401 stands', async () => {
    const { target } = await resolve({ url: 'https://api.prod.example.com:6443', 'token-file': tokenFile() });
    const refused = new HttpStatusError('401 Unauthorized', 401);
    const renewed = { ...target, token: 'renewed' } as ClusterTarget;
    const tokens: string[] = [];
    const attempt = async (t: ClusterTarget) => {
      tokens.push(t.token ?? '');
      if (t.token !== 'renewed') throw refused;
      return 'read';
    };
    expect(await readCluster({ ...target, renew: async () => renewed }, context().ctx, 'reading', attempt)).toBe('read');
    expect(tokens).toEqual([TOKEN, 'renewed']);
    await expect(readCluster(target, context().ctx, 'reading', attempt)).rejects.toBe(refused);
  });
});

import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKubeconfigPath, kubeconfigPaths, loadKubeconfig } from '../../../lib/cluster/kubeconfig';
import { cpuNow } from '../../support/cpu-time';

const DIR = join(__dirname, '../../fixtures/cluster/kubeconfig');
const file = (name: string) => join(DIR, name);
const load = (name: string, contextName?: string) => loadKubeconfig([file(name)], { contextName });

function tmpFile(text: string, mode = 0o600): string {
  const f = join(mkdtempSync(join(tmpdir(), 'cc-kc-')), 'config');
  writeFileSync(f, text);
  chmodSync(f, mode);
  return f;
}

describe('loadKubeconfig: the shapes real tools write', () => {
  it.each([
    ['kind.yaml', 'kind-kind', 'https://127.0.0.1:39847', 'kind-kind', /^-----BEGIN RSA PRIVATE KEY-----\n/],
    ['k3s.yaml', 'default', 'https://127.0.0.1:6443', 'default', /BEGIN EC PRIVATE KEY/],
    ['kubeadm-admin.conf', 'kubernetes-admin@kubernetes', 'https://192.168.56.10:6443', 'kubernetes-admin', /BEGIN RSA PRIVATE KEY/],
  ])('%s: client certificate data and the cluster CA', async (name, context, server, user, key) => {
    const kc = await load(name);
    expect(kc.context).toBe(context);
    expect(kc.cluster.server).toBe(server);
    expect(kc.cluster.caPem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(kc.user.name).toBe(user);
    expect(kc.user.certPem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(kc.user.keyPem).toMatch(key);
    expect(kc.user.token).toBeUndefined();
    expect(kc.user.exec).toBeUndefined();
  });

  it('oc login: server, sha256~ token and CA data of the current context', async () => {
    const kc = await load('oc-login.yaml');
    expect(kc.cluster).toMatchObject({ server: 'https://api.prod-eu1.example.com:6443', insecure: false });
    expect(kc.context).toBe('openshift-infra/api-prod-eu1-example-com:6443/system:serviceaccount:openshift-infra:monitoring');
    expect(kc.user.token).toMatch(/^eyJhbGciOiJSUzI1NiIs/);
    expect(kc.cluster.caPem).toContain('-----BEGIN CERTIFICATE-----');
  });

  it('aws eks update-kubeconfig: the exec plugin, v1beta1, interactiveMode as written', async () => {
    const kc = await load('eks-exec.yaml');
    expect(kc.user.exec).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      command: 'aws',
      args: ['--region', 'eu-west-1', 'eks', 'get-token', '--cluster-name', 'prod', '--output', 'json'],
      env: [],
      installHint: undefined,
      provideClusterInfo: false,
      interactiveMode: 'IfAvailable',
    });
    expect(kc.cluster.server).toBe('https://0D3A5C1F8E2B4A7C9D6E1F2A3B4C5D6E.gr7.eu-west-1.eks.amazonaws.com');
  });

  it('gcloud get-credentials: gke-gcloud-auth-plugin with installHint and provideClusterInfo', async () => {
    const kc = await load('gke-gcloud.yaml');
    expect(kc.user.exec).toMatchObject({ command: 'gke-gcloud-auth-plugin', args: [], provideClusterInfo: true, interactiveMode: 'IfAvailable' });
    expect(kc.user.exec?.installHint).toMatch(/^Install gke-gcloud-auth-plugin for use with kubectl by following https:\/\/cloud\.google\.com/);
  });

  it('az aks get-credentials: client certificate and token; or the kubelogin exec plugin', async () => {
    const local = await load('aks-client-cert.yaml');
    expect(local.cluster.server).toBe('https://prod-aks-dns-5f3c2a1b.hcp.westeurope.azmk8s.io:443');
    expect(local.user.certPem).toContain('BEGIN CERTIFICATE');
    expect(local.user.token).toMatch(/^3f9c2b7e/);
    const aad = await load('aks-kubelogin.yaml');
    expect(aad.user.exec).toMatchObject({ command: 'kubelogin', provideClusterInfo: false });
    expect(aad.user.exec?.args.slice(0, 3)).toEqual(['get-token', '--environment', 'AzurePublicCloud']);
    expect(aad.user.exec?.installHint).toMatch(/kubelogin is not installed which is required to connect to AAD enabled cluster/);
  });

  it('the removed gcp auth-provider: one error saying what to use instead', async () => {
    await expect(load('gke-auth-provider.yaml')).rejects.toThrow(
      /uses auth-provider "gcp", which kubectl removed and cluster checks do not support; use the gke-gcloud-auth-plugin exec plugin/,
    );
  });

  it("resolves certificate-authority and tokenFile against the kubeconfig's folder; reads comments, quotes and flow mappings", async () => {
    const kc = await load('hand-written.yaml');
    expect(kc.cluster).toMatchObject({ server: 'https://ocp.prod.example.com:8443', caFile: join(DIR, 'ca/prod-ca.pem') });
    expect(kc.user).toMatchObject({ tokenFile: join(DIR, 'secrets/monitoring.token') });
    expect((await load('hand-written.yaml', 'lab')).cluster).toMatchObject({ server: 'https://api.lab.example.com:6443', insecure: true });
  });

  it('reads JSON kubeconfigs', async () => {
    const kc = await load('kubeconfig.json');
    expect(kc.cluster.insecure).toBe(true);
    expect(kc.user.token).toBe('sha256~SlNPTi1rdWJlY29uZmlnLXRva2VuLWZpeHR1cmU');
  });
});

describe('loadKubeconfig: KUBECONFIG lists merged as kubectl merges them', () => {
  const both = [file('merge-team.yaml'), file('merge-monitoring.yaml')];

  it('current-context from the first file that sets one; the first file to name a cluster or user wins', async () => {
    const kc = await loadKubeconfig(both, { explicit: false });
    expect(kc.context).toBe('team/api-prod-eu1:6443/alice');
    expect(kc.user.token).toBe('sha256~QWxpY2UtZmlyc3QtZmlsZS10b2tlbi1maXh0dXJl');
    expect(kc.files).toEqual(both);
  });

  it('--context picks a context of the second file; its cluster comes from the first file', async () => {
    const kc = await loadKubeconfig(both, { contextName: 'monitoring', explicit: false });
    expect(kc.file).toBe(file('merge-monitoring.yaml'));
    expect(kc.cluster).toMatchObject({ server: 'https://api.prod-eu1.example.com:6443', insecure: false, caFile: join(DIR, 'ca/prod-ca.pem') });
    expect(kc.user.tokenFile).toBe(join(DIR, 'secrets/monitoring.token'));
  });

  it('tls-server-name and proxy-url of a cluster', async () => {
    const kc = await loadKubeconfig(both, { contextName: 'lab', explicit: false });
    expect(kc.cluster).toMatchObject({
      server: 'https://api.lab.example.com:6443',
      tlsServerName: 'api.lab.internal',
      proxyUrl: 'http://proxy.lab.example.com:3128',
    });
  });

  it('skips missing files of the list, as kubectl does, but not an explicit --kubeconfig', async () => {
    const kc = await loadKubeconfig(['/nonexistent/a', file('kind.yaml')], { explicit: false });
    expect(kc.context).toBe('kind-kind');
    await expect(loadKubeconfig(['/nonexistent/a', '/nonexistent/b'], { explicit: false })).rejects.toThrow(
      /none of the kubeconfig files in \$KUBECONFIG exists/,
    );
    await expect(loadKubeconfig(['/nonexistent/kubeconfig'])).rejects.toThrow(
      /^cannot read kubeconfig \/nonexistent\/kubeconfig \(ENOENT\); check the path given to --kubeconfig/,
    );
  });

  it('an unknown --context names the ones there are', async () => {
    await expect(loadKubeconfig(both, { contextName: 'nope', explicit: false })).rejects.toThrow(
      /has no context named "nope" \(it has team\/api-prod-eu1:6443\/alice, monitoring, lab\); check --context/,
    );
  });

  it('kubeconfigPaths: --kubeconfig PATH alone, else every $KUBECONFIG entry, else ~/.kube/config', () => {
    expect(kubeconfigPaths('/etc/kc', { KUBECONFIG: '/a:/b' })).toEqual({ paths: ['/etc/kc'], explicit: true });
    expect(kubeconfigPaths(undefined, { KUBECONFIG: '/a/one::/b/two:/a/one' })).toEqual({ paths: ['/a/one', '/b/two'], explicit: false });
    expect(kubeconfigPaths(undefined, { HOME: '/home/nagios' })).toEqual({ paths: ['/home/nagios/.kube/config'], explicit: true });
    expect(defaultKubeconfigPath({ KUBECONFIG: '/a/one:/b/two', HOME: '/home/n' })).toBe('/a/one');
  });
});

describe('loadKubeconfig: what it refuses, each with one clear reason', () => {
  const base = (user: string, cluster = 'server: https://api.x:6443') =>
    `apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster:\n    ${cluster}\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\nusers:\n- name: u\n  user:\n${user}\n`;

  it.each([
    [
      'the azure auth-provider',
      '    auth-provider: {name: azure, config: {}}',
      /auth-provider "azure".*use the kubelogin exec plugin \(kubelogin convert-kubeconfig -l azurecli\)/,
    ],
    ['the oidc auth-provider', '    auth-provider:\n      name: oidc', /auth-provider "oidc".*use an exec plugin such as kubelogin/],
    [
      'basic authentication',
      '    username: admin\n    password: hunter2',
      /user name and password \(basic authentication, removed from Kubernetes\); give a service-account token with --token-file/,
    ],
    ['impersonation', '    token: abcdefgh\n    as: system:admin', /impersonates another account \(as\)/],
    [
      'exec v1alpha1',
      '    exec:\n      apiVersion: client.authentication.k8s.io/v1alpha1\n      command: aws',
      /apiVersion client\.authentication\.k8s\.io\/v1alpha1 is not supported; use client\.authentication\.k8s\.io\/v1 or v1beta1/,
    ],
    [
      'exec v1 without interactiveMode',
      '    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: x',
      /interactiveMode is required with client\.authentication\.k8s\.io\/v1; set it to Never/,
    ],
    ['a certificate without its key', '    client-certificate: /etc/kc/cert.pem', /has a client certificate but no key/],
    [
      'key data that is not PEM',
      '    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n    client-key-data: bm90IGEga2V5',
      /client-key-data is not base64 of a PEM block/,
    ],
  ])('%s', async (_, user, message) => {
    await expect(loadKubeconfig([tmpFile(base(user))])).rejects.toThrow(message);
  });

  it('resolves relative client-certificate, client-key and exec command paths against the file', async () => {
    const f = tmpFile(base('    client-certificate: pki/monitoring.crt\n    client-key: pki/monitoring.key'));
    const kc = await loadKubeconfig([f]);
    expect(kc.user.certFile).toBe(join(f, '..', 'pki/monitoring.crt'));
    expect(kc.user.keyFile).toBe(join(f, '..', 'pki/monitoring.key'));
    const e = await loadKubeconfig([
      tmpFile(
        base(
          '    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ./bin/get-token\n      interactiveMode: Never\n      env:\n      - name: AWS_PROFILE\n        value: monitoring',
        ),
      ),
    ]);
    expect(e.user.exec?.command).toMatch(/\/bin\/get-token$/);
    expect(e.user.exec?.command.startsWith('/')).toBe(true);
    expect(e.user.exec?.env).toEqual([{ name: 'AWS_PROFILE', value: 'monitoring' }]);
  });

  it('not YAML, YAML that is no mapping, an alias bomb, a missing cluster or server', async () => {
    await expect(loadKubeconfig([join(__dirname, '../../fixtures/cluster/console-login.html')])).rejects.toThrow(
      /is not valid YAML|holds no configuration mapping/,
    );
    await expect(loadKubeconfig([tmpFile('- a\n- b\n')])).rejects.toThrow(/holds no configuration mapping/);
    await expect(loadKubeconfig([tmpFile('apiVersion: v1\nclusters:\n\t- name: x\n')])).rejects.toThrow(
      /is not valid YAML \(Tabs are not allowed as indentation at line 3, column 1\); check the file/,
    );
    // The parser's quote of the offending line stays out of the message: it may hold a token.
    const quoted = loadKubeconfig([tmpFile('users:\n- name: u\n  user:\n    token: sha256~c2VjcmV0LXRva2Vu: x\n')]);
    await expect(quoted).rejects.toThrow(/is not valid YAML \(.* at line 4, column \d+\); check the file/);
    await expect(quoted).rejects.not.toThrow(/c2VjcmV0LXRva2Vu/);
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    await expect(loadKubeconfig([tmpFile(bomb)])).rejects.toThrow(/is not valid YAML/);
    await expect(loadKubeconfig([tmpFile(base('    token: abcdefgh', 'insecure-skip-tls-verify: true'))])).rejects.toThrow(
      /cluster "k" has no server; check the file/,
    );
    await expect(loadKubeconfig([tmpFile('current-context: c\ncontexts:\n- name: c\n  context: {cluster: gone, user: u}\n')])).rejects.toThrow(
      /names cluster "gone", which .* does not define/,
    );
    await expect(loadKubeconfig([tmpFile('apiVersion: v1\nclusters: []\n')])).rejects.toThrow(/has no current-context; give --context NAME/);
  });

  it('a file far beyond any kubeconfig is refused while it is read, not after seconds and gigabytes', async () => {
    const fix = 'far more than any kubeconfig; check the file';
    const keys = Array.from({ length: 40_000 }, (_, i) => `k${i}: v`).join('\n');
    const started = cpuNow();
    // 40,000 keys once took 11 s; 2 million nested [ 16 s and 2.2 GB.
    await expect(loadKubeconfig([tmpFile(`apiVersion: v1\n${keys}\n`)])).rejects.toThrow(`holds more than 150000 YAML tokens, ${fix}`);
    await expect(loadKubeconfig([tmpFile(`clusters: ${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}\n`)])).rejects.toThrow(
      `nests collections more than 100 deep, ${fix}`,
    );
    await expect(loadKubeconfig([tmpFile(`{"clusters": ${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}}`)])).rejects.toThrow(
      `nests collections more than 100 deep, ${fix}`,
    );
    expect(cpuNow() - started).toBeLessThan(3000);
    const aliases = `a: &a x\nclusters: [${Array(101).fill('*a').join(', ')}]\n`;
    await expect(loadKubeconfig([tmpFile(aliases)])).rejects.toThrow(`holds more than 100 aliases, ${fix}`);
  });

  it('names a file that holds an inline secret and that others may read', async () => {
    const loose = await loadKubeconfig([tmpFile(base('    token: abcdefgh'), 0o644)]);
    expect(loose.looseFiles).toHaveLength(1);
    const execOnly = await loadKubeconfig([tmpFile(base('    tokenFile: /etc/t'), 0o644)]);
    expect(execOnly.looseFiles).toEqual([]);
  });

  it('refuses a file others may write: they would choose the server and the exec command', async () => {
    for (const mode of [0o666, 0o620, 0o602]) {
      const file = tmpFile(base('    tokenFile: /etc/t'), mode);
      await expect(loadKubeconfig([file])).rejects.toThrow(
        `kubeconfig ${file} is writable by others (mode 0${mode.toString(8)}), so anyone could make it run a command as this user (exec) or send the credentials elsewhere (server); chmod go-w ${file}`,
      );
    }
  });
});

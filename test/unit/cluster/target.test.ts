import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterTargetFrom, readTokenFile, urlFromHost } from '../../../lib/cluster/target';
import type { ParsedOptions } from '../../../lib/plugin/options';

const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6Im1vbml0b3JpbmcifQ.payload.signature';
const KC = join(__dirname, '../../fixtures/cluster/kubeconfig');

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'cc-target-'));
}

function tokenFile(text = `${TOKEN}\n`, mode = 0o600): string {
  const f = join(tmp(), 'token');
  writeFileSync(f, text);
  chmodSync(f, mode);
  return f;
}

async function resolve(options: ParsedOptions, env: NodeJS.ProcessEnv = {}, saDir = '/nonexistent') {
  const secrets: string[] = [];
  const warnings: string[] = [];
  const target = await clusterTargetFrom(options, { addSecret: (s) => s && secrets.push(s) }, warnings, env, saDir);
  return { target, secrets, warnings };
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

  it('refuses a URL or a bad port', () => {
    expect(() => urlFromHost('https://api.x')).toThrow(/give a host name \(or use --url/);
    expect(() => urlFromHost('api.x', 70000)).toThrow(/invalid -p\/--port 70000/);
  });
});

describe('readTokenFile', () => {
  it('strips the trailing newline', () => {
    expect(readTokenFile(tokenFile(), '--token-file', [])).toBe(TOKEN);
    expect(readTokenFile(tokenFile(`${TOKEN}\r\n\n`), '--token-file', [])).toBe(TOKEN);
  });

  it('refuses a missing, unreadable or empty file with the path and a fix', () => {
    expect(() => readTokenFile('/nonexistent/token', '--token-file', [])).toThrow('cannot read --token-file /nonexistent/token (ENOENT); check the path and that the monitoring user may read it');
    expect(() => readTokenFile(tmp(), '--token-file', [])).toThrow(/cannot read --token-file .* \(EISDIR\)/);
    expect(() => readTokenFile(tokenFile('\n'), '--token-file', [])).toThrow(/--token-file .* is empty; put the service account's token in it/);
  });

  it('warns when others may read the file', () => {
    const warnings: string[] = [];
    const f = tokenFile(TOKEN, 0o644);
    readTokenFile(f, '--token-file', warnings);
    expect(warnings).toEqual([`--token-file ${f} is readable by others (mode 0644); chmod 600 it`]);
    const quiet: string[] = [];
    readTokenFile(tokenFile(TOKEN, 0o600), '--token-file', quiet);
    expect(quiet).toEqual([]);
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
    expect(target.tls.ca).toContain('BEGIN CERTIFICATE');
    expect(target.tokenSource).toMatch(/^the token of context "openshift-infra\/.*" in .*oc-login.yaml$/);
    expect(secrets).toContain(target.token);
    expect((await resolve({ kubeconfig: join(KC, 'oc-login.yaml'), insecure: true })).target.tls).toEqual({ insecure: true });
    expect((await resolve({ kubeconfig: join(KC, 'kubeconfig.json') })).target.tls).toEqual({ insecure: true });
    const viaUrl = await resolve({ kubeconfig: join(KC, 'kubeconfig.json'), url: 'https://other:6443' });
    expect(viaUrl.target.url.host).toBe('other:6443');
  });

  it('reads tokenFile and certificate-authority of a kubeconfig relative to it', async () => {
    const { target } = await resolve({ kubeconfig: join(KC, 'hand-written.yaml') });
    expect(target.url.href).toBe('https://ocp.prod.example.com:8443/');
    expect(target.token).toMatch(/^eyJhbGciOiJSUzI1NiJ9\./);
    expect(target.tls.ca).toContain('BEGIN CERTIFICATE');
  });

  it('--kubeconfig without a path uses $KUBECONFIG', async () => {
    const { target } = await resolve({ kubeconfig: '' }, { KUBECONFIG: join(KC, 'kubeconfig.json') });
    expect(target.url.host).toBe('api.prod-eu1.example.com:6443');
  });

  it('explains a kubeconfig user it cannot use, unless a token is given otherwise', async () => {
    await expect(resolve({ kubeconfig: join(KC, 'eks-exec.yaml') })).rejects.toThrow(/authenticates with an exec credential plugin, which check_nodes cannot use; give a service-account token with --token-file/);
    const { target } = await resolve({ kubeconfig: join(KC, 'client-cert.yaml'), 'token-file': tokenFile() });
    expect(target.token).toBe(TOKEN);
  });

  it('in a pod: the service host, CA and token of the service account', async () => {
    const sa = tmp();
    writeFileSync(join(sa, 'token'), TOKEN);
    chmodSync(join(sa, 'token'), 0o600);
    writeFileSync(join(sa, 'ca.crt'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const { target } = await resolve({}, { KUBERNETES_SERVICE_HOST: '172.30.0.1', KUBERNETES_SERVICE_PORT: '443' }, sa);
    expect(target.url.href).toBe('https://172.30.0.1/');
    expect(target.token).toBe(TOKEN);
    expect(target.tls.ca).toContain('BEGIN CERTIFICATE');
    expect(target.tokenSource).toMatch(/service-account token/);
  });

  it.each([
    [{ url: 'https://a', hostname: 'b' }, /give either --url or -H\/--hostname, not both/],
    [{ port: 6443, token: 't0ken' }, /-p\/--port needs -H\/--hostname/],
    [{ url: 'https://a', token: 'x', 'token-file': '/t' }, /give either --token-file or --token/],
    [{ url: 'ftp://a', token: 't0ken' }, /expected an https:\/\/ URL/],
    [{ url: 'not a url', token: 't0ken' }, /invalid --url "not a url"/],
    [{ token: 't0ken' }, /no cluster given: use --url URL, -H HOST \[-p PORT\] or --kubeconfig/],
    [{ url: 'https://a' }, /no token given: use --token-file PATH, \$KUBE_TOKEN, --token or --kubeconfig/],
    [{ url: 'https://a', token: 'two words' }, /holds spaces or control characters/],
  ])('refuses %j', async (options, message) => {
    await expect(resolve(options as ParsedOptions)).rejects.toThrow(message);
  });
});

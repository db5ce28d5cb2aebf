import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execInfo, firstLine, parseExecCredential, runExecPlugin } from '../../../lib/cluster/exec-credential';
import { CredentialCache, execBinding, execCredentialFor } from '../../../lib/cluster/exec-credential-cache';
import { entryName } from '../../../lib/plugin/private-cache';
import type { ExecConfig, KubeconfigCluster, KubeconfigContext } from '../../../lib/cluster/kubeconfig';

const FIX = join(__dirname, '../../fixtures/cluster/exec-credential');
const V1BETA1 = 'client.authentication.k8s.io/v1beta1' as const;
const CLUSTER: KubeconfigCluster = { name: 'prod', server: 'https://api.prod.example.com:6443', insecure: false, caPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' };

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'cc-exec-'));
}

/** A plugin: a node script that runs `body` (it may use `count()`, `info` and `print(token, expires)`). */
function plugin(body: string): { command: string; runs: () => number } {
  const dir = tmp();
  const command = join(dir, 'get-token');
  const counter = join(dir, 'runs');
  writeFileSync(
    command,
    `#!${process.execPath}
const fs = require('fs');
fs.appendFileSync(${JSON.stringify(counter)}, 'x');
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO || '{}');
const print = (token, expires) => process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token, expirationTimestamp: expires } }));
${body}
`,
  );
  chmodSync(command, 0o755);
  return { command, runs: () => (existsSync(counter) ? readFileSync(counter, 'utf8').length : 0) };
}

function exec(command: string, extra: Partial<ExecConfig> = {}): ExecConfig {
  return { apiVersion: V1BETA1, command, args: [], env: [], provideClusterInfo: false, interactiveMode: 'IfAvailable', ...extra };
}

const soon = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('parseExecCredential: what real plugins print', () => {
  it.each([
    ['aws-eks-get-token.json', /^k8s-aws-v1\./, '2026-11-23T11:14:00Z'],
    ['gke-gcloud-auth-plugin.json', /^ya29\./, '2026-11-23T11:58:41Z'],
    ['kubelogin-get-token.json', /^eyJ0eXAi/, '2026-11-23T12:02:17Z'],
  ])('%s: the token and its expiry', (name, token, expiry) => {
    const cred = parseExecCredential(readFileSync(join(FIX, name), 'utf8'), exec('x'));
    expect(cred.token).toMatch(token);
    expect(cred.expires).toBe(Date.parse(expiry));
    expect(cred.cert).toBeUndefined();
  });

  it('a client certificate pair (v1)', () => {
    const cred = parseExecCredential(readFileSync(join(FIX, 'client-certificate-v1.json'), 'utf8'), exec('x', { apiVersion: 'client.authentication.k8s.io/v1' }));
    expect(cred.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(cred.key).toMatch(/^-----BEGIN EC PRIVATE KEY-----/);
    expect(cred.token).toBeUndefined();
  });

  it.each([
    ['not JSON', 'Unable to locate credentials', /did not print an ExecCredential \(its output is not JSON\)/],
    ['another kind', '{"kind":"Status"}', /printed JSON that is not an ExecCredential/],
    ['another apiVersion', '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{"token":"t"}}', /answered with apiVersion client\.authentication\.k8s\.io\/v1 where the kubeconfig asks for client\.authentication\.k8s\.io\/v1beta1/],
    ['no status', `{"kind":"ExecCredential","apiVersion":"${V1BETA1}"}`, /without status/],
    ['neither token nor certificate', `{"kind":"ExecCredential","apiVersion":"${V1BETA1}","status":{}}`, /neither a token nor a client certificate/],
    ['a key without certificate', `{"kind":"ExecCredential","apiVersion":"${V1BETA1}","status":{"clientKeyData":"k"}}`, /a client key without its certificate/],
    ['a bad expiry', `{"kind":"ExecCredential","apiVersion":"${V1BETA1}","status":{"token":"t","expirationTimestamp":"tomorrow"}}`, /expirationTimestamp that is not a time \("tomorrow"\)/],
  ])('refuses %s, naming the plugin', (_, text, message) => {
    expect(() => parseExecCredential(text, exec('aws'))).toThrow(message);
    expect(() => parseExecCredential(text, exec('aws'))).toThrow(/^exec credential plugin "aws" /);
  });
});

describe('execInfo: KUBERNETES_EXEC_INFO', () => {
  it('never interactive; the cluster only with provideClusterInfo', () => {
    expect(JSON.parse(execInfo(exec('x'), CLUSTER))).toEqual({ apiVersion: V1BETA1, kind: 'ExecCredential', spec: { interactive: false } });
    const withCluster = JSON.parse(execInfo(exec('x', { provideClusterInfo: true }), { ...CLUSTER, tlsServerName: 'api.internal' }));
    expect(withCluster.spec.cluster).toEqual({ server: CLUSTER.server, 'tls-server-name': 'api.internal', 'certificate-authority-data': Buffer.from(CLUSTER.caPem!).toString('base64') });
  });

  it('firstLine strips control characters and cuts long lines', () => {
    expect(firstLine('\n  \u001b[31merror\u001b[0m: expired\nsecond')).toBe('[31merror [0m: expired');
    expect(firstLine('x'.repeat(300))).toHaveLength(201);
  });
});

describe('runExecPlugin: no shell, no terminal, bounded', () => {
  it('passes args, env and KUBERNETES_EXEC_INFO; stdin is closed', async () => {
    const p = plugin(`
      let stdin = 'open';
      try { fs.readSync(0, Buffer.alloc(1)); } catch (e) { stdin = e.code; }
      print([process.argv[2], process.env.AWS_PROFILE, info.spec.interactive, fs.fstatSync(0).isFile() ? 'file' : 'other'].join('.'), undefined);`);
    const cred = await runExecPlugin({ exec: exec(p.command, { args: ['a;b $(x)'], env: [{ name: 'AWS_PROFILE', value: 'monitoring' }] }), cluster: CLUSTER, deadline: Date.now() + 5000 });
    expect(cred.token).toBe('a;b $(x).monitoring.false.other');
    expect(cred.expires).toBeUndefined();
  });

  it('a failing plugin: one error with the command and the first stderr line', async () => {
    const p = plugin(`process.stderr.write('\\nAn error occurred (ExpiredToken) when calling the AssumeRole operation\\nsecond line\\n'); process.exit(255);`);
    await expect(runExecPlugin({ exec: exec(p.command), cluster: CLUSTER, deadline: Date.now() + 5000 })).rejects.toThrow(
      `exec credential plugin "${p.command}" failed (exit 255): An error occurred (ExpiredToken) when calling the AssumeRole operation; run it by hand as the monitoring user to see why`,
    );
  });

  it('a missing command: its name and the installHint, or how to fix the path', async () => {
    await expect(runExecPlugin({ exec: exec('kubelogin', { installHint: '\nkubelogin is not installed which is required to connect to AAD enabled cluster.\n' }), cluster: CLUSTER, deadline: Date.now() + 5000, env: { PATH: '/nonexistent' } })).rejects.toThrow(
      'exec credential plugin "kubelogin" not found (not in PATH of the monitoring user); kubelogin is not installed which is required to connect to AAD enabled cluster.',
    );
    await expect(runExecPlugin({ exec: exec('/nonexistent/aws'), cluster: CLUSTER, deadline: Date.now() + 5000 })).rejects.toThrow(/"\/nonexistent\/aws" not found .*; install it, or give its full path/);
  });

  it('interactiveMode Always is refused without running anything', async () => {
    const p = plugin('print("t")');
    await expect(runExecPlugin({ exec: exec(p.command, { interactiveMode: 'Always' }), cluster: CLUSTER, deadline: Date.now() + 5000 })).rejects.toThrow(/asks for interactiveMode Always, and a check cannot answer prompts/);
    expect(p.runs()).toBe(0);
  });

  it('a plugin that hangs is killed with its children at the deadline', async () => {
    const dir = tmp();
    const p = plugin(`
      const child = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      fs.writeFileSync(${JSON.stringify(join(dir, 'child.pid'))}, String(child.pid));
      setTimeout(() => {}, 60000);`);
    const started = Date.now();
    await expect(runExecPlugin({ exec: exec(p.command), cluster: CLUSTER, deadline: Date.now() + 800 })).rejects.toThrow(/did not answer before the timeout; raise -t\/--timeout/);
    expect(Date.now() - started).toBeLessThan(3000);
    const pid = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
    await new Promise((r) => setTimeout(r, 200));
    // The grandchild is gone too (or a zombie left for init to reap).
    const state = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] : 'gone';
    expect(['gone', 'Z', 'X']).toContain(state);
  });

  it('an abort (the check timed out) kills it at once', async () => {
    const p = plugin('setTimeout(() => {}, 60000);');
    const controller = new AbortController();
    const pending = runExecPlugin({ exec: exec(p.command), cluster: CLUSTER, deadline: Date.now() + 30000, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(/did not answer before the timeout/);
  });

  it('refuses output over 1 MiB', async () => {
    const p = plugin(`process.stdout.write('x'.repeat(2 * 1024 * 1024));`);
    await expect(runExecPlugin({ exec: exec(p.command), cluster: CLUSTER, deadline: Date.now() + 5000 })).rejects.toThrow(/wrote more than 1048576 bytes/);
  });
});

describe('execCredentialFor: the credential kept until it expires', () => {
  const kc = (command: string): KubeconfigContext => ({ files: ['/k'], file: '/k', context: 'c', cluster: CLUSTER, user: { name: 'monitoring', exec: exec(command) }, looseFiles: [] });
  const options = (cacheDir: string | undefined, secrets: string[] = [], notes: string[] = []) => ({ cacheDir, deadline: Date.now() + 5000, addSecret: (s: string | undefined) => void (s && secrets.push(s)), notes });

  it('three checks, one run; the token is a secret each time; the file is 0600 in a 0700 folder', async () => {
    const p = plugin(`print('tok-' + Date.now(), ${JSON.stringify(soon(3600_000))});`);
    const dir = join(tmp(), 'cache');
    const secrets: string[] = [];
    const tokens: Array<string | undefined> = [];
    for (let i = 0; i < 3; i++) tokens.push((await execCredentialFor(kc(p.command), options(dir, secrets))).credential.token);
    expect(p.runs()).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(secrets.filter((s) => s === tokens[0]).length).toBeGreaterThanOrEqual(3);
    const file = join(dir, entryName('kube-exec', execBinding(kc(p.command))));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('an expired credential, or one within a minute of expiry, runs the plugin again', async () => {
    const p = plugin(`print('tok', ${JSON.stringify(soon(30_000))});`);
    const dir = tmp();
    await execCredentialFor(kc(p.command), options(dir));
    await execCredentialFor(kc(p.command), options(dir));
    expect(p.runs()).toBe(2);
  });

  it('a credential without expirationTimestamp is not kept (and -v says so)', async () => {
    const p = plugin(`print('tok');`);
    const dir = tmp();
    const notes: string[] = [];
    await execCredentialFor(kc(p.command), options(dir, [], notes));
    await execCredentialFor(kc(p.command), options(dir));
    expect(p.runs()).toBe(2);
    expect(notes).toEqual(['the exec plugin gave no expirationTimestamp: its credential is not kept, the plugin runs on every check']);
  });

  it('after a 401: a kept credential is dropped and the plugin runs once more; a fresh one is only dropped', async () => {
    const p = plugin(`print('tok-' + fs.readFileSync(${JSON.stringify('/dev/null')}, 'utf8') + Math.random(), ${JSON.stringify(soon(3600_000))});`);
    const dir = tmp();
    const fresh = await execCredentialFor(kc(p.command), options(dir));
    expect(await fresh.renew()).toBeUndefined();
    expect(p.runs()).toBe(1);
    const first = await execCredentialFor(kc(p.command), options(dir)); // dropped above: runs again
    expect(p.runs()).toBe(2);
    const kept = await execCredentialFor(kc(p.command), options(dir));
    expect(kept.credential.token).toBe(first.credential.token);
    const renewed = await kept.renew();
    expect(renewed?.token).not.toBe(first.credential.token);
    expect(p.runs()).toBe(3);
    expect((await execCredentialFor(kc(p.command), options(dir))).credential.token).toBe(renewed?.token);
  });

  it('concurrent checks with nothing kept run the plugin once', async () => {
    const p = plugin(`setTimeout(() => print('tok', ${JSON.stringify(soon(3600_000))}), 300);`);
    const dir = tmp();
    const all = await Promise.all(Array.from({ length: 4 }, () => execCredentialFor(kc(p.command), options(dir))));
    expect(all.map((a) => a.credential.token)).toEqual(['tok', 'tok', 'tok', 'tok']);
    expect(p.runs()).toBe(1);
  });

  it('--no-cache runs the plugin every time', async () => {
    const p = plugin(`print('tok', ${JSON.stringify(soon(3600_000))});`);
    await execCredentialFor(kc(p.command), options(undefined));
    await execCredentialFor(kc(p.command), options(undefined));
    expect(p.runs()).toBe(2);
  });

  it('ignores a kept file that others may write; the entry is bound to its user, cluster and server', () => {
    const dir = join(tmp(), 'cache');
    const cache = new CredentialCache(dir, execBinding(kc('aws')), 5000);
    cache.write({ token: 'tok', expires: Date.now() + 3600_000 });
    expect(cache.read()?.token).toBe('tok');
    chmodSync(cache.file, 0o666);
    expect(cache.read()).toBeUndefined();
    expect(cache.notes[0]).toMatch(/writable by others \(mode 0666\)/);
    const base = kc('aws');
    const key = (k: KubeconfigContext) => entryName('kube-exec', execBinding(k));
    expect(key(base)).not.toBe(key({ ...base, user: { ...base.user, name: 'other' } }));
    expect(key(base)).not.toBe(key({ ...base, cluster: { ...CLUSTER, server: 'https://other:6443' } }));
    expect(JSON.stringify(execBinding({ ...base, user: { ...base.user, exec: exec('aws', { env: [{ name: 'AWS_SECRET_ACCESS_KEY', value: 'wJalrXUtnFEMI/K7MDENG' }] }) } }))).not.toContain('wJalrXUtnFEMI');
    // An entry renamed to another user's name is worthless.
    const other = new CredentialCache(dir, execBinding({ ...base, user: { ...base.user, name: 'other' } }), 5000);
    chmodSync(cache.file, 0o600);
    renameSync(cache.file, other.file);
    expect(other.read()).toBeUndefined();
  });
});

import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execInfo, firstLine, parseExecCredential, runExecPlugin, stderrExcerpt, STDERR_CHARS } from '../../../lib/cluster/exec-credential';
import { runRedactor } from '../../../lib/plugin/redact';
import { CredentialCache, execBinding, execCredentialFor } from '../../../lib/cluster/exec-credential-cache';
import { entryName } from '../../../lib/plugin/private-cache';
import type { ExecConfig, KubeconfigCluster, KubeconfigContext } from '../../../lib/cluster/kubeconfig';
import { Notes } from '../../../lib/plugin/notes';

const FIX = join(__dirname, '../../fixtures/cluster/exec-credential');
const V1BETA1 = 'client.authentication.k8s.io/v1beta1' as const;
const CLUSTER: KubeconfigCluster = {
  name: 'prod',
  server: 'https://api.prod.example.com:6443',
  insecure: false,
  caPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
};

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
    const cred = parseExecCredential(
      readFileSync(join(FIX, 'client-certificate-v1.json'), 'utf8'),
      exec('x', { apiVersion: 'client.authentication.k8s.io/v1' }),
    );
    expect(cred.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(cred.key).toMatch(/^-----BEGIN EC PRIVATE KEY-----/);
    expect(cred.token).toBeUndefined();
  });

  it.each([
    ['not JSON', 'Unable to locate credentials', /did not print an ExecCredential \(its output is not JSON\)/],
    ['another kind', '{"kind":"Status"}', /printed JSON that is not an ExecCredential/],
    [
      'another apiVersion',
      '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{"token":"t"}}',
      /answered with apiVersion client\.authentication\.k8s\.io\/v1 where the kubeconfig asks for client\.authentication\.k8s\.io\/v1beta1/,
    ],
    ['no status', `{"kind":"ExecCredential","apiVersion":"${V1BETA1}"}`, /without status/],
    ['neither token nor certificate', `{"kind":"ExecCredential","apiVersion":"${V1BETA1}","status":{}}`, /neither a token nor a client certificate/],
    ['a key without certificate', `{"kind":"ExecCredential","apiVersion":"${V1BETA1}","status":{"clientKeyData":"k"}}`, /a client key without its certificate/],
    [
      'a bad expiry',
      `{"kind":"ExecCredential","apiVersion":"${V1BETA1}","status":{"token":"t","expirationTimestamp":"tomorrow"}}`,
      /expirationTimestamp that is not a time \("tomorrow"\)/,
    ],
    [
      'a megabyte of nested arrays',
      `{"kind":${'['.repeat(500_000)}${']'.repeat(500_000)}}`,
      /printed more JSON objects and arrays than an ExecCredential holds; check the plugin/,
    ],
  ])('refuses %s, naming the plugin', (_, text, message) => {
    expect(() => parseExecCredential(text, exec('aws'))).toThrow(message);
    expect(() => parseExecCredential(text, exec('aws'))).toThrow(/^exec credential plugin "aws" /);
  });
});

describe('execInfo: KUBERNETES_EXEC_INFO', () => {
  it('never interactive; the cluster only with provideClusterInfo', () => {
    expect(JSON.parse(execInfo(exec('x'), CLUSTER))).toEqual({ apiVersion: V1BETA1, kind: 'ExecCredential', spec: { interactive: false } });
    const withCluster = JSON.parse(execInfo(exec('x', { provideClusterInfo: true }), { ...CLUSTER, tlsServerName: 'api.internal' }));
    expect(withCluster.spec.cluster).toEqual({
      server: CLUSTER.server,
      'tls-server-name': 'api.internal',
      'certificate-authority-data': Buffer.from(CLUSTER.caPem!).toString('base64'),
    });
  });

  it('firstLine strips control characters and cuts long lines', () => {
    expect(firstLine('\n  \u001b[31merror\u001b[0m: expired\nsecond')).toBe('[31merror [0m: expired');
    expect(firstLine('x'.repeat(300))).toBe(`${'x'.repeat(200)}… (100 more characters)`);
  });
});

describe('stderrExcerpt: what a failing plugin said, useful part first, redacted', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJodHRwczovL2lzc3VlciIsInN1YiI6Im1vbml0b3IifQ.' + 'c2ln'.repeat(40);

  it('drops klog headers, and klog info lines when it logged an error', () => {
    const gke = [
      'I1123 10:00:00.000001   12345 cred.go:98] loading configuration',
      'F1123 10:00:00.000000   12345 cred.go:145] print credential failed with error: Failed to retrieve access token:: failure while executing gcloud, with args [config config-helper --format=json]: exit status 1 (err: ERROR: (gcloud.config.config-helper) You do not currently have an active account selected.',
      'Please run:',
      '',
      '  $ gcloud auth login',
      '',
      'to obtain new credentials.',
      ')',
    ].join('\n');
    const out = stderrExcerpt(gke);
    expect(out).not.toMatch(/F1123|cred\.go|loading configuration/);
    expect(out).toMatch(/^print credential failed with error: /);
    expect(out).toContain('You do not currently have an active account selected. Please run: $ gcloud auth login to obtain new credentials.');
    expect(out.length).toBeLessThanOrEqual(STDERR_CHARS);
  });

  it('a JWT, a Bearer value and the configured secrets never come through', () => {
    runRedactor.add('kube-exec-secret-Sommer');
    const out = stderrExcerpt(
      `E1123 10:00:00.000000 1 get_token.go:7] token ${jwt} rejected; sent Authorization: Bearer abcdefgh12345678 with AZURE_SECRET=kube-exec-secret-Sommer`,
    );
    expect(out).toBe('token <redacted> rejected; sent Authorization: Bearer <redacted> with AZURE_SECRET=<redacted>');
  });

  it('a long message keeps its head and its tail (where the cause is), redacted before the cut', () => {
    const said = `error: getting credentials: ${'x'.repeat(2000)} ${jwt} (cause: refresh token expired, run kubelogin convert-kubeconfig)`;
    const out = stderrExcerpt(said);
    expect(out.length).toBeLessThanOrEqual(STDERR_CHARS);
    expect(out).toMatch(/^error: getting credentials: x+ … /);
    expect(out).toMatch(/<redacted> \(cause: refresh token expired, run kubelogin convert-kubeconfig\)$/);
    expect(out).not.toMatch(/eyJ|c2ln/);
  });
});

describe('runExecPlugin: no shell, no terminal, bounded', () => {
  it('passes args, env and KUBERNETES_EXEC_INFO; stdin is closed', async () => {
    const p = plugin(`
      let stdin = 'open';
      try { fs.readSync(0, Buffer.alloc(1)); } catch (e) { stdin = e.code; }
      print(encodeURIComponent([process.argv[2], process.env.AWS_PROFILE, info.spec.interactive, fs.fstatSync(0).isFile() ? 'file' : 'other'].join('.')), undefined);`);
    const cred = await runExecPlugin({
      exec: exec(p.command, { args: ['a;b $(x)'], env: [{ name: 'AWS_PROFILE', value: 'monitoring' }] }),
      cluster: CLUSTER,
      deadline: Date.now() + 5000,
    });
    expect(decodeURIComponent(cred.token!)).toBe('a;b $(x).monitoring.false.other');
    expect(cred.expires).toBeUndefined();
  });

  it('a failing plugin: one error with the command and what it said on stderr, lines joined', async () => {
    const p = plugin(`process.stderr.write('\\nAn error occurred (ExpiredToken) when calling the AssumeRole operation\\nsecond line\\n'); process.exit(255);`);
    await expect(runExecPlugin({ exec: exec(p.command), cluster: CLUSTER, deadline: Date.now() + 5000 })).rejects.toThrow(
      `exec credential plugin "${p.command}" failed (exit 255): An error occurred (ExpiredToken) when calling the AssumeRole operation second line; run it by hand as the monitoring user to see why`,
    );
  });

  it('a token that cannot be sent is refused, naming the plugin and not the token', async () => {
    for (const token of ['abc\ndef-secret', 'abc def-secret', 'abc\u0000def-secret', 'abc\u00e9def-secret']) {
      const p = plugin(`print(${JSON.stringify(token)}, ${JSON.stringify(soon(3600_000))});`);
      const error = await runExecPlugin({ exec: exec(p.command), cluster: CLUSTER, deadline: Date.now() + 5000 }).catch((e: Error) => e);
      expect(String(error)).toMatch(/returned a token that holds (spaces or control characters|characters other than ASCII)/);
      expect(String(error)).not.toContain('def-secret');
    }
  });

  it('a missing command: its name and the installHint, or how to fix the path', async () => {
    await expect(
      runExecPlugin({
        exec: exec('kubelogin', { installHint: '\nkubelogin is not installed which is required to connect to AAD enabled cluster.\n' }),
        cluster: CLUSTER,
        deadline: Date.now() + 5000,
        env: { PATH: '/nonexistent' },
      }),
    ).rejects.toThrow(
      'exec credential plugin "kubelogin" not found (not in PATH of the monitoring user); kubelogin is not installed which is required to connect to AAD enabled cluster.',
    );
    await expect(runExecPlugin({ exec: exec('/nonexistent/aws'), cluster: CLUSTER, deadline: Date.now() + 5000 })).rejects.toThrow(
      /"\/nonexistent\/aws" not found .*; install it, or give its full path/,
    );
  });

  it('interactiveMode Always is refused without running anything', async () => {
    const p = plugin('print("t")');
    await expect(runExecPlugin({ exec: exec(p.command, { interactiveMode: 'Always' }), cluster: CLUSTER, deadline: Date.now() + 5000 })).rejects.toThrow(
      /asks for interactiveMode Always, and a check cannot answer prompts/,
    );
    expect(p.runs()).toBe(0);
  });

  it('a plugin that hangs is killed with its children at the deadline', async () => {
    const dir = tmp();
    const p = plugin(`
      const child = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      fs.writeFileSync(${JSON.stringify(join(dir, 'child.pid'))}, String(child.pid));
      setTimeout(() => {}, 60000);`);
    const started = Date.now();
    // 2.5 s: long enough for the plugin to start its child on a busy CI host before it is killed.
    await expect(runExecPlugin({ exec: exec(p.command), cluster: CLUSTER, deadline: Date.now() + 2500 })).rejects.toThrow(
      /did not answer before the timeout; raise -t\/--timeout/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
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
  const kc = (command: string): KubeconfigContext => ({
    files: ['/k'],
    file: '/k',
    context: 'c',
    cluster: CLUSTER,
    user: { name: 'monitoring', exec: exec(command) },
    looseFiles: [],
  });
  const options = (cacheDir: string | undefined, secrets: string[] = [], notes = new Notes()) => ({
    cacheDir,
    deadline: Date.now() + 5000,
    addSecret: (s: string | undefined) => void (s && secrets.push(s)),
    notes,
  });

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
    const notes = new Notes();
    await execCredentialFor(kc(p.command), options(dir, [], notes));
    await execCredentialFor(kc(p.command), options(dir));
    expect(p.runs()).toBe(2);
    expect(notes.all).toEqual(['the exec plugin gave no expirationTimestamp: its credential is not kept, the plugin runs on every check']);
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

  it('a credential that cannot be sent is never kept: once the plugin is mended, the next check works', async () => {
    const dir = tmp();
    const flag = join(dir, 'broken');
    writeFileSync(flag, '');
    const p = plugin(`print(fs.existsSync(${JSON.stringify(flag)}) ? 'line\\nbreak-token' : 'good-token', ${JSON.stringify(soon(3600_000))});`);
    await expect(execCredentialFor(kc(p.command), options(join(dir, 'cache')))).rejects.toThrow(
      /returned a token that holds spaces or control characters; check the plugin \(nothing was kept\)/,
    );
    unlinkSync(flag);
    expect((await execCredentialFor(kc(p.command), options(join(dir, 'cache')))).credential.token).toBe('good-token');
    expect(p.runs()).toBe(2);
  });

  it('the cache refuses to keep, and ignores when found, a token or key pair that cannot be sent', () => {
    const dir = join(tmp(), 'cache');
    const cache = new CredentialCache(dir, execBinding(kc('aws')), 5000);
    const until = Date.now() + 3600_000;
    for (const cred of [{ token: 'a\nb' }, { token: 'a b' }, { cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', key: 'not a key' }]) {
      cache.write({ ...cred, expires: until });
      expect(existsSync(cache.file), JSON.stringify(cred)).toBe(false);
    }
    // One written by an older version, or by hand: not used, dropped, and said at -v.
    cache.write({ token: 'good', expires: until });
    const doc = JSON.parse(readFileSync(cache.file, 'utf8'));
    doc.data.token = 'line\nbreak';
    writeFileSync(cache.file, JSON.stringify(doc), { mode: 0o600 });
    expect(cache.read()).toBeUndefined();
    expect(existsSync(cache.file)).toBe(false);
    expect(cache.notes.join('\n')).toMatch(/kept credential cannot be sent/);
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
    expect(
      JSON.stringify(
        execBinding({ ...base, user: { ...base.user, exec: exec('aws', { env: [{ name: 'AWS_SECRET_ACCESS_KEY', value: 'wJalrXUtnFEMI/K7MDENG' }] }) } }),
      ),
    ).not.toContain('wJalrXUtnFEMI');
    // An entry renamed to another user's name is worthless.
    const other = new CredentialCache(dir, execBinding({ ...base, user: { ...base.user, name: 'other' } }), 5000);
    chmodSync(cache.file, 0o600);
    renameSync(cache.file, other.file);
    expect(other.read()).toBeUndefined();
  });
});

// docs/simulator.md "A CA of your own", run as written: OpenSSL makes a CA and a certificate
// for 127.0.0.1, the built simulator presents it (--tls-cert/--tls-key/--tls-ca), a plugin
// trusts it with the instance's ca.pem and refuses it, naming the issuer presented, with the
// CA of another instance: a wrong CA can be rehearsed. The doc's /tmp/own-ca is moved into
// the test's own directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedSteps, runDocumentedScript } from './support/documented-steps';
import { announceSkip, findExecutable } from './support/engines';
import { BuiltSimulator, DIST } from './support/simulator';

const openssl = findExecutable('openssl');
if (!openssl) announceSkip('openssl', 'openssl');

(openssl ? describe : describe.skip)('docs/simulator.md: a CA of your own', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-own-ca-'));
  const pki = join(root, 'own-ca');
  const builtIn = new BuiltSimulator([]);
  let own: BuiltSimulator;

  beforeAll(async () => {
    const run = runDocumentedScript(documentedSteps('docs/simulator.md', 'own-ca'), {
      cwd: root,
      dir: join(root, 'sandbox'),
      localize: (l) => l.replaceAll('/tmp/own-ca', pki),
    });
    expect(run.code, run.output).toBe(0);
    own = new BuiltSimulator(['--tls-cert', join(pki, 'server.pem'), '--tls-key', join(pki, 'server.key'), '--tls-ca', join(pki, 'ca.pem')]);
    await Promise.all([own.start(), builtIn.start()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([own?.stop(), builtIn.stop()]);
  });

  const checkNodes = (caFile: string) =>
    spawnSync(join(DIST, 'check_nodes'), ['--url', own.ready.apis.cluster.httpsUrl, '--token-file', own.ready.apis.cluster.tokenFile, '--ca-file', caFile], {
      encoding: 'utf8',
      timeout: 20_000,
    });

  it("serves the certificate of one's own CA, and writes that CA as the instance's ca.pem", () => {
    expect(readFileSync(own.ready.caFile, 'utf8')).toBe(readFileSync(join(pki, 'ca.pem'), 'utf8'));
    const r = checkNodes(own.ready.caFile);
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^NODES OK - /);
  });

  it("another instance's CA does not vouch for it: the plugin names the issuer presented", () => {
    const r = checkNodes(builtIn.ready.caFile);
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/^NODES UNKNOWN - TLS verification of 127\.0\.0\.1:\d+ failed: .*issuer CN=rehearsal CA/);
  });

  it('refuses half the options, or a key of another certificate, in one line', () => {
    const sim = join(DIST, 'cloudchecks-sim');
    const half = spawnSync(sim, ['--state-dir', join(root, 'half'), '--tls-cert', join(pki, 'server.pem')], { encoding: 'utf8', timeout: 20_000 });
    expect(half.status).not.toBe(0);
    expect(half.stderr).toBe('cloudchecks-sim: --tls-cert, --tls-key and --tls-ca go together: add --tls-key and --tls-ca\n');
    const args = ['--state-dir', join(root, 'wrong'), '--tls-cert', join(pki, 'server.pem'), '--tls-key', join(pki, 'ca.key'), '--tls-ca', join(pki, 'ca.pem')];
    const wrongKey = spawnSync(sim, args, { encoding: 'utf8', timeout: 20_000 });
    expect(wrongKey.status).not.toBe(0);
    expect(wrongKey.stderr).toMatch(
      /^cloudchecks-sim: the certificate and key cannot serve TLS \(.*key values mismatch\): give --tls-key the key of --tls-cert\n$/,
    );
    expect(execFileSync(sim, ['--help'], { encoding: 'utf8' })).toMatch(/--tls-cert FILE/);
  });
});

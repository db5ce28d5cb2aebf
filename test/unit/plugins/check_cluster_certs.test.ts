// check_cluster_certs' definition run in the test's process. Its read is the TLS handshake
// itself (the chain the server sends), so the server is a TLS listener on 127.0.0.1 with a
// chain made by openssl; with --skip-csrs no HTTP request is made at all.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { State } from '../../../lib/plugin/state';
import { plugin } from '../../../plugins/check_cluster_certs/plugin';
import { makeChain, opensslDate } from '../../support/cert-chain';
import { runDefinition, tokenFile } from '../../support/plugin-definition';

const TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.certs-token-value';
const chain = makeChain([
  { cn: 'kube-apiserver-lb-signer', from: opensslDate(-300), until: opensslDate(3000) },
  { cn: 'localhost', from: opensslDate(-20), until: opensslDate(10) },
]);
const caFile = join(mkdtempSync(join(tmpdir(), 'cloudchecks-certs-')), 'ca.pem');
writeFileSync(caFile, chain.certs[0]);
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer({ cert: [...chain.certs].reverse().join(''), key: chain.key }, (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://localhost:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const argv = (...more: string[]) => ['--url', url, '--token-file', tokenFile(TOKEN), '--ca-file', caFile, '--skip-csrs', ...more];

describe('check_cluster_certs (plugins/check_cluster_certs/plugin.ts)', () => {
  it('a serving certificate with 10 days left is CRITICAL under -c 14d, named by its CN', async () => {
    const { result, phases } = await runDefinition(plugin, argv('-w', '60d', '-c', '14d'));
    expect(result.state).toBe(State.CRITICAL);
    expect(result.summary).toContain('localhost');
    expect(phases).toEqual([`reading the certificates and CSRs from ${url}`]);
  });

  it('the same chain is OK under -w 5d -c 2d', async () => {
    const { result } = await runDefinition(plugin, argv('-w', '5d', '-c', '2d'));
    expect(result.state).toBe(State.OK);
  });
});

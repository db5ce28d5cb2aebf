// Trust by signatures whatever the dates: an impostor's chain is refused even when it holds an
// expired certificate, and a trusted chain is accepted even when its certificates have expired.
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_PATH, trustAnchors, trustedPath } from '../../../lib/http/chain-trust';
import { makeChain, opensslDate } from '../../support/cert-chain';

const VALID = { from: opensslDate(-30), until: opensslDate(300) };
const EXPIRED = { from: '20190101000000Z', until: '20200102000000Z' };
const x509 = (pems: string[]) => pems.map((p) => new X509Certificate(p));
/** The chain as a server presents it: its own certificate first, then up towards the root. */
const presented = (pems: string[]) => x509(pems).reverse();

const legit = makeChain([
  { cn: 'cluster CA', ...VALID },
  { cn: 'apiserver intermediate', ...VALID },
  { cn: 'localhost', ...EXPIRED },
]);
const impostor = makeChain([
  { cn: 'impostor root', ...EXPIRED },
  { cn: 'impostor intermediate', ...VALID },
  { cn: 'localhost', ...VALID },
]);

describe('trustedPath', () => {
  it('a chain signed up to the CA: the path and the anchor, whatever the dates', () => {
    const t = trustedPath(presented(legit.certs.slice(1)), x509([legit.certs[0]]));
    expect('path' in t && t.path.map((c) => c.subject)).toEqual(['CN=localhost', 'CN=apiserver intermediate']);
    expect('anchor' in t && t.anchor.subject).toBe('CN=cluster CA');
  });

  it("an impostor's chain with an expired root: refused at its own certificate, its dates never part of the answer", () => {
    const t = trustedPath(presented(impostor.certs), x509([legit.certs[0]]));
    expect(t).toMatchObject({ reason: 'its chain does not lead to a trusted CA' });
    expect('stoppedAt' in t && t.stoppedAt.subject).toBe('CN=impostor root');
  });

  it("a server certificate that names the CA's subject as issuer but was signed by another key: refused", () => {
    const twin = makeChain([
      { cn: 'cluster CA', ...VALID },
      { cn: 'localhost', ...VALID },
    ]);
    expect(trustedPath(presented(twin.certs.slice(1)), x509([legit.certs[0]]))).toMatchObject({ reason: 'not signed by a trusted CA' });
  });

  it(`12 certificates down from an expired root: no trusted CA within ${MAX_PATH}, refused`, () => {
    const long = makeChain([{ cn: 'root', ...EXPIRED }, ...Array.from({ length: 10 }, (_, i) => ({ cn: `ca-${i}`, ...VALID })), { cn: 'localhost', ...VALID }]);
    // Trusted at the top, it is still too long a path; untrusted, refused either way.
    expect(trustedPath(presented(long.certs), x509([long.certs[0]]))).toMatchObject({ reason: `no trusted CA within ${MAX_PATH} certificates` });
    expect('reason' in trustedPath(presented(long.certs), x509([legit.certs[0]]))).toBe(true);
  });

  it('a server certificate that is itself the trusted one (pinned): its own path', () => {
    const self = x509([legit.certs[2]]);
    expect(trustedPath(self, self)).toMatchObject({ path: self });
  });

  it('the anchors: the CA alone when it is the only one, else the system roots too', () => {
    expect(trustAnchors(legit.certs[0], true)).toHaveLength(1);
    expect(trustAnchors(legit.certs[0] + legit.certs[1], true)).toHaveLength(2);
    expect(trustAnchors(legit.certs[0], false).length).toBeGreaterThan(50);
  });
});

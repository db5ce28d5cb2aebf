// A CertificateSigningRequestList built from a published `kubectl get csr` / `oc get csr`
// listing (test/fixtures/cluster/control-plane, its README says where each came from), so the
// CSR reader is tested on what real clusters listed: one item per row, the fields the columns
// show and nothing else.
//   NAME        -> metadata.name
//   AGE         -> metadata.creationTimestamp = `now` minus the age (kubectl's 18h, 28m, 4h19m, 2d3h)
//   SIGNERNAME  -> spec.signerName (a column of kubectl 1.18 and later)
//   REQUESTOR   -> spec.username
//   CONDITION   -> status: Pending is `{}`; Approved, Denied and Failed a condition each
//                  (status True); Issued adds nothing (the certificate is not in the listing)
// Lines before the header (the prompt and command) are not rows.

const UNIT_SECONDS: Record<string, number> = { y: 365 * 86400, d: 86400, h: 3600, m: 60, s: 1 };

/** kubectl's short age (`18h`, `4h19m`, `2d3h`, `45s`) in seconds. */
export function listingAgeSeconds(age: string): number {
  const parts = age.match(/\d+[ydhms]/g);
  if (!parts || parts.join('') !== age) throw new Error(`not an age as kubectl prints it: ${JSON.stringify(age)}`);
  return parts.reduce((sum, p) => sum + Number(p.slice(0, -1)) * UNIT_SECONDS[p.slice(-1)], 0);
}

export interface ListingRow {
  name: string;
  age: string;
  signer?: string;
  requestor: string;
  condition: string;
}

/** The rows under the `NAME  AGE ...` header; no value of these columns holds a space. */
export function listingRows(text: string): ListingRow[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^NAME\s+AGE\s/.test(l));
  if (at < 0) throw new Error('no NAME AGE ... header line');
  const columns = lines[at].trim().split(/\s+/);
  return lines
    .slice(at + 1)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const cells = l.trim().split(/\s+/);
      if (cells.length !== columns.length) throw new Error(`a row of ${cells.length} cells under ${columns.length} columns: ${l}`);
      const cell = (c: string) => (columns.includes(c) ? cells[columns.indexOf(c)] : undefined);
      return { name: cell('NAME')!, age: cell('AGE')!, signer: cell('SIGNERNAME'), requestor: cell('REQUESTOR')!, condition: cell('CONDITION')! };
    });
}

const CONDITIONS = new Set(['Approved', 'Denied', 'Failed']);

/** The CertificateSigningRequestList the API server would have listed at `now` (ms since the epoch). */
export function csrListFromListing(text: string, now: number): Record<string, unknown> {
  const items = listingRows(text).map((row) => {
    const words = row.condition.split(',');
    const conditions = words.filter((w) => CONDITIONS.has(w)).map((type) => ({ type, status: 'True' }));
    return {
      metadata: {
        name: row.name,
        creationTimestamp: new Date(now - listingAgeSeconds(row.age) * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
      },
      spec: { ...(row.signer === undefined ? {} : { signerName: row.signer }), username: row.requestor },
      status: conditions.length > 0 ? { conditions } : {},
    };
  });
  return { kind: 'CertificateSigningRequestList', apiVersion: 'certificates.k8s.io/v1', metadata: { resourceVersion: '' }, items };
}

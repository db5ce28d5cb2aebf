// Certificate chains for the tests of certificate checks, made with the openssl command line
// (`openssl ca`, which sets any start and end date: expired and not-yet-valid certificates
// included). The keys protect nothing; the directory is removed once the PEMs are read.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One certificate of a chain: its CN, dates (`YYYYMMDDHHMMSSZ`) and whether it is a CA. */
export interface CertSpec {
  cn: string;
  from: string;
  until: string;
  ca?: boolean;
}

/** PEM text of each certificate, root first, and the key of the last (the server's). */
export interface MadeChain {
  certs: string[];
  key: string;
}

const CA_CONFIG = `[ca]
default_ca = test_ca
[test_ca]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
`;
const EXT = {
  ca: 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n',
  server:
    'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n',
};

/** A time `days` days from now as `openssl ca` takes it (negative: in the past). */
export function opensslDate(days: number): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/**
 * Makes a chain: `specs[0]` is self-signed, each next one is signed by the one before it. The
 * last one is a server certificate for localhost/127.0.0.1 unless marked `ca`.
 */
export function makeChain(specs: readonly CertSpec[]): MadeChain {
  const dir = mkdtempSync(join(tmpdir(), 'cc-chain-'));
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 });
  try {
    writeFileSync(join(dir, 'ca.cnf'), CA_CONFIG);
    writeFileSync(join(dir, 'index.txt'), '');
    writeFileSync(join(dir, 'serial'), '1000\n');
    writeFileSync(join(dir, 'ca.ext'), EXT.ca);
    writeFileSync(join(dir, 'server.ext'), EXT.server);
    const certs: string[] = [];
    specs.forEach((s, i) => {
      const isCa = s.ca ?? i < specs.length - 1;
      run(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${i}.key`, '-out', `${i}.csr`, '-subj', `/CN=${s.cn}`]);
      const issuer = i === 0 ? ['-selfsign', '-keyfile', '0.key'] : ['-cert', `${i - 1}.pem`, '-keyfile', `${i - 1}.key`];
      run([
        'ca',
        '-batch',
        '-notext',
        '-config',
        'ca.cnf',
        ...issuer,
        '-in',
        `${i}.csr`,
        '-out',
        `${i}.pem`,
        '-startdate',
        s.from,
        '-enddate',
        s.until,
        '-extfile',
        isCa ? 'ca.ext' : 'server.ext',
      ]);
      certs.push(readFileSync(join(dir, `${i}.pem`), 'utf8'));
    });
    return { certs, key: readFileSync(join(dir, `${specs.length - 1}.key`), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `--cert near-expiry`: a server certificate for localhost/127.0.0.1 that expires a few days
// after the simulator starts, so that check_cluster_certs meets a real near expiry in the TLS
// handshake. A fixed certificate cannot stay near its expiry, so this one is made at start, with
// the openssl command line (as the test fixtures' TLS material is), by a CA made with it: the
// built-in CA's key is not kept. These keys protect nothing and are removed once read.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckError } from '../lib/plugin/errors';
import type { ServerTls } from './server';

/** Days the near-expiry certificate is valid from the simulator's start. */
export const NEAR_EXPIRY_DAYS = 5;
/** The common name of the CA that signs it. */
export const NEAR_EXPIRY_CA_CN = 'cloudchecks simulator short-lived CA';

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
const SERVER_EXTENSIONS = `subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1
basicConstraints=CA:FALSE
extendedKeyUsage=serverAuth
`;

/** Makes a CA (100 years) and a server certificate signed by it that expires in `days` days, in `stateDir`. */
export function makeShortLivedTls(stateDir: string, days = NEAR_EXPIRY_DAYS): ServerTls & { ca: string } {
  const dir = mkdtempSync(join(stateDir, 'tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (args: string[]) => {
    try {
      execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 });
    } catch (error) {
      const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
      const why = e.code === 'ENOENT' ? 'openssl is not installed' : (e.stderr?.toString('utf8').trim().split('\n')[0] ?? e.message);
      throw new CheckError(`cannot make the near-expiry certificate (${why}): install openssl, or give your own with --tls-cert, --tls-key and --tls-ca`);
    }
  };
  try {
    openssl([
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '36500',
      '-subj',
      `/CN=${NEAR_EXPIRY_CA_CN}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    openssl(['req', ...EC, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
    writeFileSync(file('server.ext'), SERVER_EXTENSIONS);
    openssl([
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      String(Date.now()),
      '-out',
      'server.pem',
      '-days',
      String(days),
      '-extfile',
      'server.ext',
    ]);
    return { cert: readFileSync(file('server.pem'), 'utf8'), key: readFileSync(file('server.key'), 'utf8'), ca: readFileSync(file('ca.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

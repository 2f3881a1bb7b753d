import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway certificate authority and a server certificate it signed for 127.0.0.1, as PEM files. */
export interface TestCa {
  /** The CA's certificate: what `network.caFile` names. */
  caFile: string;
  /** The server's key and certificate, for `https.createServer`. */
  key: string;
  cert: string;
}

/**
 * Makes a CA (P-256, valid two days) and a server certificate for IP 127.0.0.1 signed by it, with `openssl` (node:crypto
 * cannot sign X.509), in `dir`: the part of a TLS-inspecting proxy a client has to trust.
 */
export async function makeTestCa(dir: string, name = 'Gatehouse Test Proxy CA'): Promise<TestCa> {
  const at = (f: string): string => path.join(dir, f);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await run('openssl', ['req', ...ec, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1']);
  fs.writeFileSync(
    at('server.ext'),
    'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('server.pem'),
    '-days',
    '2',
    '-extfile',
    at('server.ext'),
  ]);
  return {
    caFile: at('ca.pem'),
    key: fs.readFileSync(at('server.key'), 'utf8'),
    cert: fs.readFileSync(at('server.pem'), 'utf8'),
  };
}

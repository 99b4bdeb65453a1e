import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate made by the `openssl` CLI, with its key, as PEM text and as files. */
export interface IssuedCertificate {
  cert: string;
  key: string;
  certPath: string;
  keyPath: string;
}

export interface IssueOptions {
  /** OpenSSL's `-subj` form, most significant first: `/C=RU/O=Acme/CN=partner-one` (`+` joins a multi-valued RDN). */
  subject: string;
  /** The CA that signs it; omitted, the certificate signs itself. */
  issuer?: IssuedCertificate;
  /** Extensions, one `name = value` a line; default a TLS client certificate. */
  extensions?: string;
  notBefore?: Date;
  notAfter?: Date;
}

const DAY = 86_400_000;
const CLIENT = 'basicConstraints = critical,CA:FALSE\nextendedKeyUsage = clientAuth';
const CA = 'basicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign';

/**
 * A throwaway PKI in a temporary directory, made with the real `openssl` CLI (EC P-256 keys, so that it takes
 * milliseconds), for tests that need certificates a TLS stack will accept. `openssl ca` is used rather than
 * `req -x509` because only it sets any validity period (expired certificates) on OpenSSL 3.0.
 *
 * @example
 * ```ts
 * const pki = createTestPki();
 * const ca = pki.issue({ subject: '/CN=Test CA', extensions: pki.caExtensions });
 * const client = pki.issue({ subject: '/O=Acme/CN=partner-one', issuer: ca });
 * // ... after(() => pki.remove());
 * ```
 */
export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'test-pki-'));
  mkdirSync(join(dir, 'issued'));
  writeFileSync(join(dir, 'index.txt'), '');
  let count = 0;
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return {
    dir,
    caExtensions: CA,
    serverExtensions: (host = '127.0.0.1') =>
      `basicConstraints = critical,CA:FALSE\nextendedKeyUsage = serverAuth\nsubjectAltName = ${host.includes(':') || /^\d/.test(host) ? 'IP' : 'DNS'}:${host}`,
    issue(options) {
      count += 1;
      const name = `cert-${count}`;
      const keyPath = join(dir, `${name}.key`);
      const certPath = join(dir, `${name}.pem`);
      openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', keyPath);
      openssl('req', '-new', '-key', keyPath, '-utf8', '-multivalue-rdn', '-subj', options.subject, '-out', `${name}.csr`);
      writeFileSync(join(dir, `${name}.cnf`), caConfig(options.extensions ?? CLIENT));
      const notBefore = options.notBefore ?? new Date(Date.now() - DAY);
      const notAfter = options.notAfter ?? new Date(Date.now() + 30 * DAY);
      const signer = options.issuer ? ['-cert', options.issuer.certPath, '-keyfile', options.issuer.keyPath] : ['-selfsign', '-keyfile', keyPath];
      openssl('ca', '-batch', '-config', `${name}.cnf`, ...signer, '-in', `${name}.csr`, '-out', certPath, '-extensions', 'ext', '-notext', '-preserveDN', '-utf8', '-startdate', asn1Time(notBefore), '-enddate', asn1Time(notAfter));
      return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath, keyPath };
    },
    write(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestPki {
  dir: string;
  /** Extensions of a CA certificate. */
  caExtensions: string;
  /** Extensions of a TLS server certificate for `host` (an IP address or a DNS name; default 127.0.0.1). */
  serverExtensions(host?: string): string;
  issue(options: IssueOptions): IssuedCertificate;
  /** Writes a file in the PKI's directory and returns its path. */
  write(name: string, text: string): string;
  remove(): void;
}

function caConfig(extensions: string): string {
  return [
    '[ ca ]',
    'default_ca = test_ca',
    '[ test_ca ]',
    'database = ./index.txt',
    'new_certs_dir = ./issued',
    'rand_serial = yes',
    'default_md = sha256',
    'policy = policy_any',
    'unique_subject = no',
    '[ policy_any ]',
    '[ ext ]',
    extensions,
    '',
  ].join('\n');
}

/** `YYYYMMDDHHMMSSZ`, the form `openssl ca -startdate/-enddate` takes. */
function asn1Time(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { CertificateReadError, readClientCertificate } from './client-certificate.js';
import { parseDistinguishedName, sameDistinguishedName } from './distinguished-name.js';

const pki = createTestPki();
after(() => pki.remove());
const ca = pki.issue({ subject: '/C=RU/O=Test CA Org/CN=Test CA', extensions: pki.caExtensions });
const notBefore = new Date('2026-01-01T00:00:00Z');
const notAfter = new Date('2036-01-01T00:00:00Z');
const client = pki.issue({ subject: '/C=RU/O=Acme, Inc./CN=partner-one+UID=42', issuer: ca, notBefore, notAfter });

describe('reading a client certificate', () => {
  it('gives the RFC 8705 x5t#S256 thumbprint, names in RFC 4514 order and the validity period from PEM', () => {
    const certificate = readClientCertificate(client.cert);
    const der = new X509Certificate(client.cert).raw;
    assert.equal(certificate.thumbprint, createHash('sha256').update(der).digest('base64url'));
    assert.match(certificate.thumbprint, /^[A-Za-z0-9_-]{43}$/);
    // DER sorts the attributes of a multi-valued RDN, so UID comes first as node prints it.
    assert.equal(certificate.subjectDn, 'UID=42+CN=partner-one,O=Acme\\, Inc.,C=RU');
    assert.ok(sameDistinguishedName(parseDistinguishedName(certificate.issuerDn), parseDistinguishedName('CN=test ca, O=Test CA Org, C=RU')));
    assert.deepEqual([certificate.notBefore, certificate.notAfter], [notBefore, notAfter]);
    assert.deepEqual(certificate.der, der);
  });

  it('reads the same certificate from the DER a TLS socket gives', () => {
    const der = new X509Certificate(client.cert).raw;
    assert.deepEqual(readClientCertificate(der), readClientCertificate(client.cert));
  });

  it('refuses a PEM with anything beside its one certificate, without echoing it', () => {
    const refusals: Array<[string, RegExp]> = [
      [`${client.cert}${ca.cert}`, /exactly one PEM CERTIFICATE/],
      [`junk\n${client.cert}`, /exactly one PEM CERTIFICATE/],
      [client.cert.replace('BEGIN CERTIFICATE', 'BEGIN X509 CRL').replace('END CERTIFICATE', 'END X509 CRL'), /exactly one PEM CERTIFICATE/],
      [`${client.cert}${client.key}`, /contains a private key/],
      ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', /not a valid X.509 certificate/],
    ];
    for (const [pem, message] of refusals) {
      assert.throws(() => readClientCertificate(pem), (error: unknown) => {
        assert.ok(error instanceof CertificateReadError);
        assert.match(error.message, message);
        assert.ok(!error.message.includes('MII') && !error.message.includes('KEY-----'), 'no content is echoed');
        return true;
      });
    }
    assert.throws(() => readClientCertificate(Buffer.from('not der')), CertificateReadError);
  });
});

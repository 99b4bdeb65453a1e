import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { CertificateReadError, readClientCertificate } from './client-certificate.js';
import { MAX_CLIENT_CERTIFICATE_HEADER, parseClientCertificateHeader } from './client-certificate-header.js';

const pki = createTestPki();
after(() => pki.remove());
const client = pki.issue({ subject: '/O=Acme/CN=partner-one' });
const other = pki.issue({ subject: '/O=Acme/CN=partner-two' });
/** What nginx's $ssl_client_escaped_cert gives: the PEM, percent-encoded as a URI component. */
const escaped = (pem: string) => encodeURIComponent(pem);

describe('the client certificate header', () => {
  it('reads the URL-encoded PEM nginx forwards', () => {
    assert.deepEqual(parseClientCertificateHeader(escaped(client.cert)), readClientCertificate(client.cert));
  });

  it('reads an empty value as no certificate', () => {
    assert.equal(parseClientCertificateHeader(''), undefined);
  });

  it('refuses a chain, a key, bad percent-encoding and an oversized value, quoting none of it', () => {
    const refusals: Array<[string, RegExp]> = [
      [escaped(`${client.cert}${other.cert}`), /exactly one PEM CERTIFICATE/],
      [escaped(`${client.cert}${client.key}`), /private key/],
      [`${escaped(client.cert)}%E0%A4%A`, /percent-encoding/],
      [escaped(client.cert) + '%0A'.repeat(MAX_CLIENT_CERTIFICATE_HEADER), /longer than 16384/],
      ['hello', /exactly one PEM CERTIFICATE/],
    ];
    for (const [value, message] of refusals) {
      assert.throws(() => parseClientCertificateHeader(value), (error: unknown) => error instanceof CertificateReadError && message.test(error.message) && !error.message.includes('MII'));
    }
  });
});

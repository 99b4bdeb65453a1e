import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { readCaBundle } from './ca-bundle.js';

const pki = createTestPki();
after(() => pki.remove());
const ca = pki.issue({ subject: '/CN=Test CA', extensions: pki.caExtensions });
const second = pki.issue({ subject: '/CN=Second CA', extensions: pki.caExtensions });
const leaf = pki.issue({ subject: '/CN=leaf', issuer: ca });

describe('the client CA file', () => {
  it('reads every CA certificate in it', () => {
    assert.deepEqual(readCaBundle(`${ca.cert}${second.cert}`).map((cert) => cert.subject), ['CN=Test CA', 'CN=Second CA']);
  });

  it('refuses a file with a certificate that is not a CA, a private key, other text, or nothing', () => {
    assert.throws(() => readCaBundle(`${ca.cert}${leaf.cert}`), /certificate 2 of the CA file \(CN=leaf\) is not a CA certificate/);
    assert.throws(() => readCaBundle(`${ca.cert}${ca.key}`), /holds a private key/);
    assert.throws(() => readCaBundle(`${ca.cert}garbage`), /PEM CERTIFICATE blocks and nothing else/);
    assert.throws(() => readCaBundle(''), /PEM CERTIFICATE blocks and nothing else/);
  });
});

import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { AppError } from '../errors.js';
import { readClientCertificate } from '../mtls/client-certificate.js';
import { validatePartnerCertificates, validateSubjectDn } from './partner-certificates.js';

const pki = createTestPki();
after(() => pki.remove());
const DAY = 86_400_000;
const ca = pki.issue({ subject: '/CN=Test CA', extensions: pki.caExtensions });
const selfSigned = pki.issue({ subject: '/O=Acme/CN=partner-one' });
const caIssued = pki.issue({ subject: '/O=Acme/CN=partner-one-ca', issuer: ca });
const expired = pki.issue({ subject: '/CN=old', notBefore: new Date(Date.now() - 30 * DAY), notAfter: new Date(Date.now() - DAY) });
const future = pki.issue({ subject: '/CN=next', notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 400 * DAY) });

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 422);
    assert.equal(error.code, 'validation_failed');
    return error.description;
  }
  assert.fail('expected a 422');
}

describe('partner certificates', () => {
  it('accepts self-signed and CA-issued certificates and returns their views with a canonical PEM', () => {
    const [first, second] = validatePartnerCertificates([selfSigned.cert, `\n${caIssued.cert}\n`]);
    assert.equal(first!.thumbprint, readClientCertificate(selfSigned.cert).thumbprint);
    assert.equal(first!.subjectDn, 'CN=partner-one,O=Acme');
    assert.equal(first!.issuerDn, 'CN=partner-one,O=Acme');
    assert.equal(second!.issuerDn, 'CN=Test CA');
    assert.equal(second!.notAfter, new Date(new X509Certificate(caIssued.cert).validTo).toISOString());
    assert.equal(new X509Certificate(second!.pem).fingerprint256, new X509Certificate(caIssued.cert).fingerprint256);
  });

  it('accepts a certificate that is not valid yet (the next one, registered ahead)', () => {
    assert.equal(validatePartnerCertificates([future.cert]).length, 1);
  });

  it('refuses an expired certificate, naming it and the day it expired', () => {
    assert.match(refusal(() => validatePartnerCertificates([selfSigned.cert, expired.cert])), /certificates\[1\]: expired on \d{4}-\d\d-\d\dT/);
  });

  it('refuses what is not a certificate, naming each item', () => {
    const text = refusal(() => validatePartnerCertificates(['hello', 42, selfSigned.cert, `${selfSigned.cert}${caIssued.cert}`]));
    assert.match(text, /certificates\[0\]: must be exactly one PEM CERTIFICATE block/);
    assert.match(text, /certificates\[1\]: must be a PEM certificate \(a string\)/);
    assert.match(text, /certificates\[3\]: must be exactly one PEM CERTIFICATE block/);
    assert.doesNotMatch(text, /certificates\[2\]/);
  });

  it('refuses the whole request when any item holds a private key, and never echoes the key', () => {
    const keyBody = selfSigned.key.split('\n')[1]!;
    for (const items of [[selfSigned.cert, `${caIssued.cert}${caIssued.key}`], [selfSigned.key], ['x', 'y', selfSigned.key.slice(0, 60)]]) {
      const error = (() => {
        try {
          validatePartnerCertificates(items);
        } catch (caught) {
          return caught as AppError;
        }
        assert.fail('expected a refusal');
      })();
      assert.match(error.description, /contains a private key; nothing was stored/);
      assert.equal(error.extra.details?.length, 1, 'one problem: the key, whatever else is wrong');
      assert.ok(!JSON.stringify(error.extra).includes(keyBody.slice(0, 20)) && !error.description.includes(keyBody.slice(0, 20)));
    }
  });

  it('refuses more than 20 certificates, an empty list and the same certificate twice', () => {
    assert.match(refusal(() => validatePartnerCertificates(Array(21).fill(selfSigned.cert))), /at most 20 certificates/);
    assert.match(refusal(() => validatePartnerCertificates([])), /non-empty array/);
    assert.match(refusal(() => validatePartnerCertificates('pem')), /non-empty array/);
    assert.match(refusal(() => validatePartnerCertificates([selfSigned.cert, selfSigned.cert])), /certificates\[1\]: the same certificate as certificates\[0\]/);
  });
});

describe('partner subject DN', () => {
  it('returns the name in normalized RFC 4514 form', () => {
    assert.equal(validateSubjectDn('cn = partner-one , organizationName=Acme\\, Inc., c=RU'), 'CN=partner-one,O=Acme\\, Inc.,C=RU');
  });

  it('refuses an unparseable, empty or oversized name with 422 naming subjectDn', () => {
    assert.match(refusal(() => validateSubjectDn('partner-one')), /subjectDn: is not a distinguished name at character/);
    assert.match(refusal(() => validateSubjectDn('  ')), /subjectDn: must be a distinguished name/);
    assert.match(refusal(() => validateSubjectDn(7)), /subjectDn: must be a distinguished name/);
    assert.match(refusal(() => validateSubjectDn(`CN=${'a'.repeat(1100)}`)), /at most 1024 characters/);
  });
});

import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { createTestPki } from '../../../test/support/openssl-certificates.js';
import { readClientCertificate } from '../../mtls/client-certificate.js';
import { verifyClientCertificate } from './verify-client-certificate.js';

const pki = createTestPki();
after(() => pki.remove());
const DAY = 86_400_000;
const past = { notBefore: new Date(Date.now() - 60 * DAY), notAfter: new Date(Date.now() - DAY) };
const SUBJECT = '/C=RU/O=Acme/CN=partner-one';
const ca = pki.issue({ subject: '/CN=Test CA', extensions: pki.caExtensions });
const otherCa = pki.issue({ subject: '/CN=Other CA', extensions: pki.caExtensions });
// The same name as the trusted CA, another key: what an attacker who copies the CA's name would make.
const impostorCa = pki.issue({ subject: '/CN=Test CA', extensions: pki.caExtensions });
const expiredCa = pki.issue({ subject: '/CN=Expired CA', extensions: pki.caExtensions, ...past });
const trustedCas = [ca, expiredCa].map((issued) => new X509Certificate(issued.cert));

const read = (pem: string) => readClientCertificate(pem);
const selfSigned = read(pki.issue({ subject: SUBJECT }).cert);
const another = read(pki.issue({ subject: SUBJECT }).cert);
const expiredSelfSigned = read(pki.issue({ subject: SUBJECT, ...past }).cert);
const caIssued = read(pki.issue({ subject: SUBJECT, issuer: ca }).cert);

const selfSignedMethod = (thumbprints: string[]) => ({ method: 'self_signed_tls_client_auth' as const, thumbprints });
const caMethod = (subjectDn: string | undefined = 'cn=Partner-One, o=ACME, c=ru') => ({ method: 'tls_client_auth' as const, subjectDn, trustedCas });

describe('self_signed_tls_client_auth', () => {
  it('accepts a registered certificate that is valid now', () => {
    assert.deepEqual(verifyClientCertificate(selfSigned, selfSignedMethod([another.thumbprint, selfSigned.thumbprint])), { ok: true });
    assert.deepEqual(verifyClientCertificate(caIssued, selfSignedMethod([caIssued.thumbprint])), { ok: true }, 'any registered certificate, whoever issued it');
  });

  it('refuses another certificate with the same subject, no certificate, and a registered one that expired', () => {
    assert.deepEqual(verifyClientCertificate(another, selfSignedMethod([selfSigned.thumbprint])), { ok: false, reason: 'certificate_not_registered' });
    assert.deepEqual(verifyClientCertificate(undefined, selfSignedMethod([selfSigned.thumbprint])), { ok: false, reason: 'no_client_certificate' });
    assert.deepEqual(verifyClientCertificate(expiredSelfSigned, selfSignedMethod([expiredSelfSigned.thumbprint])), { ok: false, reason: 'certificate_not_valid_now' });
    assert.deepEqual(
      verifyClientCertificate(selfSigned, selfSignedMethod([selfSigned.thumbprint]), new Date(selfSigned.notBefore.getTime() - 1000)),
      { ok: false, reason: 'certificate_not_valid_now' },
    );
  });
});

describe('tls_client_auth', () => {
  it('accepts a certificate from a configured CA whose subject is the partner\'s DN as an RFC 4514 name', () => {
    assert.deepEqual(verifyClientCertificate(caIssued, caMethod()), { ok: true });
  });

  it('refuses the right subject from a CA that is not configured, and from one that only copies a CA\'s name', () => {
    for (const issuer of [otherCa, impostorCa]) {
      const certificate = read(pki.issue({ subject: SUBJECT, issuer }).cert);
      assert.deepEqual(verifyClientCertificate(certificate, caMethod()), { ok: false, reason: 'certificate_not_issued_by_trusted_ca' });
    }
    assert.deepEqual(verifyClientCertificate(selfSigned, caMethod()), { ok: false, reason: 'certificate_not_issued_by_trusted_ca' });
  });

  it('refuses another subject, no registered subject, and no certificate', () => {
    const other = read(pki.issue({ subject: '/C=RU/O=Acme/CN=partner-two', issuer: ca }).cert);
    assert.deepEqual(verifyClientCertificate(other, caMethod()), { ok: false, reason: 'subject_mismatch' });
    assert.deepEqual(verifyClientCertificate(caIssued, caMethod('CN=partner-one,O=Acme')), { ok: false, reason: 'subject_mismatch' }, 'a missing RDN');
    assert.deepEqual(verifyClientCertificate(caIssued, caMethod('O=Acme,CN=partner-one,C=RU')), { ok: false, reason: 'subject_mismatch' }, 'RDNs out of order');
    assert.deepEqual(verifyClientCertificate(caIssued, { ...caMethod(), subjectDn: undefined }), { ok: false, reason: 'no_subject_registered' });
    assert.deepEqual(verifyClientCertificate(undefined, caMethod()), { ok: false, reason: 'no_client_certificate' });
  });

  it('never matches an empty registered subject, not even a certificate with an empty subject', () => {
    const nameless = read(pki.issue({ subject: '/', issuer: ca, extensions: 'extendedKeyUsage = clientAuth\nsubjectAltName = DNS:partner.example' }).cert);
    assert.equal(nameless.subjectDn, '');
    assert.deepEqual(verifyClientCertificate(nameless, caMethod('')), { ok: false, reason: 'subject_mismatch' });
  });

  it('refuses an expired certificate, one from an expired CA, and one not meant for client authentication', () => {
    const expired = read(pki.issue({ subject: SUBJECT, issuer: ca, ...past }).cert);
    assert.deepEqual(verifyClientCertificate(expired, caMethod()), { ok: false, reason: 'certificate_not_valid_now' });
    const fromExpiredCa = read(pki.issue({ subject: SUBJECT, issuer: expiredCa }).cert);
    assert.deepEqual(verifyClientCertificate(fromExpiredCa, caMethod()), { ok: false, reason: 'issuer_not_valid_now' });
    const serverOnly = read(pki.issue({ subject: SUBJECT, issuer: ca, extensions: 'extendedKeyUsage = serverAuth' }).cert);
    assert.deepEqual(verifyClientCertificate(serverOnly, caMethod()), { ok: false, reason: 'certificate_not_for_client_auth' });
  });

  it('refuses a certificate issued by a configured certificate that is not a CA', () => {
    const leaf = pki.issue({ subject: '/CN=not a CA', issuer: ca });
    const underLeaf = read(pki.issue({ subject: SUBJECT, issuer: leaf }).cert);
    const check = verifyClientCertificate(underLeaf, { ...caMethod(), trustedCas: [new X509Certificate(leaf.cert)] });
    assert.deepEqual(check, { ok: false, reason: 'certificate_not_issued_by_trusted_ca' });
  });
});

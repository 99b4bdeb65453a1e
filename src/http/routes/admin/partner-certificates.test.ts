import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestPki } from '../../../../test/support/openssl-certificates.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../../test/support/test-gateway.js';
import { readClientCertificate } from '../../../mtls/client-certificate.js';

const DAY = 86_400_000;
const pki = createTestPki();
const ca = pki.issue({ subject: '/CN=Admin Test CA', extensions: pki.caExtensions });
const selfSigned = pki.issue({ subject: '/O=Acme/CN=acme-self' });
const issued = pki.issue({ subject: '/C=RU/O=Acme/CN=acme-issued', issuer: ca });
const expired = pki.issue({ subject: '/CN=acme-old', notBefore: new Date(Date.now() - 60 * DAY), notAfter: new Date(Date.now() - DAY) });
after(() => pki.remove());

for (const backend of testBackends()) {
  describe(`admin partner certificates on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend);
    });
    after(() => t.close());

    const admin = (method: string, url: string, payload?: unknown) =>
      t.admin.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
    const path = (login: string) => `/admin/v1/partners/${login}/certificates`;

    it('registers certificates and shows their thumbprint, names and validity (never the PEM), in the partner view too', async () => {
      const partner = await t.addPartner();
      const response = await admin('PUT', path(partner.login), { certificates: [selfSigned.cert, issued.cert] });
      assert.equal(response.statusCode, 200);
      const one = readClientCertificate(selfSigned.cert);
      const two = readClientCertificate(issued.cert);
      assert.deepEqual(response.json(), {
        certificates: [
          { thumbprint: one.thumbprint, subject: 'CN=acme-self,O=Acme', issuer: 'CN=acme-self,O=Acme', notBefore: one.notBefore.toISOString(), notAfter: one.notAfter.toISOString() },
          { thumbprint: two.thumbprint, subject: 'CN=acme-issued,O=Acme,C=RU', issuer: 'CN=Admin Test CA', notBefore: two.notBefore.toISOString(), notAfter: two.notAfter.toISOString() },
        ],
        subjectDn: null,
      });
      const shown = (await admin('GET', `/admin/v1/partners/${partner.login}`)).json();
      assert.deepEqual(shown.certificates, response.json());
      assert.ok(!JSON.stringify(shown).includes('BEGIN CERTIFICATE'));
    });

    it('registers a subject DN in normalized RFC 4514 form, keeping the certificates; each PUT keeps the other half', async () => {
      const partner = await t.addPartner();
      await admin('PUT', path(partner.login), { certificates: [selfSigned.cert] });
      const response = await admin('PUT', path(partner.login), { subjectDn: 'cn = acme-issued, o=Acme , C=RU' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().subjectDn, 'CN=acme-issued,O=Acme,C=RU');
      assert.equal(response.json().certificates.length, 1);
      const again = await admin('PUT', path(partner.login), { certificates: [issued.cert] });
      assert.equal(again.json().subjectDn, 'CN=acme-issued,O=Acme,C=RU');
      assert.deepEqual(again.json().certificates.map((c: { subject: string }) => c.subject), ['CN=acme-issued,O=Acme,C=RU']);
    });

    it('refuses an expired certificate, a non-certificate and a private key with 422, storing nothing', async () => {
      const partner = await t.addPartner();
      const refused = await admin('PUT', path(partner.login), { certificates: [selfSigned.cert, expired.cert, 'hello'] });
      assert.equal(refused.statusCode, 422);
      const problems = refused.json().errors as Array<{ field: string; message: string }>;
      assert.deepEqual(problems.map((problem) => problem.field), ['certificates[1]', 'certificates[2]']);
      assert.match(problems[0]!.message, /expired/);
      const withKey = await admin('PUT', path(partner.login), { certificates: [`${selfSigned.cert}${selfSigned.key}`] });
      assert.equal(withKey.statusCode, 422);
      assert.match(JSON.stringify(withKey.json()), /private key/);
      assert.ok(!JSON.stringify(withKey.json()).includes(selfSigned.key.split('\n')[1]!), 'the key is never echoed');
      const badDn = await admin('PUT', path(partner.login), { subjectDn: 'not a dn' });
      assert.equal(badDn.statusCode, 422);
      assert.equal(badDn.json().errors[0].field, 'subjectDn');
      assert.equal((await admin('GET', `/admin/v1/partners/${partner.login}`)).json().certificates, null);
      assert.equal((await admin('PUT', path(partner.login), { certificates: [] })).statusCode, 422, 'the schema wants at least one');
      assert.equal((await admin('PUT', path(partner.login), { certificates: [selfSigned.cert], subjectDn: 'CN=x' })).statusCode, 422, 'one or the other');
    });

    it('removes both (204, also when there are none), and 404s an unknown partner', async () => {
      const partner = await t.addPartner();
      await admin('PUT', path(partner.login), { certificates: [selfSigned.cert] });
      await admin('PUT', path(partner.login), { subjectDn: 'CN=x' });
      assert.equal((await admin('DELETE', path(partner.login))).statusCode, 204);
      assert.equal((await admin('GET', `/admin/v1/partners/${partner.login}`)).json().certificates, null);
      assert.equal((await admin('DELETE', path(partner.login))).statusCode, 204);
      assert.equal((await admin('PUT', path('nobody-here'), { subjectDn: 'CN=x' })).statusCode, 404);
      assert.equal((await admin('DELETE', path('nobody-here'))).statusCode, 404);
    });

    it('ends the partner’s sessions when a certificate is dropped or the subject changes, not when one is added', async () => {
      const partner = await t.addPartner();
      let token = '';
      const newSession = async () => {
        token = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token;
      };
      const banks = async () => (await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${token}` } })).statusCode;
      await newSession();
      await admin('PUT', path(partner.login), { certificates: [selfSigned.cert] });
      await admin('PUT', path(partner.login), { certificates: [selfSigned.cert, issued.cert] });
      await admin('PUT', path(partner.login), { subjectDn: 'CN=first' });
      assert.equal(await banks(), 200, 'adding certificates, or a first subject, ends nothing');
      await admin('PUT', path(partner.login), { certificates: [issued.cert] });
      assert.equal(await banks(), 401, 'dropping a certificate ends the sessions');
      await newSession();
      await admin('PUT', path(partner.login), { subjectDn: 'CN=second' });
      assert.equal(await banks(), 401, 'another subject ends the sessions');
    });

    it('audits registrations and removals with the certificates’ identity before and after', async () => {
      const partner = await t.addPartner();
      await admin('PUT', path(partner.login), { certificates: [selfSigned.cert] });
      assert.equal((await admin('DELETE', path(partner.login))).statusCode, 204);
      await t.gateway.admin.audit.flush();
      const entries = (await admin('GET', `/admin/v1/audit?partner=${partner.login}&limit=10`)).json().entries as Array<{ action: string; details: Record<string, unknown> }>;
      const set = entries.find((entry) => entry.action === 'partner.certificates.set');
      const removed = entries.find((entry) => entry.action === 'partner.certificates.delete');
      assert.ok(set && removed);
      assert.equal(set.details.before, null);
      assert.equal((set.details.after as { certificates: Array<{ thumbprint: string }> }).certificates[0]!.thumbprint, readClientCertificate(selfSigned.cert).thumbprint);
      assert.deepEqual(removed.details, { before: set.details.after, after: null, sessionsEnded: true });
      assert.ok(!JSON.stringify(entries).includes('BEGIN CERTIFICATE'));
    });
  });
}

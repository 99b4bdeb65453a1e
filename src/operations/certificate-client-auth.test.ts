import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../test/support/test-gateway.js';

// The proxy path in process: with TRUST_PROXY = the inject address, CLIENT_CERT_HEADER carries the certificate.
const HEADER = 'x-client-cert';
const pki = createTestPki();
const registered = pki.issue({ subject: '/O=Acme/CN=unit-self' });
const stranger = pki.issue({ subject: '/O=Acme/CN=unit-self' });
after(() => pki.remove());

for (const backend of testBackends()) {
  describe(`client authentication by certificate on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend, { env: { TRUST_PROXY: '127.0.0.1,127.0.0.2', CLIENT_CERT_HEADER: HEADER, THROTTLE_MAX_FAILURES: '3' }, seedBanks: false });
    });
    after(() => t.close());

    const addPartner = async (changes: Record<string, unknown>) => {
      const partner = await t.addPartner({ ipAllowlist: ['127.0.0.0/8'] });
      await t.gateway.admin.partners.update(partner.login, { authMethods: ['self_signed_tls_client_auth'], ...changes });
      await t.gateway.admin.partnerCertificates.set(partner.login, { certificates: [registered.cert] });
      return partner.login;
    };
    const token = (login: string, certificate: string, address = '127.0.0.1') =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/oauth/token',
        remoteAddress: address,
        headers: { 'content-type': 'application/x-www-form-urlencoded', [HEADER]: encodeURIComponent(certificate) },
        payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: login }).toString(),
      });

    it('satisfies requireSenderConstrainedTokens with the certificate binding: no DPoP proof needed', async () => {
      const login = await addPartner({ requireSenderConstrainedTokens: true });
      const answer = await token(login, registered.cert);
      assert.equal(answer.statusCode, 200, answer.body);
      assert.equal(answer.json().token_type, 'Bearer');
    });

    it('refuses the bound token at banks without the same certificate, and accepts it with it', async () => {
      // From a proxy address of its own: these refusals must not count against the next test's address.
      const login = await addPartner({});
      const issued = await token(login, registered.cert, '127.0.0.2');
      const banks = (certificate?: string) =>
        t.app.inject({
          method: 'POST',
          remoteAddress: '127.0.0.2',
          url: '/partner/provider/sbp/banks/',
          headers: { authorization: `Bearer ${issued.json().access_token}`, ...(certificate ? { [HEADER]: encodeURIComponent(certificate) } : {}) },
        });
      assert.equal((await banks(registered.cert)).statusCode, 200);
      for (const [what, answer] of [['no certificate', await banks()], ['another certificate', await banks(stranger.cert)]] as const) {
        assert.equal(answer.statusCode, 401, what);
        assert.equal(answer.headers['www-authenticate'], 'Bearer error="invalid_token"', what);
      }
    });

    it('audits a refusal with its reason and counts it in the brute-force defence until the address is locked', async () => {
      const login = await addPartner({});
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++) statuses.push((await token(login, stranger.cert)).statusCode);
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      // As with a valid assertion or token: a right certificate is not a guess, so the lockout does not stand in its way.
      assert.equal((await token(login, registered.cert)).statusCode, 200, 'the right certificate is never throttled');
      await t.gateway.admin.audit.flush();
      const entries = (
        await t.admin.inject({ method: 'GET', url: `/admin/v1/audit?action=token&partner=${login}&limit=10`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })
      ).json().entries as Array<{ reason?: string }>;
      assert.ok(entries.some((entry) => entry.reason === 'certificate_not_registered'), JSON.stringify(entries));
      const untrusted = await token(login, registered.cert, '10.0.0.9');
      assert.deepEqual([untrusted.statusCode, untrusted.json().error], [401, 'invalid_client'], 'the header from an address not in TRUST_PROXY is ignored');
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint } from 'jose';
import { readClientCertificate } from '../mtls/client-certificate.js';
import { refusedWith, startAuthHarness, type AuthHarness } from '../../test/support/auth-harness.js';
import { CLIENT_ASSERTION_TYPE, clientAssertion, dpopProof, testKey, type TestKey } from '../../test/support/oauth-client.js';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { testBackends } from '../../test/support/test-databases.js';
import { issueClientToken } from './issue-client-token.js';

const pki = createTestPki();
const selfSigned = pki.issue({ subject: '/O=Acme/CN=issue-client-token' });
after(() => pki.remove());

for (const backend of testBackends()) {
  describe(`issueClientToken on ${backend.name}`, () => {
    let h: AuthHarness;
    before(async () => {
      h = await startAuthHarness(backend);
    });
    after(() => h.close());

    const tokenUrl = () => h.baseUrl + h.deps.paths.token;
    /** A partner that may use private_key_jwt with `key` (and its password). */
    const keyPartner = async (key: TestKey, changes: { requireSenderConstrainedTokens?: boolean } = {}) => {
      const partner = await h.addPartner();
      await h.partners.keyAdmin.set(partner.login, { keys: [key.publicJwk as Record<string, unknown>] });
      await h.partners.admin.update(partner.login, { authMethods: ['password', 'private_key_jwt'], ...changes });
      return partner;
    };
    const assertionForm = async (key: TestKey, login: string) => ({
      grant_type: 'client_credentials' as const,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: await clientAssertion(key, login, h.deps.assertionAudiences.issuer),
    });

    it('when the grant type is missing, then invalid_request; when it is another, then unsupported_grant_type', async () => {
      // The route's schema holds grant_type to the enum; these are forms from callers without that schema.
      const untyped = (grantType: string) => ({ grant_type: grantType }) as unknown as Parameters<typeof issueClientToken>[0];
      await assert.rejects(issueClientToken(untyped(''), h.context(), h.deps), refusedWith('invalid_request'));
      await assert.rejects(issueClientToken(untyped('password'), h.context(), h.deps), refusedWith('unsupported_grant_type'));
    });

    it('when a private_key_jwt client is proven, then a Bearer token of its own family, stored nowhere, and the audit learns the method', async () => {
      const key = await testKey();
      const partner = await keyPartner(key);
      const context = h.context();
      const token = await issueClientToken(await assertionForm(key, partner.login), context, h.deps);
      assert.deepEqual([token.tokenType, token.partnerLogin, token.certificateThumbprint], ['Bearer', partner.login, undefined]);
      const claims = await h.deps.tokens.verify(token.accessToken);
      assert.deepEqual([claims.partnerId, claims.accessOnly, claims.jkt, claims.x5t], [partner.id, true, undefined, undefined]);
      assert.equal(await h.deps.families.find(claims.familyId), undefined, 'an access-only family is stored only once revoked');
      assert.deepEqual([context.audit.partner, context.audit.details], [partner.login, { method: 'private_key_jwt', bound: false }]);
    });

    it('when the client secret is posted, then the partner is proven by its API password', async () => {
      const partner = await h.addPartner();
      const context = h.context();
      const token = await issueClientToken({ grant_type: 'client_credentials', client_id: partner.login, client_secret: partner.password }, context, h.deps);
      assert.equal(token.partnerLogin, partner.login);
      assert.equal(context.clientMethod, 'client_secret_post');
      await assert.rejects(
        issueClientToken({ grant_type: 'client_credentials', client_id: partner.login, client_secret: 'not the password' }, h.context(), h.deps),
        refusedWith('invalid_client', 'wrong_password'),
      );
    });

    it('when a DPoP proof for the token URL comes with it, then the token is a DPoP token bound to its key, and the proof is spent', async () => {
      const key = await testKey();
      const partner = await keyPartner(key);
      const dpopKey = await testKey();
      const proof = await dpopProof(dpopKey, 'POST', tokenUrl());
      const context = h.context({ dpop: proof });
      const token = await issueClientToken(await assertionForm(key, partner.login), context, h.deps);
      assert.equal(token.tokenType, 'DPoP');
      assert.equal((await h.deps.tokens.verify(token.accessToken)).jkt, await calculateJwkThumbprint(dpopKey.publicJwk));
      assert.deepEqual(context.audit.details, { method: 'private_key_jwt', bound: true });
      await assert.rejects(issueClientToken(await assertionForm(key, partner.login), h.context({ dpop: proof }), h.deps), refusedWith('invalid_dpop_proof', 'dpop_proof_replayed'));
    });

    it('when the DPoP proof is bad, then invalid_dpop_proof before the client is looked at', async () => {
      const proof = await dpopProof(await testKey(), 'GET', tokenUrl());
      const context = h.context({ dpop: proof });
      await assert.rejects(issueClientToken({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' }, context, h.deps), refusedWith('invalid_dpop_proof', 'dpop_htm_mismatch'));
      assert.equal(context.audit.partner, undefined);
    });

    it('when the client is refused, then its DPoP proof is not spent', async () => {
      const key = await testKey();
      const partner = await keyPartner(key);
      const proof = await dpopProof(await testKey(), 'POST', tokenUrl());
      await assert.rejects(
        issueClientToken({ grant_type: 'client_credentials', client_id: partner.login, client_secret: 'not the password' }, h.context({ dpop: proof }), h.deps),
        refusedWith('invalid_client'),
      );
      const token = await issueClientToken(await assertionForm(key, partner.login), h.context({ dpop: proof }), h.deps);
      assert.equal(token.tokenType, 'DPoP');
    });

    it('when the partner must use bound tokens and sends neither a proof nor a certificate, then invalid_request dpop_required', async () => {
      const key = await testKey();
      const partner = await keyPartner(key, { requireSenderConstrainedTokens: true });
      await assert.rejects(issueClientToken(await assertionForm(key, partner.login), h.context(), h.deps), refusedWith('invalid_request', 'dpop_required'));
    });

    it('when the client proved itself by its certificate, then the token is bound to that certificate and stays a Bearer token', async () => {
      const partner = await h.addPartner();
      await h.partners.certificateAdmin.set(partner.login, { certificates: [selfSigned.cert] });
      await h.partners.admin.update(partner.login, { authMethods: ['self_signed_tls_client_auth'], requireSenderConstrainedTokens: true });
      const certificate = readClientCertificate(selfSigned.cert);
      const context = h.context({ certificate });
      const token = await issueClientToken({ grant_type: 'client_credentials', client_id: partner.login }, context, h.deps);
      assert.deepEqual([token.tokenType, token.certificateThumbprint], ['Bearer', certificate.thumbprint]);
      assert.equal((await h.deps.tokens.verify(token.accessToken)).x5t, certificate.thumbprint);
      assert.deepEqual(context.audit.details, { method: 'self_signed_tls_client_auth', bound: true });
    });

    it('when the partner is blocked, then 403 once the client is proven', async () => {
      const key = await testKey();
      const partner = await keyPartner(key);
      await h.partners.admin.update(partner.login, { status: 'blocked' });
      await assert.rejects(issueClientToken(await assertionForm(key, partner.login), h.context(), h.deps), refusedWith('blocked'));
    });
  });
}

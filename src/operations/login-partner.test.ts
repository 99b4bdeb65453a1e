import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint } from 'jose';
import { refusedWith, startAuthHarness, type AuthHarness } from '../../test/support/auth-harness.js';
import { dpopProof, testKey } from '../../test/support/oauth-client.js';
import { testBackends } from '../../test/support/test-databases.js';
import { loginPartner } from './login-partner.js';

for (const backend of testBackends()) {
  describe(`loginPartner on ${backend.name}`, () => {
    let h: AuthHarness;
    before(async () => {
      h = await startAuthHarness(backend);
    });
    after(() => h.close());

    const loginUrl = () => h.baseUrl + h.deps.paths.login;

    it('when the login and password are right, then a bearer session starts a token family of the partner', async () => {
      const partner = await h.addPartner();
      const session = await loginPartner({ login: partner.login, password: partner.password }, h.context(), h.deps);
      assert.equal(session.tokenType, 'bearer');
      assert.equal(session.partnerLogin, partner.login);
      const claims = await h.deps.tokens.verify(session.accessToken);
      assert.deepEqual([claims.partnerId, claims.jkt, claims.accessOnly], [partner.id, undefined, false]);
      const family = await h.deps.families.find(claims.familyId);
      assert.equal(family?.partnerId, partner.id, 'the family is stored with its refresh token');
      assert.ok(session.refreshToken.length > 20 && session.refreshExpiresIn > 0);
    });

    it('when each login starts, then it gets a family of its own', async () => {
      const partner = await h.addPartner();
      const families = await Promise.all(
        [1, 2].map(async () => (await h.deps.tokens.verify((await loginPartner(partner, h.context(), h.deps)).accessToken)).familyId),
      );
      assert.notEqual(families[0], families[1]);
    });

    it('when the login or the password is missing, then 422 before anything is looked up', async () => {
      await assert.rejects(loginPartner({ password: 'x' }, h.context(), h.deps), refusedWith('parameter_missing'));
      await assert.rejects(loginPartner({ login: 'nobody' }, h.context(), h.deps), refusedWith('parameter_missing'));
      await assert.rejects(loginPartner({ login: 'nobody', password: '' }, h.context(), h.deps), refusedWith('parameter_missing'));
    });

    it('when the login is unknown or the password wrong, then 401 with the reason kept for the audit', async () => {
      const partner = await h.addPartner();
      await assert.rejects(loginPartner({ login: 'no-such-partner', password: 'whatever it is' }, h.context(), h.deps), refusedWith('unauthorized', 'unknown_partner'));
      await assert.rejects(loginPartner({ login: partner.login, password: 'not the password' }, h.context(), h.deps), refusedWith('unauthorized', 'wrong_password'));
    });

    it('when the partner is blocked, then 403, but only once the password is proven', async () => {
      const partner = await h.addPartner();
      await h.partners.admin.update(partner.login, { status: 'blocked' });
      await assert.rejects(loginPartner({ login: partner.login, password: 'not the password' }, h.context(), h.deps), refusedWith('unauthorized', 'wrong_password'));
      await assert.rejects(loginPartner(partner, h.context(), h.deps), refusedWith('blocked'));
    });

    it('when the address is outside the allowlist, then 403 once the password is proven', async () => {
      const partner = await h.addPartner({ ipAllowlist: ['203.0.113.0/24'] });
      await assert.rejects(loginPartner(partner, h.context(), h.deps), refusedWith('ip_not_allowed'));
      const session = await loginPartner(partner, h.context({ clientAddress: '203.0.113.9' }), h.deps);
      assert.equal(session.partnerLogin, partner.login);
    });

    it('when a key-only partner sends its right password, then 401 password_not_allowed', async () => {
      const partner = await h.addPartner();
      await h.partners.keyAdmin.set(partner.login, { keys: [(await testKey('ES256', 'k1')).publicJwk as Record<string, unknown>] });
      await h.partners.admin.update(partner.login, { authMethods: ['private_key_jwt'] });
      await assert.rejects(loginPartner(partner, h.context(), h.deps), refusedWith('unauthorized', 'password_not_allowed'));
    });

    it('when a DPoP proof for the login URL comes with it, then the token and the family are bound to its key, and the proof is spent', async () => {
      const partner = await h.addPartner();
      const key = await testKey();
      const proof = await dpopProof(key, 'POST', loginUrl());
      const session = await loginPartner(partner, h.context({ dpop: proof }), h.deps);
      assert.equal(session.tokenType, 'DPoP');
      const claims = await h.deps.tokens.verify(session.accessToken);
      const jkt = await calculateJwkThumbprint(key.publicJwk);
      assert.equal(claims.jkt, jkt);
      assert.equal((await h.deps.families.find(claims.familyId))?.jkt, jkt, 'its refreshes need the same key');
      await assert.rejects(loginPartner(partner, h.context({ dpop: proof }), h.deps), refusedWith('unauthorized', 'dpop_proof_replayed'));
    });

    it('when the DPoP proof names another URL, then the seed\'s 401 with the proof\'s reason, before the login is looked up', async () => {
      const proof = await dpopProof(await testKey(), 'POST', `${h.baseUrl}/elsewhere`);
      await assert.rejects(loginPartner({ login: 'no-such-partner', password: 'whatever' }, h.context({ dpop: proof }), h.deps), refusedWith('unauthorized', 'dpop_htu_mismatch'));
    });

    it('when a refused login came with a proof, then the proof is not spent: the partner may still use it', async () => {
      const partner = await h.addPartner();
      const proof = await dpopProof(await testKey(), 'POST', loginUrl());
      await assert.rejects(loginPartner({ login: partner.login, password: 'not the password' }, h.context({ dpop: proof }), h.deps), refusedWith('unauthorized', 'wrong_password'));
      assert.equal((await loginPartner(partner, h.context({ dpop: proof }), h.deps)).tokenType, 'DPoP');
    });

    it('when the partner must use bound tokens and sends no proof, then 401 dpop_required; with one, a bound session', async () => {
      const partner = await h.addPartner();
      await h.partners.admin.update(partner.login, { requireSenderConstrainedTokens: true });
      await assert.rejects(loginPartner(partner, h.context(), h.deps), refusedWith('unauthorized', 'dpop_required'));
      const session = await loginPartner(partner, h.context({ dpop: await dpopProof(await testKey(), 'POST', loginUrl()) }), h.deps);
      assert.equal(session.tokenType, 'DPoP');
    });
  });
}

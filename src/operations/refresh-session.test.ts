import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { refusedWith, startAuthHarness, type AuthHarness } from '../../test/support/auth-harness.js';
import { dpopProof, testKey, type TestKey } from '../../test/support/oauth-client.js';
import { testBackends } from '../../test/support/test-databases.js';
import { loginPartner } from './login-partner.js';
import { refreshSession } from './refresh-session.js';

for (const backend of testBackends()) {
  describe(`refreshSession on ${backend.name}`, () => {
    let h: AuthHarness;
    before(async () => {
      h = await startAuthHarness(backend);
    });
    after(() => h.close());

    const loginUrl = () => h.baseUrl + h.deps.paths.login;
    const refreshUrl = () => h.baseUrl + h.deps.paths.refresh;
    /** A partner and its first session (bound to `key` when given). */
    const session = async (key?: TestKey) => {
      const partner = await h.addPartner();
      const context = h.context(key ? { dpop: await dpopProof(key, 'POST', loginUrl()) } : {});
      return { partner, session: await loginPartner(partner, context, h.deps) };
    };
    const familyOf = async (accessToken: string) => (await h.deps.tokens.verify(accessToken)).familyId;

    it('when the refresh token is live, then a new access token of the same family and a new refresh token, and the audit learns the partner', async () => {
      const { partner, session: first } = await session();
      const context = h.context();
      const next = await refreshSession({ refresh_token: first.refreshToken }, context, h.deps);
      assert.notEqual(next.refreshToken, first.refreshToken);
      assert.equal(await familyOf(next.accessToken), await familyOf(first.accessToken));
      assert.deepEqual([next.tokenType, next.partnerLogin, context.audit.partner], ['bearer', partner.login, partner.login]);
    });

    it('when the refresh token is missing, then 422; when it is not one, then 401 invalid_refresh_token', async () => {
      await assert.rejects(refreshSession({}, h.context(), h.deps), refusedWith('parameter_missing'));
      await assert.rejects(refreshSession({ refresh_token: 'not a refresh token' }, h.context(), h.deps), refusedWith('unauthorized', 'invalid_refresh_token'));
    });

    it('when a spent refresh token comes again, then 401 refresh_token_reused and its whole family is revoked', async () => {
      const { session: first } = await session();
      const next = await refreshSession({ refresh_token: first.refreshToken }, h.context(), h.deps);
      await assert.rejects(refreshSession({ refresh_token: first.refreshToken }, h.context(), h.deps), refusedWith('unauthorized', 'refresh_token_reused'));
      await assert.rejects(refreshSession({ refresh_token: next.refreshToken }, h.context(), h.deps), refusedWith('unauthorized', 'invalid_refresh_token'));
    });

    it('when the partner was given a new password since the login, then 401 token_revoked', async () => {
      const { partner, session: first } = await session();
      await h.partners.admin.update(partner.login, { password: 'a brand new password for it' });
      await assert.rejects(refreshSession({ refresh_token: first.refreshToken }, h.context(), h.deps), refusedWith('unauthorized', 'token_revoked'));
    });

    it('when the refresh token has expired, then 401 invalid_refresh_token', async () => {
      const { session: first } = await session();
      h.advance(first.refreshExpiresIn * 1000 + 1_000);
      try {
        await assert.rejects(refreshSession({ refresh_token: first.refreshToken }, h.context(), h.deps), refusedWith('unauthorized', 'invalid_refresh_token'));
      } finally {
        h.advance(-(first.refreshExpiresIn * 1000 + 1_000));
      }
    });

    it('when the caller\'s address has left the allowlist, then 403, and the audit still learns the partner', async () => {
      const { partner, session: first } = await session();
      const context = h.context({ clientAddress: '198.51.100.7' });
      await assert.rejects(refreshSession({ refresh_token: first.refreshToken }, context, h.deps), refusedWith('ip_not_allowed'));
      assert.equal(context.audit.partner, partner.login);
    });

    it('when a DPoP-bound family is refreshed with its key\'s proof, then the session stays bound', async () => {
      const key = await testKey();
      const { session: first } = await session(key);
      const next = await refreshSession({ refresh_token: first.refreshToken }, h.context({ dpop: await dpopProof(key, 'POST', refreshUrl()) }), h.deps);
      assert.equal(next.tokenType, 'DPoP');
      assert.equal((await h.deps.tokens.verify(next.accessToken)).jkt, (await h.deps.tokens.verify(first.accessToken)).jkt);
    });

    it('when a DPoP-bound family is refreshed without a proof, then 401 dpop_required, and the refresh token is spent all the same', async () => {
      const key = await testKey();
      const { session: first } = await session(key);
      await assert.rejects(refreshSession({ refresh_token: first.refreshToken }, h.context(), h.deps), refusedWith('unauthorized', 'dpop_required'));
      await assert.rejects(
        refreshSession({ refresh_token: first.refreshToken }, h.context({ dpop: await dpopProof(key, 'POST', refreshUrl()) }), h.deps),
        refusedWith('unauthorized', 'refresh_token_reused'),
      );
    });

    it('when a DPoP-bound family is refreshed with another key\'s proof, then 401 dpop_key_mismatch', async () => {
      const { session: first } = await session(await testKey());
      const other = await dpopProof(await testKey(), 'POST', refreshUrl());
      await assert.rejects(refreshSession({ refresh_token: first.refreshToken }, h.context({ dpop: other }), h.deps), refusedWith('unauthorized', 'dpop_key_mismatch'));
    });

    it('when the partner is made to use bound tokens after a bearer login, then that bearer family can no longer be refreshed', async () => {
      const { partner, session: first } = await session();
      await h.partners.admin.update(partner.login, { requireSenderConstrainedTokens: true });
      // The change moves the partner's token generation on: the bearer family is refused, with or without a proof.
      await assert.rejects(refreshSession({ refresh_token: first.refreshToken }, h.context(), h.deps), refusedWith('unauthorized', 'token_revoked'));
    });
  });
}

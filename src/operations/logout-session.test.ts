import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { refusedWith, startAuthHarness, type AuthHarness } from '../../test/support/auth-harness.js';
import { dpopProof, testKey } from '../../test/support/oauth-client.js';
import { testBackends } from '../../test/support/test-databases.js';
import { loginPartner } from './login-partner.js';
import { logoutSession } from './logout-session.js';
import { refreshSession } from './refresh-session.js';

for (const backend of testBackends()) {
  describe(`logoutSession on ${backend.name}`, () => {
    let h: AuthHarness;
    before(async () => {
      h = await startAuthHarness(backend);
    });
    after(() => h.close());

    const logoutUrl = () => h.baseUrl + h.deps.paths.logout;
    const familyOf = async (accessToken: string) => h.deps.families.find((await h.deps.tokens.verify(accessToken)).familyId);

    it('when a bearer token logs out, then its family is revoked: the token and the refresh tokens of its login stop working', async () => {
      const partner = await h.addPartner();
      const session = await loginPartner(partner, h.context(), h.deps);
      const context = h.context({ authorization: `Bearer ${session.accessToken}` });
      await logoutSession(context, h.deps);
      assert.equal(context.audit.partner, partner.login);
      assert.ok((await familyOf(session.accessToken))?.revokedAt instanceof Date);
      await assert.rejects(refreshSession({ refresh_token: session.refreshToken }, h.context(), h.deps), refusedWith('unauthorized', 'invalid_refresh_token'));
      await assert.rejects(logoutSession(h.context({ authorization: `Bearer ${session.accessToken}` }), h.deps), refusedWith('unauthorized'));
    });

    it('when a login logs out, then the partner\'s other logins go on', async () => {
      const partner = await h.addPartner();
      const [one, other] = [await loginPartner(partner, h.context(), h.deps), await loginPartner(partner, h.context(), h.deps)];
      await logoutSession(h.context({ authorization: `Bearer ${one.accessToken}` }), h.deps);
      assert.equal((await familyOf(other.accessToken))?.revokedAt, null);
    });

    it('when there is no Authorization header or it is not a token, then 401 malformed_authorization', async () => {
      await assert.rejects(logoutSession(h.context(), h.deps), refusedWith('unauthorized', 'malformed_authorization'));
      await assert.rejects(logoutSession(h.context({ authorization: 'Basic dXNlcjpwYXNz' }), h.deps), refusedWith('unauthorized', 'malformed_authorization'));
    });

    it('when the token is not one the gateway signed, then 401 and nothing is revoked', async () => {
      await assert.rejects(logoutSession(h.context({ authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.AAAA' }), h.deps), refusedWith('unauthorized'));
    });

    it('when a DPoP-bound token logs out, then it needs its key\'s proof for the logout URL, not the Bearer scheme', async () => {
      const partner = await h.addPartner();
      const key = await testKey();
      const session = await loginPartner(partner, h.context({ dpop: await dpopProof(key, 'POST', h.baseUrl + h.deps.paths.login) }), h.deps);
      await assert.rejects(logoutSession(h.context({ authorization: `Bearer ${session.accessToken}` }), h.deps), refusedWith('unauthorized', 'dpop_bound_token_as_bearer'));
      assert.equal((await familyOf(session.accessToken))?.revokedAt, null, 'a refused logout revokes nothing');
      const proof = await dpopProof(key, 'POST', logoutUrl(), { accessToken: session.accessToken });
      await logoutSession(h.context({ authorization: `DPoP ${session.accessToken}`, dpop: proof }), h.deps);
      assert.ok((await familyOf(session.accessToken))?.revokedAt instanceof Date);
    });
  });
}

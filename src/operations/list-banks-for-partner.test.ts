import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BanksQuery, JwksResponse } from '@partner-gateway/contract/public-api';
import { refusedWith, startAuthHarness, type AuthHarness } from '../../test/support/auth-harness.js';
import { encryptPassword } from '../../test/support/encrypt-password.js';
import { testBackends } from '../../test/support/test-databases.js';
import { listBanksForPartner } from './list-banks-for-partner.js';
import { loginPartner } from './login-partner.js';

for (const backend of testBackends()) {
  describe(`listBanksForPartner on ${backend.name}`, () => {
    let h: AuthHarness;
    before(async () => {
      h = await startAuthHarness(backend, { env: { REWARD_TYPES: 'sbp,cashback' } });
    });
    after(() => h.close());

    const bearer = async (partner: { login: string; password: string }) => `Bearer ${(await loginPartner(partner, h.context(), h.deps)).accessToken}`;
    const jwe = (password: string) => encryptPassword(password, h.keys.store.jwks() as JwksResponse);
    const byPassword = async (partner: { login: string; password: string }): Promise<BanksQuery> => ({ partnerName: partner.login, partnerPassword: await jwe(partner.password), useAuthByCert: 'Y' });

    it('when a partner with the sbp reward type calls with its token, then the serialized list, and the audit learns the partner', async () => {
      const partner = await h.addPartner();
      const context = h.context({ authorization: await bearer(partner) });
      const published = await listBanksForPartner({}, context, h.deps);
      const { banks } = JSON.parse(published.body) as { banks: Array<{ bic: string }> };
      assert.ok(banks.length > 0);
      assert.deepEqual(published, await h.banks.catalog.published(), 'the current version: its body, ETag and number');
      assert.equal(context.audit.partner, partner.login);
    });

    it('when the partner calls with its encrypted password, then the list; when the same JWE comes again, then 401 replayed_jti', async () => {
      const partner = await h.addPartner();
      const query = await byPassword(partner);
      assert.ok(JSON.parse((await listBanksForPartner(query, h.context(), h.deps)).body).banks.length > 0);
      await assert.rejects(listBanksForPartner(query, h.context(), h.deps), refusedWith('unauthorized', 'replayed_jti'));
    });

    it('when no credential comes, or the password is sent in clear, then 422 before any look-up', async () => {
      await assert.rejects(listBanksForPartner({}, h.context(), h.deps), refusedWith('parameter_missing'));
      await assert.rejects(listBanksForPartner({ partnerName: 'acme', partnerPassword: 'plain', useAuthByCert: 'N' }, h.context(), h.deps), refusedWith('not_encrypted'));
      await assert.rejects(listBanksForPartner({ partnerName: 'acme', partnerPassword: 'plain', useAuthByCert: 'Y' }, h.context(), h.deps), refusedWith('not_encrypted'));
    });

    it('when the encrypted password is wrong, then 401 wrong_password', async () => {
      const partner = await h.addPartner();
      await assert.rejects(listBanksForPartner(await byPassword({ login: partner.login, password: 'not the password' }), h.context(), h.deps), refusedWith('unauthorized', 'wrong_password'));
    });

    it('when the partner has no sbp reward type, then 403 last, and the audit still learns who asked', async () => {
      const partner = await h.addPartner({ rewardTypes: ['cashback'] });
      const context = h.context({ authorization: await bearer(partner) });
      await assert.rejects(listBanksForPartner({}, context, h.deps), refusedWith('reward_type_unavailable'));
      assert.equal(context.audit.partner, partner.login);
    });

    it('when the partner is blocked or calls from outside its allowlist, then 403, in that order, before the reward type', async () => {
      const partner = await h.addPartner({ rewardTypes: ['cashback'], ipAllowlist: ['127.0.0.1'] });
      const query = await byPassword(partner);
      await assert.rejects(listBanksForPartner(query, h.context({ clientAddress: '198.51.100.7' }), h.deps), refusedWith('ip_not_allowed'));
      await h.partners.admin.update(partner.login, { status: 'blocked' });
      await assert.rejects(listBanksForPartner(await byPassword(partner), h.context({ clientAddress: '198.51.100.7' }), h.deps), refusedWith('blocked'));
    });

    it('when the Authorization header is not a token, then 401 malformed_authorization', async () => {
      await assert.rejects(listBanksForPartner({}, h.context({ authorization: 'Basic abc' }), h.deps), refusedWith('unauthorized', 'malformed_authorization'));
    });
  });
}

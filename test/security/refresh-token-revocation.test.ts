/**
 * RFC 7009 revocation of refresh tokens (issue 26, finding 2), over HTTP on two gateway instances sharing one
 * database, each with a long cache (CACHE_TTL_MS one minute), so that only the change feed can tell the other
 * instance in time. A revoked refresh token ends its whole login, as a reused one does; another partner's
 * refresh token is answered 200 and left alone, as another partner's access token is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOGIN_PATH, OAUTH_REVOKE_PATH, REFRESH_PATH, banksPath } from '@partner-gateway/contract/paths';
import { freePort } from '../support/free-port.js';
import { form, FORM_HEADERS } from '../support/oauth-client.js';
import { startListeningGateway } from '../support/key-partner.js';
import { testBackends } from '../support/test-databases.js';
import { startSiblingGateway, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

const LONG_CACHE = { CACHE_TTL_MS: '60000' };

for (const backend of testBackends()) {
  describe(`refresh-token revocation on two instances (${backend.name})`, () => {
    let a: TestGateway & { url: string };
    let b: TestGateway & { url: string };
    before(async () => {
      a = await startListeningGateway(backend, { env: LONG_CACHE });
      // The same public address (the tokens' issuer) for both, as behind one load balancer.
      const sibling = await startSiblingGateway(a, { env: { ...LONG_CACHE, PUBLIC_URL: a.url } });
      const port = await freePort();
      await sibling.app.listen({ host: '127.0.0.1', port });
      b = Object.assign(sibling, { url: `http://127.0.0.1:${port}` });
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });

    type Partner = { login: string; password: string };
    type Session = { access_token: string; refresh_token: string };
    const json = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const logIn = async (on: { url: string }, partner: Partner): Promise<Session> => {
      const response = await json(on.url + LOGIN_PATH, partner);
      assert.equal(response.status, 200);
      return (await response.json()) as Session;
    };
    const refresh = (on: { url: string }, refreshToken: string) => json(on.url + REFRESH_PATH, { refresh_token: refreshToken });
    const banks = async (on: { url: string }, accessToken: string) =>
      (await fetch(on.url + banksPath('provider'), { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } })).status;
    /** RFC 7009 revocation by `partner`, authenticated with client_secret_post. */
    const revoke = (on: { url: string }, partner: Partner, token: string, hint?: string) =>
      fetch(on.url + OAUTH_REVOKE_PATH, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: form({ token, ...(hint !== undefined ? { token_type_hint: hint } : {}), client_id: partner.login, client_secret: partner.password }),
      });
    const revokeEntries = async (login: string) => {
      await Promise.all([a.gateway.admin.audit.flush(), b.gateway.admin.audit.flush()]);
      return (await a.gateway.admin.audit.query({ partner: login, action: 'revoke' } as never)).map((entry) => entry.details);
    };

    it('when a partner revokes its refresh token on one instance, then that token, and the access token of its login, are refused on every instance', async () => {
      const partner = await a.addPartner();
      const session = await logIn(a, partner);
      assert.equal(await banks(b, session.access_token), 200, 'B has seen the login, and caches its family for a minute');
      const revoked = await revoke(a, partner, session.refresh_token, 'refresh_token');
      assert.equal(revoked.status, 200);
      assert.equal(await revoked.text(), '');
      assert.equal((await refresh(b, session.refresh_token)).status, 401, 'the refresh token is dead on B');
      assert.equal(await banks(a, session.access_token), 401, 'the login is over on A at once');
      await waitFor(async () => (await banks(b, session.access_token)) === 401, { message: 'B to refuse the access token of the revoked login (change feed)' });
      assert.equal((await refresh(a, session.refresh_token)).status, 401);
      assert.deepEqual(await revokeEntries(partner.login), [{ method: 'client_secret_post', revoked: true, tokenType: 'refresh_token' }]);
    });

    it('when the hint is wrong, unknown or absent, then the refresh token is still found and its login revoked; an access token hinted as a refresh token too', async () => {
      const partner = await a.addPartner();
      for (const hint of ['access_token', 'id_token', undefined]) {
        const session = await logIn(a, partner);
        assert.equal((await revoke(b, partner, session.refresh_token, hint)).status, 200);
        assert.equal((await refresh(a, session.refresh_token)).status, 401, `hint ${hint}`);
        assert.equal(await banks(b, session.access_token), 401, `hint ${hint}`);
      }
      const session = await logIn(a, partner);
      assert.equal((await revoke(b, partner, session.access_token, 'refresh_token')).status, 200);
      assert.equal((await refresh(a, session.refresh_token)).status, 401, 'the access token ended its login, refresh tokens included');
    });

    it("when a partner revokes another partner's refresh token, then the answer is the same 200 and the token and its login keep working", async () => {
      const owner = await a.addPartner();
      const stranger = await a.addPartner();
      const session = await logIn(a, owner);
      const answer = await revoke(b, stranger, session.refresh_token, 'refresh_token');
      assert.equal(answer.status, 200);
      assert.equal(await answer.text(), '');
      assert.equal(await banks(a, session.access_token), 200);
      const refreshed = await refresh(b, session.refresh_token);
      assert.equal(refreshed.status, 200, 'the owner still refreshes');
      assert.deepEqual(await revokeEntries(stranger.login), [{ method: 'client_secret_post', revoked: false }]);
    });

    it('when a spent refresh token of a live login is revoked, then the login ends, as a reuse would end it; an unknown one changes nothing', async () => {
      const partner = await a.addPartner();
      const session = await logIn(a, partner);
      const rotated = (await (await refresh(a, session.refresh_token)).json()) as Session;
      assert.equal((await revoke(b, partner, 'A'.repeat(43), 'refresh_token')).status, 200);
      assert.equal(await banks(b, rotated.access_token), 200, 'an unknown refresh token revoked nothing');
      assert.equal((await revoke(b, partner, session.refresh_token)).status, 200);
      assert.equal((await refresh(a, rotated.refresh_token)).status, 401);
      await waitFor(async () => (await banks(a, rotated.access_token)) === 401, { message: 'A to refuse the access token of the revoked login' });
    });
  });
}

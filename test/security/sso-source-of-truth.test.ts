/**
 * Single sign-on as the source of truth for the operators it created (issue 33, finding 4), over HTTP on each
 * backend, with node-oidc-provider as the identity provider on loopback and two gateway instances on one database:
 * a subject the provider moves to an unmapped group is disabled at its next sign-in, its tokens and console
 * sessions refused on both instances, the disable audited as single sign-on's; a re-mapped subject is enabled
 * again by its next sign-in (its old tokens stay revoked); one a security operator disabled is not; and an SSO
 * operator's token stops working OIDC_TOKEN_SIGN_IN_MAX_AGE (7 days) after its last sign-in through SSO (an
 * injected clock), until it signs in again. (In the browser: test/console-e2e/console-sso.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errors } from '../../src/errors.js';
import { BOOTSTRAP_ISSUER } from '../../src/operators/operator-admin.js';
import { freePort } from '../support/free-port.js';
import { signInOverHttp, startOidcTestProvider, type OidcTestProvider } from '../support/oidc-test-provider.js';
import { testBackends } from '../support/test-databases.js';
import { startSiblingGateway, startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

const DAY = 86_400_000;

for (const backend of testBackends()) {
  describe(`single sign-on as the source of truth on ${backend.name}`, () => {
    let clock = Date.now();
    let idp: OidcTestProvider;
    let a: TestGateway;
    let b: TestGateway;
    before(async () => {
      idp = await startOidcTestProvider(`http://127.0.0.1:${await freePort()}`, {
        sam: { name: 'sam', groups: ['staff', 'gateway-security'] },
        stan: { name: 'stan', groups: ['gateway-operators'] },
        dora: { name: 'dora', groups: ['gateway-viewers'] },
      });
      a = await startTestGateway(backend, { now: () => clock, env: idp.env });
      b = await startSiblingGateway(a, { now: () => clock, env: idp.env });
    });
    after(async () => {
      await b?.close();
      await a?.close();
      await idp?.close();
    });

    const bootstrap = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const me = (t: TestGateway, headers: Record<string, string>) => t.admin.inject({ method: 'GET', url: '/admin/v1/me', headers });
    const operatorNamed = async (name: string) => (await a.admin.inject({ method: 'GET', url: '/admin/v1/operators', headers: bootstrap })).json().operators.find((operator: { name: string }) => operator.name === name);

    /** Signs `login` in and creates a personal token with the console session, as the console's own page does. */
    async function signedInWithToken(login: string) {
      const signIn = await signInOverHttp(a.admin, login);
      assert.equal(signIn.status, 303, signIn.body);
      const cookie = signIn.cookie!;
      const session = (await a.admin.inject({ method: 'GET', url: '/admin/v1/session', headers: { cookie } })).json();
      const created = await a.admin.inject({
        method: 'POST',
        url: `/admin/v1/operators/${session.identity.id}/tokens`,
        headers: { cookie, 'x-csrf-token': session.csrfToken },
        payload: { label: 'laptop', expiresInDays: 365 },
      });
      assert.equal(created.statusCode, 201, created.body);
      return { id: session.identity.id as string, cookie, token: created.json().token as string };
    }

    it('when the identity provider moves a signed-in operator to an unmapped group, then its next sign-in is refused and disables it, and its token and session are refused on both instances', async () => {
      const sam = await signedInWithToken('sam');
      const bearer = { authorization: `Bearer ${sam.token}` };
      for (const t of [a, b]) {
        assert.equal((await me(t, bearer)).json().role, 'security', 'the token acts with the security role');
        assert.equal((await me(t, { cookie: sam.cookie })).statusCode, 200, 'so does the session');
      }
      idp.accounts.sam!.groups = ['staff'];
      const refused = await signInOverHttp(a.admin, 'sam');
      assert.equal(refused.status, 403);
      assert.match(refused.body, /Your account has no role in the admin console/);
      assert.match(refused.body, /Your operator account in the gateway is disabled, its personal tokens revoked and its console sessions ended/);
      assert.equal(refused.cookie, undefined);
      // The sibling learns it through the change feed (its caches held both credentials as good; its clock stands still, so no TTL ends them).
      for (const t of [a, b]) {
        await waitFor(async () => (await me(t, bearer)).statusCode === 401, { message: () => `the token on ${t === a ? 'a' : 'b'}` });
        await waitFor(async () => (await me(t, { cookie: sam.cookie })).statusCode === 401, { message: () => `the session on ${t === a ? 'a' : 'b'}` });
      }
      assert.equal((await me(b, bearer)).json().description_status, errors.adminUnauthorized().description);
      const operator = await operatorNamed('sam');
      assert.deepEqual({ status: operator.status, source: operator.source }, { status: 'disabled', source: 'sso' });
      const tokens = (await a.admin.inject({ method: 'GET', url: `/admin/v1/operators/${sam.id}/tokens`, headers: bootstrap })).json().tokens;
      assert.ok(tokens.every((token: { revokedAt: string | null }) => token.revokedAt !== null), 'its tokens are revoked');
      await a.gateway.admin.audit.flush();
      const entries = (await a.admin.inject({ method: 'GET', url: '/admin/v1/audit?action=operator.update&limit=5', headers: bootstrap })).json().entries;
      const disable = entries.find((entry: { details: { id?: string } | null }) => entry.details?.id === sam.id);
      assert.ok(disable, JSON.stringify(entries));
      assert.deepEqual(disable.operator, { id: 'sso', name: 'single sign-on', credential: 'system' });
      assert.deepEqual(
        { subject: disable.details.subject, issuer: disable.details.issuer, why: disable.details.why, values: disable.details.claimValues, after: disable.details.after, revoked: disable.details.tokensRevoked },
        { subject: 'sam', issuer: idp.issuer, why: 'sso_unmapped', values: ['staff'], after: { status: 'disabled' }, revoked: 1 },
      );
      assert.ok(!JSON.stringify(entries).includes(sam.token) && !JSON.stringify(entries).includes(sam.cookie.split('=')[1]!), 'no secret in the trail');
    });

    it('when the identity provider maps that subject again, then its next sign-in enables it with a new session, and its old token stays revoked', async () => {
      idp.accounts.sam!.groups = ['gateway-operators'];
      const signIn = await signInOverHttp(a.admin, 'sam');
      assert.equal(signIn.status, 303, signIn.body);
      assert.deepEqual(await me(b, { cookie: signIn.cookie! }).then((response) => [response.statusCode, response.json().role]), [200, 'operator']);
      assert.equal((await operatorNamed('sam')).status, 'active');
      await a.gateway.admin.audit.flush();
      const entries = (await a.admin.inject({ method: 'GET', url: '/admin/v1/audit?action=operator.update&limit=5', headers: bootstrap })).json().entries;
      assert.ok(entries.some((entry: { operator: { id: string }; details: { why?: string; subject?: string } }) => entry.operator.id === 'sso' && entry.details.why === 'sso_mapped' && entry.details.subject === 'sam'));
    });

    it('when a security operator disabled an SSO operator, then a sign-in with a mapped group does not enable it', async () => {
      const stan = await signedInWithToken('stan');
      const disabled = await a.admin.inject({ method: 'PATCH', url: `/admin/v1/operators/${stan.id}`, headers: bootstrap, payload: { status: 'disabled' } });
      assert.equal(disabled.statusCode, 200, disabled.body);
      const refused = await signInOverHttp(a.admin, 'stan');
      assert.equal(refused.status, 403);
      assert.match(refused.body, /whose account in the gateway is disabled/);
      assert.equal((await operatorNamed('stan')).status, 'disabled');
    });

    it('when an SSO operator has not signed in through SSO for OIDC_TOKEN_SIGN_IN_MAX_AGE, then its token is refused on both instances with sso_sign_in_required until it signs in again; a local operator\'s is not', async () => {
      const dora = await signedInWithToken('dora');
      const bearer = { authorization: `Bearer ${dora.token}` };
      const local = await a.gateway.admin.operators.create({ name: 'local-lou', role: 'viewer' }, 'bootstrap');
      const { token: localToken } = await a.gateway.admin.operators.createToken(local.id, { label: 'ci' }, BOOTSTRAP_ISSUER);
      clock += 7 * DAY - 60_000;
      for (const t of [a, b]) assert.equal((await me(t, bearer)).statusCode, 200, 'within the 7 days');
      clock += 60_000;
      for (const t of [a, b]) {
        const stale = await me(t, bearer);
        assert.equal(stale.statusCode, 401);
        assert.match(String(stale.headers['content-type']), /^application\/json/);
        assert.equal(stale.json().description_status, errors.ssoSignInRequired().description);
        assert.match(stale.json().description_status, /sign in to the console through single sign-on again/);
      }
      assert.equal((await me(a, { authorization: `Bearer ${localToken}` })).statusCode, 200, 'a local operator has no identity provider to ask');
      // An audited change refused so is in the trail under the error's code.
      assert.equal((await a.admin.inject({ method: 'POST', url: '/admin/v1/banks', headers: bearer, payload: { bic: '049999951', name: 'Stale bank' } })).statusCode, 401);
      await a.gateway.admin.audit.flush();
      const refusal = (await a.admin.inject({ method: 'GET', url: '/admin/v1/audit?reason=sso_sign_in_required&limit=1', headers: bootstrap })).json().entries[0];
      assert.deepEqual([refusal?.action, refusal?.status], ['bank.add', 401]);
      const signIn = await signInOverHttp(a.admin, 'dora');
      assert.equal(signIn.status, 303, signIn.body);
      for (const t of [a, b]) await waitFor(async () => (await me(t, bearer)).statusCode === 200, { message: () => `the token works again on ${t === a ? 'a' : 'b'}` });
    });
  });
}

/**
 * private_key_jwt audiences and types (issue 26, finding 3), over HTTP: the FAPI 2.0 Security Profile and RFC
 * 7523bis, written after the 2025 audience-injection findings, accept only the issuer identifier, as a single
 * string, as an assertion's `aud`; CLIENT_ASSERTION_AUDIENCES=issuer,token_endpoint also takes the token
 * endpoint's URL (a single string too) for older clients. An assertion typed as another kind of JWT is refused.
 * Each refusal is `invalid_client` whose `error_description` names the fault.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OAUTH_REVOKE_PATH, OAUTH_TOKEN_PATH } from '@partner-gateway/contract/paths';
import { texts } from '../../src/errors.js';
import { addKeyPartner, startListeningGateway, type PartnerKey } from '../support/key-partner.js';
import { CLIENT_ASSERTION_TYPE, clientAssertion, form, FORM_HEADERS } from '../support/oauth-client.js';
import { testBackends } from '../support/test-databases.js';
import type { TestGateway } from '../support/test-gateway.js';

type Listening = TestGateway & { url: string };

/** Client credentials at `t` with an assertion by `partner` for `aud`, with `header` members added (e.g. typ). */
async function tokenWith(t: Listening, partner: { login: string; key: PartnerKey }, aud: string | string[], header: Record<string, unknown> = {}) {
  const assertion = await clientAssertion(partner.key, partner.login, aud, { header });
  const response = await fetch(t.url + OAUTH_TOKEN_PATH, {
    method: 'POST',
    headers: FORM_HEADERS,
    body: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const assertionRefusal = (description: string) => ({ error: 'invalid_client', error_description: description, description_status: texts.unauthorized });

for (const backend of testBackends()) {
  describe(`client assertion audiences and types on ${backend.name}`, () => {
    let t: Listening;
    let legacy: Listening;
    before(async () => {
      [t, legacy] = await Promise.all([
        startListeningGateway(backend),
        startListeningGateway(backend, { env: { CLIENT_ASSERTION_AUDIENCES: 'issuer,token_endpoint' } }),
      ]);
    });
    after(async () => {
      await Promise.all([t?.close(), legacy?.close()]);
    });

    /** The reasons of `login`'s token requests in the audit trail (null for an issued token). */
    const reasons = async (gateway: Listening, login: string) => {
      await gateway.gateway.admin.audit.flush();
      return (await gateway.gateway.admin.audit.query({ partner: login, action: 'token' } as never)).map((entry) => entry.reason ?? null);
    };

    it('when aud is the issuer identifier as a single string, then a token is issued, the assertion typed client-authentication+jwt, JWT or not at all', async () => {
      const partner = await addKeyPartner(t);
      for (const header of [{ typ: 'client-authentication+jwt' }, { typ: 'JWT' }, {}]) {
        const answer = await tokenWith(t, partner, t.url, header);
        assert.equal(answer.status, 200, `${JSON.stringify(header)}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.token_type, 'Bearer');
      }
    });

    it('when aud is the token endpoint URL, or an array holding the issuer, then invalid_client, and error_description says aud must be the issuer as a single string', async () => {
      const partner = await addKeyPartner(t);
      const expected = assertionRefusal(`the client assertion's aud must be the issuer identifier ${t.url} as a single string`);
      for (const aud of [t.url + OAUTH_TOKEN_PATH, ['https://elsewhere.example', t.url], [t.url]]) {
        const answer = await tokenWith(t, partner, aud);
        assert.equal(answer.status, 401, JSON.stringify(aud));
        assert.deepEqual(answer.body, expected, JSON.stringify(aud));
      }
      assert.deepEqual(await reasons(t, partner.login), Array(3).fill('client_assertion_audience'));
      const revoked = await fetch(t.url + OAUTH_REVOKE_PATH, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: form({ token: 'any', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(partner.key, partner.login, t.url + OAUTH_TOKEN_PATH) }),
      });
      assert.equal(revoked.status, 401, 'the other OAuth endpoints take the same audience only');
      assert.deepEqual(await revoked.json(), expected);
    });

    it('when the assertion is typed as another kind of JWT (dpop+jwt, at+jwt), then invalid_client, and error_description names the typ', async () => {
      const partner = await addKeyPartner(t);
      for (const typ of ['dpop+jwt', 'at+jwt']) {
        const answer = await tokenWith(t, partner, t.url, { typ });
        assert.equal(answer.status, 401, typ);
        assert.deepEqual(answer.body, assertionRefusal("the client assertion's typ must be client-authentication+jwt or JWT, or absent: it names another kind of JWT"));
      }
      assert.deepEqual(await reasons(t, partner.login), ['client_assertion_type', 'client_assertion_type']);
    });

    it('when CLIENT_ASSERTION_AUDIENCES=issuer,token_endpoint, then the token endpoint URL as a single string is accepted too, and an array still refused', async () => {
      const partner = await addKeyPartner(legacy);
      for (const aud of [legacy.url, legacy.url + OAUTH_TOKEN_PATH]) assert.equal((await tokenWith(legacy, partner, aud)).status, 200, aud);
      const answer = await tokenWith(legacy, partner, [legacy.url + OAUTH_TOKEN_PATH]);
      assert.equal(answer.status, 401);
      assert.deepEqual(
        answer.body,
        assertionRefusal(`the client assertion's aud must be the issuer identifier ${legacy.url} (or the token endpoint ${legacy.url}${OAUTH_TOKEN_PATH}) as a single string`),
      );
    });
  });
}

import assert from 'node:assert/strict';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, dpopProof, form, registerKeys, testKey, type TestKey } from './oauth-client.js';
import type { TestGateway } from './test-gateway.js';

/**
 * Calls the self-service API as a partner's automation does, over HTTP: tokens of scope `self` (bound to a DPoP key
 * or not), and calls presenting them. `now` is the gateway's clock, for the assertions and proofs it checks.
 *
 * @example
 * ```ts
 * const caller = selfServiceCaller(t.url, () => clock);
 * const token = await caller.boundToken(login, key, dpopKey);
 * await caller.call(token, 'POST', SELF_WEBHOOKS_PATH, { url }, dpopKey);
 * ```
 */
export function selfServiceCaller(url: string, now: () => number) {
  const tokenRequest = async (login: string, key: TestKey, fields: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { ...FORM_HEADERS, ...headers },
      body: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, login, url, { now: now() }), ...fields }),
    });
  return {
    tokenRequest,
    /** A bearer token of scope self. */
    async token(login: string, key: TestKey): Promise<string> {
      const response = await tokenRequest(login, key, { scope: 'self' });
      assert.equal(response.status, 200, await response.clone().text());
      const body = (await response.json()) as { access_token: string; scope?: string };
      assert.equal(body.scope, 'self');
      return body.access_token;
    },
    /** A token of scope self bound to `dpopKey` (RFC 9449): what a change needs. */
    async boundToken(login: string, key: TestKey, dpopKey: TestKey): Promise<string> {
      const response = await tokenRequest(login, key, { scope: 'self' }, { dpop: await dpopProof(dpopKey, 'POST', `${url}/api/v1/oauth/token`, { now: now() }) });
      assert.equal(response.status, 200, await response.clone().text());
      const body = (await response.json()) as { access_token: string; token_type: string };
      assert.equal(body.token_type, 'DPoP');
      return body.access_token;
    },
    /** `method path` with `token`: as DPoP with a fresh proof when `dpopKey` is given, as a bearer token otherwise. */
    async call(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, dpopKey?: TestKey): Promise<Response> {
      const authorization: Record<string, string> = dpopKey
        ? { authorization: `DPoP ${token}`, dpop: await dpopProof(dpopKey, method, `${url}${path.split('?')[0]}`, { accessToken: token, now: now() }) }
        : { authorization: `Bearer ${token}` };
      const headers: Record<string, string> = body === undefined ? authorization : { ...authorization, 'content-type': 'application/json' };
      return fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    },
  };
}

/**
 * A partner on a registered key (and its password, when `authMethods` lets it use one), with a DPoP key and a
 * token of scope self bound to it: what a self-service change needs.
 */
export async function selfServicePartner(t: TestGateway, caller: ReturnType<typeof selfServiceCaller>, authMethods?: Array<'password' | 'private_key_jwt'>) {
  const partner = await t.addPartner();
  const key = await testKey();
  await registerKeys(t.gateway, partner.login, [key], authMethods ? { authMethods } : {});
  const dpopKey = await testKey();
  return { ...partner, key, dpopKey, token: await caller.boundToken(partner.login, key, dpopKey) };
}

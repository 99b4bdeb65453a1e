/**
 * Interop with openid-client (panva's certified relying-party library, v6), which nobody here wrote: the
 * metadata document found by discovery, client credentials with private_key_jwt (its assertion's `aud` is
 * the issuer, not the token endpoint), with and without DPoP (its own proofs and nonce handling),
 * introspection, revocation, and the banks call with the token it got; and DPoP nonces (DPOP_NONCE=required), which
 * the library answers by itself. Over HTTP against a listening gateway whose PUBLIC_URL is the address the library uses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import * as oidc from 'openid-client';
import { banksPath, OAUTH_INTROSPECT_PATH, OAUTH_REVOKE_PATH, OAUTH_TOKEN_PATH } from '@partner-gateway/contract/paths';
import { addKeyPartner, partnerKey, startListeningGateway, type KeyAlgorithm } from '../support/key-partner.js';
import { testBackends } from '../support/test-databases.js';
import type { TestGateway } from '../support/test-gateway.js';

describe('openid-client against a listening gateway', () => {
  let t: TestGateway & { url: string };
  let banksUrl: URL;
  let expected: number;
  before(async () => {
    t = await startListeningGateway(testBackends()[0]!);
    banksUrl = new URL(banksPath('provider'), t.url);
    expected = (await t.gateway.admin.banks.list()).length;
  });
  after(() => t.close());

  /** Discovery for a new key partner, as the library's user writes it: plain http needs allowInsecureRequests. */
  async function discover(options: { alg?: KeyAlgorithm; requireBound?: boolean } = {}) {
    const partner = await addKeyPartner(t, { key: await partnerKey(options.alg), requireBound: options.requireBound ?? false });
    const config = await oidc.discovery(new URL(t.url), partner.login, undefined, oidc.PrivateKeyJwt({ key: partner.key.privateKey, kid: partner.key.kid }), {
      execute: [oidc.allowInsecureRequests],
      algorithm: 'oauth2',
    });
    return { partner, config };
  }
  const banksCount = async (response: Response) => {
    assert.equal(response.status, 200);
    return ((await response.json()) as { banks: unknown[] }).banks.length;
  };

  it('discovers /.well-known/oauth-authorization-server: issuer = PUBLIC_URL, the three endpoints, client_credentials, private_key_jwt and the DPoP algorithms', async () => {
    const { config } = await discover();
    const metadata = config.serverMetadata();
    assert.equal(metadata.issuer, t.url);
    assert.equal(metadata.token_endpoint, `${t.url}${OAUTH_TOKEN_PATH}`);
    assert.equal(metadata.introspection_endpoint, `${t.url}${OAUTH_INTROSPECT_PATH}`);
    assert.equal(metadata.revocation_endpoint, `${t.url}${OAUTH_REVOKE_PATH}`);
    assert.deepEqual(metadata.grant_types_supported, ['client_credentials']);
    assert.ok(metadata.token_endpoint_auth_methods_supported?.includes('private_key_jwt'));
    for (const alg of ['ES256', 'EdDSA', 'PS256']) {
      assert.ok(metadata.token_endpoint_auth_signing_alg_values_supported?.includes(alg), alg);
      assert.ok(metadata.dpop_signing_alg_values_supported?.includes(alg), alg);
    }
  });

  it('client credentials with private_key_jwt (ES256, PS256) gives a bearer token whose iss is the issuer, and the banks call works with it', async () => {
    for (const alg of ['ES256', 'PS256'] as const) {
      const { partner, config } = await discover({ alg });
      const tokens = await oidc.clientCredentialsGrant(config);
      assert.equal(tokens.token_type, 'bearer', alg);
      assert.ok(tokens.expires_in! > 0);
      const claims = decodeJwt(tokens.access_token);
      assert.deepEqual([claims.iss, claims.client_id, claims.cnf], [t.url, partner.login, undefined]);
      assert.equal(await banksCount(await oidc.fetchProtectedResource(config, tokens.access_token, banksUrl, 'POST')), expected, alg);
    }
  });

  // openid-client 6.8 (oauth4webapi 3) names an Ed25519 key's signatures `Ed25519`, RFC 9864's fully specified
  // algorithm, not the deprecated polymorphic `EdDSA`: the gateway accepts both names for an Ed25519 key.
  it('client credentials with an Ed25519 key (openid-client signs it as alg Ed25519, RFC 9864)', async () => {
    const { config } = await discover({ alg: 'EdDSA' });
    const tokens = await oidc.clientCredentialsGrant(config).catch((error: oidc.ResponseBodyError) => assert.fail(`${error.error}: ${error.error_description}`));
    assert.equal(await banksCount(await oidc.fetchProtectedResource(config, tokens.access_token, banksUrl, 'POST')), expected);
  });

  it('with a DPoP handle: a DPoP token bound to the library\'s key, the banks call with its proof, and the token refused without one', async () => {
    const { config } = await discover({ requireBound: true });
    const keyPair = await oidc.randomDPoPKeyPair('ES256');
    const DPoP = oidc.getDPoPHandle(config, keyPair);
    const tokens = await oidc.clientCredentialsGrant(config, undefined, { DPoP });
    assert.equal(tokens.token_type, 'dpop');
    const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
    assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt });
    for (let i = 0; i < 2; i++) {
      assert.equal(await banksCount(await oidc.fetchProtectedResource(config, tokens.access_token, banksUrl, 'POST', undefined, undefined, { DPoP })), expected);
    }
    // Sent as a bearer token (no proof): refused with a DPoP challenge the library reads.
    await assert.rejects(oidc.fetchProtectedResource(config, tokens.access_token, banksUrl, 'POST'), (error: oidc.WWWAuthenticateChallengeError) => {
      assert.equal(error.code, 'OAUTH_WWW_AUTHENTICATE_CHALLENGE');
      assert.equal(error.response.status, 401);
      assert.ok(error.cause.some((challenge) => challenge.scheme === 'dpop' && challenge.parameters.error === 'invalid_token'), JSON.stringify(error.cause));
      return true;
    });
    // A partner that requires bound tokens gets none without a proof.
    await assert.rejects(oidc.clientCredentialsGrant(config), (error: oidc.ResponseBodyError) => error.error === 'invalid_request' && error.status === 400);
  });

  it('introspection tells a partner about its own tokens (active, client_id, token_type, cnf) and nothing about another partner\'s', async () => {
    const { partner, config } = await discover();
    const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const bound = await oidc.clientCredentialsGrant(config, undefined, { DPoP });
    const seen = await oidc.tokenIntrospection(config, bound.access_token);
    const claims = decodeJwt(bound.access_token);
    assert.equal(seen.active, true);
    assert.deepEqual([seen.client_id, seen.sub, seen.token_type, seen.exp, seen.iat], [partner.login, partner.login, 'DPoP', claims.exp, claims.iat]);
    assert.deepEqual(seen.cnf, claims.cnf);
    const other = await discover();
    const theirs = await oidc.clientCredentialsGrant(other.config);
    assert.deepEqual(await oidc.tokenIntrospection(config, theirs.access_token), { active: false });
    assert.deepEqual(await oidc.tokenIntrospection(config, 'not-a-token'), { active: false });
  });

  it('revocation: 200, then introspection says inactive and the banks call is refused', async () => {
    const { config } = await discover();
    const tokens = await oidc.clientCredentialsGrant(config);
    assert.equal(await banksCount(await oidc.fetchProtectedResource(config, tokens.access_token, banksUrl, 'POST')), expected);
    await oidc.tokenRevocation(config, tokens.access_token);
    assert.deepEqual(await oidc.tokenIntrospection(config, tokens.access_token), { active: false });
    const after = await fetch(banksUrl, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(after.status, 401);
    // Revoking anything, an unknown string included, is 200 (RFC 7009 section 2.2).
    await oidc.tokenRevocation(config, 'not-a-token');
  });
});

for (const backend of testBackends()) {
  describe(`openid-client against a gateway that requires DPoP nonces (DPOP_NONCE=required), on ${backend.name}`, () => {
    const ROTATION = 5;
    let t: TestGateway & { url: string };
    /** The gateway's clock runs `offset` ms ahead: its nonces go stale without waiting. */
    let offset = 0;
    before(async () => {
      t = await startListeningGateway(backend, { now: () => Date.now() + offset, env: { DPOP_NONCE: 'required', DPOP_NONCE_ROTATION: String(ROTATION) } });
    });
    after(() => t.close());

    it('when the gateway asks for its nonce, then the library retries with it at the token endpoint and at banks, and its DPoP token works', async () => {
      const partner = await addKeyPartner(t);
      const config = await oidc.discovery(new URL(t.url), partner.login, undefined, oidc.PrivateKeyJwt({ key: partner.key.privateKey, kid: partner.key.kid }), {
        execute: [oidc.allowInsecureRequests],
        algorithm: 'oauth2',
      });
      const seen: Array<{ path: string; status: number; nonce: string | null }> = [];
      config[oidc.customFetch] = async (url, options) => {
        const response = await fetch(url, options as RequestInit);
        seen.push({ path: new URL(url).pathname, status: response.status, nonce: response.headers.get('dpop-nonce') });
        return response;
      };
      const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
      const tokens = await oidc.clientCredentialsGrant(config, undefined, { DPoP });
      assert.equal(tokens.token_type, 'dpop');
      assert.deepEqual(seen.filter((call) => call.path === OAUTH_TOKEN_PATH).map((call) => call.status), [400, 200]);

      const banksUrl = new URL(banksPath('provider'), t.url);
      const banks = () => oidc.fetchProtectedResource(config, tokens.access_token, banksUrl, 'POST', undefined, undefined, { DPoP });
      assert.equal((await banks()).status, 200);
      offset += 2 * ROTATION * 1000;
      assert.equal((await banks()).status, 200);
      assert.deepEqual(seen.filter((call) => call.path === banksUrl.pathname).map((call) => call.status), [200, 401, 200], 'the stale nonce refused once, then taken');
      assert.ok(seen.every((call) => /^[A-Za-z0-9_-]{32}$/.test(call.nonce ?? '')), 'every answer to a DPoP request carries the current nonce');
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { AppError } from '../../errors.js';
import { validatePartnerJwks, type PartnerKey } from '../../partners/partner-keys.js';
import { verifyClientAssertion, type ClientAssertionCheck } from './verify-client-assertion.js';

const ISSUER = 'https://gateway.example';
const TOKEN_URL = 'https://gateway.example/api/v1/oauth/token';
const NOW = 1_800_000_000_000;
const seconds = Math.floor(NOW / 1000);

async function partnerKey(alg: 'ES256' | 'EdDSA' | 'PS256', kid: string) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const [key] = await validatePartnerJwks([{ ...(await exportJWK(publicKey)), kid }]);
  return { key: key!, privateKey };
}

function checkWith(keys: Record<string, PartnerKey[]>, extra: Partial<ClientAssertionCheck> = {}): ClientAssertionCheck {
  return {
    keysOf: async (login) => keys[login] ?? [],
    audiences: { issuer: ISSUER },
    maxLifetimeSeconds: 300,
    clockToleranceSeconds: 5,
    now: () => NOW,
    ...extra,
  };
}

function assertion(privateKey: CryptoKey, alg: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = { kid: 'k1' }) {
  return new SignJWT({ jti: 'a-1', ...claims })
    .setProtectedHeader({ alg, ...header })
    .setIssuer((claims.iss as string) ?? 'acme')
    .setSubject((claims.sub as string) ?? 'acme')
    .setAudience((claims.aud as string | string[]) ?? ISSUER)
    .setIssuedAt(seconds)
    .setExpirationTime((claims.exp as number) ?? seconds + 60)
    .sign(privateKey);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 401);
    assert.equal(error.extra.oauthError, 'invalid_client');
    return error;
  }
  assert.fail('expected invalid_client');
}

async function reason(promise: Promise<unknown>): Promise<string | undefined> {
  return (await refusal(promise)).extra.reason;
}

describe('private_key_jwt client assertions', () => {
  it('when an assertion is signed by a registered key with each algorithm, its aud the issuer as a single string, then it is accepted', async () => {
    for (const alg of ['ES256', 'EdDSA', 'PS256'] as const) {
      const { key, privateKey } = await partnerKey(alg, 'k1');
      const check = checkWith({ acme: [key] });
      const verified = await verifyClientAssertion(await assertion(privateKey, alg), check);
      assert.equal(verified.login, 'acme');
      assert.equal(verified.jti, 'a-1');
      assert.equal(verified.rememberUntil.getTime(), (seconds + 60 + 5 + 1) * 1000);
    }
  });

  it('when aud is the token endpoint, an array (even of the issuer alone) or another audience, then it is refused and the description names the issuer', async () => {
    const { key, privateKey } = await partnerKey('ES256', 'k1');
    const check = checkWith({ acme: [key] });
    for (const aud of [TOKEN_URL, [ISSUER], ['https://elsewhere.example', ISSUER], [ISSUER, TOKEN_URL], 'https://other.example', `${ISSUER}/`]) {
      const error = await refusal(verifyClientAssertion(await assertion(privateKey, 'ES256', { aud }), check));
      assert.equal(error.extra.reason, 'client_assertion_audience', JSON.stringify(aud));
      assert.equal(error.extra.oauthDescription, `the client assertion's aud must be the issuer identifier ${ISSUER} as a single string`);
    }
  });

  it('when the token endpoint is accepted too (CLIENT_ASSERTION_AUDIENCES=issuer,token_endpoint), then it is, as a single string only', async () => {
    const { key, privateKey } = await partnerKey('ES256', 'k1');
    const check = checkWith({ acme: [key] }, { audiences: { issuer: ISSUER, tokenEndpoint: TOKEN_URL } });
    for (const aud of [ISSUER, TOKEN_URL]) assert.equal((await verifyClientAssertion(await assertion(privateKey, 'ES256', { aud }), check)).login, 'acme');
    const error = await refusal(verifyClientAssertion(await assertion(privateKey, 'ES256', { aud: [TOKEN_URL] }), check));
    assert.equal(error.extra.oauthDescription, `the client assertion's aud must be the issuer identifier ${ISSUER} (or the token endpoint ${TOKEN_URL}) as a single string`);
  });

  it('when typ is client-authentication+jwt, JWT or absent, then it is accepted; when it names another kind of JWT, then it is refused before any key is looked up', async () => {
    const { key, privateKey } = await partnerKey('ES256', 'k1');
    for (const typ of ['client-authentication+jwt', 'application/client-authentication+jwt', 'JWT', 'jwt', undefined]) {
      const header = { kid: 'k1', ...(typ === undefined ? {} : { typ }) };
      assert.equal((await verifyClientAssertion(await assertion(privateKey, 'ES256', {}, header), checkWith({ acme: [key] }))).login, 'acme', String(typ));
    }
    let lookedUp = false;
    const check = checkWith({ acme: [key] }, { keysOf: async () => ((lookedUp = true), [key]) });
    for (const typ of ['dpop+jwt', 'at+jwt', 'application/at+jwt', 'secevent+jwt', 'JOSE', 7]) {
      const error = await refusal(verifyClientAssertion(await assertion(privateKey, 'ES256', {}, { kid: 'k1', typ }), check));
      assert.equal(error.extra.reason, 'client_assertion_type', String(typ));
      assert.equal(error.extra.oauthDescription, "the client assertion's typ must be client-authentication+jwt or JWT, or absent: it names another kind of JWT");
    }
    assert.equal(lookedUp, false);
  });

  it('accepts an Ed25519 key\'s assertion under RFC 9864\'s name Ed25519 as well as EdDSA, and never on an EC key', async () => {
    const { key, privateKey } = await partnerKey('EdDSA', 'k1');
    assert.equal((await verifyClientAssertion(await assertion(privateKey, 'Ed25519'), checkWith({ acme: [key] }))).login, 'acme');
    const ec = await partnerKey('ES256', 'k1');
    assert.equal(await reason(verifyClientAssertion(await assertion(privateKey, 'Ed25519'), checkWith({ acme: [ec.key] }))), 'client_assertion_key_unknown');
  });

  it('refuses alg none and HMAC assertions before looking up any key', async () => {
    let lookedUp = false;
    const check = checkWith({}, { keysOf: async () => ((lookedUp = true), []) });
    const none = new UnsecuredJWT({ jti: 'x' }).setIssuer('acme').setSubject('acme').setAudience(ISSUER).setExpirationTime(seconds + 60).encode();
    assert.equal(await reason(verifyClientAssertion(none, check)), 'malformed_client_assertion');
    const hmac = await new SignJWT({ jti: 'x' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('acme').setSubject('acme').sign(new Uint8Array(32));
    assert.equal(await reason(verifyClientAssertion(hmac, check)), 'malformed_client_assertion');
    assert.equal(lookedUp, false);
  });

  it('refuses an assertion signed by a key the partner has not registered', async () => {
    const { key } = await partnerKey('ES256', 'k1');
    const stranger = await partnerKey('ES256', 'k1');
    const check = checkWith({ acme: [key] });
    assert.equal(await reason(verifyClientAssertion(await assertion(stranger.privateKey, 'ES256'), check)), 'client_assertion_invalid');
    assert.equal(await reason(verifyClientAssertion(await assertion(stranger.privateKey, 'ES256', {}, { kid: 'other' }), check)), 'client_assertion_key_unknown');
  });

  it('refuses an expired assertion and one living longer than five minutes', async () => {
    const { key, privateKey } = await partnerKey('ES256', 'k1');
    const check = checkWith({ acme: [key] });
    assert.equal(await reason(verifyClientAssertion(await assertion(privateKey, 'ES256', { exp: seconds - 10 }), check)), 'client_assertion_invalid');
    assert.equal(await reason(verifyClientAssertion(await assertion(privateKey, 'ES256', { exp: seconds + 3600 }), check)), 'client_assertion_lifetime');
  });

  it('refuses iss and sub that differ, a client_id naming someone else, and an unprintable jti', async () => {
    const { key, privateKey } = await partnerKey('ES256', 'k1');
    const check = checkWith({ acme: [key], other: [key] });
    assert.equal(await reason(verifyClientAssertion(await assertion(privateKey, 'ES256', { sub: 'other' }), check)), 'malformed_client_assertion');
    assert.equal(await reason(verifyClientAssertion(await assertion(privateKey, 'ES256'), { ...check, clientId: 'other' })), 'malformed_client_assertion');
    assert.equal(await reason(verifyClientAssertion(await assertion(privateKey, 'ES256', { jti: 'a\u0000b' }), check)), 'malformed_client_assertion');
  });
});

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
    audiences: [ISSUER, TOKEN_URL],
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
    .setAudience((claims.aud as string | string[]) ?? TOKEN_URL)
    .setIssuedAt(seconds)
    .setExpirationTime((claims.exp as number) ?? seconds + 60)
    .sign(privateKey);
}

async function reason(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 401);
    assert.equal(error.extra.oauthError, 'invalid_client');
    return error.extra.reason;
  }
  assert.fail('expected invalid_client');
}

describe('private_key_jwt client assertions', () => {
  it('accepts an assertion signed by a registered key with each algorithm, the issuer or the token URL as audience', async () => {
    for (const alg of ['ES256', 'EdDSA', 'PS256'] as const) {
      const { key, privateKey } = await partnerKey(alg, 'k1');
      const check = checkWith({ acme: [key] });
      const verified = await verifyClientAssertion(await assertion(privateKey, alg), check);
      assert.equal(verified.login, 'acme');
      assert.equal(verified.jti, 'a-1');
      assert.equal(verified.rememberUntil.getTime(), (seconds + 60 + 5 + 1) * 1000);
      await verifyClientAssertion(await assertion(privateKey, alg, { aud: [ISSUER] }), check);
    }
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
    const none = new UnsecuredJWT({ jti: 'x' }).setIssuer('acme').setSubject('acme').setAudience(TOKEN_URL).setExpirationTime(seconds + 60).encode();
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

  it('refuses a wrong audience, an expired assertion and one living longer than five minutes', async () => {
    const { key, privateKey } = await partnerKey('ES256', 'k1');
    const check = checkWith({ acme: [key] });
    assert.equal(await reason(verifyClientAssertion(await assertion(privateKey, 'ES256', { aud: 'https://other.example' }), check)), 'client_assertion_audience');
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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calculateJwkThumbprint } from 'jose';
import { AppError, texts } from '../../errors.js';
import { dpopProof, testKey } from '../../../test/support/oauth-client.js';
import type { SpendOutcome } from '../../stores/replay/single-use-jtis.js';
import type { AccessTokenClaims } from '../tokens/access-tokens.js';
import { checkTokenBinding } from './check-token-binding.js';

const URL = 'https://gw.example/partner/provider/sbp/banks/';
const TOKEN = 'header.payload.signature';
const claims = (jkt?: string): AccessTokenClaims => ({
  kid: 'k',
  partnerId: 'p',
  login: 'acme',
  jti: 'j',
  expiresAt: 0,
  familyId: 'f',
  generation: 0,
  issuedAt: 0,
  accessOnly: false,
  self: false,
  ...(jkt ? { jkt } : {}),
});
const settings = () => {
  const seen = new Set<string>();
  return { replay: { spend: async (jti: string) => (seen.has(jti) ? 'replayed' : (seen.add(jti), 'spent')) as SpendOutcome }, maxAgeSeconds: 120, maxFutureSeconds: 30, now: () => Date.now() };
};
const refusedWith = (reason: string, challenge: string) => (error: unknown) =>
  error instanceof AppError &&
  error.status === 401 &&
  error.description === texts.unauthorized &&
  error.extra.reason === reason &&
  (error.extra.headers?.['www-authenticate'] === `DPoP error="${challenge}"` || error.extra.headers?.['www-authenticate']?.startsWith(`DPoP error="${challenge}", error_description="`) === true);

describe('checkTokenBinding', () => {
  it('lets an unbound token through as Bearer without looking at any proof', async () => {
    await checkTokenBinding(claims(), TOKEN, { scheme: 'bearer' }, settings());
  });

  it('refuses a bound token sent as Bearer (dpop_bound_token_as_bearer, invalid_token)', async () => {
    await assert.rejects(checkTokenBinding(claims('jkt'), TOKEN, { scheme: 'bearer' }, settings()), refusedWith('dpop_bound_token_as_bearer', 'invalid_token'));
  });

  it('refuses an unbound token sent with the DPoP scheme', async () => {
    const key = await testKey();
    const proof = await dpopProof(key, 'POST', URL, { accessToken: TOKEN });
    await assert.rejects(checkTokenBinding(claims(), TOKEN, { scheme: 'dpop', proof, method: 'POST', url: URL }, settings()), refusedWith('invalid_token', 'invalid_token'));
  });

  it("accepts a bound token with a proof of its key, once, and refuses another key's proof as dpop_key_mismatch", async () => {
    const key = await testKey();
    const other = await testKey();
    const jkt = await calculateJwkThumbprint(key.publicJwk);
    const store = settings();
    const proof = await dpopProof(key, 'POST', URL, { accessToken: TOKEN });
    await checkTokenBinding(claims(jkt), TOKEN, { scheme: 'dpop', proof, method: 'POST', url: URL }, store);
    await assert.rejects(checkTokenBinding(claims(jkt), TOKEN, { scheme: 'dpop', proof, method: 'POST', url: URL }, store), refusedWith('dpop_proof_replayed', 'invalid_dpop_proof'));
    const foreign = await dpopProof(other, 'POST', URL, { accessToken: TOKEN });
    await assert.rejects(checkTokenBinding(claims(jkt), TOKEN, { scheme: 'dpop', proof: foreign, method: 'POST', url: URL }, store), refusedWith('dpop_key_mismatch', 'invalid_dpop_proof'));
  });

  it('refuses a bound token without a proof, or with one lacking ath', async () => {
    const key = await testKey();
    const jkt = await calculateJwkThumbprint(key.publicJwk);
    await assert.rejects(checkTokenBinding(claims(jkt), TOKEN, { scheme: 'dpop', proof: undefined, method: 'POST', url: URL }, settings()), refusedWith('dpop_required', 'invalid_dpop_proof'));
    const noAth = await dpopProof(key, 'POST', URL);
    await assert.rejects(checkTokenBinding(claims(jkt), TOKEN, { scheme: 'dpop', proof: noAth, method: 'POST', url: URL }, settings()), refusedWith('dpop_ath_mismatch', 'invalid_dpop_proof'));
  });
});

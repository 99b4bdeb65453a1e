import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { AppError } from '../../errors.js';
import { dpopProof, testKey } from '../../../test/support/oauth-client.js';
import type { SpendOutcome } from '../../stores/replay/single-use-jtis.js';
import { claimDpopProof, dpopReplayKey, readDpopHeader, verifyDpopProof, type DpopCheck } from './verify-dpop-proof.js';

const URL_BANKS = 'https://gateway.example/partner/provider/sbp/banks/';
const NOW = 1_800_000_000_000;
const seconds = Math.floor(NOW / 1000);
const window = { maxAgeSeconds: 120, maxFutureSeconds: 30, now: () => NOW };

async function holder(alg: 'ES256' | 'EdDSA' | 'PS256' = 'ES256') {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const proof = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
    new SignJWT({ htm: 'POST', htu: URL_BANKS, jti: crypto.randomUUID(), iat: seconds, ...claims })
      .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk, ...header })
      .sign(privateKey);
  return { jwk, privateJwk: await exportJWK(privateKey), proof };
}

async function reason(proof: string, check: Partial<DpopCheck> = {}): Promise<string | undefined> {
  try {
    await verifyDpopProof(proof, { method: 'POST', url: URL_BANKS, ...window, ...check });
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.extra.oauthError, 'invalid_dpop_proof');
    return error.extra.reason;
  }
  assert.fail('expected invalid_dpop_proof');
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

describe('DPoP proofs', () => {
  it('accepts a fresh proof for this method and URL and returns its key thumbprint', async () => {
    for (const alg of ['ES256', 'EdDSA', 'PS256'] as const) {
      const { jwk, proof } = await holder(alg);
      const verified = await verifyDpopProof(await proof({ jti: 'p-1' }), { method: 'POST', url: URL_BANKS, ...window });
      assert.equal(verified.jkt, await calculateJwkThumbprint(jwk as JWK));
      assert.equal(verified.jti, 'p-1');
      assert.equal(verified.rememberUntil.getTime(), (seconds + 121) * 1000);
    }
  });

  it('accepts an Ed25519 key\'s proof under RFC 9864\'s name Ed25519 too', async () => {
    const { jwk, proof } = await holder('EdDSA');
    const verified = await verifyDpopProof(await proof({}, { alg: 'Ed25519' }), { method: 'POST', url: URL_BANKS, ...window });
    assert.equal(verified.jkt, await calculateJwkThumbprint(jwk as JWK));
  });

  it('compares htu without query or fragment, with scheme and host in any case and the default port dropped', async () => {
    const { proof } = await holder();
    const signed = await proof({ htu: 'HTTPS://Gateway.Example:443/partner/provider/sbp/banks/?x=1#f' });
    await verifyDpopProof(signed, { method: 'POST', url: URL_BANKS, ...window });
    assert.equal(await reason(await proof({ htu: 'https://gateway.example/partner/provider/sbp/banks' })), 'dpop_htu_mismatch');
    assert.equal(await reason(await proof({ htu: 'https://evil.example/partner/provider/sbp/banks/' })), 'dpop_htu_mismatch');
  });

  it('refuses a proof for another method or with a stale or future iat', async () => {
    const { proof } = await holder();
    assert.equal(await reason(await proof({ htm: 'GET' })), 'dpop_htm_mismatch');
    assert.equal(await reason(await proof({ iat: seconds - 121 })), 'dpop_iat_out_of_window');
    assert.equal(await reason(await proof({ iat: seconds + 31 })), 'dpop_iat_out_of_window');
  });

  it('binds the proof to the access token through ath: missing or another token is refused', async () => {
    const { proof } = await holder();
    await verifyDpopProof(await proof({ ath: ath('token-a') }), { method: 'POST', url: URL_BANKS, accessToken: 'token-a', ...window });
    assert.equal(await reason(await proof(), { accessToken: 'token-a' }), 'dpop_ath_mismatch');
    assert.equal(await reason(await proof({ ath: ath('token-b') }), { accessToken: 'token-a' }), 'dpop_ath_mismatch');
  });

  it('when the header carries a private key, the wrong typ, or a key that did not sign it, then each is refused with its own reason', async () => {
    const { privateJwk, proof } = await holder();
    assert.equal(await reason(await proof({}, { jwk: privateJwk })), 'dpop_key_refused');
    // Its signature is valid: only its typ is wrong, and that is what it is refused for.
    assert.equal(await reason(await proof({}, { typ: 'JWT' })), 'dpop_typ_invalid');
    assert.equal(await reason(await proof({}, { typ: undefined })), 'dpop_typ_invalid');
    assert.equal(await reason(await proof({}, { jwk: undefined })), 'dpop_key_refused');
    const other = await holder();
    assert.equal(await reason(await proof({}, { jwk: other.jwk })), 'dpop_signature_invalid');
    const rsa = await holder('PS256');
    assert.equal(await reason(await proof({}, { jwk: rsa.jwk })), 'dpop_key_refused');
  });

  it('when the proof is an HMAC, garbage, or carries no or an unprintable jti, then each is refused with its own reason', async () => {
    const hmac = await new SignJWT({ htm: 'POST', htu: URL_BANKS, jti: 'x', iat: seconds })
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'AAAA' } as never })
      .sign(new Uint8Array(32));
    assert.equal(await reason(hmac), 'dpop_alg_refused');
    assert.equal(await reason('not.a.proof'), 'malformed_dpop_proof');
    assert.equal(await reason('x'.repeat(9000)), 'malformed_dpop_proof');
    const { proof } = await holder();
    assert.equal(await reason(await proof({ jti: '\u0007' })), 'dpop_jti_invalid');
    assert.equal(await reason(await proof({ jti: undefined })), 'dpop_jti_invalid');
    assert.equal(await reason(await proof({ htm: undefined })), 'dpop_htm_mismatch');
    assert.equal(await reason(await proof({ htu: undefined })), 'dpop_htu_mismatch');
    assert.equal(await reason(await proof({ iat: undefined })), 'dpop_iat_out_of_window');
    assert.equal(await reason(await proof({ exp: seconds - 1 })), 'dpop_iat_out_of_window');
  });

  it('when the proof is refused, then its error_description names the check it failed', async () => {
    const { proof } = await holder();
    const description = async (signed: string) => {
      try {
        await verifyDpopProof(signed, { method: 'POST', url: URL_BANKS, ...window });
      } catch (error) {
        return (error as AppError).extra.oauthDescription;
      }
      assert.fail('expected a refusal');
    };
    assert.equal(await description(await proof({}, { typ: 'JWT' })), "The DPoP proof's typ must be dpop+jwt");
    assert.match(String(await description(await proof({ htu: 'https://elsewhere.example/' }))), new RegExp(`htu must be ${URL_BANKS}`));
    assert.match(String(await description(await proof({ htm: 'GET' }))), /htm must be POST/);
    assert.match(String(await description(await proof({ iat: seconds - 500 }))), /iat must be an integer within 120 seconds before and 30 seconds after/);
  });

  it('when the listener has alias URLs, then htu may name one of them, and no other', async () => {
    const { proof } = await holder();
    const alias = 'https://mtls.gateway.example:8443/partner/provider/sbp/banks/';
    await verifyDpopProof(await proof({ htu: alias }), { method: 'POST', url: URL_BANKS, aliasUrls: [alias], ...window });
    assert.equal(await reason(await proof({ htu: alias })), 'dpop_htu_mismatch');
  });

  it('when nonces are required, then a proof without one, or with one not current, is use_dpop_nonce; a current one passes', async () => {
    const { proof } = await holder();
    const nonces = { accepts: (value: unknown) => value === 'good-nonce', current: () => 'good-nonce' };
    const refusal = async (signed: string) => {
      try {
        await verifyDpopProof(signed, { method: 'POST', url: URL_BANKS, nonces, ...window });
      } catch (error) {
        assert.ok(error instanceof AppError);
        return [error.code, error.extra.oauthError, error.extra.reason];
      }
      return undefined;
    };
    assert.deepEqual(await refusal(await proof()), ['use_dpop_nonce', 'use_dpop_nonce', 'dpop_nonce_missing']);
    assert.deepEqual(await refusal(await proof({ nonce: 'stale' })), ['use_dpop_nonce', 'use_dpop_nonce', 'dpop_nonce_invalid']);
    assert.equal(await refusal(await proof({ nonce: 'good-nonce' })), undefined);
  });
});

/** The replay store's contract (claim once), in memory. */
function memoryReplay() {
  const seen = new Set<string>();
  return { seen, spend: async (jti: string) => (seen.has(jti) ? 'replayed' : (seen.add(jti), 'spent')) as SpendOutcome };
}

const TOKEN_URL = 'https://gw.example/api/v1/oauth/token';

describe('claimDpopProof', () => {
  it('accepts a proof once, under a prefixed hash of its jti, and refuses its replay as dpop_proof_replayed', async () => {
    const replay = memoryReplay();
    const settings = { replay, maxAgeSeconds: 120, maxFutureSeconds: 30, now: () => Date.now() };
    const key = await testKey();
    const proof = await dpopProof(key, 'POST', TOKEN_URL, { claims: { jti: 'the-jti' } });
    const verified = await claimDpopProof(proof, { method: 'POST', url: TOKEN_URL }, settings);
    assert.ok(replay.seen.has(dpopReplayKey('the-jti')));
    assert.match(dpopReplayKey('the-jti'), /^dpop:[A-Za-z0-9_-]{43}$/);
    assert.equal(verified.jti, 'the-jti');
    await assert.rejects(claimDpopProof(proof, { method: 'POST', url: TOKEN_URL }, settings), (error: unknown) => error instanceof AppError && error.extra.reason === 'dpop_proof_replayed');
  });

  it('spends nothing for a proof that fails verification', async () => {
    const replay = memoryReplay();
    const key = await testKey();
    const proof = await dpopProof(key, 'GET', TOKEN_URL);
    await assert.rejects(claimDpopProof(proof, { method: 'POST', url: TOKEN_URL }, { replay, maxAgeSeconds: 120, maxFutureSeconds: 30, now: () => Date.now() }));
    assert.equal(replay.seen.size, 0);
  });
});

describe('readDpopHeader', () => {
  it('reads one proof and refuses two (RFC 9449 section 4.3)', () => {
    assert.equal(readDpopHeader(undefined), undefined);
    assert.equal(readDpopHeader(' a.b.c '), 'a.b.c');
    assert.throws(() => readDpopHeader('a.b.c, d.e.f'), (error: unknown) => error instanceof AppError && error.extra.oauthError === 'invalid_dpop_proof');
    assert.throws(() => readDpopHeader(['a.b.c', 'd.e.f']));
  });
});

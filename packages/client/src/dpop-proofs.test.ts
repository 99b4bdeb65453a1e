import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { DpopProofs } from './dpop-proofs.js';

describe('DpopProofs', () => {
  const nowMs = Date.UTC(2030, 0, 1, 12);

  it('signs a proof with the public key in its header: typ dpop+jwt, htm, htu without query or fragment, iat, a new jti each time, and no ath without a token', async () => {
    const proofs = new DpopProofs(undefined, () => nowMs);
    const url = new URL('https://api.example/partner/provider/sbp/banks/?partnerName=x#frag');
    const [first, second] = [await proofs.proof({ htm: 'POST', url }), await proofs.proof({ htm: 'POST', url })];
    const header = decodeProtectedHeader(first);
    assert.equal(header.typ, 'dpop+jwt');
    assert.equal(header.alg, 'ES256');
    assert.deepEqual(Object.keys(header.jwk!).sort(), ['crv', 'kty', 'x', 'y'], 'public members only');
    const { payload } = await jwtVerify(first, EmbeddedJWK, { typ: 'dpop+jwt', currentDate: new Date(nowMs) });
    assert.deepEqual({ htm: payload.htm, htu: payload.htu, iat: payload.iat, ath: payload.ath }, { htm: 'POST', htu: 'https://api.example/partner/provider/sbp/banks/', iat: nowMs / 1000, ath: undefined });
    assert.notEqual((await jwtVerify(second, EmbeddedJWK, { currentDate: new Date(nowMs) })).payload.jti, payload.jti);
    assert.equal(await proofs.thumbprint(), await calculateJwkThumbprint(header.jwk!));
    assert.deepEqual(decodeProtectedHeader(second).jwk, header.jwk, 'one key for the client\'s life');
  });

  it('puts ath = base64url(SHA-256(token)) in a proof that goes with a token', async () => {
    const proofs = new DpopProofs(undefined, () => nowMs);
    const proof = await proofs.proof({ htm: 'POST', url: new URL('https://api.example/x'), accessToken: 'eyJ.token.value' });
    const { payload } = await jwtVerify(proof, EmbeddedJWK, { currentDate: new Date(nowMs) });
    assert.equal(payload.ath, createHash('sha256').update('eyJ.token.value').digest('base64url'));
  });

  it('signs with a key pair it is given, EdDSA included', async () => {
    const pair = await generateKeyPair('EdDSA');
    const proofs = new DpopProofs(pair, () => nowMs);
    const header = decodeProtectedHeader(await proofs.proof({ htm: 'POST', url: new URL('https://api.example/x') }));
    assert.equal(header.alg, 'EdDSA');
    assert.equal(header.jwk!.x, (await exportJWK(pair.publicKey)).x);
  });

  it('uses the latest nonce of each origin, and reports only a nonce that changed', async () => {
    const proofs = new DpopProofs(undefined, () => nowMs);
    assert.equal(proofs.noteNonce('https://auth.example', null), false);
    assert.equal(proofs.noteNonce('https://auth.example', 'n-1'), true);
    assert.equal(proofs.noteNonce('https://auth.example', 'n-1'), false);
    const claims = async (url: string) => (await jwtVerify(await proofs.proof({ htm: 'POST', url: new URL(url) }), EmbeddedJWK, { currentDate: new Date(nowMs) })).payload;
    assert.equal((await claims('https://auth.example/token')).nonce, 'n-1');
    assert.equal((await claims('https://api.example/banks')).nonce, undefined);
  });
});

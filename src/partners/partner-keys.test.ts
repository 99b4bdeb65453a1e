import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { AppError } from '../errors.js';
import { validatePartnerJwks } from './partner-keys.js';

async function publicJwk(alg: 'ES256' | 'EdDSA' | 'PS256', options: { modulusLength?: number; crv?: string } = {}) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...options });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

async function refusal(input: unknown): Promise<string> {
  try {
    await validatePartnerJwks(input);
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 422);
    return error.description;
  }
  assert.fail('expected a 422');
}

describe('partner JWK Sets', () => {
  it('accepts P-256, Ed25519 and RSA-2048 public keys, each with the one algorithm it may sign with', async () => {
    const ec = (await publicJwk('ES256')).publicJwk;
    const ed = (await publicJwk('EdDSA', { crv: 'Ed25519' })).publicJwk;
    const rsa = (await publicJwk('PS256', { modulusLength: 2048 })).publicJwk;
    const keys = await validatePartnerJwks([{ ...ec, kid: 'ec' }, { ...ed, kid: 'ed' }, rsa]);
    assert.deepEqual(keys.map((key) => [key.alg, key.strength]), [['ES256', 'P-256'], ['EdDSA', 'Ed25519'], ['PS256', '2048']]);
    assert.equal(keys[2]!.kid, await calculateJwkThumbprint(rsa), 'a key without kid is known by its thumbprint');
    assert.equal(keys[0]!.thumbprint, await calculateJwkThumbprint(ec));
  });

  it('refuses a JWK carrying its private key, naming the key', async () => {
    const { privateJwk } = await publicJwk('ES256');
    const text = await refusal([{ ...privateJwk, kid: 'leaked' }]);
    assert.match(text, /keys\[0\] \(kid "leaked"\): contains private key material/);
    assert.doesNotMatch(text, new RegExp(privateJwk.d!), 'the private member is never echoed');
  });

  it('refuses an RSA key under 2048 bits and says how many bits it has', async () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    assert.match(await refusal([weak]), /at least 2048 bits \(this one has 1024\)/);
  });

  it('refuses two keys with one kid', async () => {
    const a = (await publicJwk('ES256')).publicJwk;
    const b = (await publicJwk('ES256')).publicJwk;
    assert.match(await refusal([{ ...a, kid: 'same' }, { ...b, kid: 'same' }]), /keys\[1\] \(kid "same"\): duplicate kid/);
  });

  it('refuses symmetric keys, other curves, RS256 and encryption keys', async () => {
    const ec = (await publicJwk('ES256')).publicJwk;
    const rsa = (await publicJwk('PS256', { modulusLength: 2048 })).publicJwk;
    assert.match(await refusal([{ kty: 'oct', k: 'c2VjcmV0' }]), /private key material/);
    assert.match(await refusal([{ ...ec, crv: 'P-384' }]), /curve P-256/);
    assert.match(await refusal([{ ...rsa, alg: 'RS256' }]), /alg must be PS256/);
    assert.match(await refusal([{ ...ec, use: 'enc' }]), /use must be "sig"/);
    assert.match(await refusal([]), /non-empty array/);
    assert.match(await refusal('not keys'), /non-empty array/);
  });

  it('keeps only the public members of an accepted key', async () => {
    const ec = (await publicJwk('ES256')).publicJwk;
    const [key] = await validatePartnerJwks([{ ...ec, kid: 'k', x5c: ['bm90IGEgY2VydA'], extra: 'x' }]);
    assert.deepEqual(Object.keys(key!.jwk).sort(), ['alg', 'crv', 'kty', 'x', 'y']);
  });
});

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { signingKey } from './signing-key.js';

describe('signingKey', () => {
  it('infers ES256, EdDSA and PS256 from a CryptoKey, a KeyObject, a private JWK and a PEM, and the key signs with it', async () => {
    for (const alg of ['ES256', 'EdDSA', 'PS256'] as const) {
      const pair = await generateKeyPair(alg, { extractable: true });
      const jwk = await exportJWK(pair.privateKey);
      const { privateKey: pemKey, publicKey: pemPublic } = alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : alg === 'EdDSA'
          ? generateKeyPairSync('ed25519')
          : generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = pemKey.export({ type: 'pkcs8', format: 'pem' }) as string;
      for (const [input, publicKey] of [[pair.privateKey, pair.publicKey], [jwk, pair.publicKey], [pem, pemPublic], [pemKey, pemPublic]] as const) {
        const key = signingKey(input);
        assert.equal(key.alg, alg);
        const jwt = await new SignJWT({}).setProtectedHeader({ alg: key.alg }).sign(key.key);
        await jwtVerify(jwt, publicKey, { algorithms: [alg] });
      }
    }
  });

  it('refuses a public key, a JWK without d, a P-384 key, an RSA key under 2048 bits and an RS256-only CryptoKey, naming the type and never the material', async () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const rsa1024 = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const rs256 = await generateKeyPair('RS256');
    const es256 = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = await exportJWK(es256.publicKey);
    const cases: Array<[unknown, RegExp]> = [
      [es256.publicKey, /not a private key/],
      [p384.publicKey, /not a private key/],
      [publicJwk, /not a private key \(it has no "d"\)/],
      [p384.privateKey, /Unsupported key \(ec secp384r1\)/],
      [rsa1024.privateKey, /Unsupported key \(rsa 1024 bits\)/],
      [await exportJWK(p384.privateKey), /Unsupported key \(EC P-384\)/],
      [rs256.privateKey, /Unsupported key \(RSASSA-PKCS1-v1_5 SHA-256\)/],
      ['-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----', /not a PEM private key/],
    ];
    for (const [input, message] of cases) {
      assert.throws(() => signingKey(input as never), (error: Error) => error instanceof TypeError && message.test(error.message));
    }
    const secret = (await exportJWK(p384.privateKey)).d!;
    assert.throws(() => signingKey(p384.privateKey), (error: Error) => !error.message.includes(secret));
  });
});

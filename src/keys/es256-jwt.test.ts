import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { base64url, CompactSign, exportJWK, importJWK, jwtVerify, SignJWT, type JWK, type JWTVerifyOptions } from 'jose';
import { es256PublicKey, signEs256Jwt, verifyEs256Jwt } from './es256-jwt.js';

const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const publicJwk = pair.publicKey.export({ format: 'jwk' }) as JWK;
const NOW = 1_800_000_000;
const claims = { iss: 'acme', sub: 'acme', aud: 'https://gw.example', jti: 'j-1', iat: NOW, exp: NOW + 60 };
const options: JWTVerifyOptions = { algorithms: ['ES256'], issuer: 'acme', subject: 'acme', requiredClaims: ['exp', 'jti'], currentDate: new Date(NOW * 1000), clockTolerance: 30 };

/** What jose's own jwtVerify says of `jwt`: the payload, or the error's code (and claim). */
async function joseSays(jwt: string, verifyOptions = options): Promise<unknown> {
  try {
    return (await jwtVerify(jwt, await importJWK(publicJwk, 'ES256'), verifyOptions)).payload;
  } catch (error) {
    return { code: (error as { code?: string }).code, claim: (error as { claim?: string }).claim };
  }
}

function fastSays(jwt: string, verifyOptions = options): unknown {
  try {
    return verifyEs256Jwt(jwt, es256PublicKey(publicJwk), verifyOptions).payload;
  } catch (error) {
    return { code: (error as { code?: string }).code, claim: (error as { claim?: string }).claim };
  }
}

const sign = (payload: Record<string, unknown>, header: Record<string, unknown> = { alg: 'ES256', typ: 'JWT' }) =>
  new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(pair.privateKey);

describe('ES256 JWTs with node:crypto', () => {
  it('when jose signed a JWT, then verifyEs256Jwt answers the payload and header jose answers', async () => {
    const jwt = await sign(claims);
    assert.deepEqual(fastSays(jwt), await joseSays(jwt));
    assert.deepEqual(verifyEs256Jwt(jwt, es256PublicKey(publicJwk), options).protectedHeader, { alg: 'ES256', typ: 'JWT' });
  });

  it('when signEs256Jwt signed a JWT, then jose verifies it with the same header and claims', async () => {
    const jwt = signEs256Jwt({ alg: 'ES256', typ: 'at+jwt', kid: 'k1' }, claims, pair.privateKey);
    const verified = await jwtVerify(jwt, await importJWK(publicJwk, 'ES256'), { ...options, typ: 'at+jwt' });
    assert.deepEqual(verified.payload, claims);
    assert.deepEqual(verified.protectedHeader, { alg: 'ES256', typ: 'at+jwt', kid: 'k1' });
    assert.equal(jwt.split('.')[2]!.length, 86);
  });

  it('when a JWT is altered, signed by another key, expired, early, or names another issuer, then both refuse it with the same code', async () => {
    const good = await sign(claims);
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const cases = [
      `${header}.${payload}.${flipped}`,
      `${header}.${payload}.${signature.slice(0, 40)}`,
      `${header}.${payload}.${signature}!`,
      `${header}.${base64url.encode(JSON.stringify({ ...claims, sub: 'evil' }))}.${signature}`,
      await new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).sign(other.privateKey),
      await sign({ ...claims, exp: NOW - 100 }),
      await sign({ ...claims, nbf: NOW + 100 }),
      await sign({ ...claims, iss: 'other' }),
      await sign({ ...claims, jti: undefined }),
      await sign({ ...claims, exp: 'tomorrow' }),
      `${header}.${base64url.encode('[1,2]')}.${signature}`,
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.x`,
    ];
    for (const jwt of cases) assert.deepEqual(fastSays(jwt), await joseSays(jwt), jwt);
  });

  it('when the header names another algorithm, a crit extension, or an unencoded payload, then both refuse it alike', async () => {
    const input = new TextEncoder().encode(JSON.stringify(claims));
    const cases = [
      // jose signs no unknown extension: signed here.
      signEs256Jwt({ alg: 'ES256', crit: ['exp'], exp: 1 } as never, claims, pair.privateKey),
      signEs256Jwt({ alg: 'ES256', crit: ['b64', 'b64'], b64: true } as never, claims, pair.privateKey),
      signEs256Jwt({ alg: 'ES256', crit: ['b64'] } as never, claims, pair.privateKey),
      await new CompactSign(input).setProtectedHeader({ alg: 'ES256', crit: ['b64'], b64: true }).sign(pair.privateKey),
      `${base64url.encode(JSON.stringify({ alg: 'ES256', crit: ['b64'], b64: false }))}.${base64url.encode(JSON.stringify(claims))}.${'A'.repeat(86)}`,
      `${base64url.encode(JSON.stringify({ alg: 'HS256' }))}.${base64url.encode(JSON.stringify(claims))}.${'A'.repeat(43)}`,
      `${base64url.encode('not json')}.${base64url.encode(JSON.stringify(claims))}.${'A'.repeat(86)}`,
    ];
    for (const jwt of cases) assert.deepEqual(fastSays(jwt), await joseSays(jwt), jwt);
  });

  it('when a typ is required, then it is compared as jose compares it', async () => {
    const typed = signEs256Jwt({ alg: 'ES256', typ: 'application/AT+JWT' }, claims, pair.privateKey);
    const untyped = signEs256Jwt({ alg: 'ES256' }, claims, pair.privateKey);
    for (const jwt of [typed, untyped]) assert.deepEqual(fastSays(jwt, { ...options, typ: 'at+jwt' }), await joseSays(jwt, { ...options, typ: 'at+jwt' }));
    assert.deepEqual(fastSays(typed, { ...options, typ: 'at+jwt' }), claims);
  });

  it('when the options do not allow ES256, or the key is not a P-256 key, then nothing is verified', async () => {
    const jwt = await sign(claims);
    assert.deepEqual(fastSays(jwt, { ...options, algorithms: ['EdDSA'] }), await joseSays(jwt, { ...options, algorithms: ['EdDSA'] }));
    const ed = await exportJWK(generateKeyPairSync('ed25519').publicKey);
    assert.throws(() => es256PublicKey(ed), /not a P-256 key/);
  });
});

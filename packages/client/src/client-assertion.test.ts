import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtectedHeader, generateKeyPair, jwtVerify } from 'jose';
import { clientAssertion } from './client-assertion.js';
import { signingKey } from './signing-key.js';

describe('clientAssertion', () => {
  it('signs iss = sub = the login, aud = the given audience as a single string, typ client-authentication+jwt, a 60 s life from the given clock, a kid and a new jti every time', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA');
    const key = signingKey(privateKey);
    const nowMs = Date.UTC(2030, 0, 1, 12);
    const audience = 'https://partners.example';
    const make = () => clientAssertion({ login: 'acme', audience, key, kid: 'acme-1', nowMs });
    const [first, second] = [await make(), await make()];
    assert.deepEqual(decodeProtectedHeader(first), { alg: 'EdDSA', kid: 'acme-1', typ: 'client-authentication+jwt' });
    const { payload } = await jwtVerify(first, publicKey, { issuer: 'acme', subject: 'acme', audience, currentDate: new Date(nowMs), algorithms: ['EdDSA'] });
    assert.equal(payload.aud, audience, 'a string, not an array');
    assert.deepEqual({ iat: payload.iat, exp: payload.exp }, { iat: nowMs / 1000, exp: nowMs / 1000 + 60 });
    assert.match(payload.jti!, /^[0-9a-f-]{36}$/);
    const again = await jwtVerify(second, publicKey, { currentDate: new Date(nowMs) });
    assert.notEqual(again.payload.jti, payload.jti);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, texts } from '../../errors.js';
import { readBanksCredentials } from './read-banks-credentials.js';

const JWE = 'eyJhbGciOiJSU0EtT0FFUC0yNTYifQ.a.b.c.d';

function refused(query: Record<string, string>, authorization?: string): AppError {
  try {
    readBanksCredentials(query, { authorization });
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error;
  }
  assert.fail('expected a refusal');
}

describe('readBanksCredentials', () => {
  it('when there is no Authorization header, then it reads the query-parameter scheme', () => {
    assert.deepEqual(readBanksCredentials({ partnerName: 'acme', partnerPassword: JWE, useAuthByCert: 'Y' }, { authorization: undefined }), {
      scheme: 'password',
      partnerName: 'acme',
      jwe: JWE,
    });
  });

  it('when a bearer token comes, then the query parameters become optional', () => {
    assert.deepEqual(readBanksCredentials({}, { authorization: 'Bearer abc.def.ghi' }), { scheme: 'bearer', token: 'abc.def.ghi' });
    assert.deepEqual(readBanksCredentials({ partnerName: 'acme' }, { authorization: 'bearer abc' }), { scheme: 'bearer', token: 'abc', partnerName: 'acme' });
  });

  it('when a DPoP-bound token comes, then it is read as such (its proof is checked with the token)', () => {
    assert.deepEqual(readBanksCredentials({}, { authorization: 'DPoP abc.def.ghi' }), { scheme: 'dpop', token: 'abc.def.ghi' });
  });

  it('when the Authorization header is neither Bearer nor DPoP, then it is a 401 with WWW-Authenticate', () => {
    const error = refused({}, 'Basic abc');
    assert.equal(error.status, 401);
    assert.equal(error.extra.headers?.['www-authenticate'], 'Bearer error="invalid_token"');
  });

  it('when useAuthByCert is N, then the password is not encrypted; any other value but Y is invalid', () => {
    assert.equal(refused({ partnerName: 'a', partnerPassword: JWE, useAuthByCert: 'N' }).description, texts.notEncrypted);
    assert.match(refused({ partnerName: 'a', partnerPassword: JWE, useAuthByCert: 'y' }).description, /useAuthByCert has an invalid value/);
  });

  it('when the password is not a five-part compact JWE, then it is not encrypted', () => {
    for (const password of ['secret', 'a.b.c', 'a.b.c.d.e.f', '.a.b.c.d', 'a b.c.d.e.f']) {
      assert.equal(refused({ partnerName: 'a', partnerPassword: password, useAuthByCert: 'Y' }).description, texts.notEncrypted, password);
    }
  });
});

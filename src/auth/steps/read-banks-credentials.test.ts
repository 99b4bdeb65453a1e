import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, texts } from '../../errors.js';
import { readBanksCredentials } from './read-banks-credentials.js';

const JWE = 'eyJhbGciOiJSU0EtT0FFUC0yNTYifQ.a.b.c.d';

function refused(query: Record<string, string>, authorization?: string): AppError {
  try {
    readBanksCredentials(query, authorization);
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error;
  }
  assert.fail('expected a refusal');
}

describe('readBanksCredentials', () => {
  it('reads the query-parameter scheme', () => {
    assert.deepEqual(readBanksCredentials({ partnerName: 'acme', partnerPassword: JWE, useAuthByCert: 'Y' }, undefined), {
      scheme: 'password',
      partnerName: 'acme',
      jwe: JWE,
    });
  });

  it('reads a bearer token, the query parameters becoming optional', () => {
    assert.deepEqual(readBanksCredentials({}, 'Bearer abc.def.ghi'), { scheme: 'bearer', token: 'abc.def.ghi' });
    assert.deepEqual(readBanksCredentials({ partnerName: 'acme' }, 'bearer abc'), { scheme: 'bearer', token: 'abc', partnerName: 'acme' });
  });

  it('refuses an Authorization header that is not a bearer token with a 401 and WWW-Authenticate', () => {
    const error = refused({}, 'Basic abc');
    assert.equal(error.status, 401);
    assert.equal(error.extra.headers?.['www-authenticate'], 'Bearer error="invalid_token"');
  });

  it('treats useAuthByCert=N as an unencrypted password and other values as invalid', () => {
    assert.equal(refused({ partnerName: 'a', partnerPassword: JWE, useAuthByCert: 'N' }).description, texts.notEncrypted);
    assert.match(refused({ partnerName: 'a', partnerPassword: JWE, useAuthByCert: 'y' }).description, /useAuthByCert has an invalid value/);
  });

  it('refuses a password that is not a five-part compact JWE as not encrypted', () => {
    for (const password of ['secret', 'a.b.c', 'a.b.c.d.e.f', '.a.b.c.d', 'a b.c.d.e.f']) {
      assert.equal(refused({ partnerName: 'a', partnerPassword: password, useAuthByCert: 'Y' }).description, texts.notEncrypted, password);
    }
  });
});
